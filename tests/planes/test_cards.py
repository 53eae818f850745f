"""The Action Phase and every card's action (Card Clarifications, Action column), on
the rule tests' ring (``table.RING14``, the earlier Flying Cloud reconstruction): ring
S0..S13; Fast Food S1 S6 S8, Restroom S2 S5 S9 S12, Gift Shop S3 S10, Help Desk S4 S11,
Fine Dining S13, blank S0 S7. Seat 0 red, seat 1 blue (2 players). The rulebook's game
example is replayed on the shipped Flying Cloud in ``test_game_example.py``."""

from __future__ import annotations

import pytest

from transit_gym.envs.planes import state as st

from .table import Table, empty_table


def _acting(t: Table, seat: int, *cards: str) -> None:
    """Give ``seat`` the cards and start its turn at the action phase."""
    t.give(seat, *cards)
    t.turn(seat)
    assert t.phase == st.PH_ACTION and t.current == seat


# ----- the action phase -------------------------------------------------------------------------
def test_action_is_optional_and_only_one_card_is_played():
    """Action Phase: may play one card; then the move phase follows."""
    t = empty_table()
    t.put("S4", red=1)
    _acting(t, 0, "Draw 1", "Skip 1 Space")
    assert t.PASS() in t.legal()
    t.play(t.CARD("Draw 1"))
    assert t.phase == st.PH_START
    assert t.s[st.IN_PLAY] == t.card("Draw 1")


def test_played_action_is_discarded_at_the_end_of_the_turn_not_scored():
    """Action Phase: the card is discarded at the end of the turn and is no goal."""
    t = empty_table()
    t.put("S4", red=1)
    _acting(t, 0, "Draw 1", "Regroup")
    before = int(t.state["discard"][t.card("Draw 1")])
    t.play(t.CARD("Draw 1"))
    assert t.s[st.IN_PLAY] == t.card("Draw 1")
    t.play(t.SPACE("S4"), t.DROP("red"))
    assert t.current == 1 and t.goals(0) == {} and t.s[st.IN_PLAY] == -1
    assert t.state["discard"][t.card("Draw 1")] == before + 1


def test_without_a_playable_card_the_action_phase_is_skipped():
    """Action Phase: nothing to decide when no card can be played (here: Two to Fine
    Dining needs two of your cubes on the board)."""
    t = empty_table()
    t.put("S4", red=1)
    t.give(0, "Two to Fine Dining")
    t.turn(0)
    assert t.phase == st.PH_START


def test_card_needing_a_missing_point_of_interest_cannot_be_played():
    """Optional Rules, POI tokens: with every Fast Food covered, Gather at Fast Food has
    no destination."""
    t = empty_table(poi={"S1": "blank", "S6": "blank", "S8": "blank"})
    t.put("S4", red=1)
    t.give(0, "Gather at Fast Food", "Draw 1")
    t.turn(0)
    assert t.CARD("Gather at Fast Food") not in t.legal() and t.CARD("Draw 1") in t.legal()


# ----- draw cards ---------------------------------------------------------------------------------
def test_draw_1_adds_one_card():
    """Card 1: draw 1 card from the draw deck."""
    t = empty_table()
    t.put("S4", red=1)
    _acting(t, 0, "Draw 1")
    deck = t.deck_size()
    t.play(t.CARD("Draw 1"))
    assert t.hand_size(0) == 1 and t.deck_size() == deck - 1


def test_draw_2_then_discard_1_from_the_whole_hand():
    """Card 6: draw 2, then discard 1 card of your choice from your hand."""
    t = empty_table()
    t.put("S4", red=1)
    _acting(t, 0, "Draw 2 Discard 1", "Regroup")
    t.play(t.CARD("Draw 2 Discard 1"))
    assert t.phase == st.PH_DISCARD and t.hand_size(0) == 3
    assert t.CARD("Regroup") in t.legal()
    discard = t.discard_size()
    t.play(t.CARD("Regroup"))
    assert t.hand_size(0) == 2 and t.discard_size() == discard + 1
    assert t.phase == st.PH_START


