"""The rule-based policy kernel of each game (``agents/rule_based/<game>.py``), by name:
what the built-in agents and the search's rollouts play with."""

from __future__ import annotations

import importlib

from transit_gym.envs.core.errors import ConfigError

POLICY_MODULES = {
    "loose_caboose": "transit_gym.agents.rule_based.loose_caboose",
    "automobiles": "transit_gym.agents.rule_based.automobiles",
    "automobile": "transit_gym.agents.rule_based.automobile",
    "planes": "transit_gym.agents.rule_based.planes",
    "automobiles_season": "transit_gym.agents.rule_based.automobiles_season",   # Racing Season
}


def policy_kernel(game_name: str):
    """The jitted ``policy(code, p, obs, mask, words)`` kernel of a game."""
    if game_name not in POLICY_MODULES:
        raise ConfigError(f"no built-in agents for game {game_name!r}")
    return importlib.import_module(POLICY_MODULES[game_name]).policy
