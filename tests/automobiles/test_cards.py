"""Every card effect and sub-choice (rulebook: Card Clarifications; online rules, Basic
Cards / Garage / Handling / Pit / Engine / Performance), on constructed positions.

Board positions are on Daytona Beach: lane 0 holds six light gray spaces at 0-12 and
eight white ones at 12-20; lane 1 three dark gray spaces at 0-12.
"""

from __future__ import annotations

import pytest

from tests.automobiles.table import (
    ALL_WEAR,
    DRAW,
    PIT_STOP,
    STOP,
    activate,
    buy,
    card_table,
    from_active,
    from_discard,
    moves,
    put_in_rank,
    to_space,
)
from transit_gym.envs.automobiles import state as st


# ----- gears and wear -----------------------------------------------------------------------
def test_wear_cube_moves_itself_from_the_active_to_the_discard_pile():
    """Wear: only a wear cube of the active pile; it goes straight to the discard pile."""
    t = card_table("Car Chief", keep=False)
    t.turn(0, active=dict(wear=2), used=dict(wear=1))
    t.act(activate("wear"))
    assert t.count(0, "discard", "wear") == 1 and t.count(0, "active", "wear") == 1
    assert t.count(0, "used", "wear") == 1


# ----- Garage -------------------------------------------------------------------------------
@pytest.mark.parametrize(("removed", "gained"), [("white", "light_gray"),
                                                 ("light_gray", "dark_gray"),
                                                 ("dark_gray", "black"), ("black", None)])
def test_car_chief_upgrades_a_discarded_gear(removed, gained):
    """Car Chief: remove a gear cube from the discard pile, gain the next gear up into the
    used pile (a black cube gives nothing)."""
    t = card_table("Car Chief")
    t.give(0, "active", yellow=1)
    t.give(0, "discard", **{removed: 1})
    stock = t.stock(removed)
    t.turn(0)
    t.act(activate("yellow"))
    assert t.legal() == [from_discard(removed)]
    t.act(from_discard(removed))
    assert t.count(0, "discard", removed) == 0 and t.stock(removed) == stock + 1
    if gained:
        assert t.count(0, "used", gained) == 1
    assert t.phase() == "action"


def test_car_chief_needs_a_gear_it_can_upgrade():
    """Car Chief can't be used without a gear in the discard pile, nor on a white cube
    when no light gray cube is left to gain (the effect must apply in full)."""
    t = card_table("Car Chief")
    t.turn(0, active=dict(yellow=1), discard=dict(wear=3, yellow=2))
    assert activate("yellow") not in t.legal()
    t2 = card_table("Car Chief")
    t2.give(0, "active", yellow=1)
    t2.give(0, "discard", white=1, dark_gray=1)
    t2.empty_stock("light_gray")
    t2.turn(0)
    t2.act(activate("yellow"))
    assert t2.legal() == [from_discard("dark_gray")]


def test_engineer_discards_up_to_three_active_cubes_then_removes_as_many():
    """Engineer: choose up to 3 active cubes into the discard pile, then remove exactly
    that many discarded cubes (they may be the very same cubes)."""
    t = card_table("Engineer")
    t.turn(0, active=dict(yellow=1, wear=2, white=1), discard=dict(white=3))
    t.act(activate("yellow"), from_active("wear"), from_active("wear"))
    assert t.count(0, "discard", "wear") == 2
    t.act(STOP)
    assert t.phase() == "remove" and STOP not in t.legal()
    t.act(from_discard("wear"))
    assert STOP not in t.legal()
    t.act(from_discard("white"))
    assert t.phase() == "action"
    assert t.count(0, "discard", "wear") == 1 and t.count(0, "discard", "white") == 2


