"""Built-in agents by name, for every game that has a policy kernel."""

from __future__ import annotations

import importlib

from transit_gym.agents.base import Agent, JitPolicyAgent, RandomAgent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.envs.core.rollout import AGENT_CODES, GameResults, play_games

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


def is_jit_spec(spec: str) -> bool:
    """Whether agent ``spec`` plays inside the jitted whole-game loops (``play_specs``)."""
    from transit_gym.agents.tuned import is_tuned_spec

    return spec in AGENT_CODES or is_tuned_spec(spec)


def play_specs(game: Game, specs: list[str], n_games: int, seed: int = 0,
               first_game: int = 0) -> GameResults:
    """``play_games`` for seats given as agent specs: random, rule_based, tuned, tuned:FILE."""
    from transit_gym.agents.tuned import is_tuned_spec, jit_setup

    if not any(is_tuned_spec(s) for s in specs):
        return play_games(game, policy_kernel(game.name), list(specs), n_games, seed=seed,
                          first_game=first_game)
    policy, params, codes = jit_setup(game, list(specs))
    return play_games(game, policy, list(specs), n_games, seed=seed, first_game=first_game,
                      params=params, codes=codes)


def make_agent(kind: str, game: Game, seed: int | None = None) -> Agent:
    """``"random"``, ``"rule_based"``, the search agent ``"mcts"`` / ``"mcts:N"`` (N
    simulations per move), ``"ppo"`` (the game's shipped MaskablePPO checkpoint), or the
    parameter-vector agents ``"tuned"`` (shipped generalist) / ``"tuned:FILE"`` for
    ``game``."""
    if kind == "tuned" or kind.startswith("tuned:"):
        from transit_gym.agents.tuned import TunedAgent

        return TunedAgent(game, kind, seed)
    if kind == "ppo":
        from transit_gym.agents.ppo import shipped_agent  # lazy: imports torch

        return shipped_agent(game)
    if kind == "mcts" or kind.startswith("mcts:"):
        from transit_gym.agents.mcts import MCTSAgent, parse_spec  # lazy: compiles search

        return MCTSAgent(game, seed=seed, **parse_spec(kind))
    if kind == "random":
        return RandomAgent(seed)
    if kind not in AGENT_CODES:
        raise ConfigError(f"unknown agent {kind!r}; built-in agents: {sorted(AGENT_CODES)}, "
                          "mcts, mcts:N, ppo, tuned, tuned:FILE")
    return JitPolicyAgent(game, policy_kernel(game.name), AGENT_CODES[kind], kind, seed)
