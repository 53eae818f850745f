"""Racing Season cards that move a cube (R-YUC appendix: Handling - Burnout, Camber & Toe,
Redline; Performance - Bump & Run, Overdrive; Engine - Fuel Injection Engine), on
constructed positions, plus whole random games with these cards (invariants after every
step). Base rulebook Card Clarifications apply: the position is the one at the start of
the Action Phase (inner lane first on a tie), every move starts next to the car or the
last placed cube, "up to" allows zero.

Board positions are on Daytona Beach: lane 0 holds light gray spaces of 2 segments at
0-12 and 20-32 and white spaces of 1 at 12-20 and 32-40; lane 1 dark gray spaces of 4 at
0-12 and 20-32, light gray ones of 2 at 12-20 and 32-40; lane 2 black spaces of 6 at 0-12
and 20-32, dark gray ones of 4 at 12-20 and 32-40.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from tests.automobiles import table
from tests.automobiles.table import (
    STOP,
    Table,
    activate,
    agent_answer,
    from_active,
    from_discard,
    moves,
    put_in_rank,
    to_space,
)
from transit_gym.agents.rule_based.automobiles import policy
from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.encode import O_MOVE_CARDS
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rollout import play_games

WHITE, LIGHT, DARK, BLACK = (1 << g for g in range(4))
# seat 0's car on lane 1 light gray [38, 40)
card_table = partial(table.card_table, car=(1, 38))


def walk(t: Table) -> int:
    """Step the moving cube to the first offered space until its move ends; the steps."""
    steps = 0
    while t.phase() == "move":
        t.act(to_space(moves(t)[0]))
        steps += 1
    return steps


# ----- Burnout ------------------------------------------------------------------------------
def test_burnout_black_in_discard_moves_up_to_two_dark_gray_and_the_cube_stays():
    """Burnout: "Gain 1 wear cube ... choose 1 gear cube in your discard pile. Move your red
    cube up to 2 spaces ... matching the color 1 lower ... if you chose a black cube ...
    up to 2 consecutive dark gray spaces ... the chosen gear cube stays in your discard
    pile." A white gear has no lower colour, so it is not offered."""
    t = card_table("Burnout")
    t.turn(0, active=dict(red=1), discard=dict(black=1, white=2))
    t.act(activate("red"))
    assert t.count(0, "used", "wear") == 1
    assert t.legal() == [from_discard("black")]
    t.act(from_discard("black"))
    assert t.count(0, "discard", "black") == 1 and t.count(0, "discard", "white") == 2
    assert t.s[st.MV_MASK] == DARK and t.s[st.MV_LEFT] == 2
    for at in (0, 4):
        assert moves(t) == [t.space(1, at)] and STOP in t.legal()
        t.act(to_space(t.space(1, at)))
    assert t.phase() == "action" and t.on_track("red") == 1


def test_burnout_up_to_allows_zero_and_light_gray_names_white():
    """Burnout: "up to" 2 (Rule Clarifications: zero is valid); a light gray cube names
    white spaces."""
    t = card_table("Burnout")
    t.put_car(0, 0, 10)                                  # lane 0 light gray [10, 12)
    t.turn(0, active=dict(red=1), discard=dict(light_gray=1))
    t.act(activate("red"), from_discard("light_gray"))
    assert moves(t) == [t.space(0, 12)] and t.s[st.MV_MASK] == WHITE
    t.act(STOP)
    assert t.phase() == "action" and t.on_track("red") == 0 and t.count(0, "used", "red") == 1


def test_burnout_needs_a_discarded_gear_with_a_lower_colour():
    """All or nothing: without a light gray, dark gray or black cube in the discard pile
    Burnout's effect cannot be applied, so the cube may not be activated."""
    t = card_table("Burnout")
    t.turn(0, active=dict(red=1), discard=dict(white=3, wear=2))
    assert activate("red") not in t.legal()


