"""The PettingZoo AEC environment of Automobile (thin: the rules live in ``kernels``)."""

from __future__ import annotations

from transit_gym.envs.automobile.rules import AutomobileGame
from transit_gym.envs.core.aec import TransitAECEnv, make_env_fn


class raw_env(TransitAECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Automobile (Martin Wallace) for 3-5 players; options as in ``AutomobileGame``."""

    game_class = AutomobileGame


env = make_env_fn(raw_env)
