"""Leaf evaluations for search: per-seat strengths turned into expected rewards (jitted)."""

from __future__ import annotations

import math

import numba as nb
import numpy as np


@nb.njit(cache=True)
def softmax_rewards(strength: np.ndarray, n_players: int, temperature: float,
                    out: np.ndarray) -> None:
    """Expected win-share reward per seat when seat i wins with probability
    ``softmax(strength / temperature)[i]`` (one winner: +1 to it, -1 shared by the
    others), i.e. ``(n * prob - 1) / (n - 1)``: in [-1 / (n - 1), 1], summing to 0."""
    top = strength[0]
    for seat in range(1, n_players):
        top = max(top, strength[seat])
    total = 0.0
    for seat in range(n_players):
        total += math.exp((strength[seat] - top) / temperature)
    for seat in range(n_players):
        prob = math.exp((strength[seat] - top) / temperature) / total
        out[seat] = (n_players * prob - 1.0) / (n_players - 1)
