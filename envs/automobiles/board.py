"""Jitted track kernels: occupancy, legal steps, reachable spaces, race order, momentum,
drafting and line crossings (rulebook: How to Move on the Track, Car Phase, Decline
Phase / Drafting, Momentum, Winning the Game)."""

from __future__ import annotations

import numba as nb
import numpy as np

from envs.automobiles.data import MAX_ADJ, MAX_SPACES, NUM_GEARS
from envs.automobiles.state import (
    CAR_ABS,
    CAR_SEG,
    CAR_SPACE,
    MAX_PATH,
    MAX_PLACED,
    P_ADJ,
    P_ADJ_DIST,
    P_ADJ_SAME,
    P_BRANCH,
    P_DRAFT_SPACE,
    P_LAP,
    P_NEXT_SAME,
    P_NUM_PLAYERS,
    P_SPACE_COLOURS,
    P_SPACE_LANE,
    P_SPACE_LEN,
    PATH_N,
    PLACED_ABS,
    PLACED_N,
    PLACED_SEG,
    PLACED_SPACE,
)


@nb.njit(cache=True)
def cars_in(s, p, space, skip):
    """Cars in ``space`` other than seat ``skip``'s."""
    n = 0
    for seat in range(p[P_NUM_PLAYERS]):
        if seat != skip and s[CAR_SPACE + seat] == space:
            n += 1
    return n


@nb.njit(cache=True)
def holds_cube(s, space):
    """A cube was placed on ``space`` this turn."""
    for i in range(s[PLACED_N]):  # noqa: SIM110 - numba has no generators
        if s[PLACED_SPACE + i] == space:
            return True
    return False


@nb.njit(cache=True)
def step_target(s, p, seat, ref, ref_seg, k, colours):
    """The ``k``-th forward neighbour of space ``ref`` if a cube of seat may move onto it
    (-1 otherwise): one of ``colours`` (bit mask), a segment free of opponents' cars, and
    not straight through a car ahead of the reference in its own space (``ref_seg > 0``:
    cars fill the front segments, so the lane ahead is blocked; diagonals go around)."""
    to = p[P_ADJ + ref * MAX_ADJ + k]
    if to < 0:
        return -1
    if (p[P_SPACE_COLOURS + to] & colours) == 0:
        return -1
    if ref_seg > 0 and p[P_ADJ_SAME + ref * MAX_ADJ + k] != 0:
        return -1
    if cars_in(s, p, to, seat) >= p[P_SPACE_LEN + to]:
        return -1
    if p[P_BRANCH] != 0 and holds_cube(s, to):
        return -1
    return to


@nb.njit(cache=True)
def car_ref(s, seat):
    """(space, unwrapped front edge of the space, segment) of seat's car."""
    seg = s[CAR_SEG + seat]
    return s[CAR_SPACE + seat], s[CAR_ABS + seat] + seg, seg


@nb.njit(cache=True)
def last_cube_ref(s):
    i = s[PLACED_N] - 1
    return s[PLACED_SPACE + i], s[PLACED_ABS + i], s[PLACED_SEG + i]


@nb.njit(cache=True)
def scan_from(s, p, seat, ref, ref_seg, colours, out, offset):
    """Mark legal next spaces from ``ref`` in ``out[offset + space]`` (when ``out`` has
    room) and return how many there are."""
    count = 0
    for k in range(MAX_ADJ):
        to = step_target(s, p, seat, ref, ref_seg, k, colours)
        if to >= 0:
            count += 1
            if out.shape[0] > 0:
                out[offset + to] = 1
    return count


@nb.njit(cache=True)
def first_steps(s, p, seat, colours, out, offset):
    """Legal first spaces of a new cube's move: next to the car before any cube was
    placed this turn, else next to the last placed cube (and next to the car again when
    the ``branch`` option is on). Returns how many (0 when the turn's track capacity
    is used up)."""
    if s[PLACED_N] >= MAX_PLACED or s[PATH_N] >= MAX_PATH:
        return 0
    count = 0
    if s[PLACED_N] == 0 or p[P_BRANCH] != 0:
        space, _, seg = car_ref(s, seat)
        count += scan_from(s, p, seat, space, seg, colours, out, offset)
    if s[PLACED_N] > 0:
        space, _, seg = last_cube_ref(s)
        count += scan_from(s, p, seat, space, seg, colours, out, offset)
    return count


@nb.njit(cache=True)
def neighbour_dist(p, ref, to):
    """Forward distance from ``ref``'s front edge to ``to``'s (-1 if not adjacent)."""
    for k in range(MAX_ADJ):
        if p[P_ADJ + ref * MAX_ADJ + k] == to:
            return p[P_ADJ_DIST + ref * MAX_ADJ + k]
    return -1


