"""Every goal's exact condition (Card Clarifications, Goal column) and the Goal Phase.
Seat 0 is red; with two players green and yellow are unassigned, i.e. neutral (Rule
Clarifications), but remain colours of their own."""

from __future__ import annotations

import pytest

from transit_gym.envs.planes import kernels as k
from transit_gym.envs.planes import state as st

from .table import Table, empty_table


def met(t: Table, name: str, seat: int = 0) -> bool:
    return bool(k.goal_met(t.s, t.p, seat, t.card(name)))


def board(n=2, **options):
    """A fresh empty board; call with space -> cube counts."""
    def make(**spaces):
        t = empty_table(n, **options)
        for space, counts in spaces.items():
            t.put(space, **counts)
        return t
    return make


EMPTY_BLANKS_FILLED = {"S0": {"blue": 1}, "S7": {"blue": 1}}


@pytest.mark.parametrize(("spaces", "expected"), [
    ({}, True),                                           # S0 and S7 are blank and empty
    (EMPTY_BLANKS_FILLED, False),                         # S1.. are empty but not blank
    ({"S0": {"grey": 1}}, True),                          # S7 still blank and empty
])
def test_goal_1_a_blank_space_with_no_cubes(spaces, expected):
    """Goal 1 (1 VP): any blank space with zero cubes; gate spaces do not count."""
    assert met(board()(**spaces), "Draw 1") is expected


@pytest.mark.parametrize(("name", "space", "other"), [
    ("Gather at Fast Food", "S1", "S2"),
    ("Gather at Restroom", "S2", "S1"),
    ("One to Gift Shop", "S3", "S4"),
    ("One to Help Desk", "S4", "S3"),
])
def test_goals_2_3_8_9_a_point_of_interest_with_one_of_yours(name, space, other):
    """Goals 2, 3 (1 VP), 8, 9 (2 VP): that kind of space with at least 1 of your cubes;
    other cubes may be there too."""
    assert met(board()(**{space: {"red": 1, "blue": 3, "grey": 2}}), name)
    assert met(board()(**{space: {"red": 3}}), name)
    assert not met(board()(**{space: {"blue": 1}}), name)
    assert not met(board()(**{other: {"red": 1}}), name)


def test_goal_4_exactly_one_of_your_cubes_strict_and_loose():
    """Goal 4 (1 VP): a space with exactly 1 cube of your colour. Open question Q3: strict
    (default) means it is the only cube there; ``exact_goals="loose"`` allows others."""
    assert met(board()(S4={"red": 1}), "Choose One")
    assert not met(board()(S4={"red": 2}), "Choose One")
    assert not met(board()(S4={"red": 1, "grey": 1}), "Choose One")
    assert met(board(exact_goals="loose")(S4={"red": 1, "grey": 1}), "Choose One")
    assert not met(board(exact_goals="loose")(S4={"red": 2, "grey": 1}), "Choose One")


def test_goal_5_exactly_one_neutral_cube_grey_or_unassigned():
    """Goal 5 (1 VP): exactly 1 neutral cube; unassigned colours are neutral (Q4)."""
    assert met(board()(S4={"grey": 1}), "Skip 1 Space")
    assert met(board()(S4={"green": 1}), "Skip 1 Space")
    assert not met(board()(S4={"blue": 1}), "Skip 1 Space")
    assert not met(board()(S4={"grey": 1, "blue": 1}), "Skip 1 Space")
    assert met(board(exact_goals="loose")(S4={"grey": 1, "blue": 1}), "Skip 1 Space")
    assert not met(board(exact_goals="loose")(S4={"grey": 1, "yellow": 1}), "Skip 1 Space")
    assert not met(board(4)(S4={"green": 1}), "Skip 1 Space")    # green has a player


def test_goal_6_three_cubes_of_three_colours():
    """Goal 6 (2 VP): exactly 3 cubes of exactly 3 unique colours (any colours)."""
    assert met(board()(S4={"red": 1, "blue": 1, "grey": 1}), "Draw 2 Discard 1")
    assert met(board()(S4={"green": 1, "blue": 1, "grey": 1}), "Draw 2 Discard 1")
    assert not met(board()(S4={"red": 2, "grey": 1}), "Draw 2 Discard 1")
    assert not met(board()(S4={"red": 2, "blue": 1, "grey": 1}), "Draw 2 Discard 1")


def test_goal_7_four_cubes_of_two_colours():
    """Goal 7 (2 VP): exactly 4 cubes of exactly 2 unique colours."""
    assert met(board()(S4={"blue": 2, "grey": 2}), "Regroup")
    assert met(board()(S4={"blue": 3, "grey": 1}), "Regroup")
    assert not met(board()(S4={"blue": 2, "grey": 1, "red": 1}), "Regroup")
    assert not met(board()(S4={"blue": 3, "grey": 2}), "Regroup")