# ----- Camber & Toe -----------------------------------------------------------------------------
def test_camber_toe_discards_an_active_gear_then_moves_exactly_one_space_of_any_colour():
    """Camber & Toe: "Choose 1 gear cube from your active pile to place into your discard
    pile. Then, move your red cube 1 space on any color" (light gray, dark gray and black
    are all next to the car here); "move 1 space" is exact: no stop before it."""
    t = card_table("Camber & Toe")
    t.turn(0, active=dict(red=1, white=1, black=1))
    t.act(activate("red"))
    assert t.count(0, "used", "wear") == 0                      # no wear on this card
    assert sorted(t.legal()) == [from_active("white"), from_active("black")]
    t.act(from_active("white"))
    assert t.count(0, "discard", "white") == 1 and t.count(0, "active", "white") == 0
    assert moves(t) == sorted([t.space(0, 0), t.space(1, 0), t.space(2, 0)])
    assert STOP not in t.legal()
    t.act(to_space(t.space(2, 0)))                              # onto black
    assert t.phase() == "action" and t.on_track("red") == 1
    assert t.s[st.TOP_COLOUR] == 3                               # Decline counts black


def test_camber_toe_needs_a_gear_cube_in_the_active_pile():
    """All or nothing: no gear cube to discard, no activation (the other cubes do not
    count)."""
    t = card_table("Camber & Toe")
    t.turn(0, active=dict(red=1, yellow=1))
    assert activate("red") not in t.legal()


# ----- Redline ------------------------------------------------------------------------------------
def test_redline_lets_white_gears_go_on_any_colour_with_one_wear_each():
    """Redline: "use any number of white gear cubes ... as if they were any color gear
    cube ... 1 white gear cube per space. Gain 1 wear cube ... for each white cube that
    you used with this effect." Next to the car only light gray, dark gray and black:
    a white is not playable before Redline, then it is, on any of them, for 1 wear."""
    t = card_table("Redline")
    t.turn(0, active=dict(red=1, white=2, light_gray=1))
    assert activate("white") not in t.legal()
    t.act(activate("red"))
    assert t.count(0, "used", "wear") == 0                      # wear only per white used
    t.act(activate("white"))
    assert t.s[st.MV_LEFT] == 1 and t.s[st.MV_MIN] == 1
    assert moves(t) == sorted([t.space(0, 0), t.space(1, 0), t.space(2, 0)])
    t.act(to_space(t.space(2, 0)))                              # a black space
    assert t.count(0, "used", "wear") == 1 and t.on_track("white") == 1
    t.act(activate("white"))                                    # next to the last cube
    t.act(to_space(moves(t)[0]))
    assert t.count(0, "used", "wear") == 2
    t.act(activate("light_gray"))                               # other gears: unchanged
    assert t.s[st.MV_MASK] == LIGHT


def test_redline_white_on_a_white_space_gains_no_wear():
    """Redline: a white cube placed on a white space is an ordinary white move, not one
    "used with this effect": no wear (our reading, docs/racing_season/cards_moves.md)."""
    t = card_table("Redline")
    t.put_car(0, 0, 10)                                  # next: white (0, 12), light (1, 12)
    t.turn(0, active=dict(red=1, white=1))
    t.act(activate("red"), activate("white"))
    assert moves(t) == sorted([t.space(0, 12), t.space(1, 12)])
    t.act(to_space(t.space(0, 12)))
    assert t.count(0, "used", "wear") == 0 and t.on_track("white") == 1


def test_redline_white_on_black_gains_the_decline_wear_of_black():
    """Rule Clarifications: "you gain wear based on the highest color track space you moved
    on, not the color of gear that you used": a redlined white on a black space counts
    black in the Decline Phase, on top of Redline's own wear."""
    t = card_table("Redline", keep=False)
    t.turn(0, active=dict(red=1, white=1), bag=dict(yellow=7))
    t.act(activate("red"), activate("white"), to_space(t.space(2, 0)))
    assert t.count(0, "used", "wear") == 1 and t.s[st.TOP_COLOUR] == 3
    t.act(STOP, STOP)                                   # end the Action and Buy Phases
    chart = t.game.cards.wear_chart
    assert t.count(0, "discard", "wear") == 1 + int(chart[3])


def test_redline_lasts_only_for_this_turn():
    """Rule Clarifications: effects last until the end of the turn; the next turn's white
    gears move on white only again."""
    t = card_table("Redline")
    t.turn(0, active=dict(red=1))
    t.act(activate("red"))
    assert t.s[st.REDLINE] == 1
    t.turn(1)
    assert t.s[st.REDLINE] == 0


