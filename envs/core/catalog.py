"""The games by name and where their classes live, as ``"module:Class"`` strings imported
only when asked for: the table ``State.from_dict`` reads a saved state's game from. It sits
in the core so that the core needs nothing above it; :mod:`transit_gym.envs.registry`
re-exports it with the version modules and the command-line helpers."""

from __future__ import annotations

import importlib

from transit_gym.envs.core.errors import ConfigError

GAMES: dict[str, str] = {
    "loose_caboose": "transit_gym.envs.loose_caboose.rules:LooseCabooseGame",
    "automobiles": "transit_gym.envs.automobiles.rules:AutomobilesGame",
    "automobile": "transit_gym.envs.automobile.rules:AutomobileGame",
    "planes": "transit_gym.envs.planes.rules:PlanesGame",
    # Racing Season campaign
    "automobiles_season": "transit_gym.envs.automobiles_season.rules:AutomobilesSeasonGame",
}


def game_class(name: str):
    """The ``Game`` subclass registered under ``name``."""
    if name not in GAMES:
        raise ConfigError(f"unknown game {name!r}; known games: {sorted(GAMES)}")
    module, cls = GAMES[name].split(":")
    return getattr(importlib.import_module(module), cls)
