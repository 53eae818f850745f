"""``determinize(s, p, seat, rng)`` for Automobiles (see ``Kernels.determinize``).

Every pile is a count of cubes per colour and every pile's contents are public or follow
from public events (cubes bought, drawn into the open active pile, discarded), so a seat
with a full memory of the game knows every bag's contents even where the observation
leaves them out (closed bags). What nobody knows is which cubes will be drawn next: the
order of the bags is chance, held in the state's generator. Determinizing therefore
reseeds that generator from ``rng`` and changes nothing else.

Racing Season drivers add nothing hidden: every seat's driver and the revealed draft
pool are public, Driver 04's drawn cubes (``driver_held``) are shown, and the drivers
not revealed stay in the box for the whole game.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.core.rng import RNG_WORDS, next32


@nb.njit(cache=True)
def determinize(s, p, seat, rng):
    """Reseed the future draws (the only thing hidden from ``seat``) from ``rng``."""
    for i in range(RNG_WORDS):
        s[i] = next32(rng)
    if s[0] == 0 and s[1] == 0 and s[2] == 0 and s[3] == 0:
        s[0] = 1
