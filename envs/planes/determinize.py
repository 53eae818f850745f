"""``determinize(s, p, seat, rng)``: re-deal what ``seat`` cannot see (see ``Kernels``).

Hidden from a seat in Planes: the cards in the other hands (their sizes are public) and
the contents of the draw deck (its size is public; its order is never stored, draws are
uniform over its counts), and future chance (the state's generator). The board, planes,
track, scored goals, discard piles, the card in play and the box are public.

Shared deck: the unseen cards (deck plus the other hands, counted per card type) are dealt
back at random, each other seat receiving as many as it held and the deck the rest.
Player Decks: the same per other seat over its own hand and deck (the cards of its 15
not scored, discarded or in play); the seat's own deck is known and kept. The result
depends only on those counts, the public sizes and ``rng``.

One pending decision depends on a hidden hand: after Choose One's "extra goal" the player
to move must score a card whose goal is on the board (everyone saw that choice). When
another seat determinizes then, the re-deal is repeated until that hand holds such a card
(a bounded number of tries; then the true hands stay).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.core.draw import draw_from_counts
from transit_gym.envs.core.rng import RNG_WORDS, next32
from transit_gym.envs.planes.data import MAX_TYPES
from transit_gym.envs.planes.kernels import any_goal_scorable
from transit_gym.envs.planes.state import (
    CURRENT,
    DECK,
    HAND,
    P_NUM_PLAYERS,
    P_PLAYER_DECKS,
    PH_EXTRA_GOAL,
    PHASE,
)

REDEAL_TRIES = 256      # re-deals tried for a hand that must hold a met goal


@nb.njit(cache=True)
def _deal(s, rng, pool, seat_row):
    """Deal ``pool`` (counts per type) into the hand of seat ``seat_row`` (as many cards as
    it holds now); the rest of the pool is returned to the caller."""
    hand = HAND + seat_row * MAX_TYPES
    size = 0
    for t in range(MAX_TYPES):
        size += s[hand + t]
        s[hand + t] = 0
    for _ in range(size):
        t = draw_from_counts(rng, pool)
        s[hand + t] += 1


@nb.njit(cache=True)
def determinize(s, p, seat, rng):
    """Re-deal the cards ``seat`` cannot see and reseed future chance from ``rng``."""
    mover = s[CURRENT]
    must_hold_goal = s[PHASE] == PH_EXTRA_GOAL and mover != seat
    saved = s.copy()
    for _ in range(REDEAL_TRIES):
        s[:] = saved
        _redeal(s, p, seat, rng)
        if not must_hold_goal or any_goal_scorable(s, p, mover):
            break
    else:
        s[:] = saved
    while True:
        nonzero = False
        for i in range(RNG_WORDS):
            s[i] = next32(rng)
            if s[i] != 0:
                nonzero = True
        if nonzero:
            break


@nb.njit(cache=True)
def _redeal(s, p, seat, rng):
    """One random re-deal of every card ``seat`` cannot see."""
    n_players = p[P_NUM_PLAYERS]
    pool = np.zeros(MAX_TYPES, dtype=np.int64)
    if p[P_PLAYER_DECKS] != 0:
        for other in range(n_players):
            if other == seat:
                continue
            deck = DECK + other * MAX_TYPES
            for t in range(MAX_TYPES):
                pool[t] = s[deck + t] + s[HAND + other * MAX_TYPES + t]
            _deal(s, rng, pool, other)
            for t in range(MAX_TYPES):
                s[deck + t] = pool[t]
    else:
        for t in range(MAX_TYPES):
            pool[t] = s[DECK + t]
            for other in range(n_players):
                if other != seat:
                    pool[t] += s[HAND + other * MAX_TYPES + t]
        for other in range(n_players):
            if other != seat:
                _deal(s, rng, pool, other)
        for t in range(MAX_TYPES):
            s[DECK + t] = pool[t]
