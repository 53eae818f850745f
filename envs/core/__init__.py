"""The shared core: game/state split, AEC base env, batch API, RNG and drawing kernels."""

from transit_gym.envs.core.batch import BatchEnv
from transit_gym.envs.core.errors import (
    ConfigError,
    DataFileError,
    IllegalActionError,
    StateDictError,
)
from transit_gym.envs.core.game import Game, Kernels, State
from transit_gym.envs.core.layout import Layout
from transit_gym.envs.core.rollout import play_games, random_rollouts

__all__ = [
    "BatchEnv",
    "ConfigError",
    "DataFileError",
    "Game",
    "IllegalActionError",
    "Kernels",
    "Layout",
    "State",
    "StateDictError",
    "play_games",
    "random_rollouts",
]
