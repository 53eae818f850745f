"""Games whose options draw at random per reset: a table of parameter rows.

A game whose board (or any other parameter) is drawn at ``reset(seed)`` holds one
parameter row per candidate (``Game.param_table``, shape ``(K, P)``, built once) and
records the row a state plays in the state's last slot, the field ``variant`` (added to
the layout only when ``K > 1``, so games without random options keep their layout and
their saved states byte for byte). Every kernel is called with the state's row:
:func:`start_variant` draws and records it when a game is set up (from the state's own
generator, after seeding and before ``init``), :func:`row_of` reads it back.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.core.rng import RNG_WORDS, below

#: the name of the state field recording the parameter row (games with K > 1 rows)
VARIANT_FIELD = "variant"


@nb.njit(cache=True)
def start_variant(s: np.ndarray, table: np.ndarray, vslot: int) -> np.ndarray:
    """The row a new game plays: drawn from ``s``'s seeded generator and written to
    ``s[vslot]`` when the game has a variant slot (``vslot >= 0``), else row 0 (no draw,
    so games without random options consume their generator exactly as before)."""
    if vslot < 0:
        return table[0]
    v = below(s[0:RNG_WORDS], table.shape[0])
    s[vslot] = v
    return table[v]


@nb.njit(cache=True)
def row_of(s: np.ndarray, table: np.ndarray, vslot: int) -> np.ndarray:
    """The parameter row of the game in ``s`` (row 0 when there is no variant slot).
    The index must already be validated (``Game.validate``)."""
    if vslot < 0:
        return table[0]
    return table[s[vslot]]
