"""Audit of the rulebook against the engine: rules and card sub-choices that had no test
that would fail if they broke (rulebook sections named in each docstring).

Daytona Beach positions: lane 0 light gray 2-segment spaces at 0-12, one-segment white
spaces at 12-20; lane 1 dark gray 4-segment spaces at 0-12, light gray at 12-20.
"""

from __future__ import annotations

from tests.automobiles.table import (
    DRAW,
    STOP,
    Table,
    activate,
    buy,
    card_table,
    from_active,
    from_discard,
    moves,
    to_space,
)
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.board import crossings


def leave_wear_in_stock(t: Table, n: int) -> None:
    """Only ``n`` wear cubes stay in the stock (the rest parked in seat 1's bag)."""
    t.empty_stock("wear")
    wear = st.STOCK + 4
    t.s[wear] = n
    t.s[st.BAG + 10 + 4] -= n


# ----- Action Phase: in full, and the wear-stock exception -------------------------------------
def test_action_phase_note_short_wear_stock_gives_what_is_left_and_the_move_still_applies():
    """Action Phase note: Turbo asks for 2 wear; with 1 in the stock that one is gained and
    the move (2 light gray spaces here) still happens in full."""
    t = card_table("Turbo")
    t.give(0, "active", green=1)
    leave_wear_in_stock(t, 1)
    t.turn(0)
    assert activate("green") in t.legal()
    t.act(activate("green"))
    assert t.count(0, "used", "wear") == 1 and t.stock("wear") == 0
    assert t.phase() == "move" and t.s[st.MV_LEFT] == 2


def test_action_phase_note_boost_draws_even_with_no_wear_in_the_stock():
    """Action Phase note / Boost: each drawn cube asks for a wear cube; with none in the
    stock the draws still happen."""
    t = card_table("Boost")
    t.give(0, "active", green=1)
    t.give(0, "bag", black=3)
    t.empty_stock("wear")
    t.turn(0)
    t.act(activate("green"), DRAW, DRAW)
    assert t.count(0, "active", "black") == 2 and t.count(0, "used", "wear") == 0


def test_action_phase_in_full_crew_chief_needs_a_cube_to_draw():
    """Action Phase (in full) / Crew Chief: with an empty bag and discard pile the draw
    cannot happen, so the cube cannot be activated."""
    t = card_table("Crew Chief")
    t.turn(0, active=dict(purple=1))
    assert activate("purple") not in t.legal()
    t.give(0, "discard", white=1)            # an empty bag is refilled from the discard
    t.turn(0)
    assert activate("purple") in t.legal()


def test_card_clarifications_steering_needs_a_gear_with_a_lower_colour():
    """Steering: the chosen active gear names the colour one lower; a white gear has none,
    so with only white gears Steering cannot be applied in full, and white is never
    offered as the choice."""
    t = card_table("Steering")
    t.turn(0, active=dict(red=1, white=2))
    assert activate("red") not in t.legal()
    t2 = card_table("Steering")
    t2.put_car(0, 0, 11)                     # lane 0 light gray [10, 12): whites ahead
    t2.turn(0, active=dict(red=1, white=1, light_gray=1))
    t2.act(activate("red"))
    assert t2.phase() == "steering" and t2.legal() == [from_active("light_gray")]
    t2.act(from_active("light_gray"))
    assert t2.count(0, "discard", "light_gray") == 1 and t2.count(0, "active", "white") == 1
    assert t2.s[st.MV_LEFT] == 3 and STOP in t2.legal()
    assert moves(t2) == [t2.space(0, 12)]


def test_card_clarifications_tires_needs_a_lower_colour_space_next_to_the_car():
    """Tires: one space of a colour lower than the chosen active gear, exactly one. Only a
    white gear (nothing lower), or a light gray gear with no white space next to the car:
    not legal. A light gray gear beside white spaces: the cube must go on a white one."""
    t = card_table("Tires")
    t.turn(0, active=dict(red=1, white=1))
    assert activate("red") not in t.legal()
    t2 = card_table("Tires")                 # car at lane 0 [2, 4): no white space ahead
    t2.turn(0, active=dict(red=1, light_gray=1))
    assert activate("red") not in t2.legal()
    t3 = card_table("Tires")
    t3.put_car(0, 0, 11)                     # lane 0 light gray [10, 12)
    t3.turn(0, active=dict(red=1, light_gray=1))
    t3.act(activate("red"), from_active("light_gray"))
    assert moves(t3) == [t3.space(0, 12)] and STOP not in t3.legal()