# ----- Fuel Injection Engine -----------------------------------------------------------------
def test_fuel_injection_gear_cubes_may_move_two_spaces_of_their_colour():
    """Fuel Injection Engine: "Gain 2 wear cubes ... each of your activated gear cubes may
    move twice as many spaces ... 2 spaces instead of 1 on its respective color." The
    first space is still required, the second is a choice ("may"), on the same colour."""
    t = card_table("Fuel Injection Engine")
    t.turn(0, active=dict(blue=1, dark_gray=2))
    t.act(activate("dark_gray"))                        # before Fuel Injection: 1 space
    assert t.s[st.MV_LEFT] == 1
    t.act(to_space(t.space(1, 0)))
    assert t.phase() == "action"
    t.act(activate("blue"))
    assert t.count(0, "used", "wear") == 2 and t.s[st.FUEL] == 2
    t.act(activate("dark_gray"))
    assert STOP not in t.legal() and t.s[st.MV_MASK] == DARK
    t.act(to_space(t.space(1, 4)))
    assert STOP in t.legal() and moves(t) == [t.space(1, 8)]
    t.act(to_space(t.space(1, 8)))
    assert t.phase() == "action" and t.on_track("dark_gray") == 2


def test_fuel_injection_player_may_stop_after_one_space():
    """Fuel Injection: "may move 2 spaces": stopping after the first keeps that one."""
    t = card_table("Fuel Injection Engine")
    t.turn(0, active=dict(blue=1, dark_gray=1))
    t.act(activate("blue"), activate("dark_gray"), to_space(t.space(1, 0)), STOP)
    assert t.phase() == "action" and t.on_track("dark_gray") == 1
    assert t.s[st.PLACED_SPACE] == t.space(1, 0)


def test_fuel_injection_second_copy_costs_wear_and_adds_nothing():
    """Fuel Injection: "activating more than one of these blue cubes is superfluous, as it
    does not compound the effect": a second copy may be activated (its 2 wear are gained)
    but gear cubes still move at most 2 spaces."""
    t = card_table("Fuel Injection Engine")
    t.turn(0, active=dict(blue=2, dark_gray=1))
    t.act(activate("blue"), activate("blue"))
    assert t.count(0, "used", "wear") == 4 and t.s[st.FUEL] == 2
    t.act(activate("dark_gray"))
    assert t.s[st.MV_LEFT] == 2


def test_fuel_injection_has_no_effect_on_camber_toe():
    """Fuel Injection "does not have any effect on cards like Camber & Toe": its red cube
    still moves exactly 1 space."""
    t = card_table("Camber & Toe", "Fuel Injection Engine")
    t.turn(0, active=dict(blue=1, red=1, white=1))
    t.act(activate("blue"), activate("red"), from_active("white"))
    assert t.s[st.MV_LEFT] == 1 and t.s[st.MV_MIN] == 1


def test_fuel_injection_has_no_effect_on_overdrive():
    """Fuel Injection doubles gear cubes only: Overdrive's green cube keeps its 3 spaces."""
    t = card_table("Overdrive", "Fuel Injection Engine")
    put_in_rank(t, 2, 2)
    t.turn(0, active=dict(blue=1, green=1))
    t.act(activate("blue"), activate("green"))
    assert t.s[st.MV_LEFT] == 3


def test_redline_and_fuel_injection_combine_two_spaces_of_one_chosen_colour():
    """Fuel Injection "can combine with cards like Redline": a redlined white moves up to 2
    spaces, both of the colour it is used as (its "respective color"): after a black
    space only the next black space is offered, not the dark gray beside it; 1 wear for
    the white, 2 for Fuel Injection."""
    t = card_table("Redline", "Fuel Injection Engine")
    t.turn(0, active=dict(blue=1, red=1, white=1))
    t.act(activate("blue"), activate("red"), activate("white"))
    assert t.s[st.MV_LEFT] == 2 and t.s[st.MV_MIN] == 1
    t.act(to_space(t.space(2, 0)))                      # black [0, 6)
    assert moves(t) == [t.space(2, 6)]                  # not dark gray (1, 4)
    t.act(to_space(t.space(2, 6)))
    assert t.phase() == "action" and t.count(0, "used", "wear") == 2 + 1


