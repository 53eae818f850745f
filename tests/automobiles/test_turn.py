"""The standard turn, the pit stop and the track rules (rulebook: Standard Turn - Racing,
Action Phase, How to Move on the Track, Buy Phase, Car Phase, Decline Phase, Drafting,
End Phase, Momentum, Alternative Turn - Pit Stop, Drawing Cubes, Rule Clarifications).

Positions use the Daytona Beach board (track_daytona.toml): lane 0 is light gray at
positions 0-12 (2-segment spaces) and white at 12-20; lane 1 is dark gray at 0-12
(4 segments) and light gray at 12-20; lane 2 is black at 0-12 (6 segments).
"""

from __future__ import annotations

import pytest

from tests.automobiles.table import (
    PIT_STOP,
    STOP,
    Table,
    activate,
    buy,
    to_space,
)
from transit_gym.envs.automobiles import state as st


def racing_table(players: int = 2, **options) -> Table:
    t = Table(players, **options)
    t.put_car(0, 0, 2)            # lane 0, light gray space [2, 4)
    t.park_others(*range(1, players))
    return t


# ----- Action Phase -------------------------------------------------------------------------
def test_action_cube_goes_to_used_pile_then_to_the_track():
    """Action Phase: an activated cube goes to the used pile before its effect; a gear
    cube then marks its space on the track (still counted as used for card effects)."""
    t = racing_table()
    t.turn(0, active=dict(light_gray=1, white=2))
    t.act(activate("light_gray"))
    assert t.count(0, "active", "light_gray") == 0
    assert t.count(0, "used", "light_gray") == 1 and t.phase() == "move"
    t.act(to_space(t.space(0, 4)))
    assert t.count(0, "used", "light_gray") == 0 and t.on_track("light_gray") == 1
    assert t.s[st.PLACED_SPACE] == t.space(0, 4)


def test_gear_goes_on_an_adjacent_space_of_its_colour_forward_only():
    """How to Move on the Track / 4th and 5th Gear: a gear cube goes on a space of its
    colour adjacent to the car (diagonals count), strictly forward."""
    t = racing_table()
    t.turn(0, active=dict(light_gray=1, dark_gray=1, white=1, black=1))
    legal = t.legal()
    assert activate("light_gray") in legal and activate("dark_gray") in legal
    assert activate("white") not in legal and activate("black") not in legal
    t.act(activate("dark_gray"))
    assert t.legal() == [to_space(t.space(1, 4))]   # diagonal, lane 1 [4, 8)


def test_later_gear_starts_next_to_the_last_placed_cube():
    """3rd-6th Gear: each later cube is adjacent to the last cube placed this turn."""
    t = racing_table()
    t.turn(0, active=dict(light_gray=3))
    t.act(activate("light_gray"), to_space(t.space(0, 4)))
    t.act(activate("light_gray"))
    assert t.legal() == [to_space(t.space(0, 6))]


def test_branch_from_car_option_lets_a_later_cube_start_next_to_the_car():
    """Ambiguity (gear cards: 'adjacent to your race car, or adjacent to the last cube'):
    by default later cubes continue from the last placed cube; with branch_from_car=True
    a later cube may also start next to the car again."""
    for branch in (False, True):
        t = Table(2, branch_from_car=branch)
        t.put_car(0, 1, 0)                # lane 1 dark gray [0, 4)
        t.park_others(1)
        t.turn(0, active=dict(black=1, light_gray=1))
        t.act(activate("black"), to_space(t.space(2, 0)))     # lane 2 black [0, 6)
        # next to the black cube there is no light gray space; next to the car there is
        assert (activate("light_gray") in t.legal()) == branch
        if branch:
            t.act(activate("light_gray"))
            assert t.legal() == [to_space(t.space(0, 4))]


def test_branch_from_car_may_start_again_onto_a_space_holding_a_cube():
    """With branch_from_car=True nothing in the rules keeps a new cube started next to the
    car off a space already holding a cube of this turn; the car goes to the farthest."""
    t = Table(2, branch_from_car=True)
    t.put_car(0, 0, 2)                    # lane 0 light gray [2, 4)
    t.park_others(1)
    t.turn(0, active=dict(light_gray=3), bag=dict(white=7))
    t.act(activate("light_gray"), to_space(t.space(0, 4)))
    t.act(activate("light_gray"))
    assert sorted(t.legal()) == sorted([to_space(t.space(0, 4)), to_space(t.space(0, 6))])
    t.act(to_space(t.space(0, 4)))                      # a second cube on [4, 6)
    t.act(activate("light_gray"), to_space(t.space(0, 6)))
    assert t.on_track("light_gray") == 3
    while t.current() == 0:
        t.act(STOP)
    assert t.s[st.CAR_SPACE] == t.space(0, 6)