def test_goal_10_two_cubes_yours_and_one_other_colour():
    """Goal 10 (2 VP): exactly 2 cubes: your colour and exactly 1 other colour."""
    assert met(board()(S4={"red": 1, "blue": 1}), "Ignore Neutrals")
    assert met(board()(S4={"red": 1, "grey": 1}), "Ignore Neutrals")
    assert not met(board()(S4={"red": 2}), "Ignore Neutrals")
    assert not met(board()(S4={"blue": 1, "grey": 1}), "Ignore Neutrals")


def test_goal_11_five_cubes_three_colours_including_yours():
    """Goal 11 (3 VP): exactly 5 cubes of your colour and exactly 2 other colours."""
    assert met(board()(S4={"red": 2, "blue": 2, "grey": 1}), "Draw 3 Discard 1")
    assert met(board()(S4={"red": 1, "green": 1, "grey": 3}), "Draw 3 Discard 1")
    assert not met(board()(S4={"blue": 2, "green": 2, "grey": 1}), "Draw 3 Discard 1")
    assert not met(board()(S4={"red": 2, "blue": 1, "grey": 1, "green": 1}),
                   "Draw 3 Discard 1")


def test_goal_12_fine_dining_with_exactly_two_of_yours():
    """Goal 12 (3 VP): a Fine Dining with exactly 2 of your cubes; others may be there."""
    assert met(board()(S13={"red": 2, "blue": 3}), "Two to Fine Dining")
    assert not met(board()(S13={"red": 3}), "Two to Fine Dining")
    assert not met(board()(S12={"red": 2}), "Two to Fine Dining")


def test_goal_13_exactly_four_neutral_cubes_of_any_neutral_colours():
    """Goal 13 (3 VP): exactly 4 neutral cubes; they may be of several neutral colours."""
    assert met(board()(S4={"grey": 2, "green": 1, "yellow": 1}), "Move Backwards")
    assert met(board()(S4={"grey": 4}), "Move Backwards")
    assert not met(board()(S4={"grey": 3}), "Move Backwards")
    assert not met(board()(S4={"grey": 4, "red": 1}), "Move Backwards")
    assert met(board(exact_goals="loose")(S4={"grey": 4, "red": 1}), "Move Backwards")
    assert not met(board(4)(S4={"grey": 2, "green": 1, "yellow": 1}), "Move Backwards")


def test_goal_14_four_cubes_of_four_colours():
    """Goal 14 (3 VP): exactly 4 cubes of exactly 4 unique colours."""
    assert met(board()(S4={"red": 1, "blue": 1, "green": 1, "grey": 1}),
               "Move Only Your Party")
    assert met(board()(S4={"yellow": 1, "blue": 1, "green": 1, "grey": 1}),
               "Move Only Your Party")
    assert not met(board()(S4={"red": 2, "blue": 1, "grey": 1}), "Move Only Your Party")


def test_goal_15_yours_a_neutral_and_a_third_colour():
    """Goal 15 (3 VP): exactly 3 cubes: 1 of yours, 1 neutral and 1 of another colour."""
    assert met(board()(S4={"red": 1, "grey": 1, "blue": 1}), "Move Twice")
    assert met(board()(S4={"red": 1, "green": 1, "blue": 1}), "Move Twice")
    assert not met(board(4)(S4={"red": 1, "green": 1, "blue": 1}), "Move Twice")
    assert not met(board()(S4={"red": 2, "grey": 1}), "Move Twice")
    assert not met(board()(S4={"red": 1, "blue": 2}), "Move Twice")


def test_goal_15_third_colour_may_be_an_unassigned_colour_beside_grey():
    """Goal 15 with an unassigned colour as the "other unique color".
    Rule Clarifications: unassigned cubes are neutral but "still considered to be a unique
    color for the purpose of scoring goals", so yours + a grey + an unassigned cube is
    yours, 1 neutral and 1 other unique colour. Two players: green and yellow unassigned."""
    assert met(board()(S4={"red": 1, "grey": 1, "green": 1}), "Move Twice")
    assert met(board()(S4={"red": 1, "yellow": 1, "green": 1}), "Move Twice")
    assert met(board(3)(S4={"red": 1, "grey": 1, "yellow": 1}), "Move Twice")
    # still 3 colours: two greys are one colour, and a cube of yours is not the third
    assert not met(board()(S4={"red": 1, "grey": 2}), "Move Twice")
    assert not met(board()(S4={"red": 2, "green": 1}), "Move Twice")
    # with 4 players there is no unassigned colour: 2 other players' cubes have no neutral
    assert not met(board(4)(S4={"red": 1, "green": 1, "yellow": 1}), "Move Twice")


