"""Jitted cube kernels: pile sizes, drawing from the bag, gaining and removing cubes
(rulebook: Drawing Cubes, Removing Cubes, Action Phase "gained cubes go to the used
pile"), and the printed numbers of the market card a cube's colour names."""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobiles.data import NUM_COLOURS, WEAR
from transit_gym.envs.automobiles.state import (
    ACTIVE,
    BAG,
    CARD_OF,
    COST,
    DISCARD,
    NC,
    P_BUY_WEAR,
    P_CARD_EFFECT,
    PHASE,
    PK_LEFT,
    STAT_WEAR,
    STOCK,
    USED,
)
from transit_gym.envs.core.draw import draw_from_counts
from transit_gym.envs.core.slots import slot_sum
from transit_gym.envs.core.validate import bump


@nb.njit(cache=True)
def pile(seat, base):
    """Offset of seat's pile ``base`` (BAG, ACTIVE, USED or DISCARD)."""
    return base + seat * NC


@nb.njit(cache=True)
def total(s, offset):
    return slot_sum(s, offset, NUM_COLOURS)


@nb.njit(cache=True)
def distinct(s, offset):
    """Number of colours present in the pile at ``offset``."""
    n = 0
    for c in range(NUM_COLOURS):
        if s[offset + c] > 0:
            n += 1
    return n


@nb.njit(cache=True)
def mask_cubes(s, start, mask, base):
    """Mark ``mask[base + c]`` legal for every colour ``c`` with cubes at ``s[start + c]``."""
    for c in range(NUM_COLOURS):
        if s[start + c] > 0:
            mask[base + c] = 1


@nb.njit(cache=True)
def can_draw(s, seat, n):
    """Seat could draw ``n`` cubes (bag plus discard pile, which refills an empty bag)."""
    return total(s, pile(seat, BAG)) + total(s, pile(seat, DISCARD)) >= n


@nb.njit(cache=True)
def move_pile(s, source, target):
    """Move every cube of the pile at ``source`` onto the pile at ``target``."""
    for c in range(NUM_COLOURS):
        s[target + c] += s[source + c]
        s[source + c] = 0


@nb.njit(cache=True)
def draw_one(s, seat):
    """Draw a random cube from seat's bag (its colour, -1 if none is left). An empty bag is
    refilled with the whole discard pile only when a cube must be drawn from it."""
    bag = pile(seat, BAG)
    if total(s, bag) == 0:
        discard = pile(seat, DISCARD)
        if total(s, discard) == 0:
            return -1
        move_pile(s, discard, bag)
    return draw_from_counts(s[0:4], s[bag:bag + NC])


@nb.njit(cache=True)
def draw_to_active(s, seat, n):
    """Draw up to ``n`` cubes into seat's active pile; returns how many were drawn."""
    got = 0
    for _ in range(n):
        c = draw_one(s, seat)
        if c < 0:
            break
        s[pile(seat, ACTIVE) + c] += 1
        got += 1
    return got


@nb.njit(cache=True)
def gain(s, seat, colour, n):
    """Gain ``n`` cubes of ``colour`` from the stock into the used pile (as many as the
    stock has); returns how many. Wear gained is counted for the statistics."""
    k = min(n, s[STOCK + colour])
    if k <= 0:
        return 0
    s[STOCK + colour] -= k
    s[pile(seat, USED) + colour] += k
    if colour == WEAR:
        bump(s, STAT_WEAR + seat, k)
    return k


@nb.njit(cache=True)
def wear_then_pick(s, seat, wear, count, phase):
    """Gain ``wear`` wear cubes, then open pick decision ``phase`` with ``count`` picks left."""
    gain(s, seat, WEAR, wear)
    s[PK_LEFT] = count
    s[PHASE] = phase


@nb.njit(cache=True)
def remove(s, offset, colour):
    """Remove one cube of ``colour`` from the pile at ``offset`` back to the stock."""
    s[offset + colour] -= 1
    s[STOCK + colour] += 1


@nb.njit(cache=True)
def move_cube(s, source, target, colour):
    s[source + colour] -= 1
    s[target + colour] += 1


@nb.njit(cache=True)
def card_param(s, p, colour, table):
    """Entry ``table`` (``P_CARD_COUNT``, ``P_CARD_WEAR``...) of the market card of ``colour``."""
    return p[table + s[CARD_OF + colour]]


@nb.njit(cache=True)
def card_effect(s, p, colour):
    """The effect (``E_*``) of the market card of ``colour``."""
    return card_param(s, p, colour, P_CARD_EFFECT)


@nb.njit(cache=True)
def buyable(s, p, colour):
    """Colours for sale: all but wear (unless the ``buy_wear`` option is on)."""
    return colour != WEAR or p[P_BUY_WEAR] != 0


@nb.njit(cache=True)
def affordable(s, p, colour, money):
    return buyable(s, p, colour) and s[STOCK + colour] > 0 and s[COST + colour] <= money


@nb.njit(cache=True)
def any_affordable(s, p, money):
    for c in range(NUM_COLOURS):  # noqa: SIM110 - numba has no generators
        if affordable(s, p, c, money):
            return True
    return False
