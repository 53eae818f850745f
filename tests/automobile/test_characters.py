"""P2 Select characters, with Durant's immediate build and Ford's extra build (The
Characters). Sloan and Chrysler act in P8 (test_losses_and_end), Howard in P4
(test_sales)."""

from __future__ import annotations

import pytest

from tests.automobile.table import Table
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import CHARACTERS, DURANT, FORD, HOWARD, KETTERING


def test_selection_follows_selection_order_and_takes_the_cubes_on_the_tile():
    """P2: in selection order each player takes one character not yet taken, with the
    R&D cubes on it (Ford 1, Kettering 3, Sloan 1, Howard 0, Durant 1, Chrysler 2)."""
    t = Table(num_players=3, first_player=1)
    assert t.current == 1
    assert sorted(x - a.A_SELECT for x in t.legal() if x < 6) == list(range(6))
    t.play(a.A_SELECT + KETTERING)
    assert t.get("rd", 1) == 5 + 3 and t.get("char_rd", KETTERING) == 0
    assert t.current == 2 and a.A_SELECT + KETTERING not in t.legal()
    t.play(a.A_SELECT + HOWARD)
    assert t.get("rd", 2) == 5
    assert t.current == 0
    t.play(a.A_SELECT + FORD)
    assert t.get("rd", 0) == 6
    assert t.phase == st.PH_ACTION
    t.check()


def test_play_order_runs_from_ford_down_to_chrysler():
    """P2: the order of play for the following phases is the character display from top
    to bottom: Ford first, Chrysler last (Kettering, Sloan, Howard, Durant between)."""
    t = Table(num_players=5)
    t.select({0: "chrysler", 1: "howard", 2: "ford", 3: "sloan", 4: "kettering"})
    assert t.play_order() == [2, 4, 3, 1, 0]
    assert t.current == 2 and t.phase == st.PH_ACTION
    assert [CHARACTERS[t.get("char_of", s)] for s in t.play_order()] == [
        "ford", "kettering", "sloan", "howard", "chrysler"]


def test_durant_builds_at_once_on_an_unoccupied_space_with_his_new_cube():
    """Durant: immediately build one factory in an unoccupied space, paying its cost and
    any R&D for building ahead; the cube Durant gives may pay for it."""
    t = Table(num_players=3)
    t.set_rd(0, 0)
    t.play(a.A_SELECT + DURANT)
    assert t.phase == st.PH_DURANT and t.current == 0
    legal_spaces = [x - a.A_SPACE for x in t.legal() if a.A_SPACE <= x < a.A_WHAT]
    assert legal_spaces == [0]                     # 1 R&D reaches the Duryea only
    assert a.A_DONE not in t.legal()               # he must build
    t.play(a.A_SPACE + 0)
    assert t.get("owner", 0) == 0 and t.get("factories", 0) == 1
    assert t.cash(0) == 1800 and t.get("rd", 0) == 0
    assert t.current == 1 and t.phase == st.PH_SELECT
    t.check()


def test_durant_cannot_use_an_occupied_own_or_closed_space():
    """Durant: the space must be unoccupied (not his own, another's or a closed one)."""
    t = Table(num_players=3)
    t.factories(0, "Duryea", 1)
    t.factories(1, "Buick Model B", 1)
    t.closed("Jackson Model 40", 2)
    t.play(a.A_SELECT + DURANT)
    spaces = [x - a.A_SPACE for x in t.legal() if a.A_SPACE <= x < a.A_WHAT]
    assert 0 not in spaces and 1 not in spaces and 2 not in spaces
    assert 3 in spaces                              # one ahead of the frontier: 1 R&D
    t.play(a.A_SPACE + 3)
    assert t.get("rd", 0) == 5 + 1 - 1


def test_durant_declines_only_when_no_build_is_affordable():
    """Durant with too little money builds nothing (option ``durant_borrow=False``); he may
    still borrow first, which then obliges him to build."""
    t = Table(num_players=3)
    t.set_cash(0, 150)
    t.play(a.A_SELECT + DURANT)
    assert set(t.legal()) == {a.A_LOAN, a.A_DONE}
    t.play(a.A_LOAN)
    assert t.cash(0) == 650 and a.A_DONE not in t.legal()
    assert a.A_SPACE + 0 in t.legal()


