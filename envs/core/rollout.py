"""Whole games inside numba: random rollouts (the engine's speed ceiling) and games
between built-in agents (for tournaments and balance sweeps)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transit_gym.envs.core.errors import ConfigError, IllegalActionError
from transit_gym.envs.core.fused import fused_kernels, fused_play_games, split64
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.restrict import (
    ForbiddenError,
    as_loop_argument,
    check_forbidden,
    restrict_mask,
)
from transit_gym.envs.core.rng import split_seed

#: codes of the built-in agents understood by every game's ``policy`` kernel
AGENT_CODES = {"random": 0, "rule_based": 1}


def random_rollouts(game: Game, n_games: int, seed: int = 0, first_game: int = 0) -> int:
    """Play ``n_games`` uniformly random games; return the number of decisions made."""
    split_seed(seed)
    lo, hi = split64(seed)
    fused = fused_kernels(game.kernels)
    return int(fused.random_rollouts(game.param_table, game.variant_slot, lo, hi, first_game,
                                     n_games, game.layout.size, game.num_actions))


@dataclass
class GameResults:
    """Outcome of jitted games: rewards per seat, decisions, and every final state."""

    rewards: np.ndarray        # (n, P) float32
    decisions: np.ndarray      # (n,) int64
    final_states: np.ndarray   # (n, state_size) int64

    def state(self, game: Game, i: int) -> State:
        return State(game, self.final_states[i].copy())


def _param_rows(game: Game, params: np.ndarray) -> np.ndarray:
    """``params`` as a table with one row per row of ``game.param_table`` (ConfigError
    naming both shapes when they do not fit)."""
    table = np.ascontiguousarray(np.atleast_2d(params), dtype=np.int64)
    if table.shape[0] != game.num_variants or table.shape[1] < game.param_table.shape[1]:
        raise ConfigError(f"params of shape {np.shape(params)} do not extend the game's "
                          f"parameter table of shape {game.param_table.shape}")
    return table


def play_games(game: Game, policy, agents: list[str], n_games: int, seed: int = 0,
               first_game: int = 0, forbidden: np.ndarray | None = None,
               params: np.ndarray | None = None,
               codes: dict[str, int] | None = None) -> GameResults:
    """Play games between built-in agents inside numba (``agents[seat]`` by name).
    ``forbidden``: restricted play, a ``(num_players, num_actions)`` boolean array of the
    actions each seat may not take (``ForbiddenError`` when that leaves no legal action).

    ``policy`` is the game's jitted agent kernel (see ``agents.rule_based.<game>``). A
    policy with more agents than ``AGENT_CODES`` (the tuned agents) passes its
    name-to-code map as ``codes`` and the game parameters it reads as ``params``: each
    row of ``game.param_table`` followed by its own data (one row for a game with one
    row; the game's kernels read only the leading part).
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
    restriction = check_forbidden(forbidden, game.num_players, game.num_actions)
    table = game.param_table if params is None else _param_rows(game, params)
    split_seed(seed)
    lo, hi = split64(seed)
    seat_codes = np.array([codes[a] for a in agents], dtype=np.int64)
    rewards = np.zeros((n_games, game.num_players), dtype=np.float32)
    decisions = np.zeros(n_games, dtype=np.int64)
    finals = np.zeros((n_games, game.layout.size), dtype=np.int64)
    bad = loop(table, game.variant_slot, lo, hi, first_game, n_games, seat_codes,
               game.layout.size, game.num_actions, game.obs_size, rewards, decisions, finals,
               as_loop_argument(restriction, game.num_actions))
    if bad >= 0:
        state = State(game, finals[bad].copy())
        seat = game.current_player(state)
        if restriction is not None:
            try:
                restrict_mask(game.legal_mask(state), restriction, seat,
                              lambda a: game.describe_action(state, a))
            except ForbiddenError as exc:
                raise ForbiddenError(f"game {first_game + bad}: {exc}") from None
        raise IllegalActionError(
            f"built-in agent {agents[seat]!r} (seat {seat}) chose an illegal action in game "
            f"{first_game + bad} after {decisions[bad]} decisions; legal: "
            f"{game.legal_actions(state)}"
        )
    return GameResults(rewards, decisions, finals)