def test_no_cube_on_a_segment_held_by_an_opponent_but_a_free_segment_is_fine():
    """Rule Clarifications: no cube on a segment occupied by an opponent's car; an
    unoccupied segment of a space partly occupied by a car is allowed (behind that car)."""
    t = racing_table()
    t.give(0, "active", light_gray=1, dark_gray=1)
    t.put_car(1, 0, 4)                    # fills the 2-segment [4, 6)? no: one car, 1 of 2
    t.turn(0)
    t.act(activate("light_gray"))
    assert t.legal() == [to_space(t.space(0, 4))]
    t.act(to_space(t.space(0, 4)))
    assert t.s[st.PLACED_SEG] == 1       # behind the car, in the rear segment
    full = racing_table(3)
    full.put_car(1, 0, 4, seg=0)
    full.put_car(2, 0, 4, seg=1)          # both segments of [4, 6) taken
    full.turn(0, active=dict(light_gray=1))
    assert activate("light_gray") not in full.legal()


def test_next_turn_example_no_driving_through_a_car_ahead_in_the_same_space():
    """Next Turn Example / Car Phase note: the purple car sits right behind the green car
    in a dark gray space; its move may start only with the light gray space beside it on
    the inside or the black space on the outside, not the next dark gray space nor the
    light gray space ahead of the green car (both would drive through it)."""
    t = Table(2)
    t.put_car(1, 1, 0, seg=0)             # green: lane 1 dark gray [0, 4), front segment
    t.put_car(0, 1, 0, seg=1)             # purple: right behind it, segment [2, 3)
    t.turn(0, active=dict(dark_gray=1, light_gray=2, black=1))
    legal = t.legal()
    assert activate("dark_gray") not in legal     # lane 1 [4, 8): straight through
    assert activate("light_gray") in legal and activate("black") in legal
    t.act(activate("light_gray"))
    assert t.legal() == [to_space(t.space(0, 2))]    # beside purple, not lane 0 [4, 6)
    t.act(to_space(t.space(0, 2)))
    assert t.s[st.PLACED_ABS] - t.s[st.PLACED_SEG] == 4      # one segment of progress
    t.act(activate("dark_gray"))                  # around the green car by the inside
    assert t.legal() == [to_space(t.space(1, 4))]
    behind = Table(2)
    behind.put_car(1, 1, 0, seg=0)
    behind.put_car(0, 1, 0, seg=1)
    behind.turn(0, active=dict(black=1))
    behind.act(activate("black"))
    assert behind.legal() == [to_space(behind.space(2, 0))]   # outside, beside purple


def test_next_turn_example_note_front_segment_may_go_straight_ahead():
    """Next Turn Example note: had the green car moved, purple would start from the front
    segment of its dark gray space, and the next dark gray and light gray spaces ahead
    would be open."""
    t = Table(2)
    t.put_car(0, 1, 0, seg=0)
    t.park_others(1)
    t.turn(0, active=dict(dark_gray=1, light_gray=1))
    t.act(activate("light_gray"))
    assert t.legal() == [to_space(t.space(0, 4))]
    t2 = Table(2)
    t2.put_car(0, 1, 0, seg=0)
    t2.park_others(1)
    t2.turn(0, active=dict(dark_gray=1))
    t2.act(activate("dark_gray"))
    assert t2.legal() == [to_space(t2.space(1, 4))]


def test_no_sideways_move_into_a_free_rear_segment():
    """How to Move on the Track: each space or segment entered must move the car forward,
    never sideways. Beside a car at [0, 2) (front 2), the dark gray space [0, 4) holds two
    cars in its front segments; its free segments [0, 2) are level with or behind the
    car, so no dark gray cube may go there."""
    t = Table(3)
    t.put_car(0, 0, 0)                    # lane 0 light gray [0, 2)
    t.put_car(1, 1, 0, seg=0)             # lane 1 dark gray [0, 4): segments [3, 4)
    t.put_car(2, 1, 0, seg=1)             # and [2, 3)
    t.turn(0, active=dict(dark_gray=1, light_gray=1))
    assert activate("dark_gray") not in t.legal()
    assert activate("light_gray") in t.legal()    # lane 0 [2, 4) straight ahead