def test_engineer_with_three_choices_removes_three_and_zero_removes_none():
    """Engineer: three cubes chosen (the most) remove exactly three; zero chosen ("up to":
    zero is valid, Rule Clarifications) removes none."""
    t = card_table("Engineer")
    t.turn(0, active=dict(yellow=1, wear=3))
    t.act(activate("yellow"), from_active("wear"), from_active("wear"), from_active("wear"))
    assert t.phase() == "remove"                 # three chosen: no more choosing
    t.act(from_discard("wear"), from_discard("wear"), from_discard("wear"))
    assert t.size(0, "discard") == 0 and t.phase() == "action"
    t2 = card_table("Engineer")
    t2.turn(0, active=dict(yellow=1, wear=1), discard=dict(white=2))
    t2.act(activate("yellow"), STOP)
    assert t2.phase() == "action" and t2.size(0, "discard") == 2


def test_manager_optional_removal_then_optional_return_to_the_bag():
    """Manager: may remove an active cube; then may put one active or discarded cube back
    into the bag."""
    t = card_table("Manager")
    t.turn(0, active=dict(yellow=1, wear=1, white=1), discard=dict(dark_gray=1))
    t.act(activate("yellow"))
    assert set(t.legal()) == {STOP, from_active("wear"), from_active("white")}
    t.act(from_active("wear"))
    assert t.count(0, "active", "wear") == 1 and t.phase() == "manager_bag"   # 2 - 1
    assert set(t.legal()) == {STOP, from_active("wear"), from_active("white"),
                              from_discard("dark_gray")}
    t.act(from_discard("dark_gray"))
    assert t.count(0, "bag", "dark_gray") == 1 and t.phase() == "action"
    t2 = card_table("Manager")
    t2.turn(0, active=dict(yellow=1, white=1))
    t2.act(activate("yellow"), STOP, from_active("white"))
    assert t2.count(0, "bag", "white") == 1 and t2.count(0, "active", "white") == 0


def test_mechanic_parks_an_active_cube_without_effect_then_removes_up_to_two():
    """Mechanic: an active cube to the used pile, its effect not applied; then remove up
    to 2 discarded cubes. Not usable with no other active cube."""
    t = card_table("Mechanic")
    t.turn(0, active=dict(yellow=1, light_gray=1), discard=dict(wear=3))
    t.act(activate("yellow"))
    assert set(t.legal()) == {from_active("light_gray"), from_active("wear")}
    t.act(from_active("light_gray"))
    assert t.count(0, "used", "light_gray") == 1 and t.phase() == "remove"
    assert t.s[st.STAT_ACTIVATED + 1] == 0          # light gray was not activated
    t.act(from_discard("wear"), from_discard("wear"))
    assert t.count(0, "discard", "wear") == 1 and t.phase() == "action"
    alone = card_table("Mechanic", keep=False)
    alone.turn(0, active=dict(yellow=1))
    assert activate("yellow") not in alone.legal()


# ----- Pit ----------------------------------------------------------------------------------
def test_pit_captain_removes_up_to_six_discarded_cubes():
    """Pit Captain: remove up to 6 cubes of any kind (wear included) from the discard
    pile; stopping is allowed at every point, and the sixth removal ends the choice."""
    t = card_table("Pit Captain")
    t.turn(0, active=dict(purple=1), discard=dict(wear=8))
    t.act(activate("purple"))
    for _ in range(6):
        assert STOP in t.legal()
        t.act(from_discard("wear"))
    assert t.phase() == "action" and t.count(0, "discard", "wear") == 2


def test_pit_crew_removes_all_discarded_wear_or_exactly_two_cubes():
    """Pit Crew: either all wear of the discard pile, or any 2 discarded cubes."""
    t = card_table("Pit Crew")
    t.turn(0, active=dict(purple=1), discard=dict(wear=4, white=2))
    t.act(activate("purple"))
    t.act(ALL_WEAR)
    assert t.count(0, "discard", "wear") == 0 and t.count(0, "discard", "white") == 2
    t2 = card_table("Pit Crew")
    t2.turn(0, active=dict(purple=1), discard=dict(wear=4, white=2))
    t2.act(activate("purple"), from_discard("white"))
    assert STOP not in t2.legal()                    # exactly two
    t2.act(from_discard("wear"))
    assert t2.phase() == "action" and t2.size(0, "discard") == 4


