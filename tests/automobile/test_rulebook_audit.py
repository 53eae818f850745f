"""Rulebook audit: rules stated in RB that the other files did not yet pin down, each on a
constructed position (Ford per turn, loans per game, Howard before the salesmen, both
marker kinds on one space, passing in P6 is final, the P3 closure versus the one P6
closure, Durant on skipped spaces, the 28 cars over several spaces, pieces reused after
a closure)."""

from __future__ import annotations

from tests.automobile.table import Table
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import DURANT, FORD


def _spaces(t: Table) -> list[int]:
    return [x - a.A_SPACE for x in t.legal() if a.A_SPACE <= x < a.A_WHAT]


def _p6(players: int = 3) -> Table:
    """P6 with one produced middle-class space per seat (seat order = play order)."""
    t = Table(num_players=players)
    t.start_p3({0: "ford", 1: "kettering", 2: "chrysler", 3: "sloan", 4: "durant"}
               if players == 5 else {0: "ford", 1: "kettering", 2: "chrysler"})
    for seat, name in ((0, "Duryea"), (1, "Buick Model B"), (2, "Jackson Model 40")):
        t.factories(seat, name, 2, cars=6)
    k._phase6(t.s, t.p)
    return t


# ----- characters ------------------------------------------------------------------------------
def test_ford_extra_build_comes_back_with_the_ford_tile_next_turn():
    """Ford: after the extra build "turn the Ford marker" (once per turn); in P9 the
    character tiles go back on their spaces, so next turn's Ford (another player) has the
    extra build again."""
    t = Table(num_players=3)
    t.factories(2, "Duryea", 1)
    t.s[st.FORD_USED] = 1                          # this turn's Ford has built
    t.state["next_order"][:3] = [2, 0, 1]
    k._phase9(t.s, t.p)
    assert t.get("ford_used") == 0
    t.select({2: "ford", 0: "kettering", 1: "chrysler"})
    assert t.current == 2 and t.get("char_of", 2) == FORD
    assert a.A_FORD in t.legal()
    t.play(a.A_FORD, a.A_SPACE + 0, a.A_WHAT + a.WHAT_ONE)
    assert t.get("factories", 0) == 2 and t.get("ford_used") == 1
    t.check()


def test_durant_may_build_on_a_skipped_space_without_rd():
    """Durant: one factory on any unoccupied space; a space skipped over earlier costs no
    R&D, one ahead of the most advanced occupied space costs the cube Durant gives, two
    ahead (3 cubes) is out of reach."""
    t = Table(num_players=3)
    t.factories(1, "Overland Model 40", 1)         # index 5: 0-4 were skipped
    t.set_rd(0, 0)
    t.play(a.A_SELECT + DURANT)                    # +1 cube
    assert t.phase == st.PH_DURANT
    assert _spaces(t) == [0, 1, 2, 3, 4, 6]
    t.play(a.A_SPACE + 4)                          # the skipped Maxwell Model EA
    assert t.get("rd", 0) == 1 and t.cash(0) == 2000 - 300
    assert t.get("owner", 4) == 0 and t.get("factories", 4) == 1
    t.check()


def test_howard_sells_in_p4_before_the_salesmen_of_p5():
    """P4 comes before P5: Howard's player must sell two cars to Howard first, so with
    only two cars his salesman finds nothing to sell, is removed and gives a loss cube."""
    t = Table(num_players=3)
    t.start_p3({0: "kettering", 1: "howard", 2: "chrysler"})
    t.factories(1, "Duryea", 1, cars=2)
    t.salesmen(1, middle=1)
    t.to_phase(k._phase4)
    assert t.phase == st.PH_EXEC
    assert t.get("stat_sold_howard", 1) == 2 and t.get("stat_sold_salesmen", 1) == 0
    assert t.cash(1) == 2000 + 2 * 150
    assert t.get("loss", 1) == 1 and list(t.state["show"][3:6]) == [0, 0, 0]
    t.check()


# ----- P3 actions ------------------------------------------------------------------------------
def test_28_cars_count_over_every_space_of_a_production():
    """IV: however many spaces and actions, at most 28 cars a turn: with 14 already made,
    14 more on one space leave no room for the minimum of 10 on the next one, which is
    then not asked; skipping the first space frees it."""
    t = Table(num_players=3)
    t.start_p3({0: "kettering", 1: "howard", 2: "chrysler"})
    maxwell = t.factories(0, "Maxwell Model EA", 3)
    space09 = t.factories(0, "Space 09", 3)
    t.cars(maxwell, 14)
    t.play(a.A_PRODUCE)
    assert t.get("ctx_space") == maxwell
    t.play(a.A_QTY + 14)
    assert t.current == 1 and t.get("car_count", 0) == 28     # Space 09 was not asked
    t2 = Table(num_players=3)
    t2.start_p3({0: "kettering", 1: "howard", 2: "chrysler"})
    t2.factories(0, maxwell, 3)
    t2.factories(0, space09, 3)
    t2.cars(maxwell, 14)
    t2.play(a.A_PRODUCE, a.A_QTY + 0)
    assert t2.get("ctx_space") == space09
    qty = [x - a.A_QTY for x in t2.legal() if a.A_QTY <= x < a.A_MOVE]
    assert qty == [0, *range(10, 15)]


