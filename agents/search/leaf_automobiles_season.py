"""Leaf evaluation of the Racing Season for the search agent: projected season points.

Each player's strength is their season points plus, during a race, the points they can
expect from it: the middle place's points, moved towards the first place's points by the
chance of winning the race and (more than two players) towards the last place's by the
chance of finishing last. Both chances come from the race evaluation
(``leaf_automobiles``): a softmax of the laps driven at the race's temperature, so a
lead worth little early in the race counts for little, and a lead of a fraction of a lap
still counts (a place alone would not tell such moves apart). The season leader wins with
``softmax(strength / temperature)``; the temperature (in points) grows with the races
still to run, as each can move the standings by a first place's points.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.agents.search.leaf import leaf_evaluation
from transit_gym.agents.search.leaf_automobiles import strengths as race_strengths
from transit_gym.agents.search.leaf_automobiles import temperature as race_temperature
from transit_gym.envs.automobiles_season.state import (
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

#: temperature in points with no race left to run, and added per race still to run
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
def strengths(s, p, out):
    """Season points per player, plus during a race the points each can expect from it;
    returns the races still to run (the current one included)."""
    n = p[Q_NUM_PLAYERS]
    for player in range(n):
        out[player] = s[POINTS + player]
    race = s[RACE_NO]
    left = p[Q_NUM_RACES] - race - 1
    if s[SEASON_PHASE] == S_RACE:
        laps = np.zeros(n, dtype=np.float64)
        rest = race_strengths(s, race_params(s, p), laps)
        inverse = 1.0 / race_temperature(rest)
        first = np.zeros(n, dtype=np.float64)
        last = np.zeros(n, dtype=np.float64)
        _softmax(laps, n, inverse, first)
        _softmax(laps, n, -inverse, last)
        middle = p[Q_MIDDLE + race]
        for seat in range(n):
            gain = middle + (p[Q_FIRST + race] - middle) * first[seat]
            if n > 2:
                gain += (p[Q_LAST + race] - middle) * last[seat]
            out[s[PLAYER_OF + seat]] += gain
        left += 1
    return left


@nb.njit(cache=True)
def temperature(left):
    """The win-probability temperature in points with ``left`` races still to run."""
    return TEMPERATURE_BASE + TEMPERATURE_PER_RACE * left


#: expected reward per player of a running season (see the module docstring)
evaluate = leaf_evaluation(strengths, temperature)
