"""The PettingZoo AEC environment of Loose Caboose! (thin: the rules live in ``kernels``)."""

from __future__ import annotations

from transit_gym.envs.core.aec import TransitAECEnv, make_env_fn
from transit_gym.envs.loose_caboose.rules import LooseCabooseGame


class raw_env(TransitAECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Loose Caboose! for 2-4 players; options as in ``LooseCabooseGame``."""

    game_class = LooseCabooseGame


env = make_env_fn(raw_env)
