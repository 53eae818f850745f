"""A masked actor-critic policy told the rule-based agent's choice (``--hint``).

The game's rule-based agent reads only the learner's observation and legal-action mask
(``agents/rule_based/<game>.py``), so its choice is a feature of what the seat sees.
``HintedPolicy`` adds a learned weight times a one-hot of that choice to the network's
action logits: a fresh policy starts close to the rule-based agent, and training (cloning the search
agent, DAgger, PPO) learns where to play otherwise. The game (name, players, options)
is a constructor argument, so a saved checkpoint rebuilds its hint wherever it plays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from transit_gym.agents.registry import policy_kernel
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.core.rollout import AGENT_CODES

#: stream of the generator words handed to the rule-based kernel (the same for every row,
#: so a hint depends on the observation and mask only)
HINT_STREAM = 0x41B7


def rule_based_choices(game, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The rule-based agent's action for every row of ``obs`` / ``masks``."""
    policy, code = policy_kernel(game.name), AGENT_CODES["rule_based"]
    obs = np.ascontiguousarray(obs, dtype=np.float32).reshape(-1, game.obs_size)
    masks = np.ascontiguousarray(masks, dtype=np.int8).reshape(-1, game.num_actions)
    template = seeded_words(0, HINT_STREAM)
    out = np.empty(len(obs), dtype=np.int64)
    for i in range(len(obs)):
        out[i] = policy(code, game.observation_params, obs[i], masks[i], template.copy())
    return out


class HintedPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` whose action logits get ``hint_weight`` (learned,
    starting at ``hint_init``) on the rule-based agent's choice (see module)."""

    def __init__(self, observation_space, action_space, lr_schedule, *, game: str,
                 players: int, options: dict[str, Any] | None = None, hint_init: float = 4.0,
                 **kwargs):
        self.hint_game, self.hint_players = game, int(players)
        self.hint_options = dict(options or {})
        self.hint_init = float(hint_init)
        self._game = None
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build(self, lr_schedule) -> None:
        # before the optimizer is made, so PPO also trains the weight
        self.hint_weight = nn.Parameter(torch.tensor(self.hint_init))
        super()._build(lr_schedule)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(game=self.hint_game, players=self.hint_players,
                    options=self.hint_options, hint_init=self.hint_init)
        return data

    @property
    def game(self):
        """The game the hints are computed for (made on first use)."""
        if self._game is None:
            from transit_gym.envs.registry import game_class

            self._game = game_class(self.hint_game)(num_players=self.hint_players,
                                                    **self.hint_options)
        return self._game

    def use_game(self, game) -> None:
        """Compute the hints with ``game`` (same game and player count as trained, any
        rule options: a card set or track changes what the rule-based agent plays)."""
        if (game.name != self.hint_game or game.num_players != self.hint_players
                or game.obs_size != self.observation_space.shape[0]
                or game.num_actions != self.action_space.n):
            raise ConfigError(
                f"this policy was trained on {self.hint_game!r} with {self.hint_players} "
                f"players ({self.observation_space.shape[0]} observation slots, "
                f"{self.action_space.n} actions); it cannot play {game.name!r} with "
                f"{game.num_players} players ({game.obs_size}, {game.num_actions})")
        self._game = game

    def hints(self, obs, masks) -> torch.Tensor:
        """One-hot ``(n, A)`` of the rule-based choice for every row (a mask of None
        counts every action legal)."""
        obs_np = obs.detach().cpu().numpy() if isinstance(obs, torch.Tensor) else np.asarray(obs)
        n, actions = len(obs_np.reshape(-1, self.game.obs_size)), self.game.num_actions
        if masks is None:
            masks_np = np.ones((n, actions), dtype=np.int8)
        elif isinstance(masks, torch.Tensor):
            masks_np = masks.detach().cpu().numpy()
        else:
            masks_np = np.asarray(masks)
        choice = rule_based_choices(self.game, obs_np, masks_np.reshape(n, actions))
        onehot = torch.zeros((n, actions), dtype=torch.float32, device=self.device)
        onehot[torch.arange(n), torch.as_tensor(choice)] = 1.0
        return onehot

    def _logits(self, latent_pi: torch.Tensor, hints: torch.Tensor) -> torch.Tensor:
        return self.action_net(latent_pi) + self.hint_weight * hints

    def _dist(self, latent_pi, obs, action_masks, hints=None):
        if hints is None:
            hints = self.hints(obs, action_masks)
        distribution = self.action_dist.proba_distribution(
            action_logits=self._logits(latent_pi, hints))
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        return distribution

    def _latents(self, obs):
        features = self.extract_features(obs)
        if self.share_features_extractor:
            return self.mlp_extractor(features)
        pi_features, vf_features = features
        return (self.mlp_extractor.forward_actor(pi_features),
                self.mlp_extractor.forward_critic(vf_features))

    def forward(self, obs, deterministic: bool = False, action_masks=None):
        latent_pi, latent_vf = self._latents(obs)
        distribution = self._dist(latent_pi, obs, action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        log_prob = distribution.log_prob(actions)
        return (actions.reshape((-1, *self.action_space.shape)), self.value_net(latent_vf),
                log_prob)

    def evaluate_actions(self, obs, actions, action_masks=None, hints=None):
        """As the parent's; ``hints`` (one-hot rows) may be given precomputed."""
        latent_pi, latent_vf = self._latents(obs)
        distribution = self._dist(latent_pi, obs, action_masks, hints)
        return (self.value_net(latent_vf), distribution.log_prob(actions),
                distribution.entropy())

    def get_distribution(self, obs, action_masks=None):
        features = super().extract_features(obs, self.pi_features_extractor)
        latent_pi = self.mlp_extractor.forward_actor(features)
        return self._dist(latent_pi, obs, action_masks)

    def action_logits(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Hinted logits of a batch (numpy in and out, illegal actions not masked)."""
        with torch.no_grad():
            tensor = torch.as_tensor(np.asarray(obs, dtype=np.float32), device=self.device)
            features = self.extract_features(tensor, self.pi_features_extractor)
            latent = self.mlp_extractor.forward_actor(features)
            return self._logits(latent, self.hints(tensor, masks)).cpu().numpy()


def check_hint(hint: str | None) -> None:
    """ConfigError unless ``hint`` is None or ``rule_based``."""
    if hint not in (None, "rule_based"):
        raise ConfigError(f"unknown hint {hint!r}; the policy can be hinted with "
                          f"'rule_based' only")
