"""Move Phase, Boarding a Plane and Blockages on constructed positions (Flying Cloud is a
ring S0 -> S1 -> ... -> S13 -> S0; gates G1@S9, G2@S12, G3@S2, G4@S5, N1@S2, N2@S9).
Two players: seat 0 red, seat 1 blue; green and yellow are unassigned (neutral)."""

from __future__ import annotations

import pytest

from transit_gym.envs.planes import kernels as k
from transit_gym.envs.planes import state as st

from .table import empty_table


# ----- Move Phase ----------------------------------------------------------------------------
def test_move_starts_only_where_the_mover_has_a_party_cube():
    """Move Phase: choose any space where you have at least one of your party cubes."""
    t = empty_table()
    t.put("S1", red=1)
    t.put("S4", red=2, grey=1)
    t.put("S6", blue=3, grey=2)
    t.move(0)
    assert t.legal() == [t.SPACE("S1"), t.SPACE("S4")]


def test_example_move_one_cube_per_space_then_out_of_cubes():
    """Example Move: 2 red + 1 neutral picked up; one red next, one neutral after, the
    last red in the third space; the move ends when the active cubes run out."""
    t = empty_table()
    t.put("S4", red=2, grey=1)
    t.move(0)
    t.play(t.SPACE("S4"))
    assert t.cubes("S4") == {} and t.state["active"].tolist() == [2, 0, 0, 0, 1]
    t.play(t.DROP("red"), t.DROP("grey"))
    assert t.moving
    t.play(t.DROP("red"))
    assert not t.moving
    assert (t.cubes("S5"), t.cubes("S6"), t.cubes("S7")) == ({"red": 1}, {"grey": 1},
                                                               {"red": 1})


def test_every_cube_of_the_space_becomes_active_and_the_mover_picks_each_colour():
    """Move Phase: pick up ALL cubes (own, other players', neutral); the mover chooses
    which active cube goes into each space."""
    t = empty_table()
    t.put("S4", red=1, blue=1, green=1, grey=1)
    t.move(0)
    t.play(t.SPACE("S4"))
    assert t.state["active"].tolist() == [1, 1, 1, 0, 1]
    assert sorted(t.legal()) == sorted(t.DROP(c) for c in ("red", "blue", "green", "grey"))
    t.play(t.DROP("green"))
    assert t.cubes("S5") == {"green": 1}


def test_a_move_must_enter_at_least_one_space_then_may_stop_anywhere():
    """Move Phase: at least one space; stopping puts every remaining cube in that space."""
    t = empty_table()
    t.put("S4", red=2, grey=2)
    t.move(0)
    t.play(t.SPACE("S4"))
    assert t.STOP not in t.legal()
    t.play(t.DROP("grey"))
    assert t.STOP in t.legal()
    t.play(t.STOP)
    assert t.cubes("S5") == {"red": 2, "grey": 2} and t.cubes("S4") == {}
    assert not t.moving


def test_arrows_with_several_targets_are_a_choice_of_the_mover():
    """Rule Clarifications: at the Zephyr centre space the mover picks the arrow."""
    t = empty_table(airport="zephyr")
    t.put("C2", red=2, grey=1)
    t.move(0)
    t.play(t.SPACE("C2"))
    assert sorted(t.legal()) == sorted([t.SPACE("A1"), t.SPACE("B1")])
    t.play(t.SPACE("B1"))
    assert t.phase == st.PH_BRANCH
    assert sorted(t.legal()) == sorted([t.DROP("red"), t.DROP("grey")])
    t.play(t.DROP("grey"))
    assert t.cubes("B1") == {"grey": 1} and t.cubes("A1") == {}
    t.play(t.DROP("red"), t.DROP("red"))
    assert t.cubes("B2") == {"red": 1} and t.cubes("B3") == {"red": 1}


def test_a_seat_without_cubes_on_the_board_makes_no_move():
    """Move Phase needs a party cube to move: with all five boarded the phase is skipped."""
    t = empty_table(end_draw="must")
    t.board("G1", 5)
    t.put("S4", blue=1)
    t.turn(0)
    assert t.current == 1 and t.hand_size(0) == 1   # straight to the end-of-turn draw
    assert t.s[st.STAT_MOVES] == 0