def test_draw_3_then_discard_1():
    """Card 11: draw 3, then discard 1."""
    t = empty_table()
    t.put("S4", red=1)
    _acting(t, 0, "Draw 3 Discard 1")
    t.play(t.CARD("Draw 3 Discard 1"))
    assert t.hand_size(0) == 3 and t.phase == st.PH_DISCARD
    t.play(t.legal()[0])
    assert t.hand_size(0) == 2


# ----- cards that place cubes -------------------------------------------------------------------
@pytest.mark.parametrize(("card", "cubes", "offered", "chosen", "after"), [
    pytest.param("Gather at Fast Food",
                 {"S0": dict(red=2, grey=1), "S4": dict(red=1, blue=1), "S13": dict(red=2)},
                 ["S1", "S6", "S8"], "S6",
                 {"S6": {"red": 5}, "S0": {"grey": 1}, "S4": {"blue": 1}, "S13": {}},
                 id="card_2_gather_at_fast_food_every_own_cube_to_one_fast_food"),
    pytest.param("Gather at Restroom", {"S0": dict(red=1), "S7": dict(red=1)},
                 ["S2", "S5", "S9", "S12"], "S12", {"S12": {"red": 2}},
                 id="card_3_gather_at_restroom_the_same_onto_a_restroom"),
    pytest.param("Regroup", {"S0": dict(red=2), "S4": dict(red=1, grey=2), "S13": dict(red=2)},
                 ["S0", "S4", "S13"], "S4", {"S4": {"red": 5, "grey": 2}},
                 id="card_7_regroup_at_a_space_holding_an_own_cube"),
])
def test_a_gathering_card_brings_every_own_cube_to_the_chosen_space(card, cubes, offered,
                                                                      chosen, after):
    """Card 2: collect all your party cubes on one Fast Food of your choice; card 3: the
    same onto a Restroom; card 7: choose a space with one of your cubes, all your other
    cubes join it. Other colours stay where they are; the action is then over."""
    t = empty_table()
    for space, counts in cubes.items():
        t.put(space, **counts)
    _acting(t, 0, card)
    t.play(t.CARD(card))
    assert t.legal() == [t.SPACE(space) for space in offered]
    t.play(t.SPACE(chosen))
    assert {space: t.cubes(space) for space in after} == after
    assert t.phase == st.PH_START


def test_one_cube_to_a_gift_shop_of_choice():
    """Card 8: choose 1 of your cubes and place it at a Gift Shop of your choice."""
    t = empty_table()
    t.put("S0", red=2)
    t.put("S13", red=1)
    _acting(t, 0, "One to Gift Shop")
    t.play(t.CARD("One to Gift Shop"))
    assert t.legal() == [t.SPACE("S3"), t.SPACE("S10")]
    t.play(t.SPACE("S10"))
    assert t.legal() == [t.SPACE("S0"), t.SPACE("S13")]
    t.play(t.SPACE("S13"))
    assert t.cubes("S10") == {"red": 1} and t.cubes("S13") == {} and t.cubes("S0") == {"red": 2}


def test_one_cube_to_a_help_desk_of_choice():
    """Card 9: the same onto a Help Desk."""
    t = empty_table()
    t.put("S0", red=1)
    _acting(t, 0, "One to Help Desk")
    t.play(t.CARD("One to Help Desk"))
    assert t.legal() == [t.SPACE("S4"), t.SPACE("S11")]
    t.play(t.SPACE("S4"), t.SPACE("S0"))
    assert t.cubes("S4") == {"red": 1}


def test_two_cubes_to_fine_dining_may_come_from_different_spaces():
    """Card 12: choose 2 of your cubes (from different spaces if you like) and place them
    at a Fine Dining of your choice."""
    t = empty_table()
    t.put("S0", red=1)
    t.put("S4", red=1)
    _acting(t, 0, "Two to Fine Dining")
    t.play(t.CARD("Two to Fine Dining"))
    assert t.legal() == [t.SPACE("S13")]
    t.play(t.SPACE("S13"), t.SPACE("S0"))
    assert t.legal() == [t.SPACE("S4")]          # the cube at S0 is already chosen
    t.play(t.SPACE("S4"))
    assert t.cubes("S13") == {"red": 2} and t.cubes("S0") == {} and t.cubes("S4") == {}


