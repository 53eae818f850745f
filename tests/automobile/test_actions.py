"""P3 Player actions: the three rounds, I. Build factory (with Parts factory), II. Place
salesmen, III. Take two R&D cubes, IV. Produce cars, V. Close down, and Loans."""

from __future__ import annotations

import pytest

from tests.automobile.table import Table
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import MASS, MIDDLE, PREMIUM


def _p3(num_players: int = 3, **options) -> Table:
    t = Table(num_players=num_players, **options)
    t.start_p3({0: "kettering", 1: "howard", 2: "chrysler", 3: "ford", 4: "sloan"}
               if num_players == 5 else {0: "kettering", 1: "howard", 2: "chrysler"})
    return t


def _spaces(t: Table) -> list[int]:
    return [x - a.A_SPACE for x in t.legal() if a.A_SPACE <= x < a.A_WHAT]


def _whats(t: Table) -> set[int]:
    return {x - a.A_WHAT for x in t.legal() if a.A_WHAT <= x < a.A_SHOWROOM}


# ----- the three action rounds -----------------------------------------------------------
def test_three_action_rounds_in_character_order():
    """P3: three rounds; in each, every player performs exactly one action, in the order
    of the characters; the same action may be repeated."""
    t = _p3()
    seen = []
    while t.phase == st.PH_ACTION:
        seen.append(t.current)
        assert t.get("round") == len(seen[:-1]) // 3
        t.play(a.A_RD)
    assert seen == [0, 1, 2] * 3
    # 17 cubes were in the stock: the ninth action finds only one
    assert [t.get("rd", s) for s in range(3)] == [11, 11, 10] and t.get("rd_stock") == 0


def test_take_two_rd_cubes_from_a_finite_stock():
    """III: take two cubes from the stock; a depleted stock gives what is left (none when
    empty), the action stays available."""
    t = _p3()
    stock = t.get("rd_stock")
    t.set_rd(2, 5 + stock - 1)          # leave one cube in the stock
    t.play(a.A_RD)
    assert t.get("rd", 0) == 6 and t.get("rd_stock") == 0
    t.play(a.A_RD)
    assert t.get("rd", 1) == 5
    assert a.A_RD in t.legal()
    t.check()


# ----- I. Build factory ------------------------------------------------------------------------
def test_rd_cost_to_build_ahead_at_game_start_is_1_3_6():
    """I. Build, note: at the start the Duryea costs 1 R&D, the Buick Model B 3 and the
    Jackson Model 40 6; the R&D is paid per build, not per factory."""
    for space, cubes in ((0, 1), (1, 3), (2, 6)):
        t = _p3()
        t.set_rd(0, 6)
        t.build(space, a.WHAT_TWO)
        assert t.get("rd", 0) == 6 - cubes
        assert t.cash(0) == 2000 - 2 * int(t.game.data.cost[space])
        assert t.get("factories", space) == 2
        t.check()
    t = _p3()
    t.set_rd(0, 5)
    t.play(a.A_BUILD)
    assert _spaces(t) == [0, 1]                       # 6 cubes needed for Jackson


def test_build_example_skip_a_space_and_skipped_spaces_are_free():
    """I. Build, example: with the Duryea built, two factories on the Jackson Model 40 cost
    $600 and 3 R&D; the skipped Buick Model B can later be built with no R&D."""
    t = _p3()
    t.factories(2, "Duryea", 1)
    t.build("Jackson Model 40", a.WHAT_TWO)
    assert t.cash(0) == 1400 and t.get("rd", 0) == 2
    t.set_rd(1, 0)
    t.build("Buick Model B")
    assert t.get("owner", 1) == 1 and t.cash(1) == 1750 and t.get("rd", 1) == 0
    t.check()