def test_a_cube_behind_a_car_cannot_continue_straight_through_it():
    """A cube placed behind an opponent's car in a space continues only diagonally."""
    t = racing_table()
    t.put_car(1, 0, 4, seg=0)
    t.turn(0, active=dict(light_gray=2, dark_gray=1))
    t.act(activate("light_gray"), to_space(t.space(0, 4)))
    legal = t.legal()
    assert activate("light_gray") not in legal    # [6, 8) would pass through the car
    assert activate("dark_gray") in legal         # lane 1 [4, 8)


def test_effect_that_cannot_be_applied_in_full_is_not_legal():
    """Action Phase: if some of a card's effects cannot be applied, none may be: a gear
    with no space of its colour ahead cannot be activated."""
    t = racing_table()
    t.turn(0, active=dict(white=3))
    assert t.legal() == [STOP, PIT_STOP]


def test_missing_wear_in_the_stock_does_not_block_an_effect():
    """Action Phase note: an effect that gains wear still applies when the stock has none."""
    t = racing_table(card_set=["Car Chief", "Crew Chief", "Steering", "Gearbox",
                               "Rotary Engine"])
    t.empty_stock("wear")
    t.turn(0, active=dict(green=1, light_gray=1))
    assert activate("green") in t.legal()
    t.act(activate("green"))
    assert t.phase() == "move" and t.count(0, "used", "wear") == 0


# ----- Buy Phase ----------------------------------------------------------------------------
def test_buying_is_limited_by_the_stock():
    """Buy Phase: cubes are limited to the stock; once gone they cannot be bought."""
    t = racing_table()
    t.give(0, "active", dark_gray=5)
    t.give(0, "bag", white=7)
    t.empty_stock("black")
    t.turn(0)
    t.act(STOP)
    assert buy("black") not in t.legal() and buy("dark_gray") in t.legal()


@pytest.mark.parametrize("allowed", [None, True, False])
def test_wear_is_for_sale_like_any_stock_cube_unless_the_option_says_no(allowed):
    """Buy Phase / Card Basics: any cube of the stock may be bought at its card's cost,
    and wear cubes are stock cubes (option buy_wear, default True; False: off sale)."""
    options = {} if allowed is None else {"buy_wear": allowed}
    t = racing_table(**options)
    t.turn(0, active=dict(white=2), bag=dict(white=7))
    t.act(STOP)
    assert (buy("wear") in t.legal()) == (allowed is not False)
    if allowed is not False:
        t.act(buy("wear"))
        assert t.count(0, "used", "wear") == 1 and t.s[st.MONEY] == 2   # wear costs $0
        assert t.s[st.STAT_BOUGHT + 4] == 1


# ----- Car, Decline, End --------------------------------------------------------------------
def test_car_moves_to_the_farthest_cube_and_crosses_the_line():
    """Car Phase: the car goes to the farthest cube placed; passing the finish line moves
    the lap marker (one crossing)."""
    t = Table(2)
    t.put_car(0, 0, 38, lap=1)            # white [38, 39), lap 1
    t.park_others(1)
    t.turn(0, active=dict(white=1, light_gray=1), bag=dict(white=7))
    t.act(activate("white"), to_space(t.space(0, 39)))
    t.act(activate("light_gray"), to_space(t.space(0, 0)))
    t.act(STOP, STOP)
    assert t.s[st.CAR_SPACE + 0] == t.space(0, 0)
    from transit_gym.envs.automobiles.board import crossings
    assert crossings(t.s, t.p, 0) == 2


def test_decline_wear_follows_the_highest_colour_moved_on():
    """Decline Phase: wear equal to the highest colour moved on (light gray 2), not the
    colours of the cubes used, one line of the chart only."""
    t = racing_table()
    t.turn(0, active=dict(light_gray=2), bag=dict(white=7))
    t.act(activate("light_gray"), to_space(t.space(0, 4)))
    t.act(activate("light_gray"), to_space(t.space(0, 6)))
    t.act(STOP, STOP)
    assert t.count(0, "discard", "wear") == 2 and t.s[st.STAT_WEAR] == 2


