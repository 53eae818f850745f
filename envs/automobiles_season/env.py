"""The PettingZoo AEC environment of an Automobiles Racing Season campaign."""

from __future__ import annotations

from transit_gym.envs.automobiles_season.rules import AutomobilesSeasonGame
from transit_gym.envs.core.aec import TransitAECEnv, make_env_fn


class raw_env(TransitAECEnv):  # noqa: N801 - PettingZoo's naming convention
    """A whole Racing Season for 2-5 players; options as in ``AutomobilesSeasonGame``."""

    game_class = AutomobilesSeasonGame


env = make_env_fn(raw_env)
