"""Parameter vectors carried inside the game parameters, for every game's tuned kernel.

The jitted whole-game loops hand an agent kernel only the game's int64 parameter row ``p``;
a tuned seat's vector rides at its end in fixed point: :func:`append_vectors` writes the
vectors, their count, the vector size and the row's own length after the row, and the
kernels read vector ``k`` back with :func:`read_vector` (agent code ``TUNED_CODE + k``).

A game's layout built from a table of ``(name, rule-based value, step)`` entries takes its
``names``, ``rule_based_vector`` and ``scales`` from :func:`entry_functions`.
"""

from __future__ import annotations

from collections.abc import Callable

import numba as nb
import numpy as np

import transit_gym.envs  # noqa: F401  (kernel cache set-up)

#: fixed-point scale of the vectors stored in the (int64) game parameters
SCALE = float(1 << 32)
#: first code of a tuned seat (code ``TUNED_CODE + k`` reads vector ``k``)
TUNED_CODE = 2


def append_vectors(params: np.ndarray, vectors: list[np.ndarray], size: int) -> np.ndarray:
    """The game parameters followed by ``vectors`` (``size`` entries each, fixed point),
    their count, ``size`` and the length of ``params``. A table of parameter rows (a game
    that draws its board per reset) gives a table: each row extended the same way."""
    params = np.ascontiguousarray(params, dtype=np.int64)
    if params.ndim == 2:
        return np.ascontiguousarray(np.stack([append_vectors(row, vectors, size)
                                              for row in params]))
    blocks = [params]
    for v in vectors:
        v = np.asarray(v, dtype=np.float64)
        if v.shape != (size,):
            raise ValueError(f"a tuned vector has {size} entries, got {v.shape}")
        blocks.append(np.round(v * SCALE).astype(np.int64))
    tail = np.array([len(vectors), size, params.shape[0]], dtype=np.int64)
    return np.ascontiguousarray(np.concatenate(blocks + [tail]))


@nb.njit(cache=True)
def read_vector(p, slot):
    """Vector ``slot`` appended to ``p`` by :func:`append_vectors`."""
    n = p.shape[0]
    size = p[n - 2]
    start = p[n - 1] + slot * size
    v = np.empty(size, dtype=np.float64)
    for i in range(size):
        v[i] = p[start + i] / SCALE
    return v


def entry_functions(entries: tuple[tuple[str, float, float], ...]
                    ) -> tuple[Callable[[], list[str]], Callable[[], np.ndarray],
                               Callable[[], np.ndarray]]:
    """A layout's ``names()``, ``rule_based_vector()`` and ``scales()`` from its entry table
    of ``(name, rule-based value, step)``: the names in vector order, the vector that plays
    exactly as the rule-based agent and one optimiser unit per entry (each a fresh copy)."""
    names = [name for name, _, _ in entries]
    values = np.array([value for _, value, _ in entries], dtype=np.float64)
    steps = np.array([step for _, _, step in entries], dtype=np.float64)

    def layout_names() -> list[str]:
        """Every entry's name, in vector order."""
        return list(names)

    def rule_based_vector() -> np.ndarray:
        """The vector that plays exactly as the rule-based agent (a fresh copy)."""
        return values.copy()

    def scales() -> np.ndarray:
        """One optimiser unit per entry: a step that changes play noticeably."""
        return steps.copy()

    return layout_names, rule_based_vector, scales
