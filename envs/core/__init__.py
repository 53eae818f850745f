"""The shared core: game/state split, AEC base env, batch API, RNG and drawing kernels."""

from envs.core.batch import BatchEnv
from envs.core.errors import ConfigError, DataFileError, IllegalActionError, StateDictError
from envs.core.game import Game, Kernels, State
from envs.core.layout import Layout
from envs.core.rollout import play_games, random_rollouts

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