def test_durant_borrow_option_forces_the_loan():
    """Option ``durant_borrow=True``: Durant must take the loans that make a build
    affordable; he may decline only when even they would not."""
    t = Table(num_players=3, durant_borrow=True)
    t.set_cash(0, 150)
    t.play(a.A_SELECT + DURANT)
    assert t.legal() == [a.A_LOAN]
    poor = Table(num_players=3, durant_borrow=True)
    poor.set_rd(0, 0)
    poor.set_cash(0, -2000)
    poor.play(a.A_SELECT + DURANT)
    assert set(poor.legal()) == {a.A_LOAN, a.A_DONE}


def test_durant_without_any_possible_build_is_skipped():
    """Durant with all six factories on the board has nothing to decide."""
    t = Table(num_players=3)
    t.factories(0, "Duryea", 3)
    t.factories(0, "Buick Model B", 3)
    t.play(a.A_SELECT + DURANT)
    assert t.phase == st.PH_SELECT and t.current == 1


def _ford_turn(**options) -> Table:
    t = Table(num_players=3, **options)
    t.factories(0, "Duryea", 1)
    t.start_p3({0: "ford", 1: "kettering", 2: "chrysler"})
    return t


def test_ford_extra_build_before_the_normal_action():
    """Ford: one extra factory or parts factory on a space where he has factories, at
    normal cost, before his normal action; then the normal action follows."""
    t = _ford_turn()
    assert a.A_FORD in t.legal()
    t.play(a.A_FORD)
    spaces = [x - a.A_SPACE for x in t.legal() if a.A_SPACE <= x < a.A_WHAT]
    assert spaces == [0]                                   # own spaces only
    t.play(a.A_SPACE + 0)
    assert set(t.legal()) - {a.A_LOAN} == {a.A_WHAT + a.WHAT_ONE, a.A_WHAT + a.WHAT_PARTS}
    t.play(a.A_WHAT + a.WHAT_ONE)
    assert t.get("factories", 0) == 2 and t.cash(0) == 1800
    assert t.phase == st.PH_ACTION and t.current == 0 and a.A_FORD not in t.legal()
    t.play(a.A_RD)
    assert t.current == 1                                  # no second Ford build
    t.check()


def test_ford_extra_build_after_the_normal_action_once_per_turn():
    """Ford: the extra build may come after the normal action (e.g. a third factory on the
    space just opened); once done it is gone for the turn."""
    t = _ford_turn()
    t.build("Buick Model B", a.WHAT_TWO)
    assert t.phase == st.PH_FORD_AFTER and t.current == 0
    t.play(a.A_FORD, a.A_SPACE + 1, a.A_WHAT + a.WHAT_ONE)
    assert t.get("factories", 1) == 3
    assert t.current == 1
    t.play(a.A_RD, a.A_RD)                                  # seats 1, 2
    assert t.current == 0 and a.A_FORD not in t.legal()
    t.play(a.A_RD)
    assert t.current == 1                                   # no Ford question any more


def test_ford_may_decline_after_the_action_and_keep_it_for_a_later_round():
    """Ford: declining after an action keeps the extra build for a later round."""
    t = _ford_turn()
    t.play(a.A_RD)
    assert t.phase == st.PH_FORD_AFTER
    t.play(a.A_DONE)
    t.play(a.A_RD, a.A_RD)
    assert t.current == 0 and a.A_FORD in t.legal()


@pytest.mark.parametrize("holder", ["kettering", "howard"])
def test_only_ford_has_the_extra_build(holder):
    """Ford's build belongs to the Ford tile: another player with factories has no such
    action before or after his own action."""
    t = Table(num_players=3)
    t.factories(0, "Duryea", 1)
    t.start_p3({0: holder, 1: "ford", 2: "chrysler"})
    assert t.current == 1
    t.play(a.A_RD)
    assert t.current == 0 and a.A_FORD not in t.legal()
    t.play(a.A_RD)
    assert t.current == 2 and t.phase == st.PH_ACTION
