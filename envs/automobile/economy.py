"""Jitted money, R&D and factory rules: payments, loans, building, production, closing.

RB sections: Loans; I. Build factory (with the R&D cost of building ahead and the
parts factory); IV. Produce cars; V. Close down a production space; the
characters Ford and Durant (build modes). Every payment moves money between a
player and the bank, every R&D cube between a player and the stock.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobile.actions import WHAT_ONE, WHAT_ONE_PARTS, WHAT_PARTS, WHAT_TWO
from transit_gym.envs.automobile.data import NUM_SPACES
from transit_gym.envs.automobile.state import (
    BANK,
    BUILD_DURANT,
    BUILD_FORD,
    CAR_COUNT,
    CARS,
    CASH,
    CLOSED,
    FAC_COUNT,
    FACTORIES,
    FRONTIER,
    LOANS,
    LOSS,
    OWNER,
    P_CLOSE_REDUCTION,
    P_COST,
    P_FRONTIER_MODE,
    P_LOAN_AMOUNT,
    P_LOANS_MAX,
    P_MAX_CARS,
    P_MAX_FACTORIES,
    P_MAX_PER_SPACE,
    P_PARTS_COST,
    P_PARTS_DISCOUNT,
    P_PARTS_FACTORIES,
    P_PARTS_REFUND,
    P_PARTS_WITH_NEW,
    P_PROD_COST,
    P_PROD_MAX,
    P_PROD_MIN,
    P_SEGMENT,
    PARTS,
    PARTS_AT,
    PRODUCED,
    RD,
    RD_STOCK,
    STAT_BUILT,
    STAT_CLOSED,
    STAT_PRODUCED,
)
from transit_gym.envs.core.validate import bump


# ----- transfers ---------------------------------------------------------------------------------
@nb.njit(cache=True)
def pay(s, seat, amount):
    """``seat`` pays ``amount`` dollars to the bank (cash may go negative only in P8)."""
    _transfer(s, CASH + seat, BANK, amount)


@nb.njit(cache=True)
def receive(s, seat, amount):
    """The bank pays ``amount`` dollars to ``seat``."""
    _transfer(s, BANK, CASH + seat, amount)


@nb.njit(cache=True)
def take_rd(s, seat, n):
    """Up to ``n`` R&D cubes from the stock to ``seat`` (a depleted stock gives fewer)."""
    got = min(n, s[RD_STOCK])
    _transfer(s, RD_STOCK, RD + seat, got)
    return got


@nb.njit(cache=True)
def spend_rd(s, seat, n):
    """``seat`` returns ``n`` R&D cubes to the stock."""
    _transfer(s, RD + seat, RD_STOCK, n)


@nb.njit(cache=True)
def _transfer(s, src, dst, amount):
    """Move ``amount`` (dollars or cubes) from slot ``src`` to slot ``dst``."""
    s[src] -= amount
    s[dst] += amount


@nb.njit(cache=True)
def can_loan(s, p, seat):
    return s[LOANS + seat] < p[P_LOANS_MAX]


@nb.njit(cache=True)
def take_loan(s, p, seat):
    """Loans: $500 from the bank; the loan count is the token in the Loan box."""
    s[LOANS + seat] += 1
    receive(s, seat, p[P_LOAN_AMOUNT])


# ----- building ----------------------------------------------------------------------------------
@nb.njit(cache=True)
def open_frontier(s):
    """Most advanced space holding factories now (-1 if none)."""
    for i in range(NUM_SPACES - 1, -1, -1):
        if s[FACTORIES + i] > 0:
            return i
    return -1


@nb.njit(cache=True)
def rd_ahead_cost(s, p, space):
    """R&D cubes to open ``space``: 1, 3, 6, 10... for 1, 2, 3, 4... spaces beyond the most
    advanced occupied space; 0 for a space skipped over earlier (I. Build factory)."""
    if space <= s[FRONTIER]:
        return 0
    ref = s[FRONTIER] if p[P_FRONTIER_MODE] == 0 else open_frontier(s)
    d = space - ref
    return d * (d + 1) // 2


@nb.njit(cache=True)
def is_new_space(s, space):
    """Unoccupied: never built in and not closed."""
    return s[OWNER + space] < 0 and s[CLOSED + space] == 0


@nb.njit(cache=True)
def is_own_open(s, seat, space):
    return s[OWNER + space] == seat and s[FACTORIES + space] > 0 and s[CLOSED + space] == 0


@nb.njit(cache=True)
def build_options(s, p, seat, space, mode):
    """Bit set of the legal build kinds (bit ``WHAT_*``) on ``space`` for ``seat``.

    Normal build: 1 or 2 factories, the parts factory, or a factory and the parts
    factory, on an unoccupied space or one of the player's own. Ford: one factory or
    the parts factory on an own space. Durant: one factory on an unoccupied space.
    """
    new = is_new_space(s, space)
    own = is_own_open(s, seat, space)
    if not new and not own:
        return 0
    if mode == BUILD_DURANT and not new:
        return 0
    if mode == BUILD_FORD and not own:
        return 0
    rd_cost = rd_ahead_cost(s, p, space) if new else 0
    if rd_cost > s[RD + seat]:
        return 0
    cash = s[CASH + seat]
    cost = p[P_COST + space]
    fac_free = p[P_MAX_FACTORIES] - s[FAC_COUNT + seat]
    slot_free = p[P_MAX_PER_SPACE] - s[FACTORIES + space]
    parts_free = s[PARTS_AT + seat] < 0 and p[P_PARTS_FACTORIES] > 0
    parts_cost = p[P_PARTS_COST]
    bits = 0
    if fac_free >= 1 and slot_free >= 1 and cash >= cost:
        bits |= 1 << WHAT_ONE
    if mode == BUILD_DURANT:
        return bits
    if parts_free and own and cash >= parts_cost:
        bits |= 1 << WHAT_PARTS
    if mode == BUILD_FORD:
        return bits
    if fac_free >= 2 and slot_free >= 2 and cash >= 2 * cost:
        bits |= 1 << WHAT_TWO
    if (parts_free and fac_free >= 1 and slot_free >= 1 and cash >= cost + parts_cost
            and (own or p[P_PARTS_WITH_NEW] != 0)):
        bits |= 1 << WHAT_ONE_PARTS
    return bits


@nb.njit(cache=True)
def any_build(s, p, seat, mode):
    for i in range(NUM_SPACES):  # noqa: SIM110 - numba has no any() over generators
        if build_options(s, p, seat, i, mode) != 0:
            return True
    return False


@nb.njit(cache=True)
def ford_room(s, p, seat):
    """An own space with room for a factory or the parts factory (ignoring money)."""
    fac_free = p[P_MAX_FACTORIES] - s[FAC_COUNT + seat]
    parts_free = s[PARTS_AT + seat] < 0 and p[P_PARTS_FACTORIES] > 0
    for i in range(NUM_SPACES):
        if is_own_open(s, seat, i) and (
                parts_free or (fac_free >= 1 and s[FACTORIES + i] < p[P_MAX_PER_SPACE])):
            return True
    return False


@nb.njit(cache=True)
def do_build(s, p, seat, space, what):
    """Place the pieces of build kind ``what`` and pay money (and R&D on a new space)."""
    if is_new_space(s, space):
        spend_rd(s, seat, rd_ahead_cost(s, p, space))
        s[OWNER + space] = seat
        if space > s[FRONTIER]:
            s[FRONTIER] = space
    # one factory, two factories, a parts factory, or one factory and a parts factory
    n_fac = 0 if what == WHAT_PARTS else (2 if what == WHAT_TWO else 1)
    n_parts = 1 if what != WHAT_ONE and what != WHAT_TWO else 0
    pay(s, seat, n_fac * p[P_COST + space] + n_parts * p[P_PARTS_COST])
    s[FACTORIES + space] += n_fac
    s[FAC_COUNT + seat] += n_fac
    if n_parts:
        s[PARTS + space] = 1
        s[PARTS_AT + seat] = space
    bump(s, STAT_BUILT + seat, n_fac + n_parts)



# ----- production --------------------------------------------------------------------------------
@nb.njit(cache=True)
def production_range(s, p, space):
    """(min, max) cars for one production on ``space`` (IV. Produce cars, table)."""
    f = s[FACTORIES + space]
    if f <= 0:
        return 0, 0
    k = p[P_SEGMENT + space] * 3 + f - 1
    return p[P_PROD_MIN + k], p[P_PROD_MAX + k]


@nb.njit(cache=True)
def car_unit_cost(s, p, space):
    """Cost per car on ``space``: the segment's cost less the parts-factory discount."""
    return p[P_PROD_COST + p[P_SEGMENT + space]] - p[P_PARTS_DISCOUNT] * s[PARTS + space]


