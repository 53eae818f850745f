"""Leaf evaluation of the Racing Season for the search agent: projected season points.

Each player's strength is their season points plus, during a race, the points of the
place they hold now (race position from the race evaluation's laps driven). The season
leader wins with ``softmax(strength / temperature)``; the temperature (in points) grows
with the races still to run, as each can move the standings by a first place's points.
The numbers are not fitted (unlike the race evaluation's).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.agents.search.leaf import leaf_evaluation
from transit_gym.agents.search.leaf_automobiles import strengths as race_strengths
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
def strengths(s, p, out):
    """Season points per player, plus during a race the points of the place each holds
    now; returns the races still to run (the current one included)."""
    n = p[Q_NUM_PLAYERS]
    for player in range(n):
        out[player] = s[POINTS + player]
    race = s[RACE_NO]
    left = p[Q_NUM_RACES] - race - 1
    if s[SEASON_PHASE] == S_RACE:
        laps = np.zeros(n, dtype=np.float64)
        race_strengths(s, race_params(s, p), laps)
        for seat in range(n):
            place = 1
            for other in range(n):
                if laps[other] > laps[seat] or (laps[other] == laps[seat] and other < seat):
                    place += 1
            gain = p[Q_MIDDLE + race]
            if place == 1:
                gain = p[Q_FIRST + race]
            elif place == n and n > 2:
                gain = p[Q_LAST + race]
            out[s[PLAYER_OF + seat]] += gain
        left += 1
    return left


@nb.njit(cache=True)
def temperature(left):
    """The win-probability temperature in points with ``left`` races still to run."""
    return TEMPERATURE_BASE + TEMPERATURE_PER_RACE * left


#: expected reward per player of a running season (see the module docstring)
evaluate = leaf_evaluation(strengths, temperature)
