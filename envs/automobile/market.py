"""Jitted selling and loss rules: Howard (P4), salesmen (P5), demand tiles (P7), losses (P8).

These are the kernels the rest of the turn is built around: the legality of a
salesman's move, the car sales themselves, the demand-tile selling passes from the
most advanced space backwards, and the loss-cube allocation by rank per segment.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobile.data import NUM_SPACES, NUM_TURNS
from transit_gym.envs.automobile.economy import receive
from transit_gym.envs.automobile.state import (
    AD,
    BOXES,
    CAR_COUNT,
    CARS,
    CLOSED,
    DISC,
    FACTORIES,
    LOSS,
    OWNER,
    P_BOX_CAP,
    P_MAX_CARS,
    P_MAX_FACTORIES,
    P_PRICE_LOW,
    P_PRICE_TOP,
    P_SALESMEN,
    P_SEGMENT,
    SHOW,
    STAT_LOSS_TAKEN,
    STAT_REVENUE,
    STAT_SOLD_DEMAND,
    STAT_SOLD_HOWARD,
    STAT_SOLD_SALESMEN,
    STAT_UNSOLD,
    TURN_LOSS,
    USED,
)
from transit_gym.envs.core.validate import bump


@nb.njit(cache=True)
def loss_cap(p):
    """The most loss cubes a player can hold: each turn at most one per car in stock left
    unsold (P7), one per salesman left idle (P5), and a rank of at most 25 on each space
    holding the player's factories, one factory or more each (P8)."""
    per_turn = p[P_MAX_CARS] + p[P_SALESMEN] + p[P_MAX_FACTORIES] * (NUM_SPACES - 1)
    return NUM_TURNS * per_turn


@nb.njit(cache=True)
def add_loss(s, p, seat, n):
    """``seat`` takes ``n`` loss cubes (the stock of loss cubes is unlimited). Play never
    holds more than ``loss_cap``; the counts saturate there, the most a saved state may
    hold, so a step from an accepted state never leaves the accepted range."""
    cap = loss_cap(p)
    s[LOSS + seat] = min(s[LOSS + seat] + n, cap)
    s[TURN_LOSS + seat] = min(s[TURN_LOSS + seat] + n, cap)
    bump(s, STAT_LOSS_TAKEN + seat, n)


@nb.njit(cache=True)
def car_spaces(s, p, seat, seg):
    """Number of spaces holding cars of ``seat`` in segment ``seg`` (-1: any segment)."""
    n = 0
    for i in range(NUM_SPACES):
        if s[OWNER + i] == seat and s[CARS + i] > 0 and (seg < 0 or p[P_SEGMENT + i] == seg):
            n += 1
    return n


@nb.njit(cache=True)
def first_car_space(s, p, seat, seg):
    for i in range(NUM_SPACES):
        if s[OWNER + i] == seat and s[CARS + i] > 0 and (seg < 0 or p[P_SEGMENT + i] == seg):
            return i
    return -1


@nb.njit(cache=True)
def take_car(s, p, seat, space, price):
    """One car of ``seat`` leaves ``space`` sold at ``price``."""
    s[CARS + space] -= 1
    s[CAR_COUNT + seat] -= 1
    receive(s, seat, price)
    bump(s, STAT_REVENUE + seat, price)


# ----- P4 ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def howard_sell(s, p, seat, space):
    """P4: a car to Howard at the segment's highest price."""
    take_car(s, p, seat, space, p[P_PRICE_TOP + p[P_SEGMENT + space]])
    bump(s, STAT_SOLD_HOWARD + seat, 1)


# ----- P5 ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def box_capacity(p, seg, turn):
    """Sale boxes of track ``seg`` usable in ``turn`` (labels '1-4', '2-4', '3-4')."""
    return p[P_BOX_CAP + seg * NUM_TURNS + turn]


@nb.njit(cache=True)
def sale_move_ok(s, p, seat, src, dst, turn):
    """P5: a salesman in showroom ``src`` may sell on track ``dst``: one segment up or down
    at most, an empty open box, and a matching car of the player's own."""
    if src - dst > 1 or dst - src > 1:
        return False
    if s[SHOW + seat * 3 + src] == 0:
        return False
    if s[BOXES + dst] >= box_capacity(p, dst, turn):
        return False
    return car_spaces(s, p, seat, dst) > 0


@nb.njit(cache=True)
def sale_moves(s, p, seat, turn):
    """Number of legal salesman moves of ``seat`` and the last one found (src * 3 + dst)."""
    n = 0
    last = -1
    for src in range(3):
        if s[SHOW + seat * 3 + src] == 0:
            continue
        for dst in range(3):
            if sale_move_ok(s, p, seat, src, dst, turn):
                n += 1
                last = src * 3 + dst
    return n, last


@nb.njit(cache=True)
def salesman_sell(s, p, seat, src, dst, space):
    """P5: the salesman fills a box of track ``dst`` and sells a car at the top price."""
    s[SHOW + seat * 3 + src] -= 1
    s[USED + seat * 3 + dst] += 1
    s[BOXES + dst] += 1
    take_car(s, p, seat, space, p[P_PRICE_TOP + dst])
    bump(s, STAT_SOLD_SALESMEN + seat, 1)


# ----- P7 ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def demand_sales(s, p, seg, demand):
    """P7 for one segment: passes from the most advanced space backwards, each space
    selling 1 + ads + discount markers cars (reduced price if it has a discount),
    until the demand is met or no car is left. Returns the unmet demand."""
    left = demand
    while left > 0:
        sold_any = False
        for i in range(NUM_SPACES - 1, -1, -1):
            if left == 0:
                break
            if p[P_SEGMENT + i] != seg or s[CARS + i] == 0:
                continue
            k = min(1 + s[AD + i] + s[DISC + i], s[CARS + i], left)
            price = p[P_PRICE_LOW + seg] if s[DISC + i] > 0 else p[P_PRICE_TOP + seg]
            seat = s[OWNER + i]
            for _ in range(k):
                take_car(s, p, seat, i, price)
            bump(s, STAT_SOLD_DEMAND + seat, k)
            left -= k
            sold_any = True
        if not sold_any:
            break
    return left


@nb.njit(cache=True)
def unsold_cars(s, p):
    """P7: one loss cube per car left on the board; the cars go back to their owners."""
    for i in range(NUM_SPACES):
        n = s[CARS + i]
        if n > 0:
            seat = s[OWNER + i]
            add_loss(s, p, seat, n)
            bump(s, STAT_UNSOLD + seat, n)
            s[CARS + i] = 0
            s[CAR_COUNT + seat] -= n


# ----- P8 ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def allocate_losses(s, p):
    """P8: per segment, from the most advanced occupied space backwards the spaces take
    0, 1, 2, ... loss cubes; a closed space counts in the ranking but takes none."""
    for seg in range(3):
        rank = 0
        for i in range(NUM_SPACES - 1, -1, -1):
            if p[P_SEGMENT + i] != seg:
                continue
            if s[FACTORIES + i] > 0:
                if rank > 0:
                    add_loss(s, p, s[OWNER + i], rank)
                rank += 1
            elif s[CLOSED + i] != 0:
                rank += 1