def test_one_owner_per_space_and_no_building_on_closed_spaces():
    """I. Build: a space holds factories of one player only; nobody builds on a closed one."""
    t = _p3()
    t.factories(1, "Duryea", 1)
    t.closed("Buick Model B", 2)
    t.play(a.A_BUILD)
    spaces = _spaces(t)
    assert 0 not in spaces and 1 not in spaces and 2 in spaces


def test_max_three_factories_and_one_parts_factory_per_space():
    """I. Build, important: at most three factories and one parts factory in a space."""
    t = _p3()
    t.factories(0, "Duryea", 2)
    t.play(a.A_BUILD, a.A_SPACE + 0)
    assert _whats(t) == {a.WHAT_ONE, a.WHAT_PARTS, a.WHAT_ONE_PARTS}   # not two more
    t.play(a.A_WHAT + a.WHAT_ONE_PARTS)
    assert t.get("factories", 0) == 3 and t.get("parts", 0) == 1
    assert t.cash(0) == 2000 - 200 - 500
    t.play(a.A_RD, a.A_RD)
    t.play(a.A_BUILD)
    assert 0 not in _spaces(t)                         # the space is full
    t.check()


def test_six_factories_per_player():
    """Components: six factories per player."""
    t = _p3()
    t.factories(0, "Duryea", 3)
    t.factories(0, "Buick Model B", 1)
    t.factories(0, "Jackson Model 40", 1)
    t.play(a.A_BUILD, a.A_SPACE + 2)                   # room for two more on the space...
    assert _whats(t) == {a.WHAT_ONE, a.WHAT_PARTS, a.WHAT_ONE_PARTS}  # ...but one in stock
    t.play(a.A_WHAT + a.WHAT_ONE)
    t.play(a.A_RD, a.A_RD)
    assert a.A_BUILD in t.legal()                      # the parts factory is still possible
    t.play(a.A_BUILD, a.A_SPACE + 2)
    assert _whats(t) == {a.WHAT_PARTS}


def test_parts_factory_rules():
    """Parts factory: $500 on any space, only with own factories there (never alone), one
    per player."""
    t = _p3()
    t.factories(0, "Duryea", 1)
    t.play(a.A_BUILD, a.A_SPACE + 0)                   # own space: parts alone or with one
    assert {a.WHAT_PARTS, a.WHAT_ONE_PARTS} <= _whats(t)
    t2 = _p3()
    t2.factories(0, "Duryea", 1)
    t2.factories(0, "Buick Model B", 1, parts=True)
    t2.play(a.A_BUILD, a.A_SPACE + 0)
    assert a.WHAT_PARTS not in _whats(t2)              # the only parts factory is in use
    t3 = _p3()
    t3.factories(0, "Cord 810", 1)
    t3.play(a.A_BUILD, a.A_SPACE + 25, a.A_WHAT + a.WHAT_PARTS)
    assert t3.cash(0) == 1500 and t3.get("parts_at", 0) == 25


@pytest.mark.parametrize(("allowed", "whats"), [
    (False, {a.WHAT_ONE, a.WHAT_TWO}),
    (True, {a.WHAT_ONE, a.WHAT_TWO, a.WHAT_ONE_PARTS}),
])
def test_parts_factory_on_a_new_space_option(allowed, whats):
    """Parts factory (Components, General Information; summary of I. Build): it goes on a
    space "already containing" the player's factories, so by default one action cannot open
    a new space with a factory and the parts factory (``parts_with_new_factory=False``);
    ``True`` reads "a factory and a parts factory" in one action as allowing it."""
    t = _p3(parts_with_new_factory=allowed)
    t.factories(0, "Duryea", 1)
    t.play(a.A_BUILD, a.A_SPACE + 1)                   # a new space, one ahead: 1 R&D
    assert _whats(t) == whats
    if allowed:
        t.play(a.A_WHAT + a.WHAT_ONE_PARTS)
        assert t.get("parts", 1) == 1 and t.get("factories", 1) == 1
        assert t.cash(0) == 2000 - 250 - 500 and t.get("rd", 0) == 4
        t.check()