def test_fuel_injection_multiplier_comes_from_the_card_row(tmp_path):
    """Numbers come from the card rows: a card file giving Fuel Injection count 3 lets a
    gear cube move up to 3 spaces."""
    path = tmp_path / "cards.toml"
    path.write_text('[[cards]]\nname = "Fuel Injection Engine"\ncount = 3\nwear = 1\n')
    t = card_table("Fuel Injection Engine", card_data=str(path))
    t.turn(0, active=dict(blue=1, dark_gray=1))
    t.act(activate("blue"), activate("dark_gray"))
    assert t.count(0, "used", "wear") == 1 and t.s[st.MV_LEFT] == 3


# ----- Bump & Run --------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "rank", "spaces"), [
    (3, 1, 0), (3, 2, 2), (3, 3, 3), (4, 2, 2), (4, 3, 2), (4, 4, 3), (2, 2, 3), (2, 1, 0)])
def test_bump_and_run_moves_by_race_position(players, rank, spaces):
    """Bump & Run: "Gain 1 wear ... as long as you are not in first position, move ... up to
    2 dark gray spaces ... If you are currently in last place, you may move 1 more": first
    no move, middle 2, last 3 (with 2 players the second is last)."""
    t = card_table("Bump & Run", players=players)
    put_in_rank(t, players, rank, lane=0, at=39)              # white [39, 40): dark gray ahead
    t.turn(0, active=dict(green=1))
    assert t.s[st.START_RANK] == rank
    t.act(activate("green"))
    assert t.count(0, "used", "wear") == 1
    if spaces == 0:
        assert t.phase() == "action" and t.count(0, "used", "green") == 1
        return
    assert t.s[st.MV_MASK] == DARK and t.s[st.MV_LEFT] == spaces and STOP in t.legal()
    assert walk(t) == spaces


@pytest.mark.parametrize(("lane", "spaces"), [(0, 0), (1, 2 + 1)])
def test_bump_and_run_tie_goes_to_the_inner_lane(lane, spaces):
    """Card Clarifications: "If tied for a position, the innermost lane is leading": level
    with the other car, seat 0 is first on the inner lane (no move), last of 2 on the
    outer lane (2 + 1)."""
    t = card_table("Bump & Run")
    other = 1 - lane
    t.put_car(0, lane, 10 if lane == 0 else 8, lap=1)
    t.put_car(1, other, 10 if other == 0 else 8, lap=1)
    assert t.s[st.CAR_ABS] == t.s[st.CAR_ABS + 1]
    t.turn(0, active=dict(green=1))
    t.act(activate("green"))
    assert t.s[st.MV_LEFT] == spaces


def test_bump_and_run_position_is_fixed_at_the_start_of_the_action_phase():
    """Card Clarifications: the position is where the car was when the Action Phase began;
    a car passing mid-turn does not change it."""
    t = card_table("Bump & Run")
    put_in_rank(t, 2, 1, lane=0, at=39)                       # first of 2
    t.turn(0, active=dict(green=1))
    t.put_car(1, 1, 20, lap=2)                          # seat 1 jumps ahead mid-turn
    t.act(activate("green"))
    assert t.phase() == "action" and t.count(0, "used", "wear") == 1


# ----- Overdrive --------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "rank", "colours", "offered"), [
    (3, 1, WHITE, []), (3, 2, WHITE | LIGHT, [(0, 0)]),
    (3, 3, WHITE | LIGHT | DARK, [(0, 0), (1, 0)]), (2, 2, WHITE | LIGHT | DARK, [(0, 0), (1, 0)]),
    (4, 3, WHITE | LIGHT, [(0, 0)])])
def test_overdrive_colours_by_race_position(players, rank, colours, offered):
    """Overdrive: "Gain 1 wear ... move your green cube up to 3 spaces ... If you are in
    first place, move on white. If you are in last place, move on dark gray or lower. For
    all other positions ... light gray or lower." Next to the car: light gray (0, 0),
    dark gray (1, 0), black (2, 0); first place finds no white there and moves 0."""
    t = card_table("Overdrive", players=players)
    put_in_rank(t, players, rank)
    t.turn(0, active=dict(green=1))
    t.act(activate("green"))
    assert t.count(0, "used", "wear") == 1
    if not offered:
        assert t.phase() == "action" and t.on_track("green") == 0
        return
    assert t.s[st.MV_MASK] == colours and t.s[st.MV_LEFT] == 3
    assert moves(t) == sorted(t.space(lane, at) for lane, at in offered)


