"""The search finds the winning move of a constructed Automobile endgame.

Rulebook, "Winning the Game": after the fourth turn (P9 skipped) factories pay their full
cost, loans are repaid at $600 each, the most cash wins, and a tie goes to the player
earliest in the order of play, i.e. the one who passed first in P6 (Executive Decisions).
"""

from __future__ import annotations

import pytest

from tests.automobile.table import Table
from transit_gym.agents.registry import make_agent
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import state as st


def endgame() -> Table:
    """Three players in P6 of the fourth turn, seat 0 first in the order of play. Seat 0
    holds $2000, a Pathfinder 40 factory ($400 at the end) with one car produced (the
    premium demand, one bag tile of at least 2, sells it for $200) and 2 R&D cubes;
    seats 1 and 2 hold $2600 and nothing else. Everyone ends with $2600 unless seat 0
    spends, so passing first wins the tie. Advertising changes no sale (the one car
    sells anyway) but lets seat 1 pass first; closing the Pathfinder gives up its $400;
    a loan costs $50 interest and $600 back for $500: each loses."""
    t = Table(num_players=3)
    t.s[st.TURN] = 3
    for seat, tiles in ((0, [2, 3]), (1, [4, 5]), (2, [2, 4])):
        t.set_tiles(seat, tiles)                   # two tiles each from turn 2 on (P1)
    t.start_p3({0: "ford", 1: "kettering", 2: "chrysler"})
    t.s[st.ROUND] = 3                               # the three action rounds are done
    t.factories(0, "Pathfinder 40", 1, cars=1)
    t.set_rd(0, 2)
    t.set_cash(1, 2600)
    t.set_cash(2, 2600)
    k._phase6(t.s, t.p)
    t.game.validate(t.state)
    return t


def plain_finish(game, state) -> list[float]:
    """Rewards when every later decision passes (or, when it cannot, takes the first
    choice that is not a loan)."""
    state = state.copy()
    while game.current_player(state) >= 0:
        legal = game.legal_actions(state)
        choice = a.A_PASS if a.A_PASS in legal else next(x for x in legal if x != a.A_LOAN)
        game.apply(state, int(choice))
    return game.rewards(state).tolist()


def test_passing_first_wins_and_every_other_decision_loses():
    t = endgame()
    game = t.game
    assert t.current == 0 and t.play_order() == [0, 1, 2]
    assert sorted(t.legal()) == sorted([a.A_LOAN, a.A_EXEC_CLOSE, a.A_EXEC_AD, a.A_PASS])
    for action in t.legal():
        child = t.state.copy()
        game.apply(child, action)
        won = plain_finish(game, child)[0] == 1.0
        assert won == (action == a.A_PASS), game.describe_action(t.state, action)
    # after seat 0's pass nothing the others may do (pass, or borrow first) changes that
    passed = t.state.copy()
    game.apply(passed, a.A_PASS)
    for replies in ([a.A_LOAN], [a.A_PASS, a.A_LOAN], [a.A_LOAN, a.A_LOAN]):
        child = passed.copy()
        for reply in replies:                       # the next decisions, by seats 1-2
            assert reply in game.legal_actions(child)
            game.apply(child, reply)
        assert plain_finish(game, child)[0] == 1.0


@pytest.mark.parametrize("seed", range(4))
def test_search_passes_first(seed):
    t = endgame()
    agent = make_agent("mcts:64", t.game, seed=seed)
    assert agent.act_state(t.state, 0) == a.A_PASS
