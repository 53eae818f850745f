"""Whole games inside numba: random rollouts (the engine's speed ceiling) and games
between built-in agents (for tournaments and balance sweeps)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transit_gym.envs.core.errors import ConfigError, IllegalActionError
from transit_gym.envs.core.fused import fused_kernels, fused_play_games, split64
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.rng import split_seed

#: codes of the built-in agents understood by every game's ``policy`` kernel
AGENT_CODES = {"random": 0, "rule_based": 1}


def random_rollouts(game: Game, n_games: int, seed: int = 0, first_game: int = 0) -> int:
    """Play ``n_games`` uniformly random games; return the number of decisions made."""
    split_seed(seed)
    lo, hi = split64(seed)
    fused = fused_kernels(game.kernels)
    return int(fused.random_rollouts(game.params, lo, hi, first_game, n_games,
                                     game.layout.size, game.num_actions))


@dataclass
class GameResults:
    """Outcome of jitted games: rewards per seat, decisions, and every final state."""

    rewards: np.ndarray        # (n, P) float32
    decisions: np.ndarray      # (n,) int64
    final_states: np.ndarray   # (n, state_size) int64

    def state(self, game: Game, i: int) -> State:
        return State(game, self.final_states[i].copy())


def play_games(game: Game, policy, agents: list[str], n_games: int, seed: int = 0,
               first_game: int = 0, params: np.ndarray | None = None,
               codes: dict[str, int] | None = None) -> GameResults:
    """Play games between built-in agents inside numba (``agents[seat]`` by name).

    ``policy`` is the game's jitted agent kernel (see ``agents.<game>``). A policy with
    more agents than ``AGENT_CODES`` (the tuned agents) passes its name-to-code map as
    ``codes`` and the game parameters it reads as ``params`` (``game.params`` followed
    by its own data; the game's kernels read only the leading part).
    Game ``first_game + i`` is fixed by ``seed`` and its index alone, so any split of a
    sweep over processes or machines gives the same games.
    """
    loop = fused_play_games(game.kernels, policy)
    if len(agents) != game.num_players:
        raise ConfigError(f"need one agent per seat ({game.num_players}), got {agents}")
    codes = AGENT_CODES if codes is None else codes
    unknown = [a for a in agents if a not in codes]
    if unknown:
        raise ConfigError(f"unknown built-in agents {unknown}; known: {sorted(codes)}")
    params = game.params if params is None else np.ascontiguousarray(params, dtype=np.int64)
    split_seed(seed)
    lo, hi = split64(seed)
    seat_codes = np.array([codes[a] for a in agents], dtype=np.int64)
    rewards = np.zeros((n_games, game.num_players), dtype=np.float32)
    decisions = np.zeros(n_games, dtype=np.int64)
    finals = np.zeros((n_games, game.layout.size), dtype=np.int64)
    bad = loop(params, lo, hi, first_game, n_games, seat_codes, game.layout.size,
               game.num_actions, game.obs_size, rewards, decisions, finals)
    if bad >= 0:
        state = State(game, finals[bad].copy())
        seat = game.current_player(state)
        raise IllegalActionError(
            f"built-in agent {agents[seat]!r} (seat {seat}) chose an illegal action in game "
            f"{first_game + bad} after {decisions[bad]} decisions; legal: "
            f"{game.legal_actions(state)}"
        )
    return GameResults(rewards, decisions, finals)