def test_overdrive_mixes_colours_within_one_move():
    """Overdrive: "you may move on more than 1 color with each green cube ... 1 white space
    and 2 light gray spaces": from lane 0 [10, 12) in 2nd of 3: white (0, 12), then
    light gray (1, 12) beside it, then light gray (1, 14); the move stops at 3."""
    t = card_table("Overdrive", players=3)
    put_in_rank(t, 3, 2, lane=0, at=10)
    t.turn(0, active=dict(green=1))
    t.act(activate("green"))
    t.act(to_space(t.space(0, 12)))
    assert t.space(1, 12) in moves(t) and t.s[st.MV_MASK] == WHITE | LIGHT
    t.act(to_space(t.space(1, 12)))
    assert t.space(1, 14) in moves(t)
    t.act(to_space(t.space(1, 14)))
    assert t.phase() == "action" and t.on_track("green") == 1
    assert t.s[st.PLACED_SPACE] == t.space(1, 14) and t.s[st.TOP_COLOUR] == 1


def test_overdrive_up_to_three_allows_zero():
    """Overdrive: "up to 3 spaces": stopping at once leaves the cube in the used pile."""
    t = card_table("Overdrive")
    put_in_rank(t, 2, 2)
    t.turn(0, active=dict(green=1))
    t.act(activate("green"), STOP)
    assert t.phase() == "action" and t.count(0, "used", "green") == 1


# ----- observation and state checks ---------------------------------------------------------
def test_redline_and_fuel_injection_are_seen_by_every_seat():
    """The reminder cubes go on the Wear Chart (Redline, Fuel Injection "Suggestion"): the
    flags are public; the moving cube's own flags only for the seat moving it."""
    t = card_table("Redline", "Fuel Injection Engine")
    t.turn(0, active=dict(blue=1, red=1, white=1))
    t.act(activate("blue"), activate("red"), activate("white"))
    for seat in (0, 1):
        obs = t.game.observe(t.state, seat)
        assert obs[O_MOVE_CARDS] == 1 and obs[O_MOVE_CARDS + 1] == 2
    assert t.game.observe(t.state, 0)[O_MOVE_CARDS + 3] == 1
    assert t.game.observe(t.state, 1)[O_MOVE_CARDS + 3] == 0
    low, high = t.game.obs_low_high()
    for seat in (0, 1):
        obs = t.game.observe(t.state, seat)
        assert (obs >= low).all() and (obs <= high).all()


@pytest.mark.parametrize(("field", "value"), [("redline", 2), ("fuel", -1), ("fuel", 99),
                                              ("mv_mixed", 1), ("mv_redline", 1)])
def test_tampered_move_card_flags_are_refused(field, value):
    """A saved state with a flag out of range (or a moving-cube flag outside a
    move) is refused with a StateDictError, never run."""
    t = card_table("Redline")
    t.turn(0)
    data = t.state.to_dict()
    state = State.from_dict(data)
    state[field][0] = value
    with pytest.raises(StateDictError, match="Redline / Fuel Injection"):
        State.from_dict(state.to_dict())


def test_flags_at_their_largest_accepted_values_play_on_safely():
    """A loaded state with Redline on at the largest wear and Fuel Injection at
    the largest multiplier is accepted and plays to the end without breaking anything
    (gear moves are capped by the turn's path capacity)."""
    game = AutomobilesGame(num_players=2, card_set=MOVE_SETS[1], max_rounds=60)
    rng = np.random.default_rng(3)
    state = game.new_state(3)
    for _ in range(40):
        game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    state["redline"][0] = 1
    state["redline_wear"][0] = auto_data.MAX_COUNT
    state["fuel"][0] = auto_data.MAX_COUNT
    state = State.from_dict(state.to_dict())
    while not game.is_over(state):
        game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        game.validate(state)


