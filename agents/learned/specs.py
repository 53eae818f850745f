"""Agent specs of the network agents: ``net``, ``net:FILE``, ``net_mcts[:N][:FILE]``."""

from __future__ import annotations

from transit_gym.agents.base import Agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game

USAGE = ("network agent specs: 'net' (the shipped network alone), 'net:FILE', 'net:NAME' "
         "(a shipped network by name, e.g. 'net:generalist'), 'net_mcts' "
         "(the shipped network with its search), 'net_mcts:N', 'net_mcts:FILE' or "
         "'net_mcts:N:FILE' (N simulations a move, N >= 1)")


def parse_network_spec(spec: str) -> tuple[bool, int | None, str | None]:
    """``(search, simulations, path)`` of a network spec (ConfigError when malformed)."""
    head, _, rest = spec.partition(":")
    if head == "net":
        if spec != "net" and not rest:
            raise ConfigError(f"bad agent spec {spec!r}; {USAGE}")
        return False, None, rest or None
    if head != "net_mcts":
        raise ConfigError(f"bad agent spec {spec!r}; {USAGE}")
    if not rest:
        return True, None, None
    first, _, path = rest.partition(":")
    if first.isdigit():
        if int(first) < 1:
            raise ConfigError(f"bad agent spec {spec!r}; {USAGE}")
        return True, int(first), path or None
    return True, None, rest


def network_agent(spec: str, game: Game, seed: int | None = None) -> Agent:
    """The agent a network spec names, for ``game``."""
    from transit_gym.agents.learned.net_agent import NetAgent, load_network

    search, simulations, path = parse_network_spec(spec)
    network = load_network(path, game)
    if not search:
        return NetAgent(game, network, name=spec)
    from transit_gym.agents.search.net_mcts import DEFAULT_SIMULATIONS, NetSearchAgent

    return NetSearchAgent(game, network, simulations=simulations or DEFAULT_SIMULATIONS,
                          seed=seed, name=spec)
