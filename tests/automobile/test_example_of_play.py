"""The rulebook's Example of Play (first turn, four players) and the P5 example (second turn),
replayed action by action; every figure the rulebook states is checked."""

from __future__ import annotations

import pytest

from tests.automobile.table import Table
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import MASS, MIDDLE, PREMIUM
from transit_gym.envs.automobile.encode import O_LAST_DEMAND

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3


def test_example_of_play_first_turn():
    """Example of Play: Red 4, Yellow 2, Green and Blue 3 (middle demand 12); Red Howard,
    Yellow Durant (Duryea for $200 + 1 R&D), Green Kettering, Blue Chrysler; order
    Green - Red - Yellow - Blue; the three action rounds; Howard sells 2 at $200; Yellow
    and Blue sell 3 each through salesmen; Yellow closes Duryea for $100; demand sales
    from Overland backwards leave 1 car unsold; losses: Yellow 1 ($10), Green 3 ($30);
    next selection order Green - Red - Blue - Yellow."""
    t = Table(num_players=4)
    for seat, tile in ((RED, 4), (YELLOW, 2), (GREEN, 3), (BLUE, 3)):
        t.set_tiles(seat, [tile])
    t.select({RED: "howard", YELLOW: "durant", GREEN: "kettering", BLUE: "chrysler"},
             durant_space="Duryea")
    assert t.cash(YELLOW) == 1800 and t.get("rd", YELLOW) == 4 + 1 - 1
    assert t.get("rd", GREEN) == 7 and t.get("rd", BLUE) == 6 and t.get("rd", RED) == 4
    assert t.play_order() == [GREEN, RED, YELLOW, BLUE]
    # first action round
    t.build("Buick Model B")                          # $250 and 1 R&D
    assert t.cash(GREEN) == 1750 and t.get("rd", GREEN) == 6
    t.play(a.A_RD)                                     # Red takes two R&D cubes
    assert t.get("rd", RED) == 6
    t.build("Buick Model 10")                          # $350 and 3 R&D
    assert t.cash(YELLOW) == 1450 and t.get("rd", YELLOW) == 1
    t.build("Maxwell Model EA")                        # $300 and 1 R&D
    assert t.cash(BLUE) == 1700 and t.get("rd", BLUE) == 5
    # second action round
    t.build("Overland Model 40", a.WHAT_TWO)           # $800 and 1 R&D
    assert t.cash(GREEN) == 950 and t.get("rd", GREEN) == 5
    t.build("Pathfinder 40")                           # $400 and 3 R&D
    assert t.cash(RED) == 1600 and t.get("rd", RED) == 3
    t.place_salesmen(MIDDLE, MIDDLE, MIDDLE)
    t.place_salesmen(MASS, MASS, MASS)
    # third action round
    t.produce({"Buick Model B": 3, "Overland Model 40": 7})
    assert t.cash(GREEN) == 950 - 700
    t.produce({"Pathfinder 40": 2})
    assert t.cash(RED) == 1600 - 200
    t.produce({"Duryea": 3, "Buick Model 10": 3})
    assert t.cash(YELLOW) == 1450 - 420
    t.produce({"Maxwell Model EA": 3})
    assert t.cash(BLUE) == 1700 - 150
    # P4 happened (Red's only cars): Howard took both at $200; P5: Yellow chooses her cars
    assert t.cash(RED) == 1800 and t.get("stat_sold_howard", RED) == 2
    for _ in range(3):
        assert t.phase == st.PH_SALE_CAR and t.current == YELLOW
        t.play(a.A_SPACE + t.space("Duryea"))
    assert t.get("stat_sold_salesmen", YELLOW) == 3 and t.get("stat_sold_salesmen", BLUE) == 3
    assert t.cash(YELLOW) == 1030 + 450 and t.cash(BLUE) == 1550 + 300
    assert list(t.state["show"][YELLOW * 3:YELLOW * 3 + 3]) == [0, 3, 0]
    assert list(t.state["show"][BLUE * 3:BLUE * 3 + 3]) == [3, 0, 0]
    # P6: Green and Red pass, Yellow closes Duryea, Blue passes, Yellow passes
    assert t.phase == st.PH_EXEC and t.current == GREEN
    t.play(a.A_PASS, a.A_PASS, a.A_EXEC_CLOSE, a.A_SPACE + t.space("Duryea"), a.A_PASS)
    assert t.cash(YELLOW) == 1480 + 100
    t.play(a.A_PASS)
    # P7-P9 ran: demand 12 middle cars; the game is in turn 2's character selection
    assert t.get("turn") == 1 and t.phase == st.PH_SELECT
    assert t.get("demand", MIDDLE) == 12
    assert t.get("stat_sold_demand", YELLOW) == 3 and t.get("stat_sold_demand", GREEN) == 9
    assert t.get("stat_unsold", GREEN) == 1
    assert t.get("cars", t.space("Overland Model 40")) == 0     # cars returned
    assert [t.get("loss", s) for s in (RED, YELLOW, GREEN, BLUE)] == [0, 1, 3, 0]
    assert t.get("stat_loss_paid", YELLOW) == 10 and t.get("stat_loss_paid", GREEN) == 30
    assert [t.cash(s) for s in (RED, YELLOW, GREEN, BLUE)] == [1800, 2020, 1570, 1850]
    assert [int(x) for x in t.state["sel_order"][:4]] == [GREEN, RED, BLUE, YELLOW]
    assert t.current == GREEN
    obs = t.game.observe(t.state, RED)                # the revealed demand is public
    assert obs[O_LAST_DEMAND + MIDDLE] == pytest.approx(1.2)
    t.check()


