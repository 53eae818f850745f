"""The readings of RB Loans ("at any point when you want"), of a payment
larger than a player's cash (P8 and Winning the game; the rulebook is silent) and of the
13 closed factory tiles (V. Close down). See docs/automobile.md, "Fixed interpretations"."""

from __future__ import annotations

import numpy as np
import pytest

from tests.automobile.table import Table
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.economy import take_loan
from transit_gym.envs.automobile.rules import AutomobileGame
from transit_gym.envs.core.game import State

LOAN_PHASES = {st.PH_SELECT, st.PH_DURANT, st.PH_ACTION, st.PH_BUILD_SPACE, st.PH_BUILD_WHAT,
               st.PH_FORD_AFTER, st.PH_SALESMEN, st.PH_PRODUCE, st.PH_CLOSE, st.PH_EXEC,
               st.PH_EXEC_SPACE}


@pytest.mark.parametrize("players", [3, 5])
def test_a_loan_is_offered_at_every_decision_before_p8_that_can_spend_money(players):
    """RB Loans: a player may borrow "at any point when you want", twice per game. Every
    decision of P2, P3 and P6 offers the loan while the seat holds fewer than two; the
    forced sales of P4/P5 (which cost nothing) do not (see the next test)."""
    game = AutomobileGame(players)
    seen = set()
    for seed in range(3):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while game.current_player(state) >= 0:
            phase = int(state["phase"][0])
            seat = int(state["current"][0])
            legal = game.legal_actions(state)
            room = int(state["loans"][seat]) < int(game.params[st.P_LOANS_MAX])
            assert (a.A_LOAN in legal) == (room and phase in LOAN_PHASES), (phase, seat)
            seen.add(phase)
            game.apply(state, int(rng.choice(legal)))
    assert {st.PH_SALE_MOVE, st.PH_EXEC, st.PH_ACTION} <= seen


def _first_non_loan(game: AutomobileGame, state: State) -> int:
    return next(x for x in game.legal_actions(state) if x != a.A_LOAN)


def _to_next_turn(game: AutomobileGame, state: State, borrower: int | None) -> None:
    """Play the first legal non-loan action until the next turn (or the end); ``borrower``
    takes a loan at its first P6 decision."""
    turn = int(state["turn"][0])
    while game.current_player(state) >= 0 and int(state["turn"][0]) == turn:
        if (borrower is not None and state["phase"][0] == st.PH_EXEC
                and int(state["current"][0]) == borrower):
            game.apply(state, a.A_LOAN)
            borrower = None
            continue
        game.apply(state, _first_non_loan(game, state))


def test_a_loan_during_the_forced_sales_equals_one_at_the_p6_decision():
    """RB Loans / P4-P6: nothing costs money between P4 and P8 and every seat decides at
    least once in P6 (a pass at the least), and interest is due on every loan held in P8.
    So a loan taken during P4/P5 gives exactly the position of the same loan taken at the
    seat's P6 decision: offering the loan there loses no timing."""
    game = AutomobileGame(3)
    compared = 0
    for seed in range(12):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while game.current_player(state) >= 0 and state["phase"][0] not in (
                st.PH_HOWARD, st.PH_SALE_MOVE, st.PH_SALE_CAR):
            legal = [x for x in game.legal_actions(state) if x != a.A_LOAN]
            game.apply(state, int(rng.choice(legal)))
        if game.current_player(state) < 0:
            continue
        seat = int(state["current"][0])
        if state["loans"][seat] >= game.params[st.P_LOANS_MAX]:
            continue
        early = state.copy()
        take_loan(early.data, game.params, seat)      # borrowed now, in P4/P5
        _to_next_turn(game, early, None)
        late = state.copy()
        _to_next_turn(game, late, seat)                # borrowed at its P6 decision
        assert np.array_equal(early.data, late.data)
        compared += 1
    assert compared >= 6


@pytest.mark.parametrize(("mode", "cash", "unpaid"), [("loan_then_debt", 350 - 600, 0),
                                                   ("debt", 350 - 600, 0),
                                                   ("forgive", 0, 250)])
def test_the_final_repayment_never_takes_a_new_loan(mode, cash, unpaid):
    """Winning the game: loans are repaid at $600 each. A new loan then would bring $500
    and cost $600 more, so none is taken, under every ``shortfall`` option: the default
    and ``debt`` leave the missing money as negative cash, ``forgive`` waives it."""
    t = Table(num_players=3, shortfall=mode)
    t.s[st.TURN] = 3
    t.start_p3({0: "kettering", 1: "howard", 2: "durant"})
    t.state["next_order"][:3] = [0, 1, 2]
    t.s[st.LOANS + 0] = 1
    t.set_cash(0, 400)                                # $50 interest in P8 leaves $350
    k._phase8(t.s, t.p)
    assert t.phase == st.PH_OVER
    assert t.cash(0) == cash and t.get("loans", 0) == 1
    assert t.get("stat_forced_loans", 0) == 0 and t.get("stat_unpaid", 0) == unpaid


def test_p8_borrows_only_what_the_payment_needs_then_runs_into_debt():
    """P8 (RB silent on a short player): by default the player borrows, as RB Loans lets
    them at any point, one loan at a time only while still short; with both loans taken
    the rest of the payment is debt (negative cash), counted against the final cash."""
    t = Table(num_players=3)
    t.s[st.TURN] = 1
    t.start_p3({0: "kettering", 1: "howard", 2: "durant"})
    t.state["next_order"][:3] = [0, 1, 2]
    t.set_cash(0, 200)
    t.s[st.LOSS + 0] = 30                             # 30 cubes at $20 = $600
    k._phase8(t.s, t.p)                               # one loan covers it and the $50
    assert t.get("loans", 0) == 1 and t.cash(0) == 200 + 500 - 600 - 50
    t2 = Table(num_players=3)
    t2.s[st.TURN] = 1
    t2.start_p3({0: "kettering", 1: "howard", 2: "durant"})
    t2.state["next_order"][:3] = [0, 1, 2]
    t2.set_cash(0, 0)
    t2.s[st.LOSS + 0] = 75                            # $1,500 > two loans
    k._phase8(t2.s, t2.p)
    assert t2.get("loans", 0) == 2 and t2.cash(0) == 1000 - 1500 - 100
    assert t2.get("stat_forced_loans", 0) == 2
    t2.check()


def test_fourteen_closures_keep_every_closed_space_closed_and_counting():
    """V. Close down: closing is not limited by the 13 tiles; the rulebook moves the
    earliest tiles and says this "should not impact the game", so the model keeps every
    closed space closed: the earliest still counts as occupied in P8 (RB P8) and still
    bars building (RB I. Build)."""
    t = Table(num_players=3)
    t.start_p3({0: "kettering", 1: "howard", 2: "durant"})
    for i in range(14):
        t.closed(i + 1, seat=i % 3)
    t.factories(1, 0, 1)                              # space 1, behind all 14 closed tiles
    mass = [i for i in range(1, 15) if t.game.data.segment[i] == t.game.data.segment[0]]
    assert int(t.state["closed"].sum()) == 14
    loss = t.get("loss", 1)
    k.allocate_losses(t.s, t.p)
    assert t.get("loss", 1) - loss == len(mass)       # every closed space ahead counts
    assert all(a.A_SPACE + i not in t.legal() for i in range(1, 15))
    t.check()
