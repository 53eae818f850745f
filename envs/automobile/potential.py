"""Automobile's per-seat strength: net worth (the reward-shaping potential's measure, and the
search leaf's).

A seat's strength is what it would hold if the game ended now (Winning the game): cash, plus
the full building cost of its open factories and the parts factory value, minus the loans at
their repayment price, in thousands of dollars.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobile.kernels import factory_value
from transit_gym.envs.automobile.state import CASH, LOANS, P_LOAN_REPAY, P_NUM_PLAYERS

#: the shaping scale (``envs.core.shaping``), in $1000
SCALE = 1.0


@nb.njit(cache=True)
def strengths(s, p, out):
    """Net worth per seat in $1000 into ``out``."""
    for seat in range(p[P_NUM_PLAYERS]):
        worth = s[CASH + seat] + factory_value(s, p, seat) - s[LOANS + seat] * p[P_LOAN_REPAY]
        out[seat] = worth / 1000.0
