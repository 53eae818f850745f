"""Built-in agents by name, for every game that has a policy kernel."""

from __future__ import annotations

from pathlib import Path

from transit_gym.agents.base import Agent, JitPolicyAgent, RandomAgent
from transit_gym.agents.policies import POLICY_MODULES, policy_kernel
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.envs.core.rollout import AGENT_CODES, GameResults, play_games

__all__ = ["POLICY_MODULES", "make_agent", "policy_kernel"]


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


def as_game(game: Game | str) -> Game:
    """``game`` itself, or the game registered under that name built with its default
    options; ``TypeError`` saying what to pass for anything else, ``ConfigError`` listing
    the games for an unknown name."""
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        from transit_gym.envs.core.catalog import game_class

        return game_class(game)()
    if isinstance(game, type) and issubclass(game, Game):
        raise TypeError(f"make_agent needs a game object, got the class {game.__name__}; "
                        f"pass {game.__name__}(num_players=...) or the game's name")
    raise TypeError(f"make_agent needs a Game object (e.g. game_class(name)(num_players=2)) "
                    f"or a registered game's name, got {type(game).__name__} {game!r}")


def make_agent(kind: str, game: Game | str, seed: int | None = None) -> Agent:
    """``"random"``, ``"rule_based"``, the search agent ``"mcts"`` / ``"mcts:N"`` (N
    simulations per move), ``"ppo"`` (the game's shipped MaskablePPO checkpoint), the
    path of a MaskablePPO checkpoint (``.zip``), the parameter-vector agents ``"tuned"``
    (shipped generalist) / ``"tuned:FILE"``, or the network agents ``"net"`` /
    ``"net:FILE"`` (alone) and ``"net_mcts[:N][:FILE]"`` (with its search) for ``game``.
    A checkpoint or network is checked against ``game`` (its recorded game and observation
    layout) before it is loaded. ``game`` may also be a registered game's name (that game
    with its default options)."""
    game = as_game(game)
    if kind == "tuned" or kind.startswith("tuned:"):
        from transit_gym.agents.tuned import TunedAgent

        return TunedAgent(game, kind, seed)
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
        raise ConfigError(f"unknown agent {kind!r}; built-in agents: {sorted(AGENT_CODES)}, "
                          "mcts, mcts:N, ppo, tuned, tuned:FILE")
    return JitPolicyAgent(game, policy_kernel(game.name), AGENT_CODES[kind], kind, seed)
