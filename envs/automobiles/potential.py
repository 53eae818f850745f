"""Automobiles' per-seat strength: laps driven (the reward-shaping potential's measure, and
the search leaf's).

A seat's strength is how far its car is past the start line in laps, counting the farthest
cube placed this turn for the seat on turn (where its car goes in the Car Phase).
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobiles.state import (
    CAR_ABS,
    FAR,
    P_LAP,
    P_NUM_PLAYERS,
    PLACED_ABS,
    PLACED_N,
    PLACED_SEG,
    TURN_SEAT,
)

#: the shaping scale (``envs.core.shaping``): a lead of one lap is worth 1
SCALE = 1.0


@nb.njit(cache=True)
def strengths(s, p, out):
    """Laps driven per seat into ``out`` (the seat on turn at its farthest placed cube)."""
    lap = p[P_LAP]
    turn = s[TURN_SEAT]
    for seat in range(p[P_NUM_PLAYERS]):
        pos = s[CAR_ABS + seat]
        if seat == turn and s[PLACED_N] > 0 and s[FAR] >= 0:
            pos = max(pos, s[PLACED_ABS + s[FAR]] - s[PLACED_SEG + s[FAR]])
        out[seat] = pos / lap
