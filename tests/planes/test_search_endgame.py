"""The search finds the winning move of a constructed Planes endgame.

Rulebook, "Winning the Game": once the end is triggered the game ends with the round; a
player scores the VP of its goals plus 5 for each of its party cubes boarded on its own
plane, most points wins. Move Phase: the mover picks up every cube of a space holding one
of its cubes and moves them forward, leaving one on each space; a last active cube in
front of a gate of its colour may board that plane.
"""

from __future__ import annotations

import pytest

from tests.planes.table import Table
from tests.planes.test_turn_and_end import _score_goals, _table
from transit_gym.agents.registry import make_agent
from transit_gym.envs.planes import state as st


def endgame() -> Table:
    """Two players (red seat 0, blue seat 1, the round's last seat); the end is already
    triggered. Red has a 3 VP goal, blue nothing. Blue picks a space to move from: S11
    (two blue cubes: one stays on S12, in front of blue's gate G2, and the last boards,
    5 VP, a win), S12 (blue and grey: both go past the gate), S10 (one blue cube, to S11)
    or S5 (blue and red, far from the gate): only S11 wins."""
    t = _table(2, end_draw="must")
    _score_goals(t, 0, "Move Twice")
    t.put("S11", blue=2)
    t.put("S10", blue=1)
    t.put("S12", grey=1, blue=1)
    t.put("S5", blue=1, red=1)
    t.s[st.END_TRIGGERED] = 1
    t.move(1)
    t.game.validate(t.state)
    return t


def best_outcome(game, state, seat: int) -> float:
    """Seat's reward when it makes every remaining decision as well as possible (the
    round, so the game, ends with its turn)."""
    if game.current_player(state) < 0:
        return float(game.rewards(state)[seat])
    assert game.current_player(state) == seat
    best = -1.0
    for action in game.legal_actions(state):
        child = state.copy()
        game.apply(child, int(action))
        best = max(best, best_outcome(game, child, seat))
    return best


def test_only_moving_from_s11_wins():
    t = endgame()
    game = t.game
    assert game.scores(t.state) == [3, 0]
    assert sorted(t.legal()) == sorted(t.SPACE(s) for s in ("S5", "S10", "S11", "S12"))
    for action in t.legal():
        child = t.state.copy()
        game.apply(child, action)
        assert best_outcome(game, child, 1) == (1.0 if action == t.SPACE("S11") else -1.0)


@pytest.mark.parametrize("seed", range(4))
def test_search_moves_the_two_cubes_from_s11_and_boards(seed):
    """The first decision, then every later one of the turn, is the winning one."""
    t = endgame()
    agent = make_agent("mcts:64", t.game, seed=seed)
    assert agent.act_state(t.state, 1) == t.SPACE("S11")
    while t.game.current_player(t.state) == 1:
        t.play(agent.act_state(t.state, 1))
    assert t.game.rewards(t.state).tolist() == [-1.0, 1.0]
    assert t.game.scores(t.state) == [3, 5]
