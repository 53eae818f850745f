"""Loose Caboose! saved states whose turn counter cannot run past its range: the cards laid
this turn are the last ``turn_cards`` cards of the railway and all have this turn's value,
so the counter never exceeds the copies of one value (the observation's declared high) and
one more card laid keeps the state valid."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.step_closure import closure_failures, observation_failures
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.loose_caboose import state as st
from transit_gym.envs.registry import game_class


def _continuing(game):
    """A state of a seeded random game in which the seat on turn has laid a card."""
    for seed in range(40):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while game.current_player(state) >= 0:
            if int(state["phase"][0]) == st.PHASE_CONTINUE:
                return state
            game.apply(state, int(rng.choice(game.legal_actions(state))))
    raise AssertionError("no random game laid a card")


def test_turn_cards_beyond_the_cards_laid_this_turn_is_refused():
    """Rulebook, Taking a Turn: "choose one or more cards with the same value from your
    hand and add them to the front of the railway". A counter of 50 cards laid (the
    observation declares at most 13) or one more than the railway's last run of this
    value is refused, naming ``turn_cards``."""
    game = game_class("loose_caboose")(num_players=3)
    state = _continuing(game)
    game.validate(state)
    assert closure_failures(game, state.data.copy()) == []
    assert observation_failures(game, state.data.copy()) == []
    for value in (50, int(state["turn_cards"][0]) + 1):
        bad = state.copy()
        bad["turn_cards"][0] = value
        with pytest.raises(StateDictError, match="turn_cards"):
            game.validate(bad)


def test_a_railway_shifted_across_the_grid_is_refused():
    """Adding Tracks: the first card is laid at the origin and each card connects to the
    one before, so the card at railway index i is at most i cells away. A railway shifted
    as a whole to the grid's edge (still connected; the next card would leave the grid)
    is refused, naming ``rail_cell``."""
    game = game_class("loose_caboose")(num_players=2)
    state = _continuing(game)
    lo, hi = int(state["rail_lo"][0]), int(state["rail_hi"][0])
    cells = state["rail_cell"][lo:hi]
    shift = 64 - int(max(abs((c & 0xFF) - st.CELL_BIAS) for c in cells))
    cells += shift   # x is the lowest byte: every card moves right, connections kept
    with pytest.raises(StateDictError, match="rail_cell"):
        game.validate(state)