def test_building_needs_the_money_and_the_rd():
    """I. Build: the factory cost must be paid; the R&D for building ahead too."""
    t = _p3()
    t.set_cash(0, 199)
    assert a.A_BUILD not in t.legal()
    t.set_cash(0, 200)
    t.set_rd(0, 0)
    assert a.A_BUILD not in t.legal()
    t.set_rd(0, 1)
    t.play(a.A_BUILD)
    assert _spaces(t) == [0]
    t.play(a.A_SPACE + 0)
    assert _whats(t) == {a.WHAT_ONE}


@pytest.mark.parametrize(("frontier", "cubes"), [("furthest", 1), ("open", 3)])
def test_frontier_option_after_closing_the_most_advanced_space(frontier, cubes):
    """I. Build: R&D counts from the most advanced occupied space. ``furthest`` (default):
    a closed space still counts; ``open``: only spaces that hold factories."""
    t = _p3(frontier=frontier)
    t.factories(1, "Duryea", 1)
    t.closed("Buick Model B", 2)
    t.build("Jackson Model 40")
    assert t.get("rd", 0) == 5 - cubes


# ----- II. Place salesmen ----------------------------------------------------------------------
def test_place_up_to_three_salesmen_one_at_a_time():
    """II: up to three salesmen per action, each into any showroom; stop after one or two."""
    t = _p3()
    t.play(a.A_SALESMEN)
    assert a.A_DONE not in t.legal()                   # at least one
    t.play(a.A_SHOWROOM + MIDDLE)
    assert a.A_DONE in t.legal()
    t.play(a.A_SHOWROOM + PREMIUM, a.A_SHOWROOM + MASS)
    assert t.current == 1                              # three placed: the action ends
    assert list(t.state["show"][0:3]) == [1, 1, 1]
    t.place_salesmen(MIDDLE)
    assert list(t.state["show"][3:6]) == [0, 1, 0] and t.current == 2


def test_at_most_eight_salesmen():
    """II: eight is the maximum number of salesmen a player can place."""
    t = _p3()
    t.salesmen(0, middle=7)
    t.play(a.A_SALESMEN, a.A_SHOWROOM + MASS)
    assert t.current == 1
    t.play(a.A_RD, a.A_RD)
    assert a.A_SALESMEN not in t.legal()


# ----- IV. Produce cars --------------------------------------------------------------------------
def test_produce_example_min_and_max_and_costs():
    """IV, example: three middle-class cars from one factory cost $210; the minimum of four
    from two factories costs $280. Each own space is asked in turn; 0 skips it."""
    t = _p3()
    t.factories(0, "Duryea", 1)
    t.factories(0, "Jackson Model 40", 2)
    t.play(a.A_PRODUCE)
    assert t.get("ctx_space") == 0
    qty = [x - a.A_QTY for x in t.legal() if a.A_QTY <= x < a.A_MOVE]
    assert qty == [0, 1, 2, 3]
    t.play(a.A_QTY + 3)
    assert t.get("ctx_space") == 2
    qty = [x - a.A_QTY for x in t.legal() if a.A_QTY <= x < a.A_MOVE]
    assert qty == [0, 4, 5, 6, 7]
    t.play(a.A_QTY + 4)
    assert t.cash(0) == 2000 - 210 - 280
    assert t.get("cars", 0) == 3 and t.get("cars", 2) == 4 and t.get("car_count", 0) == 7
    assert t.current == 1
    t.check()