def test_pit_crew_second_option_needs_two_discarded_cubes():
    """Pit Crew: "any 2 cubes" needs two discarded cubes; with one, only "remove all wear"
    can be applied in full (Action Phase), so it is taken."""
    t = card_table("Pit Crew")
    t.turn(0, active=dict(purple=1), discard=dict(white=1))
    t.act(activate("purple"))
    # only "remove all wear" applies; it is taken at once
    assert t.phase() == "action" and t.count(0, "discard", "white") == 1


def test_pit_team_buys_exactly_one_cube_with_the_cost_of_the_removed_cubes():
    """Pit Team: remove up to 3 discarded cubes, add their costs (not values), buy exactly
    1 cube with that money into the used pile; the rest is lost."""
    t = card_table("Pit Team", buy_wear=False)
    t.give(0, "active", purple=1)
    t.give(0, "discard", dark_gray=2, wear=1)          # cost 5 each (data.toml)
    t.turn(0)
    t.act(activate("purple"))
    t.act(from_discard("dark_gray"), from_discard("dark_gray"))
    assert t.s[st.PK_TOTAL] == 10
    t.act(STOP)
    assert t.phase() == "pit_team_buy" and STOP not in t.legal()
    assert buy("black") in t.legal() and buy("wear") not in t.legal()
    t.act(buy("black"))
    assert t.count(0, "used", "black") == 1 and t.s[st.PK_TOTAL] == 0
    assert t.phase() == "action" and t.s[st.STAT_BOUGHT + 3] == 1


def test_pit_team_is_not_legal_when_no_purchase_can_follow():
    """Pit Team must end in a purchase ('buy exactly 1 cube'): with wear off sale
    (buy_wear=False) and only wear (cost 0) in the discard pile it cannot be used;
    'stop' waits until some cube is affordable."""
    t = card_table("Pit Team", buy_wear=False)
    t.turn(0, active=dict(purple=1), discard=dict(wear=3))
    assert activate("purple") not in t.legal()
    t2 = card_table("Pit Team", buy_wear=False)
    t2.turn(0, active=dict(purple=1), discard=dict(wear=3, white=1))
    t2.act(activate("purple"))
    assert STOP not in t2.legal()
    t2.act(from_discard("wear"), from_discard("wear"))
    assert from_discard("wear") not in t2.legal()      # would leave nothing to buy with
    t2.act(from_discard("white"))
    assert t2.phase() == "pit_team_buy" and t2.legal() == [buy("white")]


def test_pit_team_may_buy_a_wear_cube_when_wear_is_for_sale():
    """Pit Team with buy_wear=True (default: wear is a stock cube with a cost): removing
    nothing ('up to 3': zero is valid) leaves $0, enough for exactly one wear cube."""
    t = card_table("Pit Team")
    t.turn(0, active=dict(purple=1), discard=dict(wear=3))
    assert activate("purple") in t.legal()
    t.act(activate("purple"))
    assert STOP in t.legal()
    t.act(STOP)
    assert t.legal() == [buy("wear")]
    t.act(buy("wear"))
    assert t.count(0, "used", "wear") == 1 and t.phase() == "action"


# ----- Handling -----------------------------------------------------------------------------
def test_aerodynamics_cancels_decline_wear_but_not_action_wear():
    """Aerodynamics: no Decline-phase wear this turn (as if drafting); wear gained by
    effects during the Action Phase is still gained."""
    t = card_table("Aerodynamics", keep=False)
    t.put_car(0, 1, 0)                                  # lane 1 dark gray [0, 4)
    t.turn(0, active=dict(red=1, black=1, green=1, light_gray=1), bag=dict(white=7))
    t.act(activate("red"), activate("black"), to_space(t.space(2, 0)))
    t.act(STOP, STOP)
    assert t.count(0, "discard", "wear") == 0
    t2 = card_table("Aerodynamics", keep=False)
    t2.put_car(0, 1, 0)
    t2.turn(0, active=dict(red=1, black=1), bag=dict(white=7))
    t2.act(activate("black"), to_space(t2.space(2, 0)), STOP, STOP)
    assert t2.count(0, "discard", "wear") == 4


