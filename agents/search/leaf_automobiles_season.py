"""Leaf evaluation of the Racing Season for the search agent: a fitted season score.

Each player's strength is a linear score of the player's features (:data:`FEATURES`):
season points; during a race the points the player can expect from it (the middle place's
points, moved towards the first place's by the chance of winning the race and, with more
than two players, towards the last place's by the chance of finishing last; both chances
are the race evaluation's softmax of the laps driven, ``leaf_automobiles``); the cubes the
player owns by kind (gears, wear, bought cards: a season's bag carries over from race to
race); the driver held and the kind (letter) of the sponsor held.

With two players the weights (``leaf_automobiles_season_weights.WEIGHTS``, one row per
number of races still to run, the current one included) were fitted by logistic
regression to the winners of seeded rule-based and tuned two-player self-play seasons
(``benchmarks/strength/season_leaf_fit.py``), the temperature folded into them: the leader
wins with ``softmax(strength)``. (Two players, three races: the last race's winner always
wins the season, its 3 points over the second place matching or beating any earlier lead
and a tie going to the better last place; so what the bag, driver and sponsors bring to
the last race counts more than the points.) With more players, not fitted: the points
plus the expected race points, over a temperature of 1 + 2 points per race still to run.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.agents.search.leaf import leaf_evaluation
from transit_gym.agents.search.leaf_automobiles import strengths as race_strengths
from transit_gym.agents.search.leaf_automobiles import temperature as race_temperature
from transit_gym.agents.search.leaf_automobiles_season_weights import WEIGHTS
from transit_gym.envs.automobiles.data import BLACK, CARD_COLOURS, DARK, LIGHT, WEAR, WHITE
from transit_gym.envs.automobiles.data import NUM_COLOURS as NC
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.automobiles.state import ACTIVE, BAG, DISCARD, DRIVER_OF, USED
from transit_gym.envs.automobiles_season.state import (
    OWNED,
    PLAYER_OF,
    POINTS,
    Q_FIRST,
    Q_LAST,
    Q_MIDDLE,
    Q_NUM_PLAYERS,
    Q_NUM_RACES,
    RACE_NO,
    S_RACE,
    SEASON_PHASE,
    race_params,
)

#: sponsor kinds (letters A-F, three sponsors each: ids 0-2 are A1-A3, ...)
SPONSOR_KINDS = "ABCDEF"
#: the per-player features the strength weighs, in the order of a row of ``WEIGHTS``
FEATURES = ("points", "race_points", "white", "light_gray", "dark_gray", "black",
            "wear", "cards",
            *(f"driver_{d}" for d in range(1, NUM_DRIVERS + 1)),
            *(f"sponsor_{k}" for k in SPONSOR_KINDS))
NUM_FEATURES = len(FEATURES)
F_POINTS, F_RACE, F_CUBES = 0, 1, 2
F_DRIVER = F_CUBES + 6
F_SPONSOR = F_DRIVER + NUM_DRIVERS
#: the cube kinds counted, in the order of the features from ``white``
GEAR_KINDS = np.array([WHITE, LIGHT, DARK, BLACK, WEAR], dtype=np.int64)
CARD_KINDS = np.array(CARD_COLOURS, dtype=np.int64)
#: races still to run that ``WEIGHTS`` has rows for (more are scored with the last row)
NUM_STAGES = WEIGHTS.shape[0]
#: with more than two players (not fitted): the points and the expected race points over a
#: temperature of ``TEMPERATURE_BASE + TEMPERATURE_PER_RACE`` per race still to run
TEMPERATURE_BASE = 1.0
TEMPERATURE_PER_RACE = 2.0


@nb.njit(cache=True)
def _softmax(x, n, scale, out):
    """``out[:n] = softmax(scale * x[:n])``."""
    top = -np.inf
    for k in range(n):
        top = max(top, scale * x[k])
    total = 0.0
    for k in range(n):
        out[k] = np.exp(scale * x[k] - top)
        total += out[k]
    for k in range(n):
        out[k] /= total


@nb.njit(cache=True)
def _owned(s, seat, colour):
    """Cubes of ``colour`` the seat owns off the track (bag, active, used, discard)."""
    k = seat * NC + colour
    return s[BAG + k] + s[ACTIVE + k] + s[USED + k] + s[DISCARD + k]


@nb.njit(cache=True)
def features(s, p, out):
    """Each player's features (``out[player, :NUM_FEATURES]``, see :data:`FEATURES`);
    returns the races still to run (the current one included)."""
    n = p[Q_NUM_PLAYERS]
    out[:n, :] = 0.0
    race = s[RACE_NO]
    left = p[Q_NUM_RACES] - race - 1
    in_race = s[SEASON_PHASE] == S_RACE
    laps = np.zeros(n, dtype=np.float64)
    first = np.zeros(n, dtype=np.float64)
    last = np.zeros(n, dtype=np.float64)
    middle = 0
    if in_race:
        rest = race_strengths(s, race_params(s, p), laps)
        inverse = 1.0 / race_temperature(rest)
        _softmax(laps, n, inverse, first)
        _softmax(laps, n, -inverse, last)
        middle = p[Q_MIDDLE + race]
        left += 1
    for seat in range(n):
        player = s[PLAYER_OF + seat]
        row = out[player]
        row[F_POINTS] = s[POINTS + player]
        if in_race:
            gain = middle + (p[Q_FIRST + race] - middle) * first[seat]
            if n > 2:
                gain += (p[Q_LAST + race] - middle) * last[seat]
            row[F_RACE] = gain
        for k in range(GEAR_KINDS.shape[0]):
            row[F_CUBES + k] = _owned(s, seat, GEAR_KINDS[k])
        for k in range(CARD_KINDS.shape[0]):
            row[F_CUBES + 5] += _owned(s, seat, CARD_KINDS[k])
        driver = s[DRIVER_OF + seat]
        if driver > 0:
            row[F_DRIVER + driver - 1] = 1.0
        sponsor = s[OWNED + player]
        if sponsor >= 0:
            row[F_SPONSOR + sponsor // 3] = 1.0
    return left


@nb.njit(cache=True)
def strengths(s, p, out):
    """Each player's score: two players, the ``WEIGHTS`` row of the races still to run
    times the player's features; more, the hand-set points and expected race points over
    the temperature. Returns the races still to run."""
    n = p[Q_NUM_PLAYERS]
    rows = np.zeros((n, NUM_FEATURES), dtype=np.float64)
    left = features(s, p, rows)
    if n == 2:
        w = WEIGHTS[min(left, NUM_STAGES - 1)]
    else:
        w = np.zeros(NUM_FEATURES, dtype=np.float64)
        w[F_POINTS] = w[F_RACE] = 1.0 / (TEMPERATURE_BASE + TEMPERATURE_PER_RACE * left)
    for player in range(n):
        total = 0.0
        for f in range(NUM_FEATURES):
            total += w[f] * rows[player, f]
        out[player] = total
    return left


@nb.njit(cache=True)
def temperature(left):
    """1: the fitted weights carry the temperature."""
    return 1.0


#: expected reward per player of a running season (see the module docstring)
evaluate = leaf_evaluation(strengths, temperature)
