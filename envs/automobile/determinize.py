"""Re-sampling what one seat cannot see in Automobile: ``determinize(s, p, seat, rng)``.

The only hidden information of the game is the demand tiles the other players drew in P1
(RB P1: "secretly"), revealed in P7, and the bag's future draws. At every decision every
tile is either in the bag or in a hand of the current turn (P9 returns all of them), so
what ``seat`` knows of the other hands is only how many tiles each holds and that they come
from the bag minus its own tiles. ``determinize`` puts the other hands back in the bag,
deals each of them the same number of tiles again from ``rng`` (higher first), and reseeds
the state's generator ``s[0:4]`` from ``rng`` (future P1 and P7 draws). The finished game
has nothing hidden left to re-sample: only the generator is reseeded.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobile.kernels import tile_kind
from transit_gym.envs.automobile.state import (
    BAG,
    P_NUM_PLAYERS,
    P_NUM_TILE_KINDS,
    P_TILE_VALUES,
    P_TILES_PER_PLAYER,
    PH_OVER,
    PHASE,
    TILES,
    TURN,
)
from transit_gym.envs.core.draw import draw_from_counts
from transit_gym.envs.core.rng import RNG_WORDS, next32


@nb.njit(cache=True)
def determinize(s, p, seat, rng):
    """Re-deal the other seats' demand tiles from the bag and reseed future chance from
    ``rng`` (the searcher's generator words, advanced)."""
    n = p[P_NUM_PLAYERS]
    kinds = p[P_NUM_TILE_KINDS]
    if s[PHASE] != PH_OVER:
        for other in range(n):           # every hidden tile back into the bag
            if other == seat:
                continue
            for t in range(2):
                v = s[TILES + other * 2 + t]
                if v > 0:
                    s[BAG + tile_kind(p, v)] += 1
                    s[TILES + other * 2 + t] = 0
        per_player = p[P_TILES_PER_PLAYER + s[TURN]]   # what each hand held (P1)
        for other in range(n):           # and the same number dealt again, higher first
            if other == seat:
                continue
            for t in range(per_player):
                kind = draw_from_counts(rng, s[BAG:BAG + kinds])
                s[TILES + other * 2 + t] = p[P_TILE_VALUES + kind]
            if per_player == 2 and s[TILES + other * 2 + 1] > s[TILES + other * 2]:
                high = s[TILES + other * 2 + 1]
                s[TILES + other * 2 + 1] = s[TILES + other * 2]
                s[TILES + other * 2] = high
    for i in range(RNG_WORDS):
        s[i] = next32(rng)
    if s[0] == 0 and s[1] == 0 and s[2] == 0 and s[3] == 0:
        s[0] = 1
