"""Jitted Racing Season drivers (R-YUC "Drivers" module and the Driver 01-10 appendix).

The draft: after the start player is known, ``players + extra`` drivers are revealed from
the seeded generator (all ten with ``drivers="all"``); the last player in turn order picks
first, then the others in reverse turn order; the rest go back to the box.

Each seat keeps its driver (``driver_of``, a number 1..10, 0 = none) for the whole game.
Every ability is optional and usable once in each of the owner's turns, in its phase:
Action (02, 03) and Buy (04, 05) offer the action ``A_USE_DRIVER``; Car (06), Decline
(01) and End (07, 08, 09, 10) open their decision directly, where ``A_STOP`` declines.
A decision is only opened when the ability can change something. Before a decision after
the Car Phase opens, Momentum is settled (it would be at the end of the turn anyway; no
rule between depends on the segments of the cars behind the moved car).

This module is a leaf: ``kernels.py`` calls these functions at its phase boundaries and
continues the turn with the code ``apply_action``/``settle_phase`` return (``NEXT_*``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles.board import car_ref, cars_in, momentum, reach, scan_from
from transit_gym.envs.automobiles.cubes import (
    can_draw,
    draw_one,
    draw_to_active,
    mask_cubes,
    move_pile,
    pile,
    remove,
    total,
)
from transit_gym.envs.automobiles.data import LIGHT, MAX_SPACES, NUM_COLOURS, NUM_GEARS, WEAR
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.automobiles.state import (
    ACTIVE,
    BAG,
    CAR_ABS,
    CAR_SEG,
    CAR_SPACE,
    CURRENT,
    DISCARD,
    DRIVER_HELD,
    DRIVER_OF,
    DRIVER_POOL,
    DRIVER_USED,
    DRIVER_WEAR,
    MONEY,
    P_DRIVER_AMOUNT,
    P_DRIVER_EXTRA,
    P_DRIVER_PRICE,
    P_DRIVERS,
    P_NUM_PLAYERS,
    P_SPACE_TOP,
    PH_ACTION,
    PH_BUY,
    PH_DRIVER_CAR,
    PH_DRIVER_DECLARE,
    PH_DRIVER_DECLINE,
    PH_DRIVER_DRAFT,
    PH_DRIVER_EXTRA,
    PH_DRIVER_PAY,
    PH_DRIVER_REDRAW,
    PH_DRIVER_SORT,
    PH_DRIVER_TO_ACTIVE,
    PH_DRIVER_TO_BAG,
    PH_DRIVER_WEAR,
    PHASE,
    PK_COUNT,
    PK_LEFT,
    PK_MUST,
    PLACED_N,
    START_PLAYER,
    STD_TURN,
    STOCK,
    TOP_COLOUR,
    TURN_SEAT,
    VALUE,
)
from transit_gym.envs.core.rng import below

NC = NUM_COLOURS

# ----- actions: the base kinds (kernels.py asserts these agree) and the two driver kinds ------
A_STOP = 0
A_DRAW = 2
A_ACTIVE = 4
A_DISCARD = A_ACTIVE + NC
A_STOCK = A_DISCARD + NC
A_SPACE = A_STOCK + NC
A_USE_DRIVER = A_SPACE + MAX_SPACES     # use your driver's ability (Action / Buy Phase)
A_DRIVER = A_USE_DRIVER + 1             # + driver number - 1: take that driver in the draft
NUM_DRIVER_ACTIONS = 1 + NUM_DRIVERS

# ----- what kernels.py does after a driver decision ----------------------------------------------
NEXT_NONE = 0        # nothing: the phase was set here (a decision, or back to Action/Buy)
NEXT_SETUP = 1       # the draft is over: the allowance purchases (Setup 7) begin
NEXT_DECLINE = 2     # Driver 06's move is over: the Decline Phase
NEXT_END = 3         # Driver 01's move is over: the End Phase
NEXT_DRAW = 4        # Driver 08 is done: draw the new active pile
NEXT_FINISH = 5      # Drivers 07/09/10 are done: the rest of the End Phase
PENDING = -1         # settle_phase: a real decision is waiting

ALL_GEARS = (1 << NUM_GEARS) - 1


@nb.njit(cache=True)
def driver(s, seat):
    """Driver number (1..10) of seat, 0 = none."""
    return s[DRIVER_OF + seat]


@nb.njit(cache=True)
def amount(p, number):
    return p[P_DRIVER_AMOUNT + number - 1]


# ----- the draft ---------------------------------------------------------------------------------
@nb.njit(cache=True)
def reveal(s, p):
    """Reveal the drivers of the draft: players + extra drawn from the generator (a seeded
    shuffle's top cards), or all ten with the "all" variant."""
    for k in range(NUM_DRIVERS):
        s[DRIVER_POOL + k] = 1 if p[P_DRIVERS] == 2 else 0
    if p[P_DRIVERS] == 2:
        return
    count = min(NUM_DRIVERS, p[P_NUM_PLAYERS] + p[P_DRIVER_EXTRA])
    for shown in range(count):
        pick = below(s[0:4], NUM_DRIVERS - shown)
        for k in range(NUM_DRIVERS):
            if s[DRIVER_POOL + k] == 0:
                if pick == 0:
                    s[DRIVER_POOL + k] = 1
                    break
                pick -= 1


@nb.njit(cache=True)
def begin_draft(s, p):
    """Reveal the drivers; the last player in turn order (right of the start player) picks
    first. A season calls this once at its start."""
    n = p[P_NUM_PLAYERS]
    reveal(s, p)
    first = (s[START_PLAYER] + n - 1) % n
    s[CURRENT] = first
    s[TURN_SEAT] = first
    s[PHASE] = PH_DRIVER_DRAFT


@nb.njit(cache=True)
def _pick(s, p, number):
    """The deciding seat takes driver ``number``; the next pick goes to its right (reverse
    turn order). After the start player's pick the rest return to the box."""
    n = p[P_NUM_PLAYERS]
    seat = s[CURRENT]
    s[DRIVER_OF + seat] = number
    s[DRIVER_POOL + number - 1] = 0
    if seat == s[START_PLAYER]:
        for k in range(NUM_DRIVERS):
            s[DRIVER_POOL + k] = 0
        return NEXT_SETUP
    nxt = (seat + n - 1) % n
    s[CURRENT] = nxt
    s[TURN_SEAT] = nxt
    return NEXT_NONE


# ----- when an ability can be used ----------------------------------------------------------------
@nb.njit(cache=True)
def action_use_ok(s, p, seat):
    """Drivers 02/03 (Action Phase): not used this turn, and a discard cube to take."""
    d = driver(s, seat)
    return (d == 2 or d == 3) and s[DRIVER_USED] == 0 and total(s, pile(seat, DISCARD)) > 0


@nb.njit(cache=True)
def buy_use_ok(s, p, seat):
    """Driver 04: a cube to draw; Driver 05: a discard cube and the money for it."""
    d = driver(s, seat)
    if s[DRIVER_USED] != 0:
        return False
    if d == 4:
        return amount(p, 4) > 0 and can_draw(s, seat, 1)
    if d == 5:
        return total(s, pile(seat, DISCARD)) > 0 and s[MONEY] >= p[P_DRIVER_PRICE + 4]
    return False


@nb.njit(cache=True)
def use(s, p, seat):
    """``A_USE_DRIVER`` in the Action or Buy Phase: open the ability's decision. Using a
    driver in the Action Phase is part of a standard turn (no pit stop any more)."""
    d = driver(s, seat)
    s[DRIVER_USED] = 1
    s[PK_COUNT] = 0
    s[PK_MUST] = 0
    if d == 2:
        s[STD_TURN] = 1
        s[PK_LEFT] = amount(p, 2)
        s[PHASE] = PH_DRIVER_TO_ACTIVE
    elif d == 3:
        s[STD_TURN] = 1
        s[PK_LEFT] = amount(p, 3)
        s[PHASE] = PH_DRIVER_TO_BAG
    elif d == 4:
        cubes = total(s, pile(seat, BAG)) + total(s, pile(seat, DISCARD))
        s[PK_LEFT] = min(amount(p, 4), cubes)
        s[PHASE] = PH_DRIVER_DECLARE
    else:
        s[PK_LEFT] = 0
        s[PHASE] = PH_DRIVER_PAY


@nb.njit(cache=True)
def car_offer(s, p, seat):
    """Driver 06, after the normal move of the Car Phase: open the extra move when the car
    moved and has a space to go to."""
    if driver(s, seat) != 6 or s[PLACED_N] == 0 or amount(p, 6) <= 0:
        return False
    if count_car_steps(s, p, seat, ALL_GEARS) == 0:
        return False
    momentum(s, p)
    s[PK_LEFT] = amount(p, 6)
    s[PHASE] = PH_DRIVER_CAR
    return True


@nb.njit(cache=True)
def note_decline_wear(s, p, seat, gained):
    """Remember the wear gained in this Decline Phase (Drivers 01 and 07)."""
    if driver(s, seat) != 0:
        s[DRIVER_WEAR] = gained


@nb.njit(cache=True)
def decline_offer(s, p, seat):
    """Driver 01: light gray spaces, ``amount`` per wear gained in the Decline Phase."""
    if driver(s, seat) != 1 or s[DRIVER_WEAR] <= 0:
        return False
    if count_car_steps(s, p, seat, 1 << LIGHT) == 0:
        return False
    momentum(s, p)
    s[PK_LEFT] = s[DRIVER_WEAR] * amount(p, 1)
    s[PHASE] = PH_DRIVER_DECLINE
    return True


@nb.njit(cache=True)
def wear_offer(s, p, seat):
    """Driver 08, End Phase before drawing (every cube of the sheet and the track is in
    the discard pile by now): remove up to ``amount`` wear cubes."""
    if driver(s, seat) != 8 or s[pile(seat, DISCARD) + WEAR] == 0 or amount(p, 8) <= 0:
        return False
    momentum(s, p)
    s[PK_LEFT] = amount(p, 8)
    s[PK_COUNT] = 0
    s[PHASE] = PH_DRIVER_WEAR
    return True


@nb.njit(cache=True)
def after_draw_offer(s, p, seat):
    """End Phase after drawing: Driver 07 (``amount`` more cubes per Decline wear), 09
    (``amount`` more cubes) or 10 (discard some drawn cubes and draw that many)."""
    d = driver(s, seat)
    extra = 0
    if d == 7:
        extra = s[DRIVER_WEAR] * amount(p, 7)
    elif d == 9:
        extra = amount(p, 9)
    elif d == 10:
        if total(s, pile(seat, ACTIVE)) == 0:
            return False
        momentum(s, p)
        s[PK_COUNT] = 0
        s[PK_LEFT] = 0
        s[PHASE] = PH_DRIVER_REDRAW
        return True
    if extra <= 0 or not can_draw(s, seat, 1):
        return False
    momentum(s, p)
    s[PK_LEFT] = extra
    s[PK_COUNT] = 0
    s[PHASE] = PH_DRIVER_EXTRA
    return True


@nb.njit(cache=True)
def new_turn(s):
    """Per-turn driver state back to its start."""
    s[DRIVER_USED] = 0
    s[DRIVER_WEAR] = 0


# ----- the car moves of Drivers 01 and 06 ---------------------------------------------------------
@nb.njit(cache=True)
def count_car_steps(s, p, seat, colours):
    """How many spaces of ``colours`` the car may move onto next."""
    return car_steps(s, p, seat, colours, np.zeros(0, dtype=np.int8), 0)


@nb.njit(cache=True)
def car_steps(s, p, seat, colours, out, offset):
    """Spaces of ``colours`` the car itself may move onto next (marked in ``out``)."""
    space, seg, _ = car_ref(s, seat)
    return scan_from(s, p, seat, space, seg, colours, out, offset)


@nb.njit(cache=True)
def car_step(s, p, seat, to, colours, count_wear):
    """Move the car one space onto ``to``: it takes the segment behind the cars there.
    With ``count_wear`` the space counts for the Decline wear like a cube's move."""
    space, seg, point = car_ref(s, seat)
    d = reach(s, p, seat, space, seg, to, colours)
    new_seg = cars_in(s, p, to, seat)
    s[CAR_SPACE + seat] = to
    s[CAR_SEG + seat] = new_seg
    s[CAR_ABS + seat] = point + d - new_seg
    if count_wear and p[P_SPACE_TOP + to] > s[TOP_COLOUR]:
        s[TOP_COLOUR] = p[P_SPACE_TOP + to]
    momentum(s, p)


# ----- masks -------------------------------------------------------------------------------------
@nb.njit(cache=True)
def legal_mask(s, p, mask):
    """The legal answers of a driver decision (``s[PHASE]`` is one of the driver phases)."""
    phase = s[PHASE]
    seat = s[TURN_SEAT]
    active = pile(seat, ACTIVE)
    discard = pile(seat, DISCARD)
    if phase == PH_DRIVER_DRAFT:
        for k in range(NUM_DRIVERS):
            if s[DRIVER_POOL + k] != 0:
                mask[A_DRIVER + k] = 1
    elif phase == PH_DRIVER_TO_ACTIVE:
        mask_cubes(s, discard, mask, A_DISCARD)
    elif phase == PH_DRIVER_TO_BAG:
        mask[A_STOP] = 1
        mask_cubes(s, discard, mask, A_DISCARD)
    elif phase == PH_DRIVER_DECLARE:
        mask[A_STOP] = 1
        if s[PK_LEFT] > 0:
            mask[A_DRAW] = 1
    elif phase == PH_DRIVER_SORT:
        mask[A_STOP] = 1
        mask_cubes(s, DRIVER_HELD, mask, A_ACTIVE)
        mask_cubes(s, DRIVER_HELD, mask, A_STOCK)
    elif phase == PH_DRIVER_PAY:
        mask[A_STOP] = 1
        mask_cubes(s, discard, mask, A_DISCARD)
    elif phase == PH_DRIVER_CAR:
        mask[A_STOP] = 1
        car_steps(s, p, seat, ALL_GEARS, mask, A_SPACE)
    elif phase == PH_DRIVER_DECLINE:
        mask[A_STOP] = 1
        car_steps(s, p, seat, 1 << LIGHT, mask, A_SPACE)
    elif phase == PH_DRIVER_WEAR:
        mask[A_STOP] = 1
        mask[A_DISCARD + WEAR] = 1
    elif phase == PH_DRIVER_EXTRA:
        mask[A_STOP] = 1
        mask[A_DRAW] = 1
    elif phase == PH_DRIVER_REDRAW:
        mask[A_STOP] = 1
        mask_cubes(s, active, mask, A_ACTIVE)


# ----- answers -----------------------------------------------------------------------------------
@nb.njit(cache=True)
def _draw_declared(s, seat):
    """Driver 04: draw exactly the declared number (an empty bag is refilled from the
    discard pile only when a cube must be drawn from it); they wait in ``driver_held``."""
    for _ in range(s[PK_COUNT]):
        c = draw_one(s, seat)
        if c < 0:
            break
        s[DRIVER_HELD + c] += 1
    s[PK_COUNT] = 0
    s[PK_LEFT] = 0
    s[PHASE] = PH_DRIVER_SORT


@nb.njit(cache=True)
def _held_to_bag(s, seat):
    move_pile(s, DRIVER_HELD, pile(seat, BAG))
    s[PHASE] = PH_BUY


@nb.njit(cache=True)
def _finish_redraw(s, seat):
    draw_to_active(s, seat, s[PK_COUNT])
    s[PK_COUNT] = 0
    return NEXT_FINISH


@nb.njit(cache=True)
def apply_action(s, p, action):
    """Resolve a legal answer of a driver decision; returns a ``NEXT_*`` code."""
    phase = s[PHASE]
    seat = s[TURN_SEAT]
    active = pile(seat, ACTIVE)
    discard = pile(seat, DISCARD)
    colour = (action - A_ACTIVE) % NC if A_ACTIVE <= action < A_SPACE else -1
    if phase == PH_DRIVER_DRAFT:
        return _pick(s, p, action - A_DRIVER + 1)
    if phase == PH_DRIVER_TO_ACTIVE:
        s[discard + colour] -= 1
        s[active + colour] += 1
        s[PK_LEFT] -= 1
    elif phase == PH_DRIVER_TO_BAG:
        if action == A_STOP:
            s[PK_LEFT] = 0
        else:
            s[discard + colour] -= 1
            s[pile(seat, BAG) + colour] += 1
            s[PK_LEFT] -= 1
            s[PK_COUNT] += 1
    elif phase == PH_DRIVER_DECLARE:
        if action == A_STOP:
            _draw_declared(s, seat)
        else:
            s[PK_COUNT] += 1
            s[PK_LEFT] -= 1
    elif phase == PH_DRIVER_SORT:
        if action == A_STOP:
            _held_to_bag(s, seat)
        elif action < A_DISCARD:        # into the active pile: money in the Buy Phase
            s[DRIVER_HELD + colour] -= 1
            s[active + colour] += 1
            s[MONEY] += s[VALUE + colour]
        else:                           # removed to the stock
            s[DRIVER_HELD + colour] -= 1
            s[STOCK + colour] += 1
    elif phase == PH_DRIVER_PAY:
        if action == A_STOP:
            s[PHASE] = PH_BUY
        else:
            remove(s, discard, colour)
            s[MONEY] -= p[P_DRIVER_PRICE + 4]
    elif phase in (PH_DRIVER_CAR, PH_DRIVER_DECLINE):
        if action == A_STOP:
            s[PK_LEFT] = 0
        else:
            wear = phase == PH_DRIVER_CAR
            colours = ALL_GEARS if wear else 1 << LIGHT
            car_step(s, p, seat, action - A_SPACE, colours, wear)
            s[PK_LEFT] -= 1
    elif phase == PH_DRIVER_WEAR:
        if action == A_STOP:
            s[PK_LEFT] = 0
        else:
            remove(s, discard, WEAR)
            s[PK_LEFT] -= 1
            s[PK_COUNT] += 1
    elif phase == PH_DRIVER_EXTRA:
        if action == A_STOP:
            s[PK_LEFT] = 0
        else:
            draw_to_active(s, seat, 1)
            s[PK_LEFT] -= 1
            s[PK_COUNT] += 1
    elif phase == PH_DRIVER_REDRAW:
        if action == A_STOP:
            return _finish_redraw(s, seat)
        s[active + colour] -= 1
        s[discard + colour] += 1
        s[PK_COUNT] += 1
    return NEXT_NONE


@nb.njit(cache=True)
def settle_phase(s, p):
    """A driver decision with nothing left to choose ends by itself: returns ``PENDING``
    while a real choice waits, else the ``NEXT_*`` code of what follows."""
    phase = s[PHASE]
    seat = s[TURN_SEAT]
    discard = pile(seat, DISCARD)
    if phase == PH_DRIVER_DRAFT:
        return PENDING
    if phase in (PH_DRIVER_TO_ACTIVE, PH_DRIVER_TO_BAG):
        if s[PK_LEFT] > 0 and total(s, discard) > 0:
            return PENDING
        s[PK_LEFT] = 0
        s[PK_COUNT] = 0
        s[PHASE] = PH_ACTION
        return NEXT_NONE
    if phase == PH_DRIVER_DECLARE:
        return PENDING
    if phase == PH_DRIVER_SORT:
        if total(s, DRIVER_HELD) > 0:
            return PENDING
        s[PHASE] = PH_BUY
        return NEXT_NONE
    if phase == PH_DRIVER_PAY:
        if total(s, discard) > 0 and s[MONEY] >= p[P_DRIVER_PRICE + 4]:
            return PENDING
        s[PHASE] = PH_BUY
        return NEXT_NONE
    if phase in (PH_DRIVER_CAR, PH_DRIVER_DECLINE):
        colours = ALL_GEARS if phase == PH_DRIVER_CAR else 1 << LIGHT
        if s[PK_LEFT] > 0 and count_car_steps(s, p, seat, colours) > 0:
            return PENDING
        s[PK_LEFT] = 0
        return NEXT_DECLINE if phase == PH_DRIVER_CAR else NEXT_END
    if phase == PH_DRIVER_WEAR:
        if s[PK_LEFT] > 0 and s[discard + WEAR] > 0:
            return PENDING
        s[PK_LEFT] = 0
        s[PK_COUNT] = 0
        return NEXT_DRAW
    if phase == PH_DRIVER_EXTRA:
        if s[PK_LEFT] > 0 and can_draw(s, seat, 1):
            return PENDING
        s[PK_LEFT] = 0
        s[PK_COUNT] = 0
        return NEXT_FINISH
    if phase == PH_DRIVER_REDRAW:
        if total(s, pile(seat, ACTIVE)) > 0:
            return PENDING
        return _finish_redraw(s, seat)
    return PENDING
