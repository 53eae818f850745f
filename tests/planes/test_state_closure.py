"""Planes saved states that cannot lead play astray: each state below passed every check
once, and legal play from it reached a state the validator refuses (or never ended). Now
each is refused with a ``StateDictError`` naming the field or the rule, and a step that
would pass turns forever raises instead of looping."""

from __future__ import annotations

import pytest

from tests.core.random_play import at_phase, reach
from tests.core.step_closure import closure_failures, refused
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.planes import kernels as k
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.data import MAX_TYPES, NUM_COLORS, NUM_PARTY_COLORS
from transit_gym.envs.planes.invariants import MAX_STEPS
from transit_gym.envs.registry import game_class

#: the random games searched for a wanted state: 60 seeds, 500 moves each
SEARCH = {"seeds": range(60), "moves": 500}


def test_goal_phase_changed_to_the_draw_with_a_card_in_play_is_refused():
    """Taking a Turn, Action Phase: the action card is discarded at the end of the turn,
    before the empty-hand draw, so no card is in play at the draw (it used to be lost)."""
    game = game_class("planes")(num_players=2)
    state = reach(game, lambda s: at_phase(st.PH_GOAL)(s) and int(s["in_play"][0]) >= 0,
                  **SEARCH)
    state["phase"][0] = st.PH_DRAW
    refused(game, state, "in_play")


def test_a_send_destination_left_over_at_the_action_phase_is_refused():
    """Card Clarifications, Send: the spaces chosen belong to the Send being resolved; a
    destination left over at the next action phase (a later Send took a cube from an empty
    space) is refused."""
    game = game_class("planes")(num_players=2)
    state = reach(game, at_phase(st.PH_ACTION), **SEARCH)
    game.validate(state)
    state["sel_a"][0] = 0
    refused(game, state, "sel_a")


def _dead(game):
    """A running state (the goal phase) where no seat can ever decide: every party cube in
    the box, every card a goal of seat 0."""
    state = reach(game, lambda s: (at_phase(st.PH_GOAL)(s) and int(s["end_triggered"][0]) == 0
                                    and int(s["in_play"][0]) == -1), **SEARCH)
    cubes = state["cubes"].reshape(-1, NUM_COLORS)
    for c in range(NUM_PARTY_COLORS):
        state["box_cubes"][c] += cubes[:, c].sum()
        cubes[:, c] = 0
    goals = state["goals"].reshape(-1, MAX_TYPES)
    for name in ("hand", "deck", "discard"):
        rows = state[name].reshape(-1, MAX_TYPES)
        goals[0] += rows.sum(axis=0)
        rows[:] = 0
    return state


@pytest.mark.parametrize("max_rounds", [None, 100])
def test_a_game_no_seat_can_ever_decide_in_is_refused_and_never_looped_on(max_rounds):
    """Taking a Turn: a seat with no party cube on the board, no card to play, no goal to
    score and none to draw has an empty turn. When every seat is in that position play
    could only pass turns (forever without a round limit, 200 turns in one step with
    one): the state is refused, and a step on it raises ``StateDictError`` after 3
    rounds, worded as every game's bound on forced steps."""
    game = game_class("planes")(num_players=2, max_rounds=max_rounds)
    state = _dead(game)
    refused(game, state, "no seat can ever decide")
    with pytest.raises(StateDictError, match="planes state cannot be played: one step passed "
                                             "3 rounds of turns without a decision"):
        game.kernels.apply(state.data, game.params, k.A_PASS)


def test_a_move_at_the_top_of_its_step_count_is_refused():
    """Move Phase: each step drops an active cube (or uses the one skip owed), so the
    steps taken plus the active cubes fit ``MAX_STEPS``; at that top every legal step is
    accepted, one more step taken is refused (the counter used to pass its range)."""
    game = game_class("planes")(num_players=3)
    state = reach(game, at_phase(st.PH_STEP), **SEARCH)
    active = int(state["active"].sum())
    top = MAX_STEPS - active - int(state["skip_owed"][0])
    state["steps"][0] = top
    game.validate(state)
    assert closure_failures(game, state.data.copy()) == []
    state["steps"][0] = top + 1
    refused(game, state, "steps")


def test_a_dead_game_is_refused_by_from_dict():
    """The dead state is refused by ``State.from_dict`` too, naming the rule."""
    game = game_class("planes")(num_players=2)
    payload = _dead(game).to_dict()
    with pytest.raises(StateDictError, match="no seat can ever decide"):
        State.from_dict(payload)
