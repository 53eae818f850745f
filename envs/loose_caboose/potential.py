"""Loose Caboose!'s per-seat strength: minus the penalty points so far (the reward-shaping
potential's measure, and the search leaf's; fewest points wins)."""

from __future__ import annotations

import numba as nb

from transit_gym.envs.loose_caboose.kernels import pile_points
from transit_gym.envs.loose_caboose.state import P_NUM_PLAYERS

#: the shaping scale (``envs.core.shaping``), in penalty points
SCALE = 10.0


@nb.njit(cache=True)
def strengths(s, p, out):
    """Minus the penalty points per seat into ``out``."""
    for seat in range(p[P_NUM_PLAYERS]):
        out[seat] = -pile_points(s, p, seat)
