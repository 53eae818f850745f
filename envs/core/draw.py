"""Drawing kernels shared by every game: bags of counted items, shuffled decks, masks.

All functions take the generator words (``state[0:4]``) first, so chance is
always drawn from the game's own seeded stream.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.core.rng import below


@nb.njit(cache=True)
def draw_from_counts(words: np.ndarray, counts: np.ndarray) -> int:
    """Remove one item uniformly from a bag given as counts per kind; return its kind.

    Returns -1 when the bag is empty.
    """
    total = 0
    for k in range(counts.shape[0]):
        total += counts[k]
    if total <= 0:
        return -1
    r = below(words, total)
    for k in range(counts.shape[0]):
        if r < counts[k]:
            counts[k] -= 1
            return k
        r -= counts[k]
    return -1


@nb.njit(cache=True)
def shuffle_prefix(words: np.ndarray, items: np.ndarray, n: int) -> None:
    """Shuffle ``items[0:n]`` in place (Fisher-Yates)."""
    for i in range(n - 1, 0, -1):
        j = below(words, i + 1)
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


@nb.njit(cache=True)
def count_legal(mask: np.ndarray) -> int:
    """Number of legal actions in an int8 mask."""
    n = 0
    for i in range(mask.shape[0]):
        if mask[i] != 0:
            n += 1
    return n


@nb.njit(cache=True)
def uniform_legal(words: np.ndarray, mask: np.ndarray) -> int:
    """A uniformly random legal action of ``mask``; -1 when none is legal."""
    n = count_legal(mask)
    if n == 0:
        return -1
    k = below(words, n)
    for i in range(mask.shape[0]):
        if mask[i] != 0:
            if k == 0:
                return i
            k -= 1
    return -1


@nb.njit(cache=True)
def uniform_legal_rows(words: np.ndarray, masks: np.ndarray, out: np.ndarray) -> None:
    """``out[b]`` = a uniformly random legal action of ``masks[b]`` for every row."""
    for b in range(masks.shape[0]):
        out[b] = uniform_legal(words, masks[b])