def test_decline_example_four_light_gray_and_one_dark_gray_give_three_wear():
    """Decline Phase example: four light gray spaces and one dark gray space: 3 wear."""
    t = Table(2)
    t.put_car(0, 0, 0)                    # lane 0 light gray [0, 2)
    t.park_others(1)
    t.turn(0, active=dict(light_gray=4, dark_gray=1), bag=dict(white=7))
    for at in (2, 4, 6, 8):
        t.act(activate("light_gray"), to_space(t.space(0, at)))
    t.act(activate("dark_gray"), to_space(t.space(1, 8)))
    t.act(STOP, STOP)
    assert t.count(0, "discard", "wear") == 3


def test_combo_space_counts_as_its_higher_colour_for_wear():
    """Decline Phase note: a space with more than one colour gives the higher colour's
    wear (Monza's dark gray+black spaces: 4)."""
    t = Table(2, track="monza")
    t.put_car(0, 1, 0)                    # lane 1 dark gray [0, 4)
    t.park_others(1)
    t.turn(0, active=dict(dark_gray=1), bag=dict(white=7))
    t.act(activate("dark_gray"), to_space(t.space(1, 4)))     # dark gray + black
    t.act(STOP, STOP)
    assert t.count(0, "discard", "wear") == 4


def test_drafting_in_the_segment_behind_a_car_gains_no_wear():
    """Drafting: ending directly behind an opponent's car (segment behind): no wear."""
    t = racing_table()
    t.put_car(1, 0, 4, seg=0)
    t.turn(0, active=dict(light_gray=1), bag=dict(white=7))
    t.act(activate("light_gray"), to_space(t.space(0, 4)))
    t.act(STOP, STOP)
    assert t.count(0, "discard", "wear") == 0
    assert t.s[st.CAR_SEG + 0] == 1


@pytest.mark.parametrize("option", [True, False])
def test_drafting_from_the_space_behind_is_an_option(option):
    """Drafting Example ('drafting in the space behind'): ending in the space right
    behind a space holding a car, same lane. Option draft_behind_space (default True)."""
    t = racing_table(draft_behind_space=option)
    t.put_car(1, 0, 6, seg=0)             # lane 0 [6, 8)
    t.turn(0, active=dict(light_gray=1), bag=dict(white=7))
    t.act(activate("light_gray"), to_space(t.space(0, 4)))
    t.act(STOP, STOP)
    assert t.count(0, "discard", "wear") == (0 if option else 2)


@pytest.mark.parametrize("option", [True, False])
def test_drafting_in_the_segment_behind_a_car_in_the_next_space(option):
    """Drafting: 'a space or segment directly behind' a car: ending in the front segment of
    a space when the car ahead fills the rear segment of the next space (a one-segment
    white space here) is the segment directly behind it under either reading."""
    t = Table(2, draft_behind_space=option)
    t.put_car(0, 0, 12)                   # lane 0 white [12, 13)
    t.put_car(1, 0, 14)                   # white [14, 15): its only segment
    t.turn(0, active=dict(white=1), bag=dict(white=7))
    t.act(activate("white"), to_space(t.space(0, 13)), STOP, STOP)
    assert t.s[st.CAR_SPACE] == t.space(0, 13)
    assert t.count(0, "discard", "wear") == 0
    away = Table(2, draft_behind_space=option)
    away.put_car(0, 0, 12)
    away.put_car(1, 0, 15)                # one empty white space between the cars
    away.turn(0, active=dict(white=1), bag=dict(white=7))
    away.act(activate("white"), to_space(away.space(0, 13)), STOP, STOP)
    assert away.count(0, "discard", "wear") == 1


def test_no_move_no_wear():
    """Decline Phase: if you didn't move this turn you gain no wear."""
    t = racing_table()
    t.turn(0, active=dict(white=2), bag=dict(white=7))
    t.act(STOP, STOP)
    assert t.count(0, "discard", "wear") == 0


