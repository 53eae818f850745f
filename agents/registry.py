"""Built-in agents by name, for every game that has a policy kernel."""

from __future__ import annotations

from pathlib import Path

from transit_gym.agents.base import Agent, JitPolicyAgent, RandomAgent
from transit_gym.agents.policies import POLICY_MODULES, policy_kernel
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.envs.core.rollout import AGENT_CODES

__all__ = ["POLICY_MODULES", "make_agent", "policy_kernel"]


def make_agent(kind: str, game: Game, seed: int | None = None) -> Agent:
    """``"random"``, ``"rule_based"``, the search agent ``"mcts"`` / ``"mcts:N"`` (N
    simulations per move), ``"ppo"`` (the game's shipped MaskablePPO checkpoint), the
    path of a MaskablePPO checkpoint (``.zip``), or the network agents ``"net"`` /
    ``"net:FILE"`` (alone) and ``"net_mcts[:N][:FILE]"`` (with its search) for ``game``.
    A checkpoint or network is checked against ``game`` (its recorded game and observation
    layout) before it is loaded."""
    if kind == "net" or kind.startswith("net:") or kind.startswith("net_mcts"):
        from transit_gym.agents.learned.specs import network_agent  # lazy: compiles search

        return network_agent(kind, game, seed)
    if kind.endswith(".zip") or (kind not in AGENT_CODES and kind != "ppo"
                                 and not kind.startswith("mcts")
                                 and Path(kind).with_suffix(".zip").is_file()):
        from transit_gym.agents.learned.ppo import PolicyAgent, check_agent_spec  # lazy: torch

        check_agent_spec(kind, game)
        return PolicyAgent(kind, deterministic=True, game=game)
    if kind == "ppo":
        from transit_gym.agents.learned.ppo import shipped_agent  # lazy: imports torch

        return shipped_agent(game)
    if kind == "mcts" or kind.startswith("mcts:"):
        from transit_gym.agents.search.mcts import MCTSAgent, parse_spec  # lazy: compiles search

        return MCTSAgent(game, seed=seed, **parse_spec(kind))
    if kind == "random":
        return RandomAgent(seed)
    if kind not in AGENT_CODES:
        raise ConfigError(f"unknown agent {kind!r}; built-in agents: {sorted(AGENT_CODES)}")
    return JitPolicyAgent(game, policy_kernel(game.name), AGENT_CODES[kind], kind, seed)
