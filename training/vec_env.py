"""Vectorized training envs on the batch kernels: the learner's seat of B games per call.

``SelfPlayBatch`` holds B games of one configuration. Every step applies the learner's B
actions; the other seats are then played until the learner is to move again, inside numba
for built-in agents (random, rule-based) and by ONE batched torch forward per policy
opponent (frozen snapshots, checkpoints) for all games waiting on it. Games that end are
scored from the learner's seat and replaced at once (auto-reset), each new game drawing
the learner's seat (rotating at random, or fixed) and its opponents from weighted pools.

Two views share it: ``SelfPlayVecEnv`` (a Stable-Baselines3 ``VecEnv`` with MaskablePPO's
``action_masks()``) and ``SelfPlayVectorEnv`` (a ``gymnasium.vector.VectorEnv``, same-step
auto-reset, the masks in ``infos["action_mask"]``).

With ``reward_shaping`` (``None``, the default: terminal rewards only; ``"score"`` or a
positive coefficient, as the AEC env's option, :mod:`transit_gym.envs.core.shaping`) the
learner's reward after each of its steps adds the change of its potential since its last
decision (discount 1, the other seats' moves in between included); a game's last reward is
its terminal reward plus ``0 - Phi``, so a game's rewards sum to the terminal reward minus
``Phi`` at the learner's first decision. ``terminals`` keeps the rewards without shaping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from transit_gym.agents.registry import policy_kernel
from transit_gym.envs.core import vec_loops
from transit_gym.envs.core.errors import ConfigError, IllegalActionError, illegal_action_message
from transit_gym.envs.core.fused import KERNEL_NAMES, jit_templates, split64
from transit_gym.envs.core.game import Game
from transit_gym.envs.core.options import check_reward_shaping
from transit_gym.envs.core.rng import RNG_WORDS, fresh_seed, seeded_words, split_seed
from transit_gym.envs.core.rollout import AGENT_CODES
from transit_gym.training.vec_shaping import LearnerPotentials

_LOOPS: dict[tuple[int, int], Any] = {}
#: stream of the opponents' generator words (apart from the games' chance streams)
OPPONENT_STREAM = 0x0DD5_0000_0000


def vec_loops_for(game: Game):
    """The jitted ``vec_reset`` / ``vec_advance`` of ``game`` (made once per process)."""
    policy = policy_kernel(game.name)
    key = (id(game.kernels), id(policy))
    if key not in _LOOPS:
        functions = {name: getattr(game.kernels, name) for name in KERNEL_NAMES}
        functions["policy"] = policy
        _LOOPS[key] = jit_templates(vec_loops, ("vec_new_episode", "vec_run", "vec_reset",
                                                "vec_advance"), functions)
    return _LOOPS[key]


def parse_weights(opponents: Sequence[str] | Mapping[str, int]) -> dict[str, int]:
    """Built-in opponents with integer weights: a list of names (weight 1 each, repeats
    add up) or a ``{name: weight}`` mapping."""
    weights: dict[str, int] = {}
    items = opponents.items() if isinstance(opponents, Mapping) else ((o, 1) for o in opponents)
    for name, weight in items:
        if name not in AGENT_CODES:
            raise ConfigError(f"unknown built-in opponent {name!r}; known: {sorted(AGENT_CODES)}")
        if isinstance(weight, bool) or not isinstance(weight, (int, np.integer)) or weight < 0:
            raise ConfigError(f"opponent weight must be a non-negative integer, got {weight!r}")
        weights[name] = weights.get(name, 0) + int(weight)
    return weights


def policy_logits(policy, obs: np.ndarray) -> np.ndarray:
    """Action logits of an SB3 actor-critic policy for a batch of observations."""
    import torch

    with torch.no_grad():
        tensor = torch.as_tensor(obs, dtype=torch.float32, device=policy.device)
        features = policy.extract_features(tensor, policy.pi_features_extractor)
        latent = policy.mlp_extractor.forward_actor(features)
        return policy.action_net(latent).cpu().numpy()


class SelfPlayBatch:
    """B games seen from the learner's seat; the other seats played inside (see module)."""

    def __init__(self, game: Game, num_envs: int,
                 opponents: Sequence[str] | Mapping[str, int] = ("random", "rule_based"),
                 learner_seat: int | str = "random", seed: int | None = None,
                 max_policies: int = 4, reward_shaping: Any = None):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive integer, got {num_envs!r}")
        if learner_seat == "random":
            self.seat_mode = -1
        elif (isinstance(learner_seat, int) and not isinstance(learner_seat, bool)
              and 0 <= learner_seat < game.num_players):
            self.seat_mode = int(learner_seat)
        else:
            raise ConfigError(f"learner_seat must be 'random' or 0..{game.num_players - 1}, "
                              f"got {learner_seat!r}")
        coefficient = check_reward_shaping("reward_shaping", reward_shaping)
        self.reward_shaping = reward_shaping
        self._shaping = None if coefficient is None else LearnerPotentials(game, coefficient)
        self.game = game
        self.num_envs = n = num_envs
        self._loops = vec_loops_for(game)
        self.builtin_weights = parse_weights(opponents)
        self.policies: list[Any] = []
        self.policy_weights: list[int] = []
        self.max_policies = max_policies
        self._next_slot = 0
        self.states = np.zeros((n, game.layout.size), dtype=np.int64)
        self.obs = np.zeros((n, game.obs_size), dtype=np.float32)
        self.masks = np.zeros((n, game.num_actions), dtype=np.int8)
        self.rewards = np.zeros(n, dtype=np.float32)
        self.terminals = np.zeros(n, dtype=np.float32)
        self._phi = np.zeros(n, dtype=np.float64)
        self.dones = np.zeros(n, dtype=np.bool_)
        self.finals = np.zeros((n, game.num_players), dtype=np.float32)
        self.final_obs = np.zeros((n, game.obs_size), dtype=np.float32)
        self.seats = np.zeros(n, dtype=np.int64)
        self.codes = np.zeros((n, game.num_players), dtype=np.int64)
        self.status = np.zeros(n, dtype=np.int64)
        self.episodes = np.zeros(n, dtype=np.int64)
        self.moved = np.zeros(n, dtype=np.int8)
        self.words = np.zeros((n, RNG_WORDS), dtype=np.int64)
        self._all = np.ones(n, dtype=np.int8)
        self._actions = np.zeros(n, dtype=np.int64)
        self._pool()
        self.reset(seed)

    # ----- opponents -----------------------------------------------------------------------
    def _pool(self) -> None:
        codes = [AGENT_CODES[name] for name in self.builtin_weights]
        weights = list(self.builtin_weights.values())
        codes += [vec_loops.POLICY + k for k in range(len(self.policies))]
        weights += self.policy_weights
        if sum(weights) <= 0:
            raise ConfigError("the opponent pool needs a positive total weight")
        self.pool_codes = np.array(codes, dtype=np.int64)
        self.pool_weights = np.array(weights, dtype=np.int64)

    def set_builtin_weights(self, opponents: Sequence[str] | Mapping[str, int]) -> None:
        """New weights of the built-in opponents (from the next games on)."""
        self.builtin_weights = parse_weights(opponents)
        self._pool()

    def add_policy(self, policy, weight: int = 1) -> int:
        """Add a frozen SB3 policy as an opponent (the oldest added one leaves once
        ``max_policies`` are held); returns its index."""
        if isinstance(weight, bool) or not isinstance(weight, int) or weight < 0:
            raise ConfigError(f"policy weight must be a non-negative integer, got {weight!r}")
        if len(self.policies) < self.max_policies:
            self.policies.append(policy)
            self.policy_weights.append(weight)
            k = len(self.policies) - 1
        else:
            k = self._next_slot
            self.policies[k] = policy
            self.policy_weights[k] = weight
            self._next_slot = (k + 1) % self.max_policies
        self._pool()
        return k

    # ----- stepping ------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Start B new games from ``seed`` (fresh entropy when None)."""
        self.seed = fresh_seed() if seed is None else seed
        split_seed(self.seed)
        self._lo, self._hi = split64(self.seed)
        self._gumbel = np.random.default_rng([self.seed, 0x6B])
        self.episodes[:] = 0
        for b in range(self.num_envs):
            self.words[b] = seeded_words(self.seed, OPPONENT_STREAM + b)
        self.rewards[:] = 0.0
        self.dones[:] = False
        bad = self._loops.vec_reset(*self._common_head(), *self._common_tail())
        self._check_builtin(bad)
        self._play_policies()
        self.terminals[:] = 0.0
        if self._shaping is not None:
            self._phi = self._shaping(self.states, self.seats)

    def _common_head(self):
        return (self.states, self.game.param_table, self.game.variant_slot)

    def _common_tail(self):
        return (self._lo, self._hi, self.episodes, self.words, self.seat_mode, self.pool_codes,
                self.pool_weights, self.seats, self.codes, self.obs, self.masks, self.status,
                self.rewards, self.dones, self.finals, self.final_obs, self.moved)

    def step(self, actions: np.ndarray) -> None:
        """The learner's action in every game; outputs are updated in place."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be an integer array of shape "
                                     f"({self.num_envs},), got {actions.dtype} {actions.shape}")
        self.rewards[:] = 0.0
        self.dones[:] = False
        self._advance(actions.astype(np.int64, copy=False), self._all, learner=True)
        self._play_policies()
        self.terminals[:] = self.rewards
        if self._shaping is not None:
            self._shape()

    def _shape(self) -> None:
        """Add the learner's shaping reward: ``Phi(now) - Phi(its last decision)``, and at a
        game's end ``0 - Phi(its last decision)`` (the slot already holds the next game,
        whose potential is kept for the next step)."""
        phi = self._shaping(self.states, self.seats)
        change = np.where(self.dones, 0.0, phi) - self._phi
        self.rewards[:] = self.rewards + change
        self._phi = phi

    def _advance(self, actions: np.ndarray, pending: np.ndarray, learner: bool) -> None:
        bad = self._loops.vec_advance(self.states, *self._common_head()[1:], actions, pending,
                                      *self._common_tail())
        if bad >= 0:
            legal = [int(a) for a in np.flatnonzero(self.masks[bad])]
            who = "learner" if learner else f"policy opponent {self.status[bad] - 1}"
            raise IllegalActionError(f"slot {bad} ({who}): "
                                     + illegal_action_message(int(actions[bad]), legal))
        self._check_builtin(-2 - bad if bad <= -2 else -1)

    def _check_builtin(self, bad: int) -> None:
        if bad >= 0:
            raise IllegalActionError(f"a built-in opponent chose an illegal action in slot {bad}")

    def _play_policies(self) -> None:
        """One batched forward per policy opponent for every game waiting on it, until
        every game waits on the learner."""
        while True:
            waiting = self.status > vec_loops.READY
            if not waiting.any():
                return
            actions = self._actions
            for k in np.unique(self.status[waiting]) - vec_loops.WAITING:
                rows = np.flatnonzero(self.status == vec_loops.WAITING + k)
                logits = policy_logits(self.policies[k], self.obs[rows])
                logits = logits + self._gumbel.gumbel(size=logits.shape)
                logits[self.masks[rows] == 0] = -np.inf
                actions[rows] = logits.argmax(axis=1)
            self._advance(actions, waiting.astype(np.int8), learner=False)


def _box(game: Game) -> gymnasium.spaces.Box:
    low, high = game.obs_low_high()
    return gymnasium.spaces.Box(low=low, high=high, dtype=np.float32)


class SelfPlayVecEnv(VecEnv):
    """SB3 ``VecEnv`` of the learner's seat in B games (MaskablePPO reads ``action_masks``).

    A finished game's last observation is in ``infos[b]["terminal_observation"]``, every
    seat's reward in ``infos[b]["final_rewards"]``, the learner's terminal reward (without
    shaping) in ``infos[b]["episode"]["r"]``; the returned observation and mask are
    already those of the next game."""

    def __init__(self, game: Game, num_envs: int, *args: Any, **kwargs: Any):
        """``SelfPlayBatch``'s arguments (opponents, learner_seat, seed, max_policies,
        reward_shaping)."""
        self.batch = SelfPlayBatch(game, num_envs, *args, **kwargs)
        self.game = game
        self._seed = self.batch.seed
        self._resets = 0
        self._pending_seed: int | None = None
        self._lengths = np.zeros(num_envs, dtype=np.int64)
        self.render_mode = None
        super().__init__(num_envs, _box(game), gymnasium.spaces.Discrete(game.num_actions))

    def seed(self, seed: int | None = None) -> list[int | None]:
        self._pending_seed = seed
        return [seed] * self.num_envs

    def reset(self) -> np.ndarray:
        if self._pending_seed is not None:
            self._seed, self._resets = self._pending_seed, 0
            self._pending_seed = None
        seed = self._seed if self._resets == 0 else (self._seed + 7919 * self._resets) % 2**63
        self._resets += 1
        self.batch.reset(seed)
        self._lengths[:] = 0
        return self.batch.obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._step_actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        batch = self.batch
        batch.step(self._step_actions)
        self._lengths += 1
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for b in np.flatnonzero(batch.dones):
            infos[b] = {"terminal_observation": batch.final_obs[b].copy(),
                        "final_rewards": batch.finals[b].copy(),
                        "episode": {"r": float(batch.terminals[b]),
                                    "l": int(self._lengths[b])},
                        "TimeLimit.truncated": False}
            self._lengths[b] = 0
        return batch.obs.copy(), batch.rewards.copy(), batch.dones.copy(), infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game, ``(B, A)`` booleans."""
        return self.batch.masks.astype(bool)

    def close(self) -> None:
        return None

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs):
        rows = self._indices(indices)
        if method_name == "action_masks":
            return list(self.action_masks()[rows])
        raise AttributeError(f"SelfPlayVecEnv has no per-env method {method_name!r}")

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self, attr_name)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)


