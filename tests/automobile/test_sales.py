"""P4 Sell cars via Howard, P5 Sell cars via salesmen, P7 Sell cars via demand tiles."""

from __future__ import annotations

import pytest

from tests.automobile.table import Table
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import market
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import MASS, MIDDLE, PREMIUM


def _after_p3(turn: int = 0, players: int = 3, **options) -> Table:
    """Characters handed out, no P3 left: the next phase entry runs on the table."""
    t = Table(num_players=players, **options)
    t.s[st.TURN] = turn
    chars = {0: "kettering", 1: "howard", 2: "chrysler", 3: "ford", 4: "durant"}
    t.start_p3({s: chars[s] for s in range(players)})
    return t


# ----- P4 -----------------------------------------------------------------------------------
def test_howard_sells_two_cars_at_the_highest_price_choosing_the_spaces():
    """P4: Howard's player must sell two cars, from any spaces, at the top price of their
    segment ($200 premium, $150 middle, $100 mass)."""
    t = _after_p3()
    t.factories(1, "Duryea", 1, cars=3)
    t.factories(1, "Pathfinder 40", 1, cars=1)
    t.to_phase(k._phase4)
    assert t.phase == st.PH_HOWARD and t.current == 1
    assert set(t.legal()) == {a.A_SPACE + 0, a.A_SPACE + 7}      # no pass, no loan
    t.play(a.A_SPACE + 7)
    # the second car can only come from the Duryea now: it is sold without a question
    assert t.cash(1) == 2000 + 200 + 150 and t.get("cars", 0) == 2
    assert t.get("stat_sold_howard", 1) == 2 and t.phase != st.PH_HOWARD
    t.check()


@pytest.mark.parametrize(("cars", "sold"), [(0, 0), (1, 1), (5, 2)])
def test_howard_needs_no_production_and_sells_what_there_is(cars, sold):
    """P4: Howard's player need not produce; with one car he sells that one."""
    t = _after_p3()
    t.factories(1, "Maxwell Model EA", 1)
    if cars:
        t.cars("Maxwell Model EA", cars)
    t.to_phase(k._phase4)
    assert t.get("stat_sold_howard", 1) == sold
    assert t.cash(1) == 2000 + 100 * sold


# ----- P5 -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("turn", "boxes"), [(0, 3), (1, 6), (2, 9), (3, 9)])
def test_sale_boxes_open_by_turn(turn, boxes):
    """P5: turn 1 only '1-4' boxes, turn 2 also '2-4', from turn 3 all boxes (3 of each
    label per track, RECONSTRUCTED); salesmen left without a box take a loss cube each."""
    t = _after_p3(turn=turn)
    t.factories(0, "Maxwell Model EA", 3, cars=12)
    t.salesmen(0, mass=8)
    t.to_phase(k._phase5)
    assert t.get("stat_sold_salesmen", 0) == min(8, boxes)
    assert t.get("loss", 0) == 8 - min(8, boxes)
    assert list(t.state["show"][0:3]) == [min(8, boxes), 0, 0]


@pytest.mark.parametrize(("showroom", "tracks"), [
    (MASS, {MASS, MIDDLE}), (MIDDLE, {MASS, MIDDLE, PREMIUM}), (PREMIUM, {MIDDLE, PREMIUM}),
])
def test_salesmen_move_at_most_one_segment(showroom, tracks):
    """P5: from the premium showroom to premium or middle; from middle to any track; from
    mass to mass or middle."""
    t = _after_p3(turn=2)
    for name in ("Maxwell Model EA", "Duryea", "Pathfinder 40"):
        t.factories(0, name, 1, cars=1)
    t.state["show"][showroom] = 1
    t.to_phase(k._phase5)
    assert t.phase == st.PH_SALE_MOVE
    moves = {x - a.A_MOVE for x in t.legal()}
    assert moves == {showroom * 3 + g for g in tracks}
    assert a.A_LOAN not in t.legal() and a.A_DONE not in t.legal()


def test_a_salesman_needs_a_matching_car():
    """P5, important: a salesman must always sell a car of his track's segment."""
    t = _after_p3(turn=2)
    t.factories(0, "Duryea", 1, cars=2)
    t.factories(0, "Pathfinder 40", 1, cars=1)
    t.salesmen(0, middle=1)
    t.to_phase(k._phase5)
    assert {x - a.A_MOVE for x in t.legal()} == {MIDDLE * 3 + MIDDLE, MIDDLE * 3 + PREMIUM}


