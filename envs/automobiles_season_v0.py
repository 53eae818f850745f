"""Automobiles Racing Season v0 (one episode = a season campaign): ``env()`` (wrapped),
``raw_env``, the ``Game`` class and the batch API."""

from transit_gym.envs.automobiles_season.env import env, raw_env
from transit_gym.envs.automobiles_season.rules import AutomobilesSeasonGame as Game
from transit_gym.envs.core.batch import BatchEnv


def batch(batch_size: int, seed: int | None = None, **options) -> BatchEnv:
    """``BatchEnv`` of ``batch_size`` seasons (options as for ``env``)."""
    return BatchEnv(Game(**options), batch_size, seed)


__all__ = ["Game", "batch", "env", "raw_env"]
