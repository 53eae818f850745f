"""The PettingZoo AEC environment of Automobiles (thin: the rules live in the kernels)."""

from __future__ import annotations

from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.aec import TransitAECEnv, make_env_fn


class raw_env(TransitAECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Automobiles for 2-5 players; options as in ``AutomobilesGame``."""

    game_class = AutomobilesGame


env = make_env_fn(raw_env)
