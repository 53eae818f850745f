"""Names of the games, their classes (the core's :mod:`~transit_gym.envs.core.catalog`) and
version modules (imported lazily), and the command-line helpers built on them."""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

from transit_gym.envs.core.catalog import GAMES, game_class
from transit_gym.envs.core.errors import ConfigError

__all__ = ["ENVS", "GAMES", "available_games", "cached_game", "env_module", "game_class",
           "game_for_cli", "options_key"]

ENVS: dict[str, str] = {
    "loose_caboose": "transit_gym.envs.loose_caboose_v0",
    "automobiles": "transit_gym.envs.automobiles_v0",
    "automobile": "transit_gym.envs.automobile_v0",
    "planes": "transit_gym.envs.planes_v0",
    "automobiles_season": "transit_gym.envs.automobiles_season_v0",   # Racing Season
}


def env_module(name: str):
    """The version module (``envs.<name>_v0``) of game ``name``."""
    if name not in ENVS:
        raise ConfigError(f"unknown game {name!r}; known games: {sorted(ENVS)}")
    return importlib.import_module(ENVS[name])


def available_games() -> list[str]:
    """Games whose package and version module are present in this installation.

    A game whose own modules are absent is skipped; any other import error is raised.
    """
    found = []
    for name, target in GAMES.items():
        try:
            importlib.import_module(target.split(":")[0])
            importlib.import_module(ENVS[name])
        except ModuleNotFoundError as exc:
            own = f"transit_gym.envs.{name}"
            if exc.name and (exc.name.startswith(own) or exc.name == ENVS[name]):
                continue
            raise
        found.append(name)
    return found


def game_for_cli(name: str, players: int | None) -> tuple[type, int]:
    """The game class of a command line's ``game`` argument and its checked player count
    (the game's minimum when ``players`` is None); ``ConfigError`` naming what is wrong."""
    if name not in available_games():
        raise ConfigError(f"unknown game {name!r}; available: {available_games()}")
    cls = game_class(name)
    players = cls.min_players if players is None else players
    if not cls.min_players <= players <= cls.max_players:
        raise ConfigError(f"--players must be {cls.min_players}-{cls.max_players} "
                          f"for {name}, got {players}")
    return cls, players


def options_key(options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A hashable form of an options dict (lists become tuples), for :func:`cached_game`."""
    return tuple(sorted((k, _frozen(v)) for k, v in options.items()))


def _frozen(value: Any) -> Any:
    """Lists (and lists of lists) as tuples."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


@lru_cache(maxsize=32)
def cached_game(name: str, players: int, options: tuple[tuple[str, Any], ...]):
    """One configured game per (name, players, options key), built once per process."""
    return game_class(name)(num_players=players, **dict(options))