# ----- Drafting -----------------------------------------------------------------------------
def test_drafting_example_a_car_ahead_in_the_next_lane_is_not_drafted():
    """Drafting Example (the red player is NOT drafting): the car ahead must be in the same
    lane; one diagonally ahead in the next lane gives no shelter, so the light gray wear
    (2) is gained."""
    t = Table(2)
    t.put_car(0, 0, 2)                       # lane 0 [2, 4)
    t.put_car(1, 1, 4, seg=0)                # lane 1 [4, 8), front segment
    t.turn(0, active=dict(light_gray=1), bag=dict(white=7))
    t.act(activate("light_gray"), to_space(t.space(0, 4)), STOP, STOP)
    assert t.s[st.CAR_SPACE] == t.space(0, 4)
    assert t.count(0, "discard", "wear") == 2


# ----- Winning the Game ---------------------------------------------------------------------
def test_winning_the_game_round_ends_before_the_start_player_whoever_that_is():
    """Winning the Game: the game ends when the round is complete, i.e. before the start
    player's next turn. With seat 2 as start player, seat 1 is last in the round: its
    final-lap crossing ends the game at once; with seat 0 as start player seat 2 still
    plays."""
    for start, over_at_once in ((2, True), (0, False)):
        t = Table(3)
        t.put_car(0, 0, 30, lap=2)
        t.put_car(1, 0, 39, lap=2)            # white [39, 40), 2 crossings of 3
        t.put_car(2, 1, 20, lap=2)
        for seat in range(3):
            t.give(seat, "bag", white=7)
        t.turn(1, active=dict(light_gray=1))
        t.s[st.START_PLAYER] = start
        t.act(activate("light_gray"), to_space(t.space(0, 0)), STOP)
        assert crossings(t.s, t.p, 1) == 3
        assert t.game.is_over(t.state) == over_at_once
        if not over_at_once:
            assert t.current() == 2


# ----- more in-full / wear-stock cases ------------------------------------------------------
def test_decline_phase_short_wear_stock_gives_what_is_left():
    """Decline Phase with the Action Phase note's wear exception: a dark gray move owes 3
    wear; with 1 in the stock that one is gained and the turn goes on."""
    t = Table(2)
    t.put_car(0, 0, 2)
    t.park_others(1)
    t.give(0, "active", dark_gray=1)
    t.give(0, "bag", white=7)
    leave_wear_in_stock(t, 1)
    t.turn(0)
    t.act(activate("dark_gray"), to_space(t.space(1, 4)), STOP)
    assert t.count(0, "discard", "wear") == 1 and t.stock("wear") == 0
    assert t.current() == 1


def test_nitro_draws_exactly_two_with_a_refill_from_the_discard_pile():
    """Nitro / Drawing Cubes: one cube in the bag and one in the discard pile still make
    two draws (the empty bag is refilled when the second draw needs it)."""
    t = card_table("Nitro")
    t.turn(0, active=dict(green=1), bag=dict(black=1), discard=dict(white=1))
    t.act(activate("green"))
    assert set(t.legal()) == {from_active("black"), from_active("white")}
    t.act(from_active("white"))
    assert t.count(0, "active", "white") == 1 and t.count(0, "discard", "black") == 1


def test_boost_offer_skips_a_player_with_nothing_to_draw():
    """Boost: each other player may draw 1; one with an empty bag and discard pile has no
    draw to make and is not asked."""
    t = card_table("Boost", players=3)
    t.give(0, "active", green=1)
    t.give(0, "bag", white=3)
    t.give(2, "bag", yellow=1)
    t.turn(0)
    t.act(activate("green"), DRAW, STOP)
    assert t.current() == 2 and t.phase() == "boost_other"
    t.act(DRAW)
    assert t.count(2, "active", "yellow") == 1 and t.current() == 0


