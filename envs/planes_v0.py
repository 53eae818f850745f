"""Planes v0: ``env()`` (wrapped), ``raw_env``, the ``Game`` class and the batch API."""

from envs.core.batch import BatchEnv
from envs.planes.env import env, raw_env
from envs.planes.rules import PlanesGame as Game


def batch(batch_size: int, seed: int | None = None, **options) -> BatchEnv:
    """``BatchEnv`` of ``batch_size`` games (options as for ``env``)."""
    return BatchEnv(Game(**options), batch_size, seed)


__all__ = ["Game", "batch", "env", "raw_env"]
