"""The rule-based policy kernel of each game, by name: ``agents/rule_based/<game>.py`` for
every game of the catalog; what the built-in agents and the search's rollouts play with."""

from __future__ import annotations

import importlib

from transit_gym.envs.core.catalog import GAMES
from transit_gym.envs.core.errors import ConfigError

#: game name -> the module of its rule-based policy kernel
POLICY_MODULES = {name: f"transit_gym.agents.rule_based.{name}" for name in GAMES}


def policy_kernel(game_name: str):
    """The jitted ``policy(code, p, obs, mask, words)`` kernel of a game."""
    if game_name not in POLICY_MODULES:
        raise ConfigError(f"no built-in agents for game {game_name!r}")
    return importlib.import_module(POLICY_MODULES[game_name]).policy
