"""Leaf evaluation of Loose Caboose! for the search agent: penalty points so far.

Only used when a rollout is cut short (the default plays Loose Caboose! games to the
end: they are short). A seat's strength is minus its penalty points so far (fewest points
wins); win probability per seat ``softmax(strength / TEMPERATURE)``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.core.leaf import softmax_rewards
from transit_gym.envs.loose_caboose.kernels import pile_points
from transit_gym.envs.loose_caboose.state import P_NUM_PLAYERS

#: win-probability temperature in penalty points
TEMPERATURE = 4.0


@nb.njit(cache=True)
def evaluate(s, p, out):
    """Expected reward per seat of a running game (see the module docstring)."""
    n = p[P_NUM_PLAYERS]
    strength = np.zeros(n, dtype=np.float64)
    for seat in range(n):
        strength[seat] = -pile_points(s, p, seat)
    softmax_rewards(strength, n, TEMPERATURE, out)