def test_two_cubes_to_fine_dining_from_one_space():
    """Card 12: both cubes may come from one space holding two of yours."""
    t = empty_table()
    t.put("S4", red=3)
    _acting(t, 0, "Two to Fine Dining")
    t.play(t.CARD("Two to Fine Dining"), t.SPACE("S13"), t.SPACE("S4"))
    assert t.legal() == [t.SPACE("S4")]
    t.play(t.SPACE("S4"))
    assert t.cubes("S13") == {"red": 2} and t.cubes("S4") == {"red": 1}


# ----- cards that change the move ----------------------------------------------------------------
def test_choose_one_ignore_blockages_moves_past_cones_and_still_places_new_ones():
    """Card 4, first option: ignore all blockages this move; new blockages still count."""
    t = empty_table()
    t.put("S5", blue=5, yellow=2)
    t.put("S7", green=5, yellow=1)
    t.put("S4", red=2, grey=1)
    _acting(t, 0, "Choose One")
    t.play(t.CARD("Choose One"))
    assert t.legal() == [t.IGNORE_BLOCKAGES]        # no goal is met: only the first option
    t.play(t.IGNORE_BLOCKAGES, t.SPACE("S4"), t.DROP("grey"))
    assert t.moving and t.blocked("S5")
    t.play(t.DROP("red"), t.DROP("red"))
    assert t.cubes("S6") == {"red": 1} and t.blocked("S7")


def test_choose_one_scores_an_extra_goal_now_and_another_in_the_goal_phase():
    """Card 4, second option: score one more card from hand now (its condition met); the
    goal phase may still score one."""
    t = empty_table()
    t.put("S4", red=1)
    t.put("S2", red=1)                     # a Restroom with a red cube
    _acting(t, 0, "Choose One", "Draw 1", "Gather at Restroom")
    t.play(t.CARD("Choose One"))
    assert t.EXTRA_GOAL in t.legal()
    t.play(t.EXTRA_GOAL)
    assert t.phase == st.PH_EXTRA_GOAL
    assert t.legal() == [t.CARD("Draw 1"), t.CARD("Gather at Restroom")]   # S7 blank, empty
    t.play(t.CARD("Draw 1"))
    assert t.goals(0) == {"Draw 1": 1} and t.phase == st.PH_START
    t.play(t.SPACE("S4"), t.DROP("red"))
    assert t.phase == st.PH_GOAL
    t.play(t.CARD("Gather at Restroom"))
    assert t.goals(0) == {"Draw 1": 1, "Gather at Restroom": 1}


def test_skip_passes_one_space_without_a_cube():
    """Card 5: skip 1 space of your choice; it gets no cube."""
    t = empty_table()
    t.put("S4", red=2, grey=1)
    _acting(t, 0, "Skip 1 Space")
    t.play(t.CARD("Skip 1 Space"), t.SPACE("S4"), t.DROP("grey"))
    assert t.STOP not in t.legal()             # must still skip
    t.play(t.SKIP)
    assert t.s[st.POS] == t.sp("S6") and t.STOP not in t.legal()   # skipped: no stop here
    t.play(t.DROP("red"))
    assert t.STOP in t.legal() and t.SKIP not in t.legal()
    t.play(t.STOP)
    assert t.cubes("S5") == {"grey": 1} and t.cubes("S6") == {} and t.cubes("S7") == {"red": 2}




def test_skip_cannot_pass_a_blocked_space():
    """Card 5: a space with a blockage cone cannot be skipped."""
    t = empty_table()
    t.put("S5", blue=5, yellow=2)
    t.put("S4", red=1, grey=1)
    _acting(t, 0, "Skip 1 Space")
    t.play(t.CARD("Skip 1 Space"), t.SPACE("S4"))
    assert t.SKIP not in t.legal() and t.DROP("grey") in t.legal()