@pytest.mark.parametrize(("segment_space", "factories", "lo", "hi", "unit"), [
    ("Maxwell Model EA", 3, 10, 14, 50), ("Pathfinder 40", 2, 3, 4, 100),
    ("Overland Model 40", 3, 8, 11, 70), ("Space 07", 1, 1, 4, 50),
])
def test_production_table_by_segment(segment_space, factories, lo, hi, unit):
    """IV: the production table (min-max by factories and segment, cost per car)."""
    t = _p3()
    i = t.factories(0, segment_space, factories)
    t.play(a.A_PRODUCE)
    qty = [x - a.A_QTY for x in t.legal() if a.A_QTY <= x < a.A_MOVE]
    assert qty == [0, *range(lo, hi + 1)]
    t.play(a.A_QTY + hi)
    assert t.cash(0) == 2000 - hi * unit and t.get("cars", i) == hi


def test_parts_factory_cuts_20_per_car():
    """IV: a parts factory reduces the cost per car by $20 on its space."""
    t = _p3()
    t.factories(0, "Maxwell Model EA", 2, parts=True)
    t.produce({"Maxwell Model EA": 9})
    assert t.cash(0) == 2000 - 9 * 30


def test_production_is_limited_by_money_and_the_28_cars():
    """IV: no more than you can pay; at most 28 cars per turn (the stock); producing again
    in a later round is allowed within the same limits."""
    t = _p3()
    i = t.factories(0, "Maxwell Model EA", 3)
    t.set_cash(0, 600)
    t.play(a.A_PRODUCE)
    qty = [x - a.A_QTY for x in t.legal() if a.A_QTY <= x < a.A_MOVE]
    assert qty == [0, 10, 11, 12]
    t.play(a.A_QTY + 12)
    t.set_cash(0, 5000)
    t.play(a.A_RD, a.A_RD)
    t.produce({i: 14})                                 # second production this turn
    assert t.get("cars", i) == 26
    t.play(a.A_RD, a.A_RD)
    assert a.A_PRODUCE not in t.legal()                # 2 cars left, the minimum is 10
    t.check()


def test_produce_needs_a_factory():
    """IV: cars are produced only in spaces where the player has factories; without any,
    the action is not offered."""
    t = _p3()
    assert a.A_PRODUCE not in t.legal()


# ----- V. Close down -----------------------------------------------------------------------
def test_close_example_refund_and_closed_tile():
    """V, example: closing two factories on the Jackson Model 40 ($300) pays $400; a parts
    factory pays $400; a closed tile stays; the pieces return to the player's stock."""
    t = _p3()
    t.factories(0, "Jackson Model 40", 2, parts=True)
    t.play(a.A_CLOSE)
    assert _spaces(t) == [2]
    t.play(a.A_SPACE + 2)
    assert t.cash(0) == 2000 + 400 + 400
    assert t.get("closed", 2) == 1 and t.get("factories", 2) == 0
    assert t.get("fac_count", 0) == 0 and t.get("parts_at", 0) == -1
    t.play(a.A_RD, a.A_RD)
    t.play(a.A_BUILD)
    assert 2 not in _spaces(t)
    t.check()


@pytest.mark.parametrize(("held", "left"), [(9, 4), (5, 2), (1, 0), (0, 0)])
def test_closing_discards_half_the_loss_cubes_rounded_up(held, left):
    """V, important: each closure discards half of the loss cubes held, rounded up."""
    t = _p3()
    t.factories(0, "Duryea", 1)
    t.s[st.LOSS] = held
    t.play(a.A_CLOSE, a.A_SPACE + 0)
    assert t.get("loss", 0) == left


def test_cars_stay_on_a_closed_space():
    """V: cars produced earlier in the turn stay on the closed space and can be sold."""
    t = _p3()
    t.factories(0, "Duryea", 1)
    t.produce({"Duryea": 3})
    t.play(a.A_RD, a.A_RD)
    t.play(a.A_CLOSE, a.A_SPACE + 0)
    assert t.get("cars", 0) == 3 and t.get("owner", 0) == 0 and t.get("car_count", 0) == 3
    t.check()


