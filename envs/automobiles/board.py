"""Jitted track kernels: occupancy, legal steps, reachable spaces, race order, momentum,
drafting and line crossings (rulebook: How to Move on the Track, Car Phase, Decline
Phase / Drafting, Momentum, Winning the Game)."""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles.data import MAX_ADJ, MAX_LANES, MAX_LAP, MAX_SPACES, NUM_GEARS
from transit_gym.envs.automobiles.state import (
    CAR_ABS,
    CAR_SEG,
    CAR_SPACE,
    MAX_PATH,
    MAX_PLACED,
    P_BRANCH,
    P_COVER,
    P_DRAFT_SPACE,
    P_LAP,
    P_NEXT_SAME,
    P_NUM_PLAYERS,
    P_SPACE_COLOURS,
    P_SPACE_END,
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
def neighbour(p, ref, ref_seg, k):
    """Candidate ``k`` (0: same lane, 1: one lane in, 2: one lane out) for the next space
    from segment ``ref_seg`` of space ``ref`` (How to Move on the Track; Next Turn
    Example): the space of that lane covering the point just past the front of that
    segment (diagonals count), and how far its front edge lies past that point. The same
    lane is a candidate only from the front segment: from a rear segment the car ahead
    fills the way. Returns ``(-1, 0)`` when there is none."""
    lane = p[P_SPACE_LANE + ref]
    if k == 0:
        if ref_seg > 0:
            return -1, 0
    elif k == 1:
        lane -= 1
    else:
        lane += 1
    if lane < 0 or lane >= MAX_LANES:
        return -1, 0
    lap = p[P_LAP]
    point = ((p[P_SPACE_END + ref] - ref_seg) % lap + lap) % lap
    to = p[P_COVER + lane * MAX_LAP + point]
    if to < 0 or to == ref:
        return -1, 0
    d = (p[P_SPACE_END + to] - point - 1) % lap + 1
    if d >= lap:
        return -1, 0
    return to, d


@nb.njit(cache=True)
def step_target(s, p, seat, ref, ref_seg, k, colours):
    """``(space, distance)`` of candidate ``k`` from segment ``ref_seg`` of space ``ref`` if
    a cube of seat may move onto it, else ``(-1, 0)``: one of ``colours`` (bit mask), and a
    segment free of opponents' cars that lies ahead of the reference point (cars fill
    the front segments, so the cube takes the one right behind them; a free segment
    level with or behind the point would be a sideways or backward move)."""
    to, d = neighbour(p, ref, ref_seg, k)
    if to < 0:
        return -1, 0
    if (p[P_SPACE_COLOURS + to] & colours) == 0:
        return -1, 0
    if cars_in(s, p, to, seat) >= d:
        return -1, 0
    return to, d


@nb.njit(cache=True)
def car_ref(s, seat):
    """(space, segment, unwrapped front of the segment) of seat's car."""
    return s[CAR_SPACE + seat], s[CAR_SEG + seat], s[CAR_ABS + seat]


@nb.njit(cache=True)
def last_cube_ref(s):
    """(space, segment, unwrapped front of the segment) of the last cube placed."""
    i = s[PLACED_N] - 1
    return s[PLACED_SPACE + i], s[PLACED_SEG + i], s[PLACED_ABS + i] - s[PLACED_SEG + i]


@nb.njit(cache=True)
def scan_from(s, p, seat, ref, ref_seg, colours, out, offset):
    """Mark legal next spaces from ``ref`` in ``out[offset + space]`` (when ``out`` has
    room) and return how many there are."""
    count = 0
    for k in range(MAX_ADJ):
        to, _ = step_target(s, p, seat, ref, ref_seg, k, colours)
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
        space, seg, _ = car_ref(s, seat)
        count += scan_from(s, p, seat, space, seg, colours, out, offset)
    if s[PLACED_N] > 0:
        space, seg, _ = last_cube_ref(s)
        count += scan_from(s, p, seat, space, seg, colours, out, offset)
    return count


@nb.njit(cache=True)
def reach(s, p, seat, ref, ref_seg, to, colours):
    """Distance past the reference point of a legal step from ``ref`` to ``to`` (0: none)."""
    for k in range(MAX_ADJ):
        target, d = step_target(s, p, seat, ref, ref_seg, k, colours)
        if target == to:
            return d
    return 0


@nb.njit(cache=True)
def _walk(s, p, seat, ref, ref_seg, bit, steps, out):
    """Breadth-first walk of one colour from space ``ref``: ``out[space]`` keeps the fewest
    steps; returns the largest number of steps (<= ``steps``) some path can make. A cube
    entering a space always takes the segment behind the cars there, so the segment of
    each space reached is fixed and the walk is exact."""
    frontier = np.zeros(MAX_SPACES, dtype=np.bool_)
    nxt = np.zeros(MAX_SPACES, dtype=np.bool_)
    for k in range(MAX_ADJ):
        to, _ = step_target(s, p, seat, ref, ref_seg, k, bit)
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
                    to, _ = step_target(s, p, seat, sp, seg, k, bit)
                    if to >= 0:
                        nxt[to] = True
        frontier[:] = nxt
        depth += 1
    return deepest


@nb.njit(cache=True)
def reachable(s, p, seat, ref, ref_seg, colours, steps, out):
    """Spaces a cube of seat can reach from segment ``ref_seg`` of space ``ref`` in
    1..``steps`` consecutive moves keeping one colour of ``colours``: ``out[space]`` =
    fewest steps (0 = no). Each step follows ``step_target`` (occupied segments, cars
    ahead in the lane, forward only). Returns the longest move (in spaces, up to
    ``steps``) that is possible."""
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
    """Drafting: the car ended directly behind an opponent's car (same lane). In the
    segment behind it: a car ahead in its own space (cars fill every segment ahead of a
    car in its space), or, from the front segment, a car in the rear segment of the next
    space (that space is full). With ``draft_space`` also in the space behind: the next
    space of the lane holds a car anywhere."""
    if s[CAR_SEG + seat] > 0:
        return True
    nxt = p[P_NEXT_SAME + s[CAR_SPACE + seat]]
    if nxt < 0:
        return False
    cars = cars_in(s, p, nxt, seat)
    if cars == 0:
        return False
    return p[P_DRAFT_SPACE] != 0 or cars >= p[P_SPACE_LEN + nxt]