def test_steering_example_black_discarded_moves_up_to_three_dark_gray():
    """Steering: +1 wear, a gear from the active pile to the discard pile (it stays), then
    up to 3 consecutive spaces of the colour one lower (black: dark gray)."""
    t = card_table("Steering")
    t.put_car(0, 1, 38)                                 # lane 1 light gray [38, 40)
    t.turn(0, active=dict(red=1, black=1, white=1))
    t.act(activate("red"))
    assert t.count(0, "used", "wear") == 1
    assert t.legal() == [from_active("black")]          # white has no lower colour
    t.act(from_active("black"))
    assert t.count(0, "discard", "black") == 1
    for at in (0, 4, 8):
        assert moves(t) == [t.space(1, at)]
        t.act(to_space(t.space(1, at)))
    assert t.phase() == "action" and t.on_track("red") == 1
    assert t.s[st.PLACED_SPACE] == t.space(1, 8)


def test_steering_may_stop_early_up_to_means_zero_is_fine():
    """Steering: "up to 3" spaces; zero is a valid choice (Rule Clarifications): the red
    cube then stays in the used pile, the chosen gear in the discard pile."""
    t = card_table("Steering")
    t.put_car(0, 1, 38)
    t.turn(0, active=dict(red=1, black=1))
    t.act(activate("red"), from_active("black"), STOP)
    assert t.phase() == "action" and t.on_track("red") == 0 and t.count(0, "used", "red") == 1


def test_suspension_example_dark_gray_in_discard_moves_one_dark_gray_space():
    """Suspension: +1 wear; choose a gear in the discard pile (it stays); the red cube
    goes on one space of that colour."""
    t = card_table("Suspension")
    t.turn(0, active=dict(red=1), discard=dict(dark_gray=1, white=1, black=1))
    t.act(activate("red"))
    assert t.count(0, "used", "wear") == 1
    assert t.legal() == [from_discard("dark_gray")]     # no white/black space next to the car
    t.act(from_discard("dark_gray"))
    assert STOP not in t.legal() and moves(t) == [t.space(1, 4)]
    t.act(to_space(t.space(1, 4)))
    assert t.count(0, "discard", "dark_gray") == 1 and t.on_track("red") == 1


def test_suspension_is_not_legal_without_a_matching_space():
    """Suspension: the red cube must go on a space of the chosen discarded gear's colour;
    with no such space next to the car the effect cannot be applied in full (Action
    Phase), so the cube cannot be activated."""
    t = card_table("Suspension")
    t.turn(0, active=dict(red=1), discard=dict(white=2))
    assert activate("red") not in t.legal()


def test_tires_example_dark_gray_gives_light_gray_or_white_and_stays_active():
    """Tires: choose a gear in the active pile (it stays there, still money); the red cube
    goes on one space of any lower colour. No wear."""
    t = card_table("Tires")
    t.put_car(0, 0, 11)                                  # lane 0 light gray [10, 12)
    t.turn(0, active=dict(red=1, dark_gray=1, white=1), bag=dict(white=7))
    t.act(activate("red"))
    assert t.legal() == [from_active("dark_gray")]
    t.act(from_active("dark_gray"))
    # lane 0 white [12, 13) and lane 1 light gray [12, 14)
    assert moves(t) == sorted([t.space(0, 12), t.space(1, 12)])
    t.act(to_space(t.space(1, 12)))
    assert t.count(0, "active", "dark_gray") == 1 and t.count(0, "used", "wear") == 0
    t.act(STOP)
    assert t.s[st.MONEY] == 2 + 1                      # dark gray $2 + white $1


