"""The season search's leaf evaluation: a fitted linear score of season points, expected race
points, laps, cubes owned, driver and sponsor (docs/search.md).

Points per race place (R-YUC "Season Play": the winner of a race scores the first place's
points, the last player the last place's, everyone else the middle place's)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.random_play import reach
from transit_gym.agents.search.leaf_automobiles_season import (
    F_POINTS,
    F_RACE,
    NUM_FEATURES,
    evaluate,
    features,
    strengths,
)
from transit_gym.agents.search.leaf_automobiles_season_weights import WEIGHTS
from transit_gym.envs.automobiles.state import CAR_ABS, TURN_SEAT
from transit_gym.envs.automobiles_season.state import (
    PLAYER_OF,
    POINTS,
    Q_FIRST,
    Q_LAST,
    Q_MIDDLE,
    Q_NUM_RACES,
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


def _features(game, data):
    rows = np.zeros((PLAYERS, NUM_FEATURES), dtype=np.float64)
    left = features(data, game.params_of(data), rows)
    return rows, left


def test_expected_race_points_lie_between_the_last_and_the_first_place_points(race_state):
    """The expected race points of each player are at least the last place's points and at
    most the first place's."""
    game, state = race_state
    s, p = state.data, game.params_of(state)
    race = s[RACE_NO]
    rows, _ = _features(game, s)
    gain = rows[:, F_RACE]
    low = min(p[Q_LAST + race], p[Q_MIDDLE + race])
    assert (gain >= low - 1e-9).all() and (gain <= p[Q_FIRST + race] + 1e-9).all()
    assert (rows[:, F_POINTS] == s[POINTS:POINTS + PLAYERS]).all()


def test_the_last_race_and_then_the_points_decide_the_two_player_season():
    """With two players the last race's winner wins the season (R-YUC "Awarding Points":
    first 4/5/6 points, second 3, in races 1/2/3; a tie goes to the better place in the
    last race), so in the last race the fitted weights value its expected points; once no
    race is left the points alone count."""
    assert WEIGHTS[1, F_RACE] > 0
    assert WEIGHTS[0, F_POINTS] > 0 and not WEIGHTS[0, F_POINTS + 1:].any()


def test_a_clearly_stronger_position_ranks_higher(race_state):
    """Two more season points than the others, all else equal, raise the player's
    strength and its expected reward, and lower everyone else's."""
    game, state = race_state
    s, p = state.data, game.params_of(state)
    before = _strength(game, s)
    ahead = s.copy()
    ahead[POINTS + 1] += 2
    after = _strength(game, ahead)
    assert after[1] > before[1]
    reward_before = np.zeros(PLAYERS)
    reward_after = np.zeros(PLAYERS)
    evaluate(s, p, reward_before)
    evaluate(ahead, p, reward_after)
    assert reward_after[1] > reward_before[1]
    assert (reward_after[[0, 2]] < reward_before[[0, 2]]).all()


def test_any_progress_in_the_race_raises_the_player_s_expected_points(race_state):
    """A car one space further expects more race points, even where its place does not
    change: the chance of finishing first grows with the laps driven (the place alone
    would leave the search unable to tell such moves apart)."""
    game, state = race_state
    s = state.data
    turn = s[TURN_SEAT]
    seat = next(k for k in range(PLAYERS) if k != turn)
    before, _ = _features(game, s)
    moved = s.copy()
    moved[CAR_ABS + seat] += 1
    after, _ = _features(game, moved)
    player = s[PLAYER_OF + seat]
    assert after[player, F_RACE] > before[player, F_RACE]
    others = [s[PLAYER_OF + k] for k in range(PLAYERS) if k != seat]
    assert all(after[o, F_RACE] < before[o, F_RACE] for o in others)


def test_two_players_a_car_further_ahead_in_the_last_race_is_likelier_to_win():
    """Two players (fitted weights), the last race: the player whose car is moved several
    spaces ahead gets a higher expected reward, the other a lower one (its winner wins the
    season, R-YUC "Awarding Points")."""
    game = game_class("automobiles_season")(num_players=2)
    state = reach(game, lambda s: (s.data[SEASON_PHASE] == S_RACE
                                   and s.data[CAR_ABS] != s.data[CAR_ABS + 1]))
    s, p = state.data.copy(), game.params_of(state)
    s[RACE_NO] = p[Q_NUM_RACES] - 1
    ahead = s.copy()
    ahead[CAR_ABS] += 6
    player = s[PLAYER_OF]
    before, after = np.zeros(2), np.zeros(2)
    evaluate(s, p, before)
    evaluate(ahead, p, after)
    assert after[player] > before[player] and after[1 - player] < before[1 - player]
