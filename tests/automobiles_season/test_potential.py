"""The season's reward-shaping strength (``envs/automobiles_season/potential.py``): season
points, the current place's points by race progress, and wear as an immediate cost.

Racing Season "Season Play": a player keeps its cubes from race to race, so a wear cube bought
for $0 (Automobiles Buy Phase, option ``buy_wear``) stays in its bag; the strength charges its
share of the player's cubes at once, as Automobiles' shaping strength does."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.random_play import reach
from transit_gym.envs.automobiles.data import WEAR
from transit_gym.envs.automobiles.state import ACTIVE, BAG, DISCARD, NC, TURN_SEAT, USED
from transit_gym.envs.automobiles_season.potential import WEAR_POINTS, strengths
from transit_gym.envs.automobiles_season.state import PLAYER_OF, POINTS, S_RACE, SEASON_PHASE
from transit_gym.envs.registry import game_class

PLAYERS = 2


def _strength(game, data) -> np.ndarray:
    out = np.zeros(PLAYERS, dtype=np.float64)
    strengths(data, game.params_of(data), out)
    return out


def _cubes(data, seat) -> int:
    """All cubes of a seat that is not on turn (bag, active, used and discard piles)."""
    return int(sum(data[base + seat * NC:base + (seat + 1) * NC].sum()
                   for base in (BAG, ACTIVE, USED, DISCARD)))


def test_a_wear_cube_in_a_players_bag_costs_its_share_of_the_players_cubes_at_once():
    """During a race, one more wear cube in the bag of the seat not on turn lowers its
    player's strength by ``WEAR_POINTS`` times the change of its wear share, and nobody
    else's strength moves (the race places do not change)."""
    game = game_class("automobiles_season")(num_players=PLAYERS)
    state = reach(game, lambda s: s.data[SEASON_PHASE] == S_RACE)
    data = state.data.copy()
    seat = 1 - int(data[TURN_SEAT])
    player = int(data[PLAYER_OF + seat])
    wear = sum(int(data[base + seat * NC + WEAR]) for base in (BAG, ACTIVE, USED, DISCARD))
    cubes = _cubes(data, seat)
    before = _strength(game, data)
    data[BAG + seat * NC + WEAR] += 1
    after = _strength(game, data)
    drop = WEAR_POINTS * ((wear + 1) / (cubes + 1) - wear / cubes)
    assert before[player] - after[player] == pytest.approx(drop)
    assert drop > 0
    assert after[1 - player] == pytest.approx(before[1 - player])


def test_between_races_the_strength_is_the_season_points():
    """Outside a race (sponsor and driver decisions) the strength is the season points
    alone: wear counts only while a race is run."""
    game = game_class("automobiles_season")(num_players=PLAYERS)
    state = reach(game, lambda s: s.data[SEASON_PHASE] != S_RACE and s.data[POINTS:POINTS
                                                                         + PLAYERS].any())
    np.testing.assert_allclose(_strength(game, state.data),
                               state.data[POINTS:POINTS + PLAYERS].astype(float))
