"""Jitted track kernels: occupancy, legal steps, reachable spaces, race order, momentum,
drafting and line crossings (rulebook: How to Move on the Track, Car Phase, Decline
Phase / Drafting, Momentum, Winning the Game).

Racing Season (R-YUC): an own-space start slot (the P1 segment of a space the checkered
flag cuts) is an extra space id whose car blocks that segment of its space (``slot_of``);
Variant Weaving lets a moving cube leave a long space sideways from any segment it
passed (``P_WEAVING``; docs/racing_season/tracks_weaving.md)."""

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
    P_SLOT_OF,
    P_SPACE_COLOURS,
    P_SPACE_END,
    P_SPACE_LANE,
    P_WEAVING,
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
def slot_blocked(s, p, space, seat, seg):
    """Segment ``seg`` of ``space`` lies at or behind its own-space start slot while an
    opponent's car still sits there (R-YUC start/finish note: that car keeps its segment)."""
    slot = p[P_SLOT_OF + space] - 1
    if slot < 0 or cars_in(s, p, slot, seat) == 0:
        return False
    lap = p[P_LAP]
    return seg >= ((p[P_SPACE_END + space] - p[P_SPACE_END + slot]) % lap + lap) % lap


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
    if cars_in(s, p, to, seat) >= d or slot_blocked(s, p, to, seat, d - 1):
        return -1, 0   # (own-space start slot: the cube would enter at or behind its car)
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
def weave_top(s, p, seat, space, seg, entry):
    """Rearmost segment a cube resting on segment ``seg`` of ``space`` may leave from:
    ``seg`` itself, or with Weaving every segment it passed since it entered on segment
    ``entry`` (not past an opponent's car in an own-space start slot)."""
    if p[P_WEAVING] == 0:
        return seg
    top = seg
    for j in range(seg + 1, entry + 1):
        if slot_blocked(s, p, space, seat, j):
            break
        top = j
    return top


@nb.njit(cache=True)
def scan_through(s, p, seat, ref, ref_seg, top, colours, out, offset):
    """Mark legal next spaces from ``ref`` in ``out[offset + space]`` (when ``out`` has
    room): from segment ``ref_seg`` (all three candidates) and, with Weaving, sideways
    from the passed segments ``ref_seg + 1 .. top``. Returns how many candidate steps
    there are (a space found from two segments counts twice; only > 0 matters)."""
    count = 0
    for j in range(ref_seg, top + 1):
        for k in range(MAX_ADJ):
            if k == 0 and j > ref_seg:
                continue
            to, _ = step_target(s, p, seat, ref, j, k, colours)
            if to >= 0:
                count += 1
                if out.shape[0] > 0:
                    out[offset + to] = 1
    return count


@nb.njit(cache=True)
def scan_from(s, p, seat, ref, ref_seg, colours, out, offset):
    """Mark legal next spaces from segment ``ref_seg`` of ``ref`` in ``out[offset + space]``
    (when ``out`` has room) and return how many there are."""
    return scan_through(s, p, seat, ref, ref_seg, ref_seg, colours, out, offset)


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
def reach_through(s, p, seat, ref, ref_seg, top, to, colours):
    """``(d, j)``: the step to ``to`` leaves from segment ``j`` (``ref_seg .. top``, the
    rearmost that reaches it, so the cube enters ``to`` as far back as it can) and ends
    ``d`` past the front of segment ``j``; ``(0, ref_seg)`` when there is none."""
    for j in range(top, ref_seg - 1, -1):
        for k in range(MAX_ADJ):
            if k == 0 and j > ref_seg:
                continue
            target, d = step_target(s, p, seat, ref, j, k, colours)
            if target == to:
                return d, j
    return 0, ref_seg


@nb.njit(cache=True)
def _expand(s, p, seat, ref, ref_seg, top, bit, dest):
    """Spaces one step from ``ref`` (segments ``ref_seg .. top``): ``dest[space]`` keeps
    1 + the rearmost segment the cube can enter it on (0 = not reached)."""
    for j in range(ref_seg, top + 1):
        for k in range(MAX_ADJ):
            if k == 0 and j > ref_seg:
                continue
            to, d = step_target(s, p, seat, ref, j, k, bit)
            if to >= 0 and d > dest[to]:
                dest[to] = d


