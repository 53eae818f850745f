"""transit-gym environments: ``from transit_gym.envs import loose_caboose_v0`` and friends."""

from transit_gym.envs import _numba_cache

_numba_cache.configure()