class SelfPlayVectorEnv(gymnasium.vector.VectorEnv):
    """``gymnasium.vector`` view: same-step auto-reset; ``infos`` carry ``action_mask``
    (the mask of the returned observation, so of the new game after an auto-reset),
    ``seat``, and for finished games ``final_obs``/``final_rewards`` with ``_final_obs``."""

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(self, game: Game, num_envs: int, *args: Any, **kwargs: Any):
        """``SelfPlayBatch``'s arguments (opponents, learner_seat, seed, max_policies,
        reward_shaping)."""
        self.batch = SelfPlayBatch(game, num_envs, *args, **kwargs)
        self.num_envs = num_envs
        self.single_observation_space = _box(game)
        self.single_action_space = gymnasium.spaces.Discrete(game.num_actions)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete(
            np.full(num_envs, game.num_actions, dtype=np.int64))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self.batch.reset(seed)
        return self.batch.obs.copy(), self._infos()

    def step(self, actions):
        batch = self.batch
        batch.step(np.asarray(actions).reshape(self.num_envs))
        infos = self._infos()
        done = batch.dones.copy()
        infos["final_obs"] = np.where(done[:, None], batch.final_obs, 0.0).astype(np.float32)
        infos["final_rewards"] = np.where(done[:, None], batch.finals, 0.0).astype(np.float32)
        infos["_final_obs"] = done
        return (batch.obs.copy(), batch.rewards.copy(), done,
                np.zeros(self.num_envs, dtype=np.bool_), infos)

    def _infos(self) -> dict[str, np.ndarray]:
        return {"action_mask": self.batch.masks.astype(bool), "seat": self.batch.seats.copy()}