def test_aerodynamics_keeps_action_wear_and_lasts_only_this_turn():
    """Aerodynamics: Gearbox's Action-Phase wear is still gained while the light gray
    Decline wear is not; Rule Clarifications: effects last until the end of the turn, so
    the next turn's light gray move gains its 2 wear again."""
    t = card_table("Aerodynamics", keep=False)
    t.put_car(0, 1, 0)                       # lane 1 dark gray [0, 4); seat 0 leads
    t.turn(0, active=dict(red=1, green=1), bag=dict(white=14))
    t.act(activate("red"), activate("green"), to_space(t.space(0, 4)), STOP)
    assert t.s[st.CAR_SPACE] == t.space(0, 4)
    assert t.count(0, "discard", "wear") == 1                 # Gearbox's wear only
    t.turn(0, active=dict(light_gray=1))
    t.act(activate("light_gray"), to_space(t.space(0, 6)), STOP)
    assert t.count(0, "discard", "wear") == 1 + 2


# ----- How to Move on the Track: within one multi-space move ---------------------------------
def test_car_phase_note_a_multi_space_move_cannot_drive_through_a_car():
    """Car Phase note / Next Turn Example, inside one move: Turbo's light gray move enters
    the rear segment behind a car in lane 0 [4, 6); from there the same lane would drive
    through that car and the diagonals are not light gray, so the move ends after one
    space although more were allowed. With the lane clear it goes on."""
    t = card_table("Turbo")
    t.put_car(1, 0, 4, seg=0)                # lane 0 [4, 6), front segment
    t.turn(0, active=dict(green=1))
    t.act(activate("green"))
    assert moves(t) == [t.space(0, 4)]
    t.act(to_space(t.space(0, 4)))
    assert t.phase() == "action" and t.s[st.PLACED_SEG] == 1
    clear = card_table("Turbo")
    clear.turn(0, active=dict(green=1))
    clear.act(activate("green"), to_space(clear.space(0, 4)))
    assert clear.phase() == "move" and moves(clear) == [clear.space(0, 6)]



# ----- Removing Cubes -------------------------------------------------------------------------
def test_removing_cubes_returns_them_to_the_stock_for_anyone_to_buy():
    """Removing Cubes: a removed cube goes back to the stock and can be bought again.
    The last black cubes sit in seat 0's discard pile; Pit Captain removes one, and the
    same turn's Buy Phase can buy it."""
    t = card_table("Pit Captain", keep=False)
    t.empty_stock("black")
    t.s[st.BAG + 10 + 3] -= 1                # one parked black goes to seat 0's discard
    t.s[st.DISCARD + 3] += 1
    t.give(0, "active", purple=1, yellow=4)             # $8 of money after the action
    t.turn(0)
    t.act(activate("purple"), from_discard("black"))    # nothing left: Buy Phase
    assert t.stock("black") == 1 and t.phase() == "buy"
    assert buy("black") in t.legal()
    t.act(buy("black"))
    assert t.count(0, "used", "black") == 1 and t.stock("black") == 0


# ----- Decline Phase --------------------------------------------------------------------------
def test_decline_phase_highest_colour_counts_even_when_the_car_ends_on_a_lower_one():
    """Decline Phase: the highest colour moved on anywhere this turn sets the wear, not the
    colour the car ends on: dark gray [4, 8) then light gray [8, 10) gives 3, not 2."""
    t = Table(2)
    t.put_car(0, 0, 2)                       # lane 0 light gray [2, 4)
    t.park_others(1)
    t.turn(0, active=dict(dark_gray=1, light_gray=1), bag=dict(white=7))
    t.act(activate("dark_gray"), to_space(t.space(1, 4)))
    t.act(activate("light_gray"), to_space(t.space(0, 8)), STOP)
    assert t.s[st.CAR_SPACE] == t.space(0, 8)
    assert t.count(0, "discard", "wear") == 3