def test_salesmen_sell_one_car_at_a_time_in_play_order_without_passing():
    """P5: in order of play each player sells one car, repeated until nobody can; a player
    who can sell must (forced single choices are played for him); the salesman's car is
    chosen by its owner when several spaces hold that segment."""
    t = _after_p3(turn=2)
    t.factories(0, "Duryea", 1, cars=2)
    t.factories(0, "Overland Model 40", 1, cars=2)
    t.factories(1, "Maxwell Model EA", 1, cars=3)
    t.salesmen(0, middle=2)
    t.salesmen(1, mass=2, middle=1)
    t.to_phase(k._phase5)
    assert t.current == 0 and t.phase == st.PH_SALE_CAR       # one move, two spaces
    t.play(a.A_SPACE + 5)
    assert t.current == 1 and t.phase == st.PH_SALE_MOVE       # mass->mass or middle->mass
    t.play(a.A_MOVE + MIDDLE * 3 + MASS)
    assert t.current == 0
    t.play(a.A_SPACE + 0)
    # seat 1 has two mass salesmen left and one mass car: played for him; then all stop
    assert t.phase == st.PH_EXEC
    assert t.get("stat_sold_salesmen", 0) == 2 and t.get("stat_sold_salesmen", 1) == 3
    assert t.cash(0) == 2300 and t.cash(1) == 2300
    assert list(t.state["show"][0:6]) == [0, 2, 0, 3, 0, 0]
    assert t.get("loss", 1) == 0
    t.check()


def test_unused_salesmen_are_removed_with_a_loss_cube_each():
    """P5: salesmen that could not sell go back to the stock and give one loss cube each."""
    t = _after_p3(turn=0)
    t.factories(2, "Duryea", 1, cars=1)
    t.salesmen(2, middle=2, premium=1)
    t.to_phase(k._phase5)
    assert t.current == 2 and t.phase == st.PH_SALE_MOVE
    t.play(a.A_MOVE + PREMIUM * 3 + MIDDLE)          # premium salesman sells down a level
    assert t.get("loss", 2) == 2
    assert list(t.state["show"][6:9]) == [0, 1, 0]
    assert k.salesmen_in_stock(t.s, t.p, 2) == 7


def test_cars_on_a_closed_space_are_still_sold_by_howard_salesmen_and_demand():
    """V. Close down: cars produced earlier in the turn stay on the closed space "and can be
    sold during the following car selling phases": to Howard (P4), through a salesman (P5)
    and by demand (P7), at the normal prices."""
    t = _after_p3(turn=0)
    t.closed("Pathfinder 40", 1)                     # Howard's only cars
    t.cars("Pathfinder 40", 2)
    t.closed("Duryea", 0)
    t.cars("Duryea", 3)
    t.salesmen(0, middle=1)
    for seat in range(3):
        t.set_tiles(seat, [2])
    t.to_phase(k._phase4)
    assert t.get("stat_sold_howard", 1) == 2 and t.cash(1) == 2000 + 400
    assert t.get("stat_sold_salesmen", 0) == 1 and t.cash(0) == 2000 + 150
    assert t.phase == st.PH_EXEC
    while t.phase == st.PH_EXEC:
        t.play(a.A_PASS)
    assert t.get("stat_sold_demand", 0) == 2 and t.get("stat_revenue", 0) == 3 * 150
    assert t.get("stat_unsold", 0) == 0