@nb.njit(cache=True)
def can_produce_at(s, p, seat, space):
    """The car stock leaves room for the minimum on this own space (money aside)."""
    if not is_own_open(s, seat, space):
        return False
    lo, _ = production_range(s, p, space)
    return s[CAR_COUNT + seat] + lo <= p[P_MAX_CARS]


@nb.njit(cache=True)
def next_production_space(s, p, seat, after):
    """The next own space after ``after`` where a production is possible, or -1."""
    for i in range(after + 1, NUM_SPACES):
        if can_produce_at(s, p, seat, i):
            return i
    return -1


@nb.njit(cache=True)
def quantity_legal(s, p, seat, space, n):
    """Producing ``n`` cars on ``space``: 0 (skip), or min..max within stock and cash."""
    if n == 0:
        return True
    lo, hi = production_range(s, p, space)
    if n < lo or n > hi:
        return False
    if s[CAR_COUNT + seat] + n > p[P_MAX_CARS]:
        return False
    return n * car_unit_cost(s, p, space) <= s[CASH + seat]


@nb.njit(cache=True)
def produce(s, p, seat, space, n):
    pay(s, seat, n * car_unit_cost(s, p, space))
    s[CARS + space] += n
    s[CAR_COUNT + seat] += n
    s[PRODUCED + space] = 1
    bump(s, STAT_PRODUCED + seat, n)


# ----- closing -----------------------------------------------------------------------------------
@nb.njit(cache=True)
def close_space(s, p, seat, space):
    """V. Close down: refund (cost - $100) per factory and $400 for the parts factory,
    discard half the loss cubes held (rounded up), put a closed tile on the space.
    Cars already produced there stay and can still be sold."""
    f = s[FACTORIES + space]
    refund = f * (p[P_COST + space] - p[P_CLOSE_REDUCTION])
    if s[PARTS + space] != 0:
        refund += p[P_PARTS_REFUND]
        s[PARTS + space] = 0
        s[PARTS_AT + seat] = -1
    receive(s, seat, refund)
    s[FAC_COUNT + seat] -= f
    s[FACTORIES + space] = 0
    s[CLOSED + space] = 1
    s[LOSS + seat] = s[LOSS + seat] // 2
    bump(s, STAT_CLOSED + seat, 1)


@nb.njit(cache=True)
def any_own_open(s, seat):
    for i in range(NUM_SPACES):  # noqa: SIM110 - numba has no any() over generators
        if is_own_open(s, seat, i):
            return True
    return False
