"""P6 Executive decisions: A) close one space, B) advertisement, C) discounts, D) pass."""

from __future__ import annotations

import pytest

from tests.automobile.table import Table
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import state as st


def _p6(**options) -> Table:
    """Three players in P6, each with a produced middle space and seat 0 also premium."""
    t = Table(num_players=3, **options)
    t.start_p3({0: "ford", 1: "kettering", 2: "chrysler"})
    for seat, name in ((0, "Duryea"), (1, "Buick Model B"), (2, "Jackson Model 40")):
        t.factories(seat, name, 2, cars=4)
    t.factories(0, "Pathfinder 40", 1, cars=2)
    t.factories(0, "Maxwell Model EA", 1)          # built, but nothing produced there
    k._phase6(t.s, t.p)
    return t


def _spaces(t: Table) -> list[int]:
    return [x - a.A_SPACE for x in t.legal() if a.A_SPACE <= x < a.A_WHAT]


def test_decisions_go_round_in_play_order_until_all_pass_and_fix_the_selection_order():
    """P6: in order of play each player makes one decision, repeated until all have
    passed; the order of passing is next turn's selection order."""
    t = _p6()
    assert t.current == 0 and a.A_PASS in t.legal()
    assert a.A_LOAN in t.legal()                   # the last decision before P8's payments
    t.play(a.A_EXEC_AD, a.A_SPACE + 0)             # seat 0 advertises
    assert t.current == 1
    t.play(a.A_PASS)
    assert t.current == 2
    t.play(a.A_PASS)
    assert t.current == 0
    t.play(a.A_PASS)
    assert t.get("turn") == 1 and t.phase == st.PH_SELECT
    assert t.state["sel_order"][:3].tolist() == [1, 2, 0]


def test_only_one_executive_closure_per_turn():
    """P6 A: only one player can close a space this way (one closed tile on the display);
    it works as action V (refund, half the loss cubes)."""
    t = _p6()
    t.s[st.LOSS] = 3
    t.play(a.A_EXEC_CLOSE)
    assert _spaces(t) == [0, 4, 7]
    t.play(a.A_SPACE + 4)
    assert t.cash(0) == 2000 + 200 and t.get("loss", 0) == 1 and t.get("closed", 4) == 1
    assert a.A_EXEC_CLOSE not in t.legal()        # seat 1 cannot close any more
    t.play(a.A_PASS, a.A_PASS)
    assert a.A_EXEC_CLOSE not in t.legal()
    t.check()


def test_advertisements_cost_2_then_1_then_1_rd_one_per_space():
    """P6 B: three ads; the first bought costs 2 R&D, the others 1; placed on a space where
    the buyer produced this turn (premium allowed), at most one ad per space."""
    t = _p6()
    t.play(a.A_EXEC_AD)
    assert _spaces(t) == [0, 7]                    # produced spaces only, not Maxwell
    t.play(a.A_SPACE + 7)
    assert t.get("rd", 0) == 5 - 2 and t.get("ad", 7) == 1
    t.play(a.A_EXEC_AD, a.A_SPACE + 1)
    assert t.get("rd", 1) == 5 - 1
    t.play(a.A_PASS)
    t.play(a.A_EXEC_AD)
    assert _spaces(t) == [0]                       # the Pathfinder has its ad
    t.play(a.A_SPACE + 0)
    assert t.get("rd", 0) == 3 - 1
    t.play(a.A_PASS)
    assert a.A_EXEC_AD not in t.legal()            # all three sold
    t.check()


def test_the_first_ad_needs_two_cubes():
    """P6 B, important: the first player to buy an advertisement must buy the one costing
    two R&D cubes; with one cube the decision is not offered."""
    t = _p6()
    t.set_rd(0, 1)
    assert a.A_EXEC_AD not in t.legal()


def test_discounts_a_stack_of_two_and_two_singles_not_on_premium_once_per_space():
    """P6 C: take the stack of two (both on one space) or one single marker; only on a
    space that produced this turn, never premium, and only once per space per turn."""
    t = _p6()
    assert {a.A_EXEC_DISC, a.A_EXEC_DISC + 1} <= set(t.legal())
    t.play(a.A_EXEC_DISC + 1)
    assert _spaces(t) == [0]                       # not Pathfinder (premium), not Maxwell
    t.play(a.A_SPACE + 0)
    assert t.get("disc", 0) == 2 and t.state["disc_avail"][:3].tolist() == [0, 1, 1]
    assert a.A_EXEC_DISC + 1 not in t.legal()      # the stack is gone
    t.play(a.A_EXEC_DISC, a.A_SPACE + 1)
    assert t.get("disc", 1) == 1
    t.play(a.A_PASS)                               # seat 2
    assert a.A_EXEC_DISC not in t.legal()          # seat 0: no space left for discounts
    t.play(a.A_PASS)
    assert t.current == 1 and a.A_EXEC_DISC not in t.legal()   # Buick B has its marker
    t.check()


@pytest.mark.parametrize("allowed", [True, False])
def test_markers_on_a_space_closed_after_producing(allowed):
    """Option ``markers_on_closed``: a space closed after it produced still sells its cars;
    by default it may still get ads and discounts, with ``False`` it may not."""
    t = _p6(markers_on_closed=allowed)
    t.play(a.A_EXEC_CLOSE, a.A_SPACE + 0)          # seat 0 closes the Duryea, cars stay
    t.play(a.A_PASS, a.A_PASS)
    t.play(a.A_EXEC_AD)
    assert (0 in _spaces(t)) == allowed and 7 in _spaces(t)