# ----- P7 -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("turn", "tiles", "expected"), [
    (0, [[4], [2], [5]], {MIDDLE: 11, MASS: 0, PREMIUM: 0}),
    (1, [[4, 2], [5, 3], [3, 3]], {MIDDLE: 12, MASS: 8, PREMIUM: 0}),
    (2, [[4, 2], [5, 3], [3, 3]], {MIDDLE: 8, MASS: 12}),
    (3, [[4, 2], [5, 3], [3, 3]], {MIDDLE: 8}),
])
def test_demand_from_the_tiles_by_turn(turn, tiles, expected):
    """P7: turn 1 tiles to middle; turn 2 higher to middle, lower to mass; turns 3-4 higher
    to mass, lower to middle, plus a bag tile for premium; turn 4 one more bag tile for
    mass."""
    t = _after_p3(turn=turn)
    for seat, values in enumerate(tiles):
        t.set_tiles(seat, values)
    bag_before = int(t.state["bag"].sum())
    k._phase6(t.s, t.p)
    while t.phase == st.PH_EXEC:
        t.play(a.A_PASS)
    demand = t.state["demand"]
    for seg, value in expected.items():
        assert demand[seg] == value
    if turn >= 2:
        assert demand[PREMIUM] in (2, 3, 4, 5)
    if turn == 3:
        assert demand[MASS] - 12 in (2, 3, 4, 5)
    if turn == 3:
        assert t.phase == st.PH_OVER and int(t.state["bag"].sum()) == bag_before - 2
    else:
        assert int(t.state["bag"].sum()) == 16 - 2 * 3    # next turn's draws from a full bag


def test_demand_sales_run_backwards_one_car_per_space_per_pass():
    """P7: from the most advanced space backwards, one car per space per pass, until the
    demand is met; the rest stays unsold."""
    t = _after_p3()
    for seat, name, n in ((0, "Overland Model 40", 5), (1, "Buick Model 10", 1),
                          (2, "Duryea", 4)):
        t.factories(seat, name, 2, cars=n)
    left = market.demand_sales(t.s, t.p, MIDDLE, 7)
    assert left == 0
    # passes: Overland, Buick 10, Duryea; then Overland, Duryea twice
    assert [t.get("cars", i) for i in (5, 3, 0)] == [2, 0, 1]
    assert t.cash(0) == 2000 + 3 * 150 and t.cash(1) == 2150 and t.cash(2) == 2450
    assert market.demand_sales(t.s, t.p, MIDDLE, 10) == 7
    assert t.get("car_count", 0) == 0 and t.get("car_count", 2) == 0


def test_ads_and_discounts_sell_extra_cars_and_discounts_reduce_the_price():
    """P7: each ad or discount marker sells one more car per pass; any discount (with or
    without an ad) means the reduced price ($100 middle, $70 mass); premium stays $200."""
    t = _after_p3(turn=2)
    t.factories(0, "Overland Model 40", 2, cars=6)
    t.s[st.AD + 5] = 1
    t.s[st.DISC + 5] = 2
    t.factories(1, "Duryea", 2, cars=6)
    t.s[st.AD + 0] = 1
    market.demand_sales(t.s, t.p, MIDDLE, 10)
    # pass 1: Overland 4, Duryea 2; pass 2: Overland its last 2, Duryea 2 (demand met)
    assert t.get("cars", 5) == 0 and t.get("cars", 0) == 2
    assert t.cash(0) == 2000 + 6 * 100 and t.cash(1) == 2000 + 4 * 150
    t.factories(2, "Pathfinder 40", 2, cars=3)
    t.s[st.AD + 7] = 1
    market.demand_sales(t.s, t.p, PREMIUM, 2)
    assert t.cash(2) == 2400 and t.get("cars", 7) == 1
    t.factories(2, "Maxwell Model EA", 2, cars=2)
    t.s[st.DISC + 4] = 1
    market.demand_sales(t.s, t.p, MASS, 5)
    assert t.cash(2) == 2400 + 2 * 70


def test_unsold_cars_give_loss_cubes_and_markers_go_back():
    """P7: one loss cube per unsold car; cars return to their owners; ads and discounts
    are removed from the board."""
    t = _after_p3(turn=0)
    for seat in range(3):
        t.set_tiles(seat, [2])
    t.factories(0, "Maxwell Model EA", 1)
    t.cars("Maxwell Model EA", 4)                  # no mass demand in turn 1
    t.factories(1, "Duryea", 2, cars=7)
    t.s[st.AD + 0] = 1
    t.s[st.ADS_BOUGHT] = 1
    k._phase6(t.s, t.p)
    while t.phase == st.PH_EXEC:
        t.play(a.A_PASS)
    assert t.get("stat_unsold", 0) == 4 and t.get("stat_unsold", 1) == 1
    assert t.get("car_count", 0) == 0 and t.get("cars", 0) == 0
    assert t.get("ad", 0) == 0 and t.get("ads_bought") == 0
    t.check()