def test_skip_must_be_used_even_for_the_last_cube():
    """Card 5 says you must skip: with one cube left and a space ahead that can be skipped,
    the move cannot end without it (option ``skip="must"``, the default)."""
    t = empty_table()
    t.put("S4", red=1, grey=1)
    _acting(t, 0, "Skip 1 Space")
    t.play(t.CARD("Skip 1 Space"), t.SPACE("S4"), t.DROP("grey"))
    assert t.legal() == [t.SKIP]


def test_skip_may_option_makes_the_skip_optional():
    """Card 5 with ``skip="may"``: stopping, dropping the last cube or skipping are all open."""
    t = empty_table(skip="may")
    t.put("S4", red=1, grey=1)
    _acting(t, 0, "Skip 1 Space")
    t.play(t.CARD("Skip 1 Space"), t.SPACE("S4"), t.DROP("grey"))
    assert sorted(t.legal()) == sorted([t.SKIP, t.STOP, t.DROP("red")])


def test_skip_owed_only_offers_arrows_that_can_be_skipped():
    """Card 5 with a branch: an arrow into a cone would end the move unskipped."""
    t = empty_table(airport="zephyr")
    t.put("A1", blue=5, green=2)
    t.put("C2", red=1, grey=1)
    _acting(t, 0, "Skip 1 Space")
    t.play(t.CARD("Skip 1 Space"), t.SPACE("C2"))
    assert t.legal() == [t.SPACE("B1")]


def test_ignore_neutrals_leaves_grey_and_unassigned_cubes_behind():
    """Card 10: neutral cubes are not picked up; other players' cubes are. With two
    players green and yellow are neutral too (Rule Clarifications)."""
    t = empty_table()
    t.put("S4", red=1, blue=1, green=1, grey=2)
    _acting(t, 0, "Ignore Neutrals")
    t.play(t.CARD("Ignore Neutrals"), t.SPACE("S4"))
    assert t.state["active"].tolist() == [1, 1, 0, 0, 0]
    assert t.cubes("S4") == {"green": 1, "grey": 2}


def test_move_only_your_party_leaves_every_other_cube():
    """Card 14: only your own party cubes move this turn."""
    t = empty_table()
    t.put("S4", red=2, blue=1, grey=1)
    _acting(t, 0, "Move Only Your Party")
    t.play(t.CARD("Move Only Your Party"), t.SPACE("S4"))
    assert t.state["active"].tolist() == [2, 0, 0, 0, 0]
    assert t.cubes("S4") == {"blue": 1, "grey": 1}


def test_move_backwards_goes_against_the_arrows_and_can_board():
    """Card 13: the whole move goes against the arrows (game example, round 3: Yellow
    boards while moving backwards)."""
    t = empty_table()
    t.put("S10", red=1, grey=1)
    _acting(t, 0, "Move Backwards")
    t.play(t.CARD("Move Backwards"), t.SPACE("S10"), t.DROP("grey"))
    assert t.cubes("S9") == {"grey": 1}
    assert t.BOARD("G1") in t.legal()
    t.play(t.BOARD("G1"))
    assert t.boarded("G1") == 1


def test_move_backwards_picks_among_arrows_that_lead_in():
    """Card 13 on Zephyr: two arrows lead into C1 (from A6 and B6), so backwards from C1
    the mover chooses."""
    t = empty_table(airport="zephyr")
    t.put("C2", red=3)
    _acting(t, 0, "Move Backwards")
    t.play(t.CARD("Move Backwards"), t.SPACE("C2"), t.DROP("red"))
    assert t.cubes("C1") == {"red": 1}
    assert sorted(t.legal()) == sorted([t.SPACE("A6"), t.SPACE("B6"), t.STOP])
    t.play(t.SPACE("A6"), t.DROP("red"))
    assert t.cubes("A6") == {"red": 1}


