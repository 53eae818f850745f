"""The search finds the winning move of a constructed Planes endgame.

Rulebook, "Winning the Game": once the end is triggered the game ends with the round; a
player scores the VP of its goals plus 5 for each of its party cubes boarded on its own
plane, most points wins. Move Phase: the mover picks up every cube of a space holding one
of its cubes and moves them forward, leaving one on each space; a last active cube in
front of a gate of its colour may board that plane.
"""

from __future__ import annotations

import pytest

from tests.core.endgame import outcomes, search_turn
from tests.planes.table import Table, empty_table
from tests.planes.test_turn_and_end import _score_goals
from transit_gym.envs.planes import state as st


def endgame() -> Table:
    """Two players (red seat 0, blue seat 1, the round's last seat); the end is already
    triggered. Red has a 3 VP goal, blue nothing. Blue picks a space to move from: S11
    (two blue cubes: one stays on S12, in front of blue's gate G2, and the last boards,
    5 VP, a win), S12 (blue and grey: both go past the gate), S10 (one blue cube, to S11)
    or S5 (blue and red, far from the gate): only S11 wins."""
    t = empty_table(2, end_draw="must")
    _score_goals(t, 0, "Move Twice")
    t.put("S11", blue=2)
    t.put("S10", blue=1)
    t.put("S12", grey=1, blue=1)
    t.put("S5", blue=1, red=1)
    t.s[st.END_TRIGGERED] = 1
    t.move(1)
    t.game.validate(t.state)
    return t


def test_only_moving_from_s11_wins():
    t = endgame()
    game = t.game
    assert game.scores(t.state) == [3, 0]
    assert sorted(t.legal()) == sorted(t.SPACE(s) for s in ("S5", "S10", "S11", "S12"))
    assert outcomes(game, t.state, 1) == {
        action: 1.0 if action == t.SPACE("S11") else -1.0 for action in t.legal()}


@pytest.mark.parametrize("seed", range(4))
def test_search_moves_the_two_cubes_from_s11_and_boards(seed):
    """The first decision, then every later one of the turn, is the winning one."""
    t = endgame()
    assert search_turn(t.game, t.state, 1, seed) == t.SPACE("S11")
    assert t.game.rewards(t.state).tolist() == [-1.0, 1.0]
    assert t.game.scores(t.state) == [3, 5]