def test_goals_only_count_cubes_on_the_board_not_on_planes():
    """Card Clarifications, General Notes: boarded cubes and planes are not spaces."""
    t = empty_table()
    t.put("S0", blue=1)
    t.put("S7", blue=1)
    t.board("N1", 4)
    assert not met(t, "Move Backwards") and not met(t, "Draw 1")


def test_goals_are_checked_for_the_scorers_colour():
    """General Notes: a goal refers only to the player who plays it."""
    t = board()(S4={"blue": 1})
    assert met(t, "Choose One", seat=1) and not met(t, "Choose One", seat=0)


# ----- the goal phase ---------------------------------------------------------------------------
def test_goal_phase_scores_one_met_goal_and_may_pass():
    """Goal Phase / Example Goal: Gift Shop (2 VP) and Restroom (1 VP) both met; only one
    goal may be scored this phase."""
    t = empty_table()
    t.put("S3", red=1)
    t.put("S1", red=1, grey=1)
    t.give(0, "One to Gift Shop", "Gather at Restroom", "Move Twice")
    t.move(0)
    t.play(t.SPACE("S1"), t.DROP("red"), t.STOP)     # red and grey on Restroom S2
    assert t.phase == st.PH_GOAL
    assert t.legal() == sorted([t.PASS(), t.CARD("One to Gift Shop"),
                               t.CARD("Gather at Restroom")])
    t.play(t.CARD("One to Gift Shop"))
    assert t.goals(0) == {"One to Gift Shop": 1} and t.current == 1
    assert t.hand(0) == {"Gather at Restroom": 1, "Move Twice": 1}


def test_goal_phase_is_skipped_when_no_goal_is_met():
    """Goal Phase: a card may only be played as a goal if its condition is present."""
    t = empty_table()
    t.put("S4", red=1, grey=5)
    t.give(0, "Move Twice")
    t.move(0)
    t.play(t.SPACE("S4"), t.DROP("grey"), t.STOP)
    assert t.current == 1


def test_a_scored_goal_keeps_its_vp_when_the_condition_goes():
    """Rule Clarifications: a scored goal awards VP even if its condition disappears."""
    t = empty_table()
    t.put("S4", red=1)
    t.give(0, "Choose One", "Move Twice")
    t.move(0)
    t.play(t.SPACE("S4"), t.DROP("red"))
    t.play(t.CARD("Choose One"))
    assert k.goal_points(t.s, t.p, 0) == 1
    t.put("S5", grey=3)
    assert not met(t, "Choose One") and k.goal_points(t.s, t.p, 0) == 1


def test_cards_drawn_for_boarding_may_be_scored_in_the_same_goal_phase():
    """Rule Clarifications: the 2 cards from boarding a neutral cube are drawn at once and
    may be scored in the goal phase."""
    t = empty_table()
    hands = t.state["hand"].reshape(4, -1)
    decks = t.state["deck"].reshape(4, -1)
    hands[1] += decks[0]                              # seat 1 holds all cards but two
    decks[0] = 0
    gar = t.card("Gather at Restroom")
    hands[1, gar] -= 2
    decks[0, gar] = 2
    t.put("S8", red=1, grey=1)
    t.move(0)
    t.play(t.SPACE("S8"), t.DROP("red"), t.BOARD("N2"))
    assert t.hand(0) == {"Gather at Restroom": 2} and t.phase == st.PH_GOAL
    t.play(t.CARD("Gather at Restroom"))
    assert t.goals(0) == {"Gather at Restroom": 1}


def test_a_goal_shown_by_cubes_the_scorer_did_not_move_may_be_scored():
    """Rule Clarifications: the condition need not be created this turn or by the active
    cubes; it only has to be somewhere on the board when the card is played."""
    t = empty_table()
    t.put("S12", blue=2, yellow=2)                 # goal 7 (4 cubes, 2 colours), not red's
    t.put("S4", red=1, grey=1)
    t.give(0, "Regroup")
    t.move(0)
    t.play(t.SPACE("S4"), t.DROP("grey"), t.DROP("red"))   # S12 is not touched
    assert [t.total(s) for s in ("S4", "S5", "S6")] == [0, 1, 1]
    assert t.phase == st.PH_GOAL and t.CARD("Regroup") in t.legal()
    t.play(t.CARD("Regroup"))
    assert t.goals(0) == {"Regroup": 1} and k.goal_points(t.s, t.p, 0) == 2
