"""MaskablePPO policies (sb3-contrib) behind the common ``Agent`` interface."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game

#: the shipped checkpoints: ``<game>_ppo.zip`` (``make train GAME=<game>`` rebuilds one)
CHECKPOINTS = Path(__file__).resolve().parent / "checkpoints"


def frozen_copy(policy):
    """An independent CPU copy of an SB3 policy (weights copied, not shared)."""
    clone = type(policy)(**policy._get_constructor_parameters())
    clone.load_state_dict(policy.state_dict())
    clone.to("cpu")
    clone.set_training_mode(False)
    return clone


class PolicyAgent(Agent):
    """Acts with a MaskablePPO model: a saved ``.zip`` path or a live model (copied).

    ``game``, when given, is the game the agent plays: a policy hinted by the rule-based
    agent (``training.hinted_policy``) computes its hints with that game's rules and
    options rather than the ones it was trained with."""

    name = "ppo"

    def __init__(self, model, deterministic: bool = True, name: str | None = None,
                 game: Game | None = None):
        from sb3_contrib import MaskablePPO

        if isinstance(model, (str, Path)):
            path = Path(model)
            if not path.exists() and not path.with_suffix(".zip").exists():
                raise ValueError(f"no MaskablePPO checkpoint at {str(path)!r}")
            model = MaskablePPO.load(str(path), device="cpu")
            self.name = name or f"ppo:{path.stem}"
        else:
            self.name = name or "ppo"
        self.policy = frozen_copy(model.policy)
        self.deterministic = deterministic
        if game is not None and hasattr(self.policy, "use_game"):
            self.policy.use_game(game)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.asarray(action_mask, dtype=bool)
        if not mask.any():
            raise ValueError(f"{self.name}.act: the mask has no legal action")
        action, _ = self.policy.predict(
            np.asarray(observation, dtype=np.float32), deterministic=self.deterministic,
            action_masks=mask,
        )
        return int(action)


def shipped_checkpoint(game: Game) -> Path:
    """Path of the shipped checkpoint of ``game`` (ConfigError when none is shipped)."""
    path = CHECKPOINTS / f"{game.name}_ppo.zip"
    if not path.exists():
        shipped = sorted(p.stem.removesuffix("_ppo") for p in CHECKPOINTS.glob("*_ppo.zip"))
        raise ConfigError(f"no shipped ppo checkpoint for game {game.name!r} (shipped: "
                          f"{shipped}); train one with `make train GAME={game.name}`")
    return path


def shipped_agent(game: Game) -> PolicyAgent:
    """The agent spec ``ppo``: the shipped checkpoint of ``game``, playing greedily, for the
    player count it was trained at (its training report ``<game>_ppo.json`` says which)."""
    path = shipped_checkpoint(game)
    report = json.loads(path.with_suffix(".json").read_text())
    if report["players"] != game.num_players:
        raise ConfigError(f"the shipped ppo checkpoint of {game.name!r} was trained for "
                          f"{report['players']} players, not {game.num_players}")
    agent = PolicyAgent(path, deterministic=True, name="ppo", game=game)
    space = agent.policy.observation_space
    if space.shape != (game.obs_size,) or agent.policy.action_space.n != game.num_actions:
        raise ConfigError(
            f"the shipped ppo checkpoint of {game.name!r} expects observations of shape "
            f"{space.shape} and {agent.policy.action_space.n} actions; this game "
            f"({game.num_players} players) has ({game.obs_size},) and {game.num_actions}")
    return agent
