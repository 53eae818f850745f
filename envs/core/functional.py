"""DESIGN.md's functional rules API, the same for every game.

Each game's ``rules.py`` re-exports the functions of ``__all__`` with
``from transit_gym.envs.core.functional import *`` and adds its own
``new_game = make_new_game(<Game>Game)``, so the list of the API's names lives here only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from transit_gym.envs.core.game import Game, State

#: the functional API every game's ``rules`` re-exports (besides its own ``new_game``)
__all__ = ["apply", "current_player", "is_over", "legal_mask", "scores"]


def make_new_game(game_class: type[Game]):
    """``new_game(config, seed)`` for one game class."""

    def new_game(config: dict[str, Any] | None = None, seed: int | None = None) -> State:
        """A new game from options ``config`` (``num_players`` and the game's options)."""
        return game_class(**(config or {})).new_state(seed)

    return new_game


def legal_mask(state: State) -> np.ndarray:
    """The int8 mask of the pending decision."""
    return state.game.legal_mask(state)


def apply(state: State, action: int) -> None:
    """Play a legal action in place (``ValueError`` naming the legal ones otherwise)."""
    state.game.apply(state, action)


def current_player(state: State) -> int:
    """Seat deciding now, -1 once the game is over."""
    return state.game.current_player(state)


def is_over(state: State) -> bool:
    return state.game.is_over(state)


def scores(state: State) -> Any:
    """The game's own scores (``Game.scores``)."""
    return state.game.scores(state)
