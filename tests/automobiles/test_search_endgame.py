"""The search finds the winning move of a constructed Automobiles endgame.

Rulebook, "Winning the Game": once a car on its Final Lap crosses the finish line the game
ends with the round; the car farthest past the line wins, ties going to the innermost lane.
Action Phase (movement): every cube placed on the track starts next to the player's own
car or to one of its cubes already there and must move the car forward.
"""

from __future__ import annotations

import pytest

from tests.automobiles.table import PIT_STOP, STOP, Table, activate
from tests.core.endgame import outcomes, search_turn
from transit_gym.envs.automobiles import state as st


def endgame() -> Table:
    """Two players, three laps. Seat 0 has crossed the line on its final lap and sits in
    the black outer lane with its front edge 6 past the line; it is seat 1's turn, the
    last of the round. Seat 1 waits just behind the line on its final lap (white space,
    lane 0) with a dark gray and a light gray cube in its active pile. Dark gray first
    (lane 1, front edge 4) lets the light gray cube start beside it and reach lane 0's
    space ending at 6: level with seat 0, inner lane, a win. Light gray first (lane 0,
    front edge 2) leaves the dark gray cube only lane 1's first space (front edge 4):
    behind, a loss. Ending the Action Phase or a Pit Stop leaves the car where it is."""
    t = Table(2, laps=3)
    t.put_car(0, 2, 3, lap=3)
    t.put_car(1, 0, 39, lap=2)
    for seat in range(2):
        t.give(seat, "bag", white=5)
    t.give(1, "active", dark_gray=1, light_gray=1)
    t.s[st.END_TRIGGERED] = 1
    t.turn(1)
    t.game.validate(t.state)
    return t


def stop_once_buying(game, state):
    """Once the Buy Phase is reached the car has moved and buying cannot change the race:
    the game stopped out from there (the other seat never moves again: the round ends with
    this turn)."""
    if game.current_player(state) >= 0 and state["phase"][0] == st.PH_BUY:
        state = state.copy()
        while game.current_player(state) >= 0:
            game.apply(state, STOP)
    return state


def test_only_the_dark_gray_cube_first_wins():
    """The position is what the docstring says: of the four legal actions only
    activating the dark gray cube first can still win."""
    t = endgame()
    game = t.game
    winning = activate("dark_gray")
    assert sorted(t.legal()) == sorted([STOP, PIT_STOP, activate("light_gray"), winning])
    assert outcomes(game, t.state, 1, stop_once_buying) == {
        action: 1.0 if action == winning else -1.0 for action in t.legal()}


@pytest.mark.parametrize("seed", range(4))
def test_search_plays_the_dark_gray_cube_first_and_wins(seed):
    """The first decision, then the rest of the turn, played by the search."""
    t = endgame()
    assert search_turn(t.game, t.state, 1, seed) == activate("dark_gray")
    assert t.game.rewards(t.state).tolist() == [-1.0, 1.0]
