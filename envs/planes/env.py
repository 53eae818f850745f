"""The PettingZoo AEC environment of Planes (thin: the rules live in ``kernels``)."""

from __future__ import annotations

from transit_gym.envs.core.aec import TransitAECEnv, make_env_fn
from transit_gym.envs.planes.rules import PlanesGame


class raw_env(TransitAECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Planes for 2-4 players; options as in ``PlanesGame``."""

    game_class = PlanesGame


env = make_env_fn(raw_env)