@nb.njit(cache=True)
def _walk(s, p, seat, ref, ref_seg, bit, steps, out):
    """Breadth-first walk of one colour from space ``ref``: ``out[space]`` keeps the fewest
    steps; returns the largest number of steps (<= ``steps``) some path can make."""
    frontier = np.zeros(MAX_SPACES, dtype=np.bool_)
    nxt = np.zeros(MAX_SPACES, dtype=np.bool_)
    for k in range(MAX_ADJ):
        to = step_target(s, p, seat, ref, ref_seg, k, bit)
        if to >= 0:
            frontier[to] = True
    deepest = 0
    depth = 1
    while depth <= steps:
        any_space = False
        for sp in range(MAX_SPACES):
            if frontier[sp]:
                any_space = True
                if out[sp] == 0 or depth < out[sp]:
                    out[sp] = depth
        if not any_space:
            break
        deepest = depth
        if depth == steps:
            break
        nxt[:] = False
        for sp in range(MAX_SPACES):
            if frontier[sp]:
                seg = cars_in(s, p, sp, seat)
                for k in range(MAX_ADJ):
                    to = step_target(s, p, seat, sp, seg, k, bit)
                    if to >= 0:
                        nxt[to] = True
        frontier[:] = nxt
        depth += 1
    return deepest


@nb.njit(cache=True)
def reachable(s, p, seat, ref, ref_seg, colours, steps, out):
    """Spaces a cube of seat can reach from space ``ref`` in 1..``steps`` consecutive
    moves keeping one colour of ``colours``: ``out[space]`` = fewest steps (0 = no).
    Each step follows ``step_target`` (occupied segments, cars ahead in the lane).
    Returns the longest move (in spaces, up to ``steps``) that is possible."""
    out[:] = 0
    longest = 0
    for colour in range(NUM_GEARS):
        bit = 1 << colour
        if (colours & bit) != 0:
            longest = max(longest, _walk(s, p, seat, ref, ref_seg, bit, steps, out))
    return longest


@nb.njit(cache=True)
def move_possible(s, p, seat, colours, steps):
    """A new cube could move exactly ``steps`` spaces keeping one colour of ``colours``."""
    empty = np.zeros(0, dtype=np.int8)
    if steps <= 1:
        return first_steps(s, p, seat, colours, empty, 0) > 0
    scratch = np.zeros(MAX_SPACES, dtype=np.int64)
    for colour in range(NUM_GEARS):
        bit = 1 << colour
        if (colours & bit) == 0:
            continue
        starts = np.zeros(MAX_SPACES, dtype=np.int8)
        if first_steps(s, p, seat, bit, starts, 0) == 0:
            continue
        for start in range(MAX_SPACES):
            if starts[start] and _walk(s, p, seat, start, cars_in(s, p, start, seat), bit,
                                       steps - 1, scratch) >= steps - 1:
                return True
    return False


# ----- race order -----------------------------------------------------------------------------
@nb.njit(cache=True)
def ahead(s, p, a, b):
    """Car of seat ``a`` is ahead of seat ``b``'s: farther along, inner lane on a tie."""
    pa = s[CAR_ABS + a]
    pb = s[CAR_ABS + b]
    if pa != pb:
        return pa > pb
    return p[P_SPACE_LANE + s[CAR_SPACE + a]] < p[P_SPACE_LANE + s[CAR_SPACE + b]]


@nb.njit(cache=True)
def rank(s, p, seat):
    """Race position of seat (1 = leading)."""
    r = 1
    for other in range(p[P_NUM_PLAYERS]):
        if other != seat and ahead(s, p, other, seat):
            r += 1
    return r


@nb.njit(cache=True)
def leader(s, p):
    for seat in range(p[P_NUM_PLAYERS]):
        if rank(s, p, seat) == 1:
            return seat
    return 0


@nb.njit(cache=True)
def crossings(s, p, seat):
    """Finish-line crossings of seat's car (its lap marker's steps)."""
    pos = s[CAR_ABS + seat]
    if pos <= 0:
        return 0
    lap = p[P_LAP]
    return (pos + lap - 1) // lap


@nb.njit(cache=True)
def momentum(s, p):
    """Momentum: every car moves up to fill vacated segments of its own space."""
    n = p[P_NUM_PLAYERS]
    for seat in range(n):
        space = s[CAR_SPACE + seat]
        seg = s[CAR_SEG + seat]
        new = 0
        for other in range(n):
            if other != seat and s[CAR_SPACE + other] == space and s[CAR_SEG + other] < seg:
                new += 1
        if new != seg:
            s[CAR_ABS + seat] += seg - new
            s[CAR_SEG + seat] = new


@nb.njit(cache=True)
def drafting(s, p, seat):
    """Drafting: the car ended directly behind an opponent's car, in the segment behind it
    (a car fills every segment ahead of it in its space) or, with ``draft_space``, in the
    front segment of the space right behind a space holding a car (same lane)."""
    if s[CAR_SEG + seat] > 0:
        return True
    if p[P_DRAFT_SPACE] == 0:
        return False
    nxt = p[P_NEXT_SAME + s[CAR_SPACE + seat]]
    return nxt >= 0 and cars_in(s, p, nxt, seat) > 0
