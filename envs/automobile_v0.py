"""Automobile v0: ``env()`` (wrapped), ``raw_env``, the ``Game`` class and the batch API."""

from transit_gym.envs.automobile.env import env, raw_env
from transit_gym.envs.automobile.rules import AutomobileGame as Game
from transit_gym.envs.core.batch import BatchEnv


def batch(batch_size: int, seed: int | None = None, **options) -> BatchEnv:
    """``BatchEnv`` of ``batch_size`` games (options as for ``env``)."""
    return BatchEnv(Game(**options), batch_size, seed)


__all__ = ["Game", "batch", "env", "raw_env"]
