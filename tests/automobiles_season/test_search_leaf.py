"""The season search's leaf evaluation: projected season points (docs/search.md).

Points per race place (R-YUC "Season Play": the winner of a race scores the first place's
points, the last player the last place's, everyone else the middle place's)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.random_play import reach
from transit_gym.agents.search.leaf_automobiles_season import strengths
from transit_gym.envs.automobiles.state import CAR_ABS, TURN_SEAT
from transit_gym.envs.automobiles_season.state import (
    PLAYER_OF,
    POINTS,
    Q_FIRST,
    Q_LAST,
    Q_MIDDLE,
    RACE_NO,
    S_RACE,
    SEASON_PHASE,
)
from transit_gym.envs.registry import game_class

PLAYERS = 3


@pytest.fixture(scope="module")
def race_state():
    game = game_class("automobiles_season")(num_players=PLAYERS)
    state = reach(game, lambda s: (s.data[SEASON_PHASE] == S_RACE   # cars apart
                                   and len(set(s.data[CAR_ABS:CAR_ABS + PLAYERS])) == PLAYERS))
    return game, state


def _strength(game, data):
    out = np.zeros(PLAYERS, dtype=np.float64)
    strengths(data, game.params_of(data), out)
    return out


def test_a_player_expects_between_the_last_and_the_first_place_points(race_state):
    """Each player's strength is their season points plus what the race can give them:
    at least the last place's points and at most the first place's."""
    game, state = race_state
    s, p = state.data, game.params_of(state)
    race = s[RACE_NO]
    gain = _strength(game, s) - s[POINTS:POINTS + PLAYERS]
    low = min(p[Q_LAST + race], p[Q_MIDDLE + race])
    assert (gain >= low - 1e-9).all() and (gain <= p[Q_FIRST + race] + 1e-9).all()
    assert gain.sum() > 0


def test_any_progress_in_the_race_raises_the_player_s_strength(race_state):
    """A car one space further scores more, even where its place does not change: the
    chance of finishing first grows with the laps driven (the place alone would leave
    the search unable to tell such moves apart)."""
    game, state = race_state
    s = state.data
    turn = s[TURN_SEAT]
    seat = next(k for k in range(PLAYERS) if k != turn)
    before = _strength(game, s)
    moved = s.copy()
    moved[CAR_ABS + seat] += 1
    after = _strength(game, moved)
    player = s[PLAYER_OF + seat]
    assert after[player] > before[player]
    others = [s[PLAYER_OF + k] for k in range(PLAYERS) if k != seat]
    assert all(after[o] < before[o] for o in others)