def test_parts_factory_returns_to_stock_on_closing_and_can_be_rebuilt():
    """Parts factory: closing the space of the parts factory puts it back in the player's
    stock; it can be rebuilt in a later action (with a refund of $400 on closing)."""
    t = _p3()
    t.factories(0, "Duryea", 1, parts=True)
    t.factories(0, "Maxwell Model EA", 1)
    t.play(a.A_CLOSE, a.A_SPACE + 0)
    assert t.get("parts_at", 0) == -1 and t.cash(0) == 2000 + 100 + 400
    t.play(a.A_RD, a.A_RD)
    t.play(a.A_BUILD, a.A_SPACE + 4, a.A_WHAT + a.WHAT_PARTS)
    assert t.get("parts_at", 0) == 4 and t.get("parts", 4) == 1
    assert t.cash(0) == 2500 - 500
    t.check()


def test_closing_is_not_limited_by_the_13_closed_factory_tiles():
    """V: the 13 closed factory tiles do not limit closing (RB: reuse the earliest ones);
    a 14th closure, by action V and by executive decision, still closes the space."""
    t = _p3()
    for i in range(13):
        t.closed(i, seat=i % 3)
    t.factories(0, "Space 14", 1)
    t.factories(1, "Space 15", 1)
    t.play(a.A_CLOSE, a.A_SPACE + 13)
    assert t.get("closed", 13) == 1 and int(t.state["closed"].sum()) == 14
    k._phase6(t.s, t.p)
    t.play(a.A_PASS)                                   # seat 0
    t.play(a.A_EXEC_CLOSE, a.A_SPACE + 14)             # seat 1
    assert t.get("closed", 14) == 1 and int(t.state["closed"].sum()) == 15
    assert t.get("closed", 0) == 1                     # the earliest tile stays: no effect
    t.check()


# ----- Loans -------------------------------------------------------------------------------
def test_loans_500_each_at_most_two():
    """Loans: up to two per player, $500 each, taken at any decision of P2, P3 and P6."""
    t = Table(num_players=3)
    assert a.A_LOAN in t.legal()
    t.play(a.A_LOAN)
    assert t.cash(0) == 2500 and t.get("loans", 0) == 1 and t.phase == st.PH_SELECT
    t.play(a.A_LOAN)
    assert a.A_LOAN not in t.legal() and t.cash(0) == 3000
    t.check()


# ----- audit additions ------------------------------------------------------------------------
@pytest.mark.parametrize(("space", "cubes"), [(6, 1), (7, 3), (8, 6), (9, 10)])
def test_rd_ahead_is_counted_from_the_most_advanced_occupied_space_mid_game(space, cubes):
    """I. Build: with the Overland Model 40 (index 5) the most advanced occupied space,
    building 1, 2, 3, 4 spaces ahead costs 1, 3, 6, 10 R&D, once per build (two factories
    pay it once); the money is the space's cost per factory."""
    t = _p3()
    t.factories(2, "Overland Model 40", 1)
    t.set_rd(0, 10)
    t.build(space, a.WHAT_TWO)
    assert t.get("rd", 0) == 10 - cubes
    assert t.cash(0) == 2000 - 2 * int(t.game.data.cost[space])
    assert t.get("owner", space) == 0 and t.get("frontier") == space
    t.check()


def test_spaces_skipped_over_are_free_and_further_ones_need_the_cubes():
    """I. Build: with no R&D, every unoccupied space behind the most advanced occupied one
    is open (no R&D cost for a skipped space), none beyond it; with 3 cubes two spaces
    ahead becomes reachable but not three."""
    t = _p3()
    t.factories(2, "Overland Model 40", 1)
    t.factories(1, "Buick Model B", 1)
    t.set_rd(0, 0)
    t.play(a.A_BUILD)
    assert _spaces(t) == [0, 2, 3, 4]
    t = _p3()
    t.factories(2, "Overland Model 40", 1)
    t.set_rd(0, 3)
    t.play(a.A_BUILD)
    assert _spaces(t) == [0, 1, 2, 3, 4, 6, 7]