def test_move_twice_makes_two_move_phases_before_the_goal_phase():
    """Card 15: two complete move phases, then the goal phase."""
    t = empty_table()
    t.put("S4", red=1)
    t.put("S10", red=1)
    _acting(t, 0, "Move Twice")
    t.play(t.CARD("Move Twice"), t.SPACE("S4"), t.DROP("red"))
    assert t.phase == st.PH_START and t.current == 0
    t.play(t.SPACE("S10"), t.DROP("red"))
    assert t.current == 0 and t.phase == st.PH_DRAW      # empty hand: the end-of-turn draw
    assert t.cubes("S5") == {"red": 1} and t.cubes("S11") == {"red": 1}
    assert t.s[st.STAT_MOVES] == 2


def test_a_played_action_card_is_not_offered_as_a_goal_that_turn():
    """Action Phase: a card played as an action cannot be used as a goal later during
    the turn, even when its goal shows on the board (blank S0 empty for Draw 1)."""
    t = empty_table()
    t.put("S4", red=1)
    t.put("S8", blue=1, green=1, grey=1)         # goal 6 shows: the goal phase opens
    _acting(t, 0, "Draw 1", "Draw 2 Discard 1")
    d1 = t.card("Draw 1")                        # the drawn card is not another Draw 1
    t.state["discard"][d1] += t.state["deck"][d1]
    t.state["deck"][d1] = 0
    t.play(t.CARD("Draw 1"), t.SPACE("S4"), t.DROP("red"))
    assert t.phase == st.PH_GOAL and t.cubes("S0") == {}
    assert t.CARD("Draw 1") not in t.legal() and t.CARD("Draw 2 Discard 1") in t.legal()


def test_actions_use_only_cubes_still_in_the_airport():
    """Card Clarifications, General Notes: actions refer only to cubes not yet boarded.
    Gather leaves boarded cubes on their plane; Two to Fine Dining needs two cubes that
    are still in the airport."""
    t = empty_table()
    t.board("G1", 3)
    t.put("S4", red=1)
    t.put("S11", red=1)
    _acting(t, 0, "Gather at Restroom")
    t.play(t.CARD("Gather at Restroom"), t.SPACE("S12"))
    assert t.cubes("S12") == {"red": 2} and t.boarded("G1") == 3
    t2 = empty_table()
    t2.board("G1", 4)
    t2.put("S4", red=1)
    t2.give(0, "Two to Fine Dining")
    t2.turn(0)
    assert t2.phase == st.PH_START                  # one cube in the airport: unplayable


def test_a_cone_made_by_a_card_action_stops_the_move_at_once():
    """Blockages: a cone is placed whenever seven party cubes share a space, also when a
    card places them (data Q2); the move that follows cannot pass it."""
    t = empty_table()
    t.put("S3", blue=5, green=1)
    t.put("S0", red=1)
    t.put("S1", red=2, grey=1)
    _acting(t, 0, "One to Gift Shop")
    t.play(t.CARD("One to Gift Shop"), t.SPACE("S3"), t.SPACE("S0"))
    assert t.blocked("S3")
    t.play(t.SPACE("S1"), t.DROP("grey"), t.DROP("red"))
    assert not t.moving
    assert t.cubes("S3") == {"red": 3, "blue": 5, "green": 1} and t.cubes("S4") == {}


def test_a_cone_removed_by_a_card_action_no_longer_stops_the_move():
    """Blockages: the cone leaves as soon as fewer than seven party cubes remain, here
    because Regroup took two of them away."""
    t = empty_table()
    t.put("S5", blue=5, red=2)
    t.put("S3", red=1, grey=2)
    _acting(t, 0, "Regroup")
    assert t.blocked("S5")
    t.play(t.CARD("Regroup"), t.SPACE("S3"))
    assert not t.blocked("S5") and t.cubes("S3") == {"red": 3, "grey": 2}
    t.play(t.SPACE("S3"), t.DROP("grey"), t.DROP("red"), t.DROP("red"))
    assert t.cubes("S5") == {"blue": 5, "red": 1} and t.cubes("S6") == {"red": 1}