@nb.njit(cache=True)
def _walk_layers(s, p, seat, frontier, bit, steps, out):
    """Layered walk of one colour from the spaces of ``frontier`` (depth 1; each holds
    1 + its entry segment): ``out[space]`` keeps the fewest steps; returns the largest
    number of steps (<= ``steps``) some path can make. A cube entering a space takes the
    segment behind the cars there, so that segment is fixed; with Weaving a later entry
    farther back only adds exits, so keeping the rearmost entry per space is exact."""
    nxt = np.zeros(MAX_SPACES, dtype=np.int64)
    deepest = 0
    depth = 1
    while depth <= steps:
        any_space = False
        for sp in range(MAX_SPACES):
            if frontier[sp] > 0:
                any_space = True
                if out[sp] == 0 or depth < out[sp]:
                    out[sp] = depth
        if not any_space:
            break
        deepest = depth
        if depth == steps:
            break
        nxt[:] = 0
        for sp in range(MAX_SPACES):
            if frontier[sp] > 0:
                seg = cars_in(s, p, sp, seat)
                top = weave_top(s, p, seat, sp, seg, frontier[sp] - 1)
                _expand(s, p, seat, sp, seg, top, bit, nxt)
        frontier[:] = nxt
        depth += 1
    return deepest


@nb.njit(cache=True)
def _walk(s, p, seat, ref, ref_seg, bit, steps, out):
    """Walk of one colour from segment ``ref_seg`` of a resting ``ref`` (a car or a
    placed cube: no Weaving out of it); see ``_walk_layers``."""
    frontier = np.zeros(MAX_SPACES, dtype=np.int64)
    _expand(s, p, seat, ref, ref_seg, ref_seg, bit, frontier)
    return _walk_layers(s, p, seat, frontier, bit, steps, out)


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
    if first_steps(s, p, seat, colours, empty, 0) == 0:
        return False
    scratch = np.zeros(MAX_SPACES, dtype=np.int64)
    for colour in range(NUM_GEARS):
        bit = 1 << colour
        if (colours & bit) == 0:
            continue
        starts = np.zeros(MAX_SPACES, dtype=np.int64)
        if s[PLACED_N] == 0 or p[P_BRANCH] != 0:
            space, seg, _ = car_ref(s, seat)
            _expand(s, p, seat, space, seg, seg, bit, starts)
        if s[PLACED_N] > 0:
            space, seg, _ = last_cube_ref(s)
            _expand(s, p, seat, space, seg, seg, bit, starts)
        if _walk_layers(s, p, seat, starts, bit, steps, scratch) >= steps:
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
    car in its space), or, from the front segment, a car in the segment of the next
    space that touches this one (its rear segment; for an own-space start slot, the
    segment of its space just ahead of it), counting a car still in that space's own
    start slot. With ``draft_space`` also in the space behind: the next space of the
    lane holds a car anywhere."""
    if s[CAR_SEG + seat] > 0:
        return True
    space = s[CAR_SPACE + seat]
    nxt = p[P_NEXT_SAME + space]
    if nxt < 0:
        return False
    cars = cars_in(s, p, nxt, seat)
    slot = p[P_SLOT_OF + nxt] - 1
    in_slot = slot >= 0 and slot != space and cars_in(s, p, slot, seat) > 0
    if cars == 0 and not in_slot:
        return False
    if p[P_DRAFT_SPACE] != 0:
        return True
    lap = p[P_LAP]
    touching = ((p[P_SPACE_END + nxt] - p[P_SPACE_END + space] - 1) % lap + lap) % lap
    if cars > touching:
        return True
    return in_slot and ((p[P_SPACE_END + nxt] - p[P_SPACE_END + slot]) % lap + lap) % lap \
        == touching
