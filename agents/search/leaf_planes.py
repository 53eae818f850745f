"""Leaf evaluation of Planes for the search agent: the victory points so far.

A seat's strength is its score as the game would count it now (goal VP plus VP per own
cube boarded on its plane). Win probability per seat: ``softmax(strength /
temperature)``, the temperature (in VP) shrinking linearly from ``TEMPERATURE_START`` at
the start to ``TEMPERATURE_END`` as the boarding track nears its end space. The two
numbers were fitted to rule-based self-play (docs/search.md).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.core.leaf import softmax_rewards
from transit_gym.envs.planes.kernels import score
from transit_gym.envs.planes.state import P_END_AT, P_NUM_PLAYERS, TRACK

#: win-probability temperature in VP at the start and at the end of the game
TEMPERATURE_START = 8.0
TEMPERATURE_END = 1.0


@nb.njit(cache=True)
def strengths(s, p, out):
    """VP per seat; returns the fraction of the boarding track still to go (0..1)."""
    for seat in range(p[P_NUM_PLAYERS]):
        out[seat] = score(s, p, seat)
    left = 1.0 - s[TRACK] / p[P_END_AT]
    return min(max(left, 0.0), 1.0)


@nb.njit(cache=True)
def evaluate(s, p, out):
    """Expected reward per seat of a running game (see the module docstring)."""
    n = p[P_NUM_PLAYERS]
    strength = np.zeros(n, dtype=np.float64)
    left = strengths(s, p, strength)
    temperature = TEMPERATURE_END + (TEMPERATURE_START - TEMPERATURE_END) * left
    softmax_rewards(strength, n, temperature, out)