# ----- Boarding a Plane ------------------------------------------------------------------------
def test_boarding_example_last_matching_cube_boards_and_token_advances():
    """Boarding Example: blue, red and neutral picked up; neutral, then red, then the
    last cube (blue) boards the blue plane; the boarding token moves to 1."""
    t = empty_table()
    t.put("S10", blue=1, red=1, grey=1)
    t.move(1)
    t.play(t.SPACE("S10"), t.DROP("grey"), t.DROP("red"))
    assert t.BOARD("G2") in t.legal()
    t.play(t.BOARD("G2"))
    assert t.boarded("G2") == 1 and t.s[st.TRACK] == 1
    assert t.cubes("S11") == {"grey": 1} and t.cubes("S12") == {"red": 1}
    assert k.own_boarded(t.s, t.p, 1) == 1 and k.score(t.s, t.p, 1) == 5


def test_gate_takes_only_the_last_single_active_cube():
    """Move Phase: gates may only be landed on with a single cube, the last one."""
    t = empty_table()
    t.put("S11", blue=2, grey=1)
    t.move(1)
    t.play(t.SPACE("S11"), t.DROP("grey"))
    assert t.BOARD("G2") not in t.legal()            # two cubes still active at S12
    t.play(t.DROP("blue"))
    assert t.cubes("S13") == {"blue": 1}             # no gate in front of S13


def test_gate_cube_must_match_the_planes_colour():
    """Move Phase / Rule Clarifications: a red cube cannot board a grey plane nor a grey
    cube a red plane; each boards only its own colour's plane."""
    t = empty_table()
    t.put("S8", red=1, grey=1)
    t.move(0)
    t.play(t.SPACE("S8"), t.DROP("red"))
    assert t.BOARD("N2") in t.legal() and t.BOARD("G1") not in t.legal()
    t2 = empty_table()
    t2.put("S8", red=1, grey=1)
    t2.move(0)
    t2.play(t2.SPACE("S8"), t2.DROP("grey"))
    assert t2.BOARD("G1") in t2.legal() and t2.BOARD("N2") not in t2.legal()


def test_a_lone_cube_in_front_of_its_gate_boards_from_where_it_stands():
    """Move Phase: the gate is the one space this move enters."""
    t = empty_table()
    t.put("S9", red=1)
    t.move(0)
    t.play(t.SPACE("S9"))
    assert t.BOARD("G1") in t.legal()
    t.play(t.BOARD("G1"))
    assert t.boarded("G1") == 1 and t.cubes("S9") == {}


def test_boarding_a_grey_cube_draws_two_cards_at_once():
    """Boarding a Plane: a cube of no player at the table draws the mover 2 cards."""
    t = empty_table()
    t.put("S8", red=1, grey=1)
    t.move(0)
    t.play(t.SPACE("S8"), t.DROP("red"))
    before = t.hand_size(0)
    t.play(t.BOARD("N2"))
    assert t.hand_size(0) == before + 2 and t.s[st.TRACK] == 1
    assert t.s[st.STAT_FREE_BOARDS] == 1


def test_boarding_an_unassigned_colour_draws_two_cards():
    """Boarding a Plane: with no green player, green cubes are neutral: boarding one on
    the (neutral) green plane draws 2 cards."""
    t = empty_table()
    t.put("S1", red=1, green=1)
    t.move(0)
    t.play(t.SPACE("S1"), t.DROP("red"))
    t.play(t.BOARD("G3"))
    assert t.hand_size(0) == 2 and t.boarded("G3") == 1


def test_boarding_another_players_cube_gives_that_player_the_points():
    """Winning the Game: 5 VP per cube on one's own plane, whoever boarded it."""
    t = empty_table()
    t.put("S11", red=1, blue=1)
    t.move(0)
    t.play(t.SPACE("S11"), t.DROP("red"), t.BOARD("G2"))
    assert t.hand_size(0) == 0                      # blue has a player: no cards
    assert k.score(t.s, t.p, 1) == 5 and k.score(t.s, t.p, 0) == 0


def test_a_full_neutral_plane_cannot_be_boarded():
    """Rule Clarifications: a neutral plane with five cubes may no longer be boarded."""
    t = empty_table()
    t.board("N2", 5)
    t.put("S8", red=1, grey=1)
    t.move(0)
    t.play(t.SPACE("S8"), t.DROP("red"))
    assert t.BOARD("N2") not in t.legal()