# ----- Performance --------------------------------------------------------------------------
def test_boost_draws_one_at_a_time_with_wear_then_offers_each_other_player_a_draw():
    """Boost: draw up to 3 cubes one at a time, +1 wear each; then every other player may
    draw 1 cube without wear: that player's own decision (the turn comes back after)."""
    t = card_table("Boost", players=3)
    t.give(0, "active", green=1)
    t.give(0, "bag", white=5)
    t.give(1, "bag", yellow=2)
    t.give(2, "bag", yellow=2)
    t.turn(0)
    t.act(activate("green"), DRAW, DRAW)
    assert t.count(0, "active", "white") == 2 and t.count(0, "used", "wear") == 2
    t.act(STOP)
    assert t.current() == 1 and t.phase() == "boost_other"
    t.act(DRAW)
    assert t.count(1, "active", "yellow") == 1 and t.s[st.STAT_WEAR + 1] == 0
    assert t.current() == 2
    t.act(STOP)
    assert t.current() == 0 and t.phase() == "action" and t.size(2, "active") == 0


def test_boost_stops_after_three_draws():
    """Boost: at most 3 cubes are drawn (+1 wear each); after the third the offers to the
    other players follow at once."""
    t = card_table("Boost")
    t.give(0, "active", green=1)
    t.give(0, "bag", white=5)
    t.give(1, "bag", white=1)
    t.turn(0)
    t.act(activate("green"), DRAW, DRAW, DRAW)
    assert t.current() == 1 and t.phase() == "boost_other"
    assert t.count(0, "used", "wear") == 3


def test_boost_with_accelerated_play_offers_the_draw_at_the_other_players_turn():
    """Online variant Accelerated Play: the other players' draws wait for their turns."""
    t = card_table("Boost", accelerated_play=True)
    t.give(0, "active", green=1)
    t.give(0, "bag", white=7)
    t.give(1, "bag", yellow=9)
    t.turn(0)
    t.act(activate("green"), STOP)
    assert t.current() == 0 and t.phase() == "action"
    assert t.s[st.PENDING_BOOST + 1] == 1
    t.act(STOP, STOP)                                  # end the Action and Buy Phases
    assert t.current() == 1 and t.phase() == "boost_other"
    t.act(DRAW)
    assert t.count(1, "active", "yellow") == 1 and t.phase() == "action"
    assert t.s[st.PENDING_BOOST + 1] == 0 and PIT_STOP in t.legal()


@pytest.mark.parametrize(("players", "place", "spaces"), [(4, 3, 3), (4, 4, 5), (5, 4, 4),
                                                          (2, 1, 1)])
def test_gearbox_moves_up_to_the_race_position_plus_one_in_last_place(players, place,
                                                                       spaces):
    """Gearbox: +1 wear; up to P light gray spaces for race position P (3rd of 4: 3;
    last of 4: 4 + 1; Action Phase Example Part 2: 4th of 5: 4)."""
    t = card_table("Gearbox", players=players)
    put_in_rank(t, players, place, lane=0, at=39)      # white [39, 40): six light gray ahead
    t.turn(0, active=dict(green=1))
    assert t.s[st.START_RANK] == place
    t.act(activate("green"))
    assert t.count(0, "used", "wear") == 1
    steps = 0
    while t.phase() == "move":
        assert STOP in t.legal()
        t.act(to_space(moves(t)[0]))
        steps += 1
    assert steps == spaces


def test_gearbox_position_is_fixed_at_the_start_of_the_action_phase():
    """Card Clarifications: position is where the car was when the Action Phase began."""
    t = card_table("Gearbox")
    t.put_car(0, 0, 39, lap=1)
    t.put_car(1, 1, 20, lap=2)                           # ahead: seat 0 is last of 2
    t.turn(0, active=dict(green=1))
    t.put_car(1, 0, 30, lap=0)                           # seat 1 falls behind mid-turn
    t.act(activate("green"))
    assert t.s[st.MV_LEFT] == 2 + 1                       # still last: 2 + 1


