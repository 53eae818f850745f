"""The text and picture renders show the Racing Season parts of a race (R-YUC "Drivers"
module; the Redline, Fuel Injection, Adrenaline and Crate Motor card texts, shared data
section 3): each seat's driver, the drivers still to draft, and the card effects in force
this turn. With the expansion off the base render is unchanged."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles import render
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.text import unfold


def test_the_draft_shows_the_revealed_drivers_and_each_seat_its_pick():
    """R-YUC Drivers: players + 1 drivers are revealed, the last seat picks first; the
    text lists the drivers left to pick, then each seat's driver on its line."""
    game = AutomobilesGame(num_players=3, drivers=True)
    state = game.new_state(5)
    s = state.data
    revealed = np.flatnonzero(s[st.DRIVER_POOL:st.DRIVER_POOL + 10])
    text = render.render_text(game, state)
    assert f"drivers to draft: {', '.join(game.drivers.names[k] for k in revealed)}" in text
    assert len(revealed) == 4 and "| driver " not in text
    while st.PHASE_NAMES[int(s[st.PHASE])] == "driver_draft":
        game.apply(state, int(np.flatnonzero(game.legal_mask(state))[0]))
    text = render.render_text(game, state)
    assert "drivers to draft" not in text
    for seat in range(3):
        name = game.drivers.names[int(s[st.DRIVER_OF + seat]) - 1]
        line = next(row for row in unfold(text) if row.startswith(f"player_{seat}:"))
        assert line.endswith(f"| driver {name}")
    picture = render.render_rgb(game, state)
    assert picture.ndim == 3 and picture.shape[2] == 3


def test_a_used_driver_ability_is_marked_for_the_seat_on_turn():
    """R-YUC Drivers: an ability is used at most once a turn; the render marks it used
    for the seat whose turn it is, and only for that seat."""
    game = AutomobilesGame(num_players=2)
    state = game.new_state(1)
    s = state.data
    s[st.DRIVER_OF + 0], s[st.DRIVER_OF + 1] = 3, 7
    s[st.DRIVER_USED] = 1
    turn = int(s[st.TURN_SEAT])
    lines = unfold(render.render_text(game, state))
    for seat, number in ((0, 3), (1, 7)):
        line = next(row for row in lines if row.startswith(f"player_{seat}:"))
        marked = f"| driver Driver {number:02d} (used this turn)"
        assert line.endswith(marked) == (seat == turn)


def test_turn_effects_are_listed_while_in_force():
    """Redline (white cubes on any gear colour, wear each), Fuel Injection (gear moves
    multiplied), Adrenaline option 2 (light gray spaces left), Crate Motor (spaces for
    each car behind, and the spaces still owed): one line while any is in force."""
    game = AutomobilesGame(num_players=3)
    state = game.new_state(2)
    s = state.data
    assert "this turn:" not in render.render_text(game, state)
    s[st.REDLINE], s[st.REDLINE_WEAR] = 1, 1
    s[st.FUEL] = 2
    s[st.ADR_LEFT] = 3
    s[st.CRATE_AWARD] = 2
    s[st.CRATE_SPACES + 2] = 4
    line = next(row for row in unfold(render.render_text(game, state))
                if row.startswith("this turn: "))
    assert line == ("this turn: Redline (white cubes on any gear colour, wear 1 each); "
                    "Fuel Injection (gear moves x2); Adrenaline (3 light gray spaces left); "
                    "Crate Motor (2 spaces to each car behind); "
                    "Crate Motor spaces still to move: player_2 4")


def test_the_base_render_has_no_expansion_lines():
    """With the expansion off nothing is added to a player's line or the table."""
    game = AutomobilesGame(num_players=2)
    state = game.new_state(3)
    text = render.render_text(game, state)
    assert "driver" not in text and "this turn:" not in text
