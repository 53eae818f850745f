"""Automobiles' per-seat measures: laps driven (the search leaf's, and the Racing Season's race
progress) and the reward-shaping strength, laps driven less a share of wear.

A seat's laps driven is how far its car is past the start line in laps, counting the
farthest cube placed this turn for the seat on turn (where its car goes in the Car Phase).
Its shaping strength (``strengths``, read by ``envs.core.shaping`` and
``training.vec_shaping``) subtracts ``WEAR_WEIGHT`` times the share of wear among all the
seat's cubes: laps alone show a wear cube's cost only turns later, as hands that move the car
less, so a learner buying free wear cubes (Setup 7, Buy Phase) saw no cost at all.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobiles.data import NUM_COLOURS, WEAR
from transit_gym.envs.automobiles.state import (
    ACTIVE,
    BAG,
    CAR_ABS,
    DISCARD,
    DRAWN,
    FAR,
    NC,
    ON_TRACK,
    P_LAP,
    P_NUM_PLAYERS,
    PLACED_ABS,
    PLACED_N,
    PLACED_SEG,
    TURN_SEAT,
    USED,
)

#: the shaping scale (``envs.core.shaping``): a lead of one lap is worth 1
SCALE = 1.0
#: laps of shaping strength a seat loses when all its cubes are wear
WEAR_WEIGHT = 0.5


@nb.njit(cache=True)
def laps_driven(s, p, out):
    """Laps driven per seat into ``out`` (the seat on turn at its farthest placed cube)."""
    lap = p[P_LAP]
    turn = s[TURN_SEAT]
    for seat in range(p[P_NUM_PLAYERS]):
        pos = s[CAR_ABS + seat]
        if seat == turn and s[PLACED_N] > 0 and s[FAR] >= 0:
            pos = max(pos, s[PLACED_ABS + s[FAR]] - s[PLACED_SEG + s[FAR]])
        out[seat] = pos / lap


@nb.njit(cache=True)
def wear_share(s, seat):
    """Wear cubes over all cubes of ``seat``: its bag, active, used and discard piles, and for
    the seat on turn its cubes on the track and drawn by Nitro."""
    wear = 0
    cubes = 0
    for base in (BAG, ACTIVE, USED, DISCARD):
        wear += s[base + seat * NC + WEAR]
        for c in range(NUM_COLOURS):
            cubes += s[base + seat * NC + c]
    if seat == s[TURN_SEAT]:
        wear += s[ON_TRACK + WEAR] + s[DRAWN + WEAR]
        for c in range(NUM_COLOURS):
            cubes += s[ON_TRACK + c] + s[DRAWN + c]
    return wear / cubes if cubes > 0 else 0.0


@nb.njit(cache=True)
def strengths(s, p, out):
    """Shaping strength per seat into ``out``: laps driven less ``WEAR_WEIGHT`` times the
    seat's wear share."""
    laps_driven(s, p, out)
    for seat in range(p[P_NUM_PLAYERS]):
        out[seat] -= WEAR_WEIGHT * wear_share(s, seat)