def test_closed_factories_go_back_to_the_stock_and_are_built_again():
    """V: "Your factory pieces go back into your stock and may be reused on other
    production spaces": with all six factories and the parts factory on the board nothing
    can be built; after closing a space of three, two can be built elsewhere."""
    t = Table(num_players=3)
    t.start_p3({0: "kettering", 1: "howard", 2: "chrysler"})
    t.factories(0, "Duryea", 3)
    t.factories(0, "Buick Model B", 3, parts=True)
    assert a.A_BUILD not in t.legal()
    t.play(a.A_CLOSE, a.A_SPACE + 0)
    assert t.get("fac_count", 0) == 3
    t.play(a.A_RD, a.A_RD)
    t.build("Jackson Model 40", a.WHAT_TWO)
    assert t.get("factories", 2) == 2 and t.get("fac_count", 0) == 5
    t.check()


def test_two_loans_per_game_not_per_turn():
    """Loans: "up to two loans during the game": the count is not reset at the end of a
    turn, and both cost $50 interest in every turn's P8."""
    t = Table(num_players=3)
    t.play(a.A_LOAN, a.A_LOAN)
    assert a.A_LOAN not in t.legal()
    t.start_p3({0: "kettering", 1: "howard", 2: "chrysler"})
    t.state["next_order"][:3] = [0, 1, 2]
    k._phase8(t.s, t.p)                             # turn 1: P8 then P9
    assert t.get("turn") == 1 and t.phase == st.PH_SELECT and t.current == 0
    assert t.get("stat_interest", 0) == 100 and t.cash(0) == 3000 - 100
    assert t.get("loans", 0) == 2 and a.A_LOAN not in t.legal()
    t.check()


# ----- P6 --------------------------------------------------------------------------------------
def test_one_space_may_hold_an_ad_and_discounts_which_then_sell_at_the_reduced_price():
    """P6, important: a space may hold one or two discount markers and an advertisement;
    P7: it then sells 1 + 1 + 2 cars a pass, all at the reduced price."""
    t = _p6()
    t.play(a.A_EXEC_DISC + 1, a.A_SPACE + 0)       # seat 0: the stack of two on Duryea
    t.play(a.A_PASS, a.A_PASS)                     # seats 1, 2
    t.play(a.A_EXEC_AD)                            # seat 0: the 2-cube ad...
    assert _spaces(t) == [0]                       # ...on the discounted space
    t.play(a.A_SPACE + 0)
    assert t.get("ad", 0) == 1 and t.get("disc", 0) == 2
    for seat, tile in ((0, 2), (1, 2), (2, 2)):
        t.set_tiles(seat, [tile])
    t.play(a.A_PASS)                               # P7: demand 6 middle cars
    assert t.get("stat_sold_demand", 0) == 4       # Duryea sells last: 4 in its pass
    assert t.get("stat_revenue", 0) == 4 * 100
    assert t.get("stat_sold_demand", 2) == 1 and t.get("stat_sold_demand", 1) == 1


def test_a_player_who_passed_is_not_asked_again():
    """P6, D) pass: the token leaves the character box; the others go on deciding until
    all have passed, and the first to pass is first in next turn's selection order."""
    t = _p6()
    assert t.current == 0
    t.play(a.A_PASS)
    seen = []
    for action in (a.A_EXEC_AD, a.A_SPACE + 1, a.A_EXEC_DISC + 1, a.A_SPACE + 2,
                   a.A_EXEC_DISC, a.A_SPACE + 1):
        if t.phase == st.PH_EXEC:
            seen.append(t.current)
        t.play(action)
    assert seen == [1, 2, 1] and t.current == 2
    t.play(a.A_PASS, a.A_PASS)
    assert t.state["sel_order"][:3].tolist() == [0, 2, 1]


def test_a_closure_by_action_v_leaves_the_one_executive_closure_free():
    """V / P6 A: closing by action in P3 is not limited; the single closure of the
    Executive Decisions display is still there in P6."""
    t = Table(num_players=3)
    t.start_p3({0: "kettering", 1: "howard", 2: "chrysler"})
    t.factories(0, "Duryea", 1)
    t.factories(1, "Buick Model B", 1)
    t.play(a.A_CLOSE, a.A_SPACE + 0)               # seat 0, round 1
    t.play(a.A_CLOSE, a.A_SPACE + 1)               # seat 1, round 1
    assert t.get("closures_used") == 0
    t.factories(0, "Maxwell Model EA", 1)
    k._phase6(t.s, t.p)
    assert a.A_EXEC_CLOSE in t.legal()
    t.play(a.A_EXEC_CLOSE, a.A_SPACE + 4)
    assert t.get("closed", 4) == 1 and t.get("closures_used") == 1
    t.check()
