"""Zero-sum terminal rewards shared by every game (jitted)."""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True)
def win_share_rewards(won: np.ndarray, n_players: int, out: np.ndarray) -> None:
    """+1 shared by the winners (``won[seat]`` nonzero), -1 shared by the others.

    When every seat won (a full tie) every reward is 0."""
    n_won = 0
    for seat in range(n_players):
        if won[seat]:
            n_won += 1
    for seat in range(n_players):
        out[seat] = 0.0
    if n_won == 0 or n_won == n_players:
        return
    for seat in range(n_players):
        out[seat] = 1.0 / n_won if won[seat] else -1.0 / (n_players - n_won)


@nb.njit(cache=True)
def score_difference_rewards(scores: np.ndarray, n_players: int, out: np.ndarray,
                             scale: float) -> None:
    """``scale * (own score - mean of the others' scores)``; zero-sum. Pass negated scores
    for games where fewer points is better."""
    total = 0.0
    for seat in range(n_players):
        total += scores[seat]
    for seat in range(n_players):
        own = scores[seat]
        out[seat] = scale * (own - (total - own) / (n_players - 1))
