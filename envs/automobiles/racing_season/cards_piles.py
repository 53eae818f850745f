"""Jitted Racing Season cards that change piles (R-YUC appendix: Garage and Pit cards,
Internal Combustion): when they may be activated, what activating them does, and the
decisions they leave pending.

Factory Support, Maintenance Staff and Performance Testing (Garage); Air Jacks, Impact
Wrench and Pit Mechanic (Pit); Internal Combustion (Engine). Every number comes from the
card's row (``count``, ``bonus``, ``wear``); the "1 cube" of a card text is one decision.
The base rules hold: the activated cube is in the used pile before the effect starts,
the effect applies in full or not at all (missing wear in the stock never blocks it),
"up to" allows zero, removed cubes go to the stock, and a bag is refilled from the
discard pile only when a cube must be drawn from it while it is empty.

``kernels`` hands the decisions of ``PILE_PHASES`` to ``piles_settle``, ``piles_mask``
and ``piles_apply``; it passes its action numbering in (``A_STOP``, ``A_DRAW``,
``A_ACTIVE``, ``A_DISCARD``) because ``kernels`` imports this module through
``effects``.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobiles.cubes import (
    can_draw,
    card_effect,
    card_param,
    distinct,
    draw_one,
    gain,
    mask_cubes,
    move_cube,
    pile,
    remove,
    total,
)
from transit_gym.envs.automobiles.data import (
    E_AIR_JACKS,
    E_FACTORY_SUPPORT,
    E_IMPACT_WRENCH,
    E_INTERNAL_COMBUSTION,
    E_MAINTENANCE_STAFF,
    E_PERFORMANCE_TESTING,
    E_PIT_MECHANIC,
    NUM_COLOURS,
    WEAR,
)
from transit_gym.envs.automobiles.state import (
    ACT_COLOUR,
    ACTIVE,
    CURRENT,
    DISCARD,
    FAR,
    ON_TRACK,
    P_CARD_BONUS,
    P_CARD_COUNT,
    P_CARD_WEAR,
    P_NUM_PLAYERS,
    P_SPACE_LANE,
    PH_ACTION,
    PH_FACTORY_SUPPORT,
    PH_IC_TAKE,
    PH_IMPACT_WRENCH,
    PH_INTERNAL_COMBUSTION,
    PH_MAINTENANCE_STAFF,
    PH_PERFORMANCE_TESTING,
    PH_PIT_MECHANIC,
    PH_REMOVE,
    PHASE,
    PHASE_EFFECT,
    PK_COUNT,
    PK_LEFT,
    PK_MUST,
    PLACED_ABS,
    PLACED_COLOUR,
    PLACED_N,
    PLACED_SEG,
    PLACED_SPACE,
    STOCK,
    TURN_SEAT,
    USED,
)
from transit_gym.envs.core.validate import outside, relation_broken

#: the effects of this module
PILE_EFFECTS = (E_FACTORY_SUPPORT, E_MAINTENANCE_STAFF, E_PERFORMANCE_TESTING, E_AIR_JACKS,
                E_IMPACT_WRENCH, E_PIT_MECHANIC, E_INTERNAL_COMBUSTION)
#: the decisions of this module
PILE_PHASES = (PH_FACTORY_SUPPORT, PH_MAINTENANCE_STAFF, PH_PERFORMANCE_TESTING,
               PH_IMPACT_WRENCH, PH_PIT_MECHANIC, PH_INTERNAL_COMBUSTION, PH_IC_TAKE)
_FIRST_PHASE = min(PILE_PHASES)
_LAST_PHASE = max(PILE_PHASES)
assert len(PILE_PHASES) == _LAST_PHASE - _FIRST_PHASE + 1, "the pile phases are one block"


#: what stopping means in the pile decisions that allow it (``encode.action_name``)
STOP_NAMES = {
    "maintenance_staff": "stop removing active cubes (then remove discarded ones)",
    "performance_testing": "stop drawing",
    "impact_wrench": "stop removing (the used pile's wear is removed next)",
    "pit_mechanic": "stop removing wear",
    "internal_combustion_take": "stop taking cubes back",
}


@nb.njit(cache=True)
def is_pile_effect(effect):
    return effect in (E_FACTORY_SUPPORT, E_MAINTENANCE_STAFF, E_PERFORMANCE_TESTING,
                      E_AIR_JACKS, E_IMPACT_WRENCH, E_PIT_MECHANIC, E_INTERNAL_COMBUSTION)


@nb.njit(cache=True)
def is_pile_phase(phase):
    return _FIRST_PHASE <= phase <= _LAST_PHASE


# ----- when may the cube be activated? ---------------------------------------------------------
@nb.njit(cache=True)
def piles_can_activate(s, p, seat, colour, effect):
    """The active cube of ``colour`` (its card has pile ``effect``) may be used now: its
    effect can be applied in full. Called while the cube is still in the active pile."""
    active = pile(seat, ACTIVE)
    discard = pile(seat, DISCARD)
    if effect == E_FACTORY_SUPPORT:
        # draw ``count`` cubes (bag, or the discard pile refilling an empty bag), then one
        # cube must be left in the active or discard pile to remove (the drawn one counts)
        count = card_param(s, p, colour, P_CARD_COUNT)
        others = total(s, active) - 1 + total(s, discard)
        return can_draw(s, seat, count) and (count > 0 or others > 0)
    if effect == E_INTERNAL_COMBUSTION:
        # another active cube must go to the discard pile; taking cubes back is "up to"
        return total(s, active) - 1 > 0
    # Maintenance Staff, Performance Testing, Air Jacks, Impact Wrench, Pit Mechanic:
    # "any number" / "up to" choices (zero allowed), and a cube that removes itself
    return True


# ----- activation ------------------------------------------------------------------------------
@nb.njit(cache=True)
def _start_removal(s, p, seat, most):
    """Remove up to ``most`` cubes of the discard pile (the base ``remove`` decision)."""
    s[PK_LEFT] = min(most, total(s, pile(seat, DISCARD)))
    s[PK_MUST] = 0
    s[PHASE] = PH_REMOVE


@nb.njit(cache=True)
def piles_activate(s, p, seat, colour, effect):
    """The effect of the activated cube (already moved to the used pile)."""
    count = card_param(s, p, colour, P_CARD_COUNT)
    s[PK_COUNT] = 0
    if effect == E_FACTORY_SUPPORT:
        for _ in range(count):
            drawn = draw_one(s, seat)
            if drawn >= 0:
                s[pile(seat, ACTIVE) + drawn] += 1
        s[PK_LEFT] = 1
        s[PK_MUST] = 1
        s[PHASE] = PH_FACTORY_SUPPORT
    elif effect == E_MAINTENANCE_STAFF:
        s[PK_LEFT] = total(s, pile(seat, ACTIVE))
        s[PK_MUST] = 0
        s[PHASE] = PH_MAINTENANCE_STAFF
    elif effect == E_PERFORMANCE_TESTING:
        remove(s, pile(seat, USED), colour)        # "this very cube"
        s[PK_LEFT] = count
        s[PK_MUST] = 0
        s[PHASE] = PH_PERFORMANCE_TESTING
    elif effect == E_AIR_JACKS:
        _start_removal(s, p, seat, distinct(s, pile(seat, DISCARD)))
    elif effect == E_IMPACT_WRENCH:
        s[PK_LEFT] = min(count, total(s, pile(seat, DISCARD)))
        s[PK_MUST] = 0
        s[PHASE] = PH_IMPACT_WRENCH
    elif effect == E_PIT_MECHANIC:
        s[PK_LEFT] = min(count, s[pile(seat, DISCARD) + WEAR])
        s[PK_MUST] = 0
        s[PHASE] = PH_PIT_MECHANIC
    elif effect == E_INTERNAL_COMBUSTION:
        s[PK_LEFT] = 1
        s[PK_MUST] = 1
        s[PHASE] = PH_INTERNAL_COMBUSTION


# ----- the second steps ------------------------------------------------------------------------
@nb.njit(cache=True)
def _placement_ahead(s, p, i, j):
    """Placed cube ``i`` is farther along than ``j`` (inner lane first on a tie), as the
    Car Phase compares them (``moves.finish_move``)."""
    a = s[PLACED_ABS + i] - s[PLACED_SEG + i]
    b = s[PLACED_ABS + j] - s[PLACED_SEG + j]
    return a > b or (a == b and p[P_SPACE_LANE + s[PLACED_SPACE + i]]
                     < p[P_SPACE_LANE + s[PLACED_SPACE + j]])


@nb.njit(cache=True)
def _lift_track_cubes(s, p, colour):
    """Take every cube of ``colour`` off the track (the caller puts them where they go):
    the list of placements closes up in order, and the farthest cube (where the car will
    go) is found again. Returns how many were taken off."""
    kept = 0
    for i in range(s[PLACED_N]):
        if s[PLACED_COLOUR + i] != colour:
            s[PLACED_SPACE + kept] = s[PLACED_SPACE + i]
            s[PLACED_COLOUR + kept] = s[PLACED_COLOUR + i]
            s[PLACED_ABS + kept] = s[PLACED_ABS + i]
            s[PLACED_SEG + kept] = s[PLACED_SEG + i]
            kept += 1
    lifted = s[PLACED_N] - kept
    for i in range(kept, s[PLACED_N]):
        s[PLACED_SPACE + i] = 0
        s[PLACED_COLOUR + i] = 0
        s[PLACED_ABS + i] = 0
        s[PLACED_SEG + i] = 0
    s[PLACED_N] = kept
    far = -1
    for i in range(kept):
        if far < 0 or _placement_ahead(s, p, i, far):
            far = i
    s[FAR] = far
    s[ON_TRACK + colour] -= lifted
    return lifted


@nb.njit(cache=True)
def _impact_wrench_wear(s, p, seat):
    """Impact Wrench, second step: every wear cube of the used pile, those on the track
    included, goes back to the stock."""
    used = pile(seat, USED)
    s[STOCK + WEAR] += s[used + WEAR]
    s[used + WEAR] = 0
    if s[ON_TRACK + WEAR] > 0:
        s[STOCK + WEAR] += _lift_track_cubes(s, p, WEAR)
    s[PHASE] = PH_ACTION


@nb.njit(cache=True)
def smallest_discard(s, p, seat):
    """Pit Mechanic: seat's discard pile holds fewer cubes than each other player's."""
    mine = total(s, pile(seat, DISCARD))
    for other in range(p[P_NUM_PLAYERS]):
        if other != seat and total(s, pile(other, DISCARD)) <= mine:
            return False
    return True


@nb.njit(cache=True)
def _pit_mechanic_extra(s, p, seat):
    """Pit Mechanic, second step: up to ``bonus`` more cubes of any kind when seat's
    discard pile is now the smallest."""
    if smallest_discard(s, p, seat):
        _start_removal(s, p, seat, card_param(s, p, s[ACT_COLOUR], P_CARD_BONUS))
    else:
        s[PHASE] = PH_ACTION


@nb.njit(cache=True)
def _maintenance_done(s, p, seat):
    """Maintenance Staff, second step: up to ``bonus`` discarded cubes per active cube
    removed."""
    _start_removal(s, p, seat, card_param(s, p, s[ACT_COLOUR], P_CARD_BONUS) * s[PK_COUNT])


@nb.njit(cache=True)
def _combustion_take_start(s, p, seat):
    s[PK_LEFT] = card_param(s, p, s[ACT_COLOUR], P_CARD_COUNT)
    s[PK_MUST] = 0
    s[PK_COUNT] = 0
    s[PHASE] = PH_IC_TAKE


# ----- the decisions ---------------------------------------------------------------------------
@nb.njit(cache=True)
def piles_settle(s, p, seat):
    """True when the pending pile decision is a real choice; otherwise take its only
    answer (which ends it) and return False."""
    phase = s[PHASE]
    active = pile(seat, ACTIVE)
    discard = pile(seat, DISCARD)
    if phase in (PH_FACTORY_SUPPORT, PH_INTERNAL_COMBUSTION):
        pool = total(s, active)
        if phase == PH_FACTORY_SUPPORT:
            pool += total(s, discard)
        if s[PK_LEFT] > 0 and pool > 0:
            return True
        s[PHASE] = PH_ACTION     # unreachable after a legal activation
        return False
    if phase == PH_MAINTENANCE_STAFF:
        if s[PK_LEFT] > 0 and total(s, active) > 0:
            return True
        _maintenance_done(s, p, seat)
        return False
    if phase == PH_PERFORMANCE_TESTING:
        if s[PK_LEFT] > 0 and can_draw(s, seat, 1):
            return True
        s[PHASE] = PH_ACTION
        return False
    if phase == PH_IMPACT_WRENCH:
        if s[PK_LEFT] > 0 and total(s, discard) > 0:
            return True
        _impact_wrench_wear(s, p, seat)
        return False
    if phase == PH_PIT_MECHANIC:
        if s[PK_LEFT] > 0 and s[discard + WEAR] > 0:
            return True
        _pit_mechanic_extra(s, p, seat)
        return False
    if phase == PH_IC_TAKE:
        if s[PK_LEFT] > 0 and total(s, discard) > 0:
            return True
        s[PHASE] = PH_ACTION
        return False
    return True


@nb.njit(cache=True)
def piles_mask(s, p, seat, mask, a_stop, a_draw, a_active, a_discard):
    """Legal answers of a pile decision (``kernels`` passes its action numbering)."""
    phase = s[PHASE]
    active = pile(seat, ACTIVE)
    discard = pile(seat, DISCARD)
    if phase == PH_PERFORMANCE_TESTING:
        mask[a_stop] = 1
        mask[a_draw] = 1
        return
    if phase == PH_PIT_MECHANIC:
        mask[a_stop] = 1
        mask[a_discard + WEAR] = 1
        return
    if phase in (PH_MAINTENANCE_STAFF, PH_IMPACT_WRENCH, PH_IC_TAKE):
        mask[a_stop] = 1
    from_active = phase in (PH_FACTORY_SUPPORT, PH_MAINTENANCE_STAFF, PH_INTERNAL_COMBUSTION)
    from_discard = phase in (PH_FACTORY_SUPPORT, PH_IMPACT_WRENCH, PH_IC_TAKE)
    if from_active:
        mask_cubes(s, active, mask, a_active)
    if from_discard:
        mask_cubes(s, discard, mask, a_discard)


@nb.njit(cache=True)
def piles_apply(s, p, seat, action, a_stop, a_draw, a_active, a_discard):
    """Resolve the legal ``action`` of a pile decision."""
    phase = s[PHASE]
    active = pile(seat, ACTIVE)
    discard = pile(seat, DISCARD)
    colour = -1
    from_active = a_active <= action < a_active + NUM_COLOURS
    if from_active:
        colour = action - a_active
    elif a_discard <= action < a_discard + NUM_COLOURS:
        colour = action - a_discard
    if phase == PH_FACTORY_SUPPORT:
        remove(s, active if from_active else discard, colour)
        s[PK_LEFT] = 0
        s[PK_MUST] = 0
        s[PHASE] = PH_ACTION
    elif phase == PH_MAINTENANCE_STAFF:
        if action == a_stop:
            _maintenance_done(s, p, seat)
        else:
            remove(s, active, colour)
            s[PK_COUNT] += 1
            s[PK_LEFT] -= 1
    elif phase == PH_PERFORMANCE_TESTING:
        if action == a_stop:
            s[PHASE] = PH_ACTION
        else:
            drawn = draw_one(s, seat)
            if drawn >= 0:
                s[active + drawn] += 1
            s[PK_LEFT] -= 1
    elif phase == PH_IMPACT_WRENCH:
        if action == a_stop:
            _impact_wrench_wear(s, p, seat)
        else:
            remove(s, discard, colour)
            s[PK_LEFT] -= 1
    elif phase == PH_PIT_MECHANIC:
        if action == a_stop:
            _pit_mechanic_extra(s, p, seat)
        else:
            remove(s, discard, WEAR)
            s[PK_LEFT] -= 1
    elif phase == PH_INTERNAL_COMBUSTION:
        move_cube(s, active, discard, colour)
        _combustion_take_start(s, p, seat)
    elif phase == PH_IC_TAKE:
        if action == a_stop:
            s[PHASE] = PH_ACTION
        else:
            move_cube(s, discard, active, colour)
            gain(s, seat, WEAR, card_param(s, p, s[ACT_COLOUR], P_CARD_WEAR))
            s[PK_COUNT] += 1
            s[PK_LEFT] -= 1


# ----- saved states --------------------------------------------------------------------------
@nb.njit(cache=True)
def piles_violation(s, p, where):
    """0 unless a pile decision is pending in a state that could not reach it: the seat on
    turn decides, and the resolving cube (``act_colour``) is one of the card the decision
    belongs to (its ``count``/``bonus``/``wear`` are read from it). 1 otherwise."""
    phase = s[PHASE]
    if not is_pile_phase(phase):
        return 0
    if outside(s, CURRENT, s[TURN_SEAT], s[TURN_SEAT], where) or outside(
            s, ACT_COLOUR, 0, NUM_COLOURS - 1, where):
        return 1
    if card_effect(s, p, s[ACT_COLOUR]) != PHASE_EFFECT[phase]:
        relation_broken(where)
        return 1
    return 0
