"""Automobiles (and season) unwrapped positions against the race's end: a car, a placed
cube or the moving cube at the largest position the validator accepts still admits every
legal move, and one lap farther is refused naming the field (``envs/automobiles/
positions.py``). Positions move in whole laps here: a position must match its space."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.random_play import at_phase, reach
from tests.core.step_closure import closure_failures, refused
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.positions import finish_line, position_range
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.registry import game_class


def _race_params(game: Game, state: State) -> np.ndarray:
    """The parameter block of the race being run (the season keeps one per track)."""
    p = game.params_of(state)
    if game.name == "automobiles_season":
        from transit_gym.envs.automobiles_season.state import race_params

        return race_params(state.data, p)
    return p


def _largest(game: Game, state: State, field: str, index: int) -> int:
    """Set ``field[index]`` to the largest value the validator accepts among the
    positions of the same space (the value plus whole laps, up to the ceiling of
    ``position_range``); return how many laps that added."""
    p = _race_params(game, state)
    lap, high = int(p[st.P_LAP]), int(position_range(p)[1])
    base = int(state[field][index])
    best = -1
    for laps in range((high - base) // lap + 1):
        state[field][index] = base + laps * lap
        try:
            game.validate(state)
        except StateDictError:
            continue
        best = laps
    assert best >= 0, f"{field}[{index}] = {base} was not accepted to begin with"
    state[field][index] = base + best * lap
    return best


def _edge(game: Game, state: State, field: str, index: int) -> None:
    """At the largest accepted value every legal move leads to an accepted state; a lap
    farther is refused naming the field."""
    _largest(game, state, field, index)
    game.validate(state)
    assert closure_failures(game, state.data.copy()) == []
    lap = int(_race_params(game, state)[st.P_LAP])
    state[field][index] += lap
    label = field if game.layout.length(field) == 1 else rf"{field}\[{index}\]"
    refused(game, state, rf"farther than the race allows.*field {label} =")


def _mid_move(state: State) -> bool:
    return at_phase(st.PH_MOVE)(state) and int(state["mv_steps"][0]) > 0


def _placed(state: State) -> bool:
    return at_phase(st.PH_ACTION)(state) and int(state["placed_n"][0]) > 0


@pytest.mark.parametrize("name", ["automobiles", "automobiles_season"])
def test_the_car_on_turn_at_its_farthest_admits_every_move(name):
    """How to Move on the Track and Car Phase: the cubes of a turn start from the car and
    the car goes to the farthest; the race ends with the round in which a car crosses the
    finish line on its last lap (Winning the Game). A car in the middle of its move at the
    farthest accepted position still makes every legal step; a lap more is refused."""
    game = game_class(name)(num_players=3)
    state = reach(game, _mid_move, moves=3000)
    _edge(game, state, "car_abs", int(state["turn_seat"][0]))


@pytest.mark.parametrize(("field", "wanted"), [("mv_abs", _mid_move), ("placed_abs", _placed)],
                         ids=["moving cube", "placed cube"])
def test_a_cube_at_its_farthest_admits_every_move(field, wanted):
    """How to Move on the Track: each step goes onto the next space, so a cube (the one
    being moved, or the last one placed, from which the next cube starts) at the farthest
    accepted position still admits every further step and the Car Phase move onto it."""
    game = game_class("automobiles")(num_players=2, card_set="Squeaky Clean")
    state = reach(game, wanted)
    index = 0 if field == "mv_abs" else int(state["placed_n"][0]) - 1
    _edge(game, state, field, index)


def test_a_waiting_car_at_its_farthest_admits_every_move():
    """Winning the Game ("each player will have the same number of turns") and Crate
    Motor (R-YUC appendix: the cars behind move awarded spaces): a car whose turn has not
    come still moves in the turns left. At its farthest accepted position every legal
    move of the seat on turn still leads to an accepted state."""
    game = game_class("automobiles")(num_players=4, card_set="Squeaky Clean",
                                     accelerated_play=True)
    state = reach(game, at_phase(st.PH_ACTION))
    other = (int(state["turn_seat"][0]) + 1) % 4
    _edge(game, state, "car_abs", other)


def test_the_end_in_sight_leaves_only_the_rest_of_the_round():
    """Winning the Game: once a car has crossed the finish line on its last lap, the game
    ends after the current round is completed. So on the last turn of the round a waiting
    car may lie farther than on the round's first turn, when every seat still has a turn
    to come; at that farthest position every legal move is still accepted."""
    game = game_class("automobiles")(num_players=3)
    state = reach(game, lambda s: at_phase(st.PH_ACTION)(s)
                  and (int(s["turn_seat"][0]) + 1) % 3 == int(s["start_player"][0]))
    state["end_triggered"][0] = 1
    waiting = int(state["start_player"][0])
    first_turn = state.copy()
    first_turn["start_player"][0] = int(state["turn_seat"][0])
    laps_last_turn = _largest(game, state, "car_abs", waiting)
    laps_first_turn = _largest(game, first_turn, "car_abs", waiting)
    assert laps_last_turn > laps_first_turn
    assert int(state["car_abs"][waiting]) > finish_line(game.params_of(state))
    assert closure_failures(game, state.data.copy()) == []


@pytest.mark.parametrize(("options", "phase"), [({}, st.PH_SETUP_BUY),
                                              ({"drivers": True}, st.PH_DRIVER_DRAFT)],
                         ids=["setup purchases", "driver draft"])
def test_cars_at_their_farthest_before_the_first_turn_admit_every_move(options, phase):
    """Setup 7-9 (and the Racing Season driver draft before them): the seats decide in
    turn before the start player's first turn, so the whole first round is still to come
    while the deciding seat changes. Each car at its farthest accepted position still
    admits every move."""
    game = game_class("automobiles")(num_players=3, **options)
    state = reach(game, at_phase(phase))
    for seat in range(3):
        _edge(game, state.copy(), "car_abs", seat)
