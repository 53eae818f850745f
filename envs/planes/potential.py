"""Planes' per-seat strength: victory points so far (the reward-shaping potential's measure,
and the search leaf's).

A seat's strength is its score as the game would count it now (goal VP plus VP per own cube
boarded on its plane).
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.planes.kernels import score
from transit_gym.envs.planes.state import P_NUM_PLAYERS

#: the shaping scale (``envs.core.shaping``), in VP
SCALE = 10.0


@nb.njit(cache=True)
def strengths(s, p, out):
    """VP per seat into ``out``."""
    for seat in range(p[P_NUM_PLAYERS]):
        out[seat] = score(s, p, seat)
