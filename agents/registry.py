"""Built-in agents by name, for every game that has a policy kernel."""

from __future__ import annotations

import importlib

from transit_gym.agents.base import Agent, JitPolicyAgent, RandomAgent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.envs.core.rollout import AGENT_CODES

POLICY_MODULES = {
    "loose_caboose": "transit_gym.agents.loose_caboose",
    "automobiles": "transit_gym.agents.automobiles",
    "automobile": "transit_gym.agents.automobile",
    "planes": "transit_gym.agents.planes",
    "automobiles_season": "transit_gym.agents.automobiles_season",   # Racing Season
}


def policy_kernel(game_name: str):
    """The jitted ``policy(code, p, obs, mask, words)`` kernel of a game."""
    if game_name not in POLICY_MODULES:
        raise ConfigError(f"no built-in agents for game {game_name!r}")
    return importlib.import_module(POLICY_MODULES[game_name]).policy


def make_agent(kind: str, game: Game, seed: int | None = None) -> Agent:
    """``"random"``, ``"rule_based"``, the search agent ``"mcts"`` / ``"mcts:N"`` (N
    simulations per move), ``"ppo"`` (the game's shipped MaskablePPO checkpoint), the
    network agents ``"net"`` / ``"net:FILE"`` (alone) and ``"net_mcts[:N][:FILE]"`` (with
    its search) for ``game``."""
    if kind == "net" or kind.startswith("net:") or kind.startswith("net_mcts"):
        from transit_gym.agents.learned.specs import network_agent  # lazy: compiles search

        return network_agent(kind, game, seed)
    if kind == "ppo":
        from transit_gym.agents.ppo import shipped_agent  # lazy: imports torch

        return shipped_agent(game)
    if kind == "mcts" or kind.startswith("mcts:"):
        from transit_gym.agents.mcts import MCTSAgent, parse_spec  # lazy: compiles search

        return MCTSAgent(game, seed=seed, **parse_spec(kind))
    if kind == "random":
        return RandomAgent(seed)
    if kind not in AGENT_CODES:
        raise ConfigError(f"unknown agent {kind!r}; built-in agents: {sorted(AGENT_CODES)}")
    return JitPolicyAgent(game, policy_kernel(game.name), AGENT_CODES[kind], kind, seed)
