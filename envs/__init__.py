"""transit-gym environments: ``from envs import loose_caboose_v0`` and friends."""

from envs import _numba_cache

_numba_cache.configure()
