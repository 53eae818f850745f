"""``determinize(s, p, seat, rng)``: re-deal what ``seat`` cannot see (see ``Kernels``).

Hidden from a seat: the other hands (their sizes are public), the cards removed at setup,
the draw pile's contents and order, the cards another seat banked face down from the draw
pile (their number is public), and the future dice (the state's generator). Everything else
(own hand, railway, discard pile, face-up penalty piles, cards banked from the railway,
own hidden banks) stays. The unseen cards are gathered in card order, shuffled with ``rng``
and dealt back into the same places in the same numbers, so the result depends only on
what the seat has seen and on ``rng``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.core.draw import shuffle_prefix
from transit_gym.envs.core.rng import RNG_WORDS, next32
from transit_gym.envs.loose_caboose.data import MAX_CARDS
from transit_gym.envs.loose_caboose.state import (
    DECK,
    DECK_LEN,
    LOC,
    P_NUM_CARDS,
    P_NUM_PLAYERS,
    Z_BANK_HIDDEN,
    Z_DECK,
    Z_HAND,
    Z_REMOVED,
)


@nb.njit(cache=True)
def _hidden_from(where, seat, n_players):
    """Whether a card in place ``where`` is unseen by ``seat``."""
    if where in (Z_DECK, Z_REMOVED):
        return True
    if Z_HAND <= where < Z_HAND + n_players:
        return where - Z_HAND != seat
    if Z_BANK_HIDDEN <= where < Z_BANK_HIDDEN + n_players:
        return where - Z_BANK_HIDDEN != seat
    return False


@nb.njit(cache=True)
def determinize(s, p, seat, rng):
    """Re-deal the cards ``seat`` cannot see and reseed future chance from ``rng``."""
    n_cards = p[P_NUM_CARDS]
    n_players = p[P_NUM_PLAYERS]
    pool = np.empty(MAX_CARDS, dtype=np.int64)
    places = np.empty(MAX_CARDS, dtype=np.int64)   # the hidden places, in a fixed order
    n = 0
    # places in a canonical order: other hands and hidden banks by seat, removed, deck
    for base in (Z_HAND, Z_BANK_HIDDEN):
        for other in range(n_players):
            if other == seat:
                continue
            for card in range(n_cards):
                if s[LOC + card] == base + other:
                    places[n] = base + other
                    n += 1
    for card in range(n_cards):
        if s[LOC + card] == Z_REMOVED:
            places[n] = Z_REMOVED
            n += 1
    n_deck = s[DECK_LEN]
    for _ in range(n_deck):
        places[n] = Z_DECK
        n += 1
    k = 0
    for card in range(n_cards):
        if _hidden_from(s[LOC + card], seat, n_players):
            pool[k] = card
            k += 1
    shuffle_prefix(rng, pool, k)
    d = 0
    for i in range(k):
        card = pool[i]
        s[LOC + card] = places[i]
        if places[i] == Z_DECK:
            s[DECK + d] = card
            d += 1
    for i in range(RNG_WORDS):
        s[i] = next32(rng)
    if s[0] == 0 and s[1] == 0 and s[2] == 0 and s[3] == 0:
        s[0] = 1