# ----- audit additions ------------------------------------------------------------------------
@pytest.mark.parametrize(("demand", "sold"), [(1, [1, 0, 0]), (2, [1, 1, 0]), (4, [2, 1, 1]),
                                              (5, [2, 2, 1])])
def test_demand_runs_out_on_the_most_advanced_spaces_first(demand, sold):
    """P7: "Cars are sold from the most advanced production space, going backwards", and a
    new pass starts again at the most advanced one: when the demand ends in the middle of
    a pass, the owners of the more advanced spaces have sold more (a run from the least
    advanced space would favour seat 2)."""
    t = _after_p3()
    for seat, name in ((0, "Overland Model 40"), (1, "Buick Model 10"), (2, "Duryea")):
        t.factories(seat, name, 1, cars=3)
    t.factories(1, "Maxwell Model EA", 1)          # another segment: never touched
    t.cars("Maxwell Model EA", 2)
    assert market.demand_sales(t.s, t.p, MIDDLE, demand) == 0
    assert [t.get("stat_sold_demand", s) for s in range(3)] == sold
    assert [t.cash(s) for s in range(3)] == [2000 + 150 * n for n in sold]
    assert t.get("cars", 4) == 2


@pytest.mark.parametrize(("demand", "sold"), [(4, [1, 2, 1, 0]), (6, [2, 2, 1, 1]),
                                              (8, [2, 3, 2, 1])])
def test_an_advertised_space_sells_its_extra_car_in_its_own_place_of_each_pass(demand, sold):
    """P7 example: "The order of selling would go Yellow, Red, Green and Blue ... Red's
    would sell two cars during each pass thanks to his advertisement": with demand 4 the
    last space gets nothing; a second pass starts again at the most advanced space."""
    t = _after_p3(players=4)
    for seat, name in ((0, "Overland Model 40"), (1, "Buick Model 10"),
                       (2, "Jackson Model 40"), (3, "Duryea")):
        t.factories(seat, name, 1, cars=3)
    t.s[st.AD + t.space("Buick Model 10")] = 1
    assert market.demand_sales(t.s, t.p, MIDDLE, demand) == 0
    assert [t.get("stat_sold_demand", s) for s in range(4)] == sold


@pytest.mark.parametrize(("demand", "sold"), [(3, [3, 0]), (4, [3, 1]), (6, [5, 1])])
def test_the_stack_of_two_discount_markers_sells_two_extra_cars_per_pass(demand, sold):
    """P7: "Each single advertisement or discount marker allows you to sell one extra car
    in each round of selling": the stack of two discount markers (P6 C) sells three cars
    per pass, all at the reduced price ($100 middle)."""
    t = _after_p3()
    t.factories(0, "Overland Model 40", 2, cars=5)
    t.s[st.DISC + t.space("Overland Model 40")] = 2
    t.factories(1, "Duryea", 2, cars=5)
    assert market.demand_sales(t.s, t.p, MIDDLE, demand) == 0
    assert [t.get("stat_sold_demand", s) for s in range(2)] == sold
    assert t.cash(0) == 2000 + 100 * sold[0] and t.cash(1) == 2000 + 150 * sold[1]


def test_forced_sales_still_alternate_one_car_per_player_in_play_order():
    """P5: "each player has the opportunity to sell one car through one of his or her
    salesmen. This procedure is repeated": also when every sale is forced (played
    automatically), the players take turns, so in turn 1 the three middle-class boxes go
    seat 0, seat 1, seat 0 and the other salesmen stay idle (a loss cube each)."""
    t = _after_p3(turn=0)
    t.factories(0, "Overland Model 40", 2, cars=5)
    t.factories(1, "Duryea", 2, cars=5)
    t.salesmen(0, middle=3)
    t.salesmen(1, middle=3)
    t.to_phase(k._phase5)
    assert t.phase == st.PH_EXEC
    assert [t.get("stat_sold_salesmen", s) for s in range(2)] == [2, 1]
    assert [t.get("loss", s) for s in range(2)] == [1, 2]
    assert [t.cash(s) for s in range(2)] == [2300, 2150]
