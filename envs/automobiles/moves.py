"""Jitted movement of one cube on the track, one space per decision (rulebook: Action
Phase, How to Move on the Track, the gear and mover cards).

A move is set up by ``start_move`` with the colours allowed, the most spaces and the
spaces that must be moved. Each step goes to a forward-adjacent space of an allowed
colour (a move of several spaces keeps one colour: the allowed set narrows to the
colours of the spaces entered; Overdrive's ``mv_mixed`` keeps the whole set). When the
move ends the cube sits on its last space and counts as placed on the track (still part
of the used pile for card effects). Redline's wear for a white gear cube that moved as
another colour (``mv_redline``) is gained then; see ``racing_season/cards_moves``.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobiles.board import (
    car_ref,
    cars_in,
    first_steps,
    last_cube_ref,
    reach,
    reach_through,
    scan_through,
    weave_top,
)
from transit_gym.envs.automobiles.cubes import gain, pile
from transit_gym.envs.automobiles.data import WEAR, WHITE
from transit_gym.envs.automobiles.state import (
    ACT_COLOUR,
    FAR,
    MAX_PATH,
    MV_ABS,
    MV_ENTRY,
    MV_LEFT,
    MV_MASK,
    MV_MIN,
    MV_MIXED,
    MV_REDLINE,
    MV_SEG,
    MV_SPACE,
    MV_STEPS,
    ON_TRACK,
    P_BRANCH,
    P_SPACE_COLOURS,
    P_SPACE_LANE,
    P_SPACE_TOP,
    PATH_N,
    PATH_SPACE,
    PH_ACTION,
    PH_MOVE,
    PHASE,
    PLACED_ABS,
    PLACED_COLOUR,
    PLACED_N,
    PLACED_SEG,
    PLACED_SPACE,
    TOP_COLOUR,
    USED,
)


@nb.njit(cache=True)
def start_move(s, colours, most, least):
    """The activated cube moves up to ``most`` spaces (at least ``least``) of ``colours``."""
    s[MV_MASK] = colours
    s[MV_LEFT] = most
    s[MV_MIN] = least
    s[MV_STEPS] = 0
    s[MV_SPACE] = -1
    s[MV_ABS] = 0
    s[MV_SEG] = 0
    s[MV_ENTRY] = 0
    s[MV_MIXED] = 0      # Racing Season (cards_moves): set after this call when needed
    s[MV_REDLINE] = 0
    s[PHASE] = PH_MOVE


@nb.njit(cache=True)
def next_steps(s, p, seat, out, offset):
    """Mark the legal next spaces of the cube being moved; return how many."""
    if s[MV_LEFT] <= 0:
        return 0
    if s[MV_STEPS] == 0:
        return first_steps(s, p, seat, s[MV_MASK], out, offset)
    if s[PATH_N] >= MAX_PATH:
        return 0
    top = weave_top(s, p, seat, s[MV_SPACE], s[MV_SEG], s[MV_ENTRY])   # Weaving
    return scan_through(s, p, seat, s[MV_SPACE], s[MV_SEG], top, s[MV_MASK], out, offset)


@nb.njit(cache=True)
def _first_ref(s, p, seat, to):
    """(space, segment, unwrapped point) the first step to ``to`` starts from, and the
    distance of that step: the last placed cube when it can reach ``to``, else the car."""
    if s[PLACED_N] > 0:
        space, seg, point = last_cube_ref(s)
        d = reach(s, p, seat, space, seg, to, s[MV_MASK])
        if d > 0 or p[P_BRANCH] == 0:
            return point, d
    space, seg, point = car_ref(s, seat)
    return point, reach(s, p, seat, space, seg, to, s[MV_MASK])


@nb.njit(cache=True)
def step_to(s, p, seat, to):
    """Move the cube one space, onto ``to`` (a legal next space): it takes the segment
    right behind the cars already there."""
    if s[MV_STEPS] == 0:
        point, d = _first_ref(s, p, seat, to)
    else:
        # Weaving: the step may leave from a segment j the cube passed (j = MV_SEG without)
        top = weave_top(s, p, seat, s[MV_SPACE], s[MV_SEG], s[MV_ENTRY])
        d, j = reach_through(s, p, seat, s[MV_SPACE], s[MV_SEG], top, to, s[MV_MASK])
        point = s[MV_ABS] - j
    s[MV_SPACE] = to
    s[MV_ENTRY] = d - 1   # the segment of ``to`` just past the point (Weaving)
    s[MV_ABS] = point + d
    s[MV_SEG] = cars_in(s, p, to, seat)
    s[PATH_SPACE + s[PATH_N]] = to
    s[PATH_N] += 1
    top = p[P_SPACE_TOP + to]
    if top > s[TOP_COLOUR]:
        s[TOP_COLOUR] = top
    if s[MV_MIXED] == 0:     # Racing Season, Overdrive: colours may be mixed
        s[MV_MASK] &= p[P_SPACE_COLOURS + to]
    s[MV_LEFT] -= 1
    if s[MV_MIN] > 0:
        s[MV_MIN] -= 1
    s[MV_STEPS] += 1


@nb.njit(cache=True)
def finish_move(s, p, seat):
    """End the move: a cube that moved is placed on its last space (the farthest cube,
    inner lane first on a tie, is where the car will go); back to actions."""
    if s[MV_STEPS] > 0:
        # Racing Season, Redline: a white gear cube that did not move as a white gains wear
        if s[MV_REDLINE] > 0 and (s[MV_MASK] & (1 << WHITE)) == 0:
            gain(s, seat, WEAR, s[MV_REDLINE])
        colour = s[ACT_COLOUR]
        s[pile(seat, USED) + colour] -= 1
        s[ON_TRACK + colour] += 1
        i = s[PLACED_N]
        s[PLACED_SPACE + i] = s[MV_SPACE]
        s[PLACED_COLOUR + i] = colour
        s[PLACED_ABS + i] = s[MV_ABS]
        s[PLACED_SEG + i] = s[MV_SEG]
        s[PLACED_N] = i + 1
        far = s[FAR]
        if far < 0:
            s[FAR] = i
        else:
            mine = s[MV_ABS] - s[MV_SEG]
            best = s[PLACED_ABS + far] - s[PLACED_SEG + far]
            if mine > best or (mine == best and p[P_SPACE_LANE + s[MV_SPACE]]
                               < p[P_SPACE_LANE + s[PLACED_SPACE + far]]):
                s[FAR] = i
    s[MV_SPACE] = -1
    s[MV_ENTRY] = 0
    s[MV_STEPS] = 0
    s[MV_LEFT] = 0
    s[MV_MIN] = 0
    s[MV_MASK] = 0
    s[MV_MIXED] = 0
    s[MV_REDLINE] = 0
    s[PHASE] = PH_ACTION