def test_p5_example_second_turn():
    """P5 example (turn 2): Yellow 3 mass salesmen, Red 4 middle, Green 3 middle, Blue 2
    middle; only six middle-class cars can be sold; Yellow earns $400, Red $500, Blue
    $300, Green $400 and takes one loss cube for his unused salesman; the salesmen then
    stand in the showroom of the track they sold on."""
    t = Table(num_players=4)
    t.s[st.TURN] = 1
    t.start_p3({YELLOW: "ford", RED: "kettering", BLUE: "sloan", GREEN: "durant"})
    t.factories(YELLOW, "Buick Model B", 2, cars=4)
    t.factories(YELLOW, "Maxwell Model EA", 1, cars=2)
    t.factories(RED, "Buick Model 10", 2, cars=4)
    t.factories(RED, "Space 07", 1, cars=2)
    t.factories(BLUE, "Overland Model 40", 2, cars=4)
    t.factories(GREEN, "Pathfinder 40", 1, cars=2)
    t.salesmen(YELLOW, mass=3)
    t.salesmen(RED, middle=4)
    t.salesmen(GREEN, middle=3)
    t.salesmen(BLUE, middle=2)
    t.check()
    cash = [t.cash(s) for s in range(4)]
    t.to_phase(k._phase5)
    mass_to_middle = a.A_MOVE + MASS * 3 + MIDDLE
    middle_to = {g: a.A_MOVE + MIDDLE * 3 + g for g in (MASS, MIDDLE, PREMIUM)}
    # Yellow could not reach premium: two levels up
    assert t.current == YELLOW and a.A_MOVE + MASS * 3 + PREMIUM not in t.legal()
    # Blue and Green have one possible sale each time: it is played for them
    script = [(YELLOW, mass_to_middle), (RED, middle_to[MIDDLE]),
              (YELLOW, mass_to_middle), (RED, middle_to[MIDDLE])]
    for seat, move in script:
        assert t.current == seat and t.phase == st.PH_SALE_MOVE
        t.play(move)
    # middle is then full (6 boxes in turn 2): Yellow's third and Red's last two salesmen
    # can only sell mass-market cars, which is played for them
    assert t.phase == st.PH_EXEC
    gained = [t.cash(s) - cash[s] for s in range(4)]
    assert gained == [500, 400, 400, 300]          # Red, Yellow, Green, Blue
    assert [t.get("loss", s) for s in range(4)] == [0, 0, 1, 0]
    assert list(t.state["show"][YELLOW * 3:YELLOW * 3 + 3]) == [1, 2, 0]
    assert list(t.state["show"][RED * 3:RED * 3 + 3]) == [2, 2, 0]
    assert list(t.state["show"][GREEN * 3:GREEN * 3 + 3]) == [0, 0, 2]
    t.check()