def test_nitro_draws_exactly_two_and_keeps_one_active():
    """Nitro: draw exactly 2; one to the active pile, the other to the discard pile."""
    t = card_table("Nitro")
    t.turn(0, active=dict(green=1), bag=dict(black=1, wear=1))
    t.act(activate("green"))
    assert t.phase() == "nitro"
    assert set(t.legal()) == {from_active("black"), from_active("wear")}
    t.act(from_active("black"))
    assert t.count(0, "active", "black") == 1 and t.count(0, "discard", "wear") == 1
    assert t.phase() == "action"
    short = card_table("Nitro")
    short.turn(0, active=dict(green=1), bag=dict(black=1))
    assert activate("green") not in short.legal()


def test_turbo_example_two_plus_every_discarded_green():
    """Turbo: +2 wear; up to 2 light gray spaces plus 1 per green cube in all discard piles
    (example: 2 own + 1 + 1 others: 6)."""
    t = card_table("Turbo", players=3)
    t.put_car(0, 0, 39, lap=1)
    t.give(0, "active", green=1)
    t.give(0, "discard", green=2)
    t.give(1, "discard", green=1)
    t.give(2, "discard", green=1)
    t.turn(0)
    t.act(activate("green"))
    assert t.count(0, "used", "wear") == 2 and t.s[st.MV_LEFT] == 6
    for at in (0, 2, 4, 6, 8, 10):
        t.act(to_space(t.space(0, at)))
    assert t.phase() == "action"


def test_diesel_engine_example_up_to_the_discarded_dark_grays():
    """Diesel Engine: +2 wear; up to D dark gray spaces, D = own discarded dark grays."""
    t = card_table("Diesel Engine")
    t.put_car(0, 1, 38)
    t.give(0, "active", blue=1)
    t.give(0, "discard", dark_gray=3)
    t.give(1, "discard", dark_gray=5)
    t.turn(0)
    t.act(activate("blue"))
    assert t.count(0, "used", "wear") == 2 and t.s[st.MV_LEFT] == 3
    assert moves(t) == [t.space(1, 0)]


def test_hybrid_engine_example_counts_active_used_track_and_discard():
    """Hybrid Engine example: 1 blue active + the activated one (used, then on the track)
    + 2 discarded = 4 > every other discard: up to 2 spaces of one colour; +1 wear."""
    t = card_table("Hybrid Engine", players=3)
    t.give(0, "active", blue=2)
    t.give(0, "discard", blue=2)
    t.give(1, "discard", blue=3)
    t.give(2, "discard", blue=1)
    t.turn(0)
    t.act(activate("blue"))
    assert t.count(0, "used", "wear") == 1 and t.phase() == "move"
    assert moves(t) == sorted([t.space(0, 4), t.space(1, 4)])
    t.act(to_space(t.space(0, 4)))                       # light gray: the second must match
    assert moves(t) == [t.space(0, 6)]
    t.act(to_space(t.space(0, 6)))
    assert t.phase() == "action" and t.on_track("blue") == 1


def test_hybrid_engine_without_more_blue_only_gains_wear():
    """Hybrid Engine: compared with each other player; one with 4 discarded blue stops it."""
    t = card_table("Hybrid Engine", players=3)
    t.give(0, "active", blue=2)
    t.give(0, "discard", blue=2)
    t.give(2, "discard", blue=4)
    t.turn(0)
    t.act(activate("blue"))
    assert t.phase() == "action" and t.count(0, "used", "wear") == 1
    assert t.on_track("blue") == 0


def test_rotary_engine_example_counts_distinct_discarded_colours():
    """Rotary Engine example: 1 white, 3 light gray, 1 blue, 2 wear discarded: 4 colours,
    up to 4 white spaces; +1 wear."""
    t = card_table("Rotary Engine")
    t.put_car(0, 0, 11)                                  # lane 0 [10, 12): whites ahead
    t.turn(0, active=dict(blue=1), discard=dict(white=1, light_gray=3, blue=1, wear=2))
    t.act(activate("blue"))
    assert t.s[st.MV_LEFT] == 4 and t.count(0, "used", "wear") == 1
    for at in (12, 13, 14, 15):
        t.act(to_space(t.space(0, at)))
    assert t.phase() == "action" and t.s[st.PLACED_SPACE] == t.space(0, 15)