def test_end_phase_discards_everything_and_draws_seven():
    """End Phase: track, active and used cubes to the discard pile; draw 7 from the bag
    (no refill while the bag holds enough)."""
    t = racing_table()
    t.turn(0, active=dict(light_gray=1, yellow=2), bag=dict(white=8))
    t.act(activate("light_gray"), to_space(t.space(0, 4)), STOP, STOP)
    assert t.size(0, "active") == 7 and t.size(0, "bag") == 1
    assert t.count(0, "discard", "light_gray") == 1 and t.count(0, "discard", "yellow") == 2
    assert t.size(0, "used") == 0 and t.on_track("light_gray") == 0


def test_bag_is_refilled_only_when_a_draw_needs_it():
    """Drawing Cubes: only when a cube must be drawn from an empty bag does the whole
    discard pile (this turn's cubes included) go into the bag."""
    t = racing_table()
    t.turn(0, active=dict(yellow=2), bag=dict(white=3), discard=dict(purple=4))
    t.act(STOP, STOP)
    assert t.size(0, "active") == 7
    # 3 whites drawn, then 4 of the 6 refilled cubes (4 purple + 2 yellow)
    assert t.size(0, "bag") == 2 and t.size(0, "discard") == 0
    t2 = racing_table()
    t2.turn(0, active=dict(yellow=2), bag=dict(white=7), discard=dict(purple=4))
    t2.act(STOP, STOP)
    assert t2.size(0, "bag") == 0 and t2.count(0, "discard", "purple") == 4


def test_momentum_fills_vacated_segments_after_every_turn():
    """Momentum: after the turn every car moves up to fill vacated segments of its space."""
    t = Table(3)
    t.put_car(0, 1, 0, seg=0)             # lane 1 dark gray [0, 4)
    t.put_car(1, 1, 0, seg=1)
    t.put_car(2, 1, 0, seg=2)
    t.turn(0, active=dict(light_gray=1), bag=dict(white=7))
    t.act(activate("light_gray"), to_space(t.space(0, 4)), STOP, STOP)
    assert t.s[st.CAR_SEG + 1] == 0 and t.s[st.CAR_SEG + 2] == 1


def test_race_position_is_progress_then_inner_lane():
    """Card Clarifications: position by progress; if tied, the more inner lane leads."""
    from transit_gym.envs.automobiles.board import rank
    t = Table(3)
    t.put_car(0, 1, 0)                    # lane 1 [0, 4): front edge 4
    t.put_car(1, 0, 2)                    # lane 0 [2, 4): front edge 4, inner
    t.put_car(2, 2, 0)                    # lane 2 [0, 6): front edge 6
    assert [rank(t.s, t.p, seat) for seat in range(3)] == [3, 2, 1]


# ----- Pit stop -----------------------------------------------------------------------------
def test_pit_stop_removes_all_wear_from_the_active_pile_and_ends_the_turn():
    """Pit Stop example: all 5 wear of the active pile go back to the stock; no action,
    buy, move or wear; the other active cubes are discarded in the End Phase."""
    t = racing_table()
    t.give(0, "active", wear=5, light_gray=2)
    t.give(0, "bag", white=7)
    stock = t.stock("wear")
    t.turn(0)
    space = int(t.s[st.CAR_SPACE])
    t.act(PIT_STOP)
    assert t.stock("wear") == stock + 5
    assert t.count(0, "discard", "light_gray") == 2 and t.count(0, "discard", "wear") == 0
    assert int(t.s[st.CAR_SPACE]) == space and t.current() == 1
    assert t.s[st.STAT_PIT_STOPS] == 1


def test_no_pit_stop_after_a_standard_turn_started():
    """Pit Stop note: not once a standard turn has started."""
    t = racing_table()
    t.turn(0, active=dict(wear=2, light_gray=2))
    assert PIT_STOP in t.legal()
    t.act(activate("light_gray"), to_space(t.space(0, 4)))
    assert PIT_STOP not in t.legal()


def test_buy_several_cubes_including_copies_of_one_kind():
    """Buy Phase: "You can buy several cubes ... including multiple copies of the same
    cube, as long as you have enough money": $10 buys two dark gray ($5 each)."""
    t = racing_table()
    t.give(0, "active", dark_gray=5)                     # 5 x $2
    t.turn(0, bag=dict(white=7))
    t.act(STOP, buy("dark_gray"), buy("dark_gray"))
    assert t.count(0, "used", "dark_gray") == 2 and t.s[st.MONEY] == 0
    assert t.s[st.STAT_BOUGHT + 2] == 2
