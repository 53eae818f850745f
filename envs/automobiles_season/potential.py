"""The Racing Season's per-player strength for reward shaping: season points, plus during a
race the points of each player's current place weighted by how far the race has come.

During a race a player's strength is its season points plus ``f * points(place)``, where
``place`` is its car's race position now (``rank``), ``points`` the points chart's entry for
that place in this race, and ``f`` (0..1) the leader's laps driven over the race's laps
(``envs.automobiles.potential.laps_driven``), less ``WEAR_POINTS`` times the share of wear
among the player's cubes (``envs.automobiles.potential.wear_share``: as in Automobiles, a
free wear cube bought in a race's Setup or Buy Phase costs at once). At the start of a race
``f`` is 0; when the race ends the same places are scored into the season points, so the
strength moves little there.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles.board import rank
from transit_gym.envs.automobiles.potential import WEAR_WEIGHT, wear_share
from transit_gym.envs.automobiles.potential import laps_driven as race_strengths
from transit_gym.envs.automobiles.racing_season.sponsors import place_kind
from transit_gym.envs.automobiles.state import P_LAPS
from transit_gym.envs.automobiles_season.kernels import _points
from transit_gym.envs.automobiles_season.state import (
    PLAYER_OF,
    POINTS,
    Q_NUM_PLAYERS,
    RACE_NO,
    S_RACE,
    SEASON_PHASE,
    race_params,
)

#: the shaping scale (``envs.core.shaping``), in season points
SCALE = 5.0
#: season points of strength a player loses when all its cubes are wear (Automobiles' laps
#: of wear weight at this scale)
WEAR_POINTS = WEAR_WEIGHT * SCALE


@nb.njit(cache=True)
def strengths(s, p, out):
    """Season points per player into ``out``, plus during a race the points of the player's
    current place times the fraction of the race the leader has driven, less its wear."""
    n = p[Q_NUM_PLAYERS]
    for player in range(n):
        out[player] = s[POINTS + player]
    if s[SEASON_PHASE] != S_RACE:
        return
    pr = race_params(s, p)
    laps = np.zeros(n, dtype=np.float64)
    race_strengths(s, pr, laps)
    done = min(max(laps.max() / pr[P_LAPS], 0.0), 1.0)
    race = s[RACE_NO]
    for seat in range(n):
        gain = _points(p, race, place_kind(rank(s, pr, seat) - 1, n))
        out[s[PLAYER_OF + seat]] += done * gain - WEAR_POINTS * wear_share(s, seat)