def test_supercharged_brings_up_to_two_discarded_cubes_back_to_the_active_pile():
    """Supercharged: +1 wear; up to 2 discarded cubes go to the active pile (zero allowed)."""
    t = card_table("Supercharged")
    t.turn(0, active=dict(blue=1), discard=dict(black=2, white=1))
    t.act(activate("blue"))
    assert t.count(0, "used", "wear") == 1
    t.act(from_discard("black"), from_discard("black"))
    assert t.count(0, "active", "black") == 2 and t.phase() == "action"
    t2 = card_table("Supercharged")
    t2.turn(0, active=dict(blue=1), discard=dict(black=2))
    t2.act(activate("blue"), STOP)
    assert t2.count(0, "discard", "black") == 2


def test_hybrid_counts_cubes_on_the_track_as_used():
    """Action Phase note: cubes on the board are still in the used pile for card effects:
    the blue cube placed earlier this turn counts for the second Hybrid Engine (1 on the
    track + 1 used = 2 > the other player's 1)."""
    t = card_table("Hybrid Engine")
    t.give(0, "active", blue=2)
    t.give(1, "discard", blue=1)
    t.turn(0)
    t.act(activate("blue"), to_space(t.space(0, 4)), to_space(t.space(0, 6)))
    assert t.on_track("blue") == 1 and t.count(0, "used", "blue") == 0
    t.act(activate("blue"))
    assert t.phase() == "move"


def test_mechanic_up_to_two_removals_may_be_zero():
    """Mechanic: "remove up to 2" (Rule Clarifications: zero is valid); the parked cube
    still goes to the used pile."""
    t = card_table("Mechanic")
    t.turn(0, active=dict(yellow=1, black=1), discard=dict(wear=3))
    t.act(activate("yellow"), from_active("black"))
    assert STOP in t.legal()
    t.act(STOP)
    assert t.phase() == "action" and t.count(0, "discard", "wear") == 3
    assert t.count(0, "used", "black") == 1


@pytest.mark.parametrize(("lane", "spaces"), [(0, 1), (1, 2 + 1)])
def test_gearbox_tied_position_goes_to_the_inner_lane(lane, spaces):
    """Gearbox: "If tied for a position, the innermost lane is leading": level with the
    other car, seat 0 is 1st on the inner lane (1 space), last of 2 on the outer lane
    (2 + 1 spaces)."""
    t = card_table("Gearbox")
    other = 1 - lane
    t.put_car(0, lane, 10 if lane == 0 else 8, lap=1)    # lane 0 [10, 12), lane 1 [8, 12)
    t.put_car(1, other, 10 if other == 0 else 8, lap=1)
    assert t.s[st.CAR_ABS] == t.s[st.CAR_ABS + 1]
    t.turn(0, active=dict(green=1))
    t.act(activate("green"))
    assert t.s[st.START_RANK] == (1 if lane == 0 else 2) and t.s[st.MV_LEFT] == spaces


def test_hybrid_and_turbo_count_only_the_other_players_discard_piles():
    """Hybrid Engine compares with "blue cubes found in each other player's discard pile";
    Turbo counts the green cubes "in their discard piles": the other player's active and
    bag cubes do not count."""
    t = card_table("Hybrid Engine")
    t.give(0, "active", blue=1)                          # 1 (used once activated)
    t.give(1, "active", blue=5)
    t.give(1, "bag", blue=5)
    t.turn(0)
    t.act(activate("blue"))
    assert t.phase() == "move" and t.s[st.MV_LEFT] == 2
    t2 = card_table("Turbo")
    t2.give(0, "active", green=1)
    t2.give(0, "used", green=1)                          # own used pile: not a discard
    t2.give(1, "active", green=3)
    t2.give(1, "discard", green=1)
    t2.turn(0)
    t2.act(activate("green"))
    assert t2.s[st.MV_LEFT] == 2 + 1