# ----- Blockages -----------------------------------------------------------------------------
def test_seven_party_cubes_make_a_blockage_six_do_not():
    """Blockages: seven or more party cubes in a space place a cone."""
    t = empty_table()
    t.put("S5", blue=4, red=2, grey=2)
    assert not t.blocked("S5")
    t.put("S5", green=1)
    assert t.blocked("S5")


def test_blockage_counts_all_cubes_with_the_reference_sheet_option():
    """Open question Q1: ``blockage_counts="all"`` counts neutral cubes (reference sheet)."""
    t = empty_table(blockage_counts="all")
    t.put("S5", blue=5, grey=2)
    assert t.blocked("S5")
    t2 = empty_table()
    t2.put("S5", blue=5, grey=2)
    assert not t2.blocked("S5")


def test_nothing_moves_past_a_cone_the_move_ends_in_that_space():
    """Blockages: cubes may be added to a blocked space but none move past it."""
    t = empty_table()
    t.put("S5", blue=5, yellow=2)
    t.put("S4", red=1, grey=2)
    t.move(0)
    t.play(t.SPACE("S4"), t.DROP("grey"))
    assert not t.moving
    assert t.cubes("S5") == {"blue": 5, "yellow": 2, "red": 1, "grey": 2}
    assert t.cubes("S6") == {}


def test_a_blockage_made_during_the_move_is_behind_the_mover():
    """Example Blockage: the sixth-to-seventh party cube makes a cone, the mover goes on."""
    t = empty_table()
    t.put("S5", blue=4, red=2)
    t.put("S4", red=1, grey=2)
    t.move(0)
    t.play(t.SPACE("S4"), t.DROP("red"))
    assert t.blocked("S5") and t.moving
    t.play(t.DROP("grey"), t.DROP("grey"))
    assert t.cubes("S6") == {"grey": 1} and t.cubes("S7") == {"grey": 1}


def test_a_move_may_start_on_a_blocked_space_and_the_cone_leaves_at_once():
    """Rule Clarifications: cubes may be moved from a blocked space; Blockages: the cone is
    removed as soon as fewer than seven party cubes remain."""
    t = empty_table()
    t.put("S5", blue=5, red=2)
    assert t.blocked("S5")
    t.move(0)
    t.play(t.SPACE("S5"))
    assert not t.blocked("S5")
    t.play(t.DROP("red"), t.DROP("blue"))
    assert t.cubes("S6") == {"red": 1} and t.cubes("S7") == {"blue": 1}


def test_no_boarding_past_a_cone_in_front_of_the_gate():
    """Blockages: a cone on the space in front of a gate stops the move there."""
    t = empty_table()
    t.put("S9", blue=5, yellow=2)
    t.put("S8", red=1, grey=1)
    t.move(0)
    t.play(t.SPACE("S8"))
    assert t.legal() == sorted([t.DROP("red"), t.DROP("grey")])
    t.play(t.DROP("grey"))
    assert not t.moving and t.boarded("G1") == 0
    assert t.cubes("S9") == {"blue": 5, "yellow": 2, "red": 1, "grey": 1}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_observation_marks_cones_and_relative_colours(n):
    """Hidden information aside, the board is public: cones and cubes per colour, with
    the observer's own colour first."""
    from transit_gym.envs.planes.encode import O_CONES, O_CUBES

    t = empty_table(n)
    t.put("S5", blue=5, red=2)
    seat = 1
    obs = t.game.observe(t.state, seat)
    sp = t.sp("S5")
    assert obs[O_CONES + sp] == 1.0 and obs[O_CONES + t.sp("S4")] == 0.0
    assert obs[O_CUBES + sp * 5 + 0] == 5.0                 # blue is seat 1's own colour
    assert obs[O_CUBES + sp * 5 + (n - 1)] == 2.0           # red: the seat before


def test_two_blockages_can_stand_at_once():
    """Blockages: there may be one or more blockages at any given point; each space is
    judged by its own party cubes."""
    t = empty_table()
    t.put("S5", blue=5, red=2)
    t.put("S11", green=4, yellow=3)
    t.put("S8", red=3, grey=3)
    assert t.blocked("S5") and t.blocked("S11") and not t.blocked("S8")
    t.move(0)
    t.play(t.SPACE("S5"))                       # S5's cone goes, S11's stays
    assert not t.blocked("S5") and t.blocked("S11")
