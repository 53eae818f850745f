"""Planes v0: ``env()`` (wrapped), ``raw_env``, the ``Game`` class and the batch API."""

from transit_gym.envs.core.batch import BatchEnv
from transit_gym.envs.planes.env import env, raw_env
from transit_gym.envs.planes.rules import PlanesGame as Game


def batch(batch_size: int, seed: int | None = None, **options) -> BatchEnv:
    """``BatchEnv`` of ``batch_size`` games (options as for ``env``)."""
    return BatchEnv(Game(**options), batch_size, seed)


__all__ = ["Game", "batch", "env", "raw_env"]