# ----- whole games --------------------------------------------------------------------------
MOVE_SETS = [
    ["Car Chief", "Pit Crew", "Burnout", "Overdrive", "Fuel Injection Engine"],
    ["Engineer", "Pit Team", "Redline", "Bump & Run", "Fuel Injection Engine"],
    ["Mechanic", "Crew Chief", "Camber & Toe", "Bump & Run", "Rotary Engine"],
    ["Manager", "Pit Captain", "Redline", "Overdrive", "Hybrid Engine"],
]


@pytest.mark.parametrize(("cards", "players"), [(MOVE_SETS[0], 2), (MOVE_SETS[1], 3),
                                                (MOVE_SETS[2], 4), (MOVE_SETS[3], 5)])
def test_random_games_with_the_moving_cards_keep_every_invariant(cards, players):
    """Whole random games with these cards and base cards: every state passes the jitted
    ``violation`` check and the Python invariants after every step, and the game ends."""
    game = AutomobilesGame(num_players=players, card_set=cards, max_rounds=80)
    rng = np.random.default_rng(players)
    used = set()
    for seed in range(2):
        state = game.new_state(seed)
        while not game.is_over(state):
            actions = np.flatnonzero(game.legal_mask(state))
            game.apply(state, int(rng.choice(actions)))
            game.validate(state)
            used.add(st.PHASE_NAMES[int(state.data[st.PHASE])])
        assert game.is_over(state)
    if "Burnout" in cards:
        assert "burnout" in used
    if "Camber & Toe" in cards:
        assert "camber_toe" in used


def test_moving_cards_are_playable_by_the_rule_based_agent_in_every_seat():
    """Sets naming the six moving cards are accepted, and the rule-based agent
    finishes games with them in every seat."""
    for cards in MOVE_SETS:
        game = AutomobilesGame(num_players=3, card_set=cards)
        result = play_games(game, policy, ["rule_based"] * 3, 4, seed=5)
        for i in range(4):
            state = result.state(game, i)
            game.check_invariants(state)
            assert state.data[st.END_TRIGGERED] == 1


# ----- the rule-based agent ---------------------------------------------------------------------
def test_agent_burnout_names_the_highest_discarded_gear_and_camber_gives_up_a_white():
    """Burnout's fastest move comes from the highest gear (black: dark gray); Camber &
    Toe gives up the cheapest gear (white)."""
    t = card_table("Burnout")
    t.turn(0, active=dict(red=1), discard=dict(light_gray=1, black=1))
    assert agent_answer(t) == activate("red")
    t.act(activate("red"))
    assert agent_answer(t) == from_discard("black")
    t2 = card_table("Camber & Toe")
    t2.turn(0, active=dict(red=1, white=1, black=1))
    assert agent_answer(t2) == activate("red")
    t2.act(activate("red"))
    assert agent_answer(t2) == from_active("white")


def test_agent_plays_redline_and_fuel_injection_before_its_gears_only_when_they_help():
    """Redline with a white gear in hand, Fuel Injection with three gear cubes, each before
    any gear cube; neither again once active, nor without gears to help."""
    t = card_table("Redline", "Fuel Injection Engine")
    t.turn(0, active=dict(red=1, blue=1, white=1, dark_gray=2))
    first = agent_answer(t)
    assert first in (activate("red"), activate("blue"))
    t.act(first)
    second = agent_answer(t)
    assert {first, second} == {activate("red"), activate("blue")}
    t.act(second)
    assert agent_answer(t) not in (activate("red"), activate("blue"))
    t2 = card_table("Redline", "Fuel Injection Engine")
    t2.turn(0, active=dict(red=1, blue=1, dark_gray=1))
    assert activate("dark_gray") in t2.legal() and activate("red") in t2.legal()
    assert agent_answer(t2) == activate("dark_gray")


@pytest.mark.parametrize(("rank", "used"), [(1, False), (2, True)])
def test_agent_uses_bump_and_run_only_when_not_leading(rank, used):
    """Bump & Run in first place only gains wear: the agent keeps it as money then."""
    t = card_table("Bump & Run")
    put_in_rank(t, 2, rank, lane=0, at=39)
    t.turn(0, active=dict(green=1))
    assert activate("green") in t.legal()
    assert (agent_answer(t) == activate("green")) is used
