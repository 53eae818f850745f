"""How many picks the card or driver of a pending decision allows: ``picks_broken``.

The pick counters (``pk_left``: picks that may still be made, ``pk_count``: picks made,
``pk_must``: picks that must still be made) start at the number on the resolving card
(``act_colour``'s card count) or on the seat's driver (``driver_amount``) and only count
down from there (rulebook, Cube Cards: Engineer "up to 3", Mechanic "up to 2", Pit Crew,
Pit Team, Boost; Racing Season appendix, Drivers 01-10). A saved state whose counters
exceed what that card or driver allows is one no legal play reaches. Counters of phases
that do not read them are left alone (a later decision sets them before it reads them).
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobiles.cubes import pile, total
from transit_gym.envs.automobiles.data import (
    E_BOOST,
    E_ENGINEER,
    E_MECHANIC,
    E_PIT_CREW,
    E_PIT_TEAM,
)
from transit_gym.envs.automobiles.state import (
    ACT_COLOUR,
    ACTIVE,
    BAG,
    BOOST_BONUS,
    CARD_OF,
    CURRENT,
    DISCARD,
    DRIVER_OF,
    DRIVER_WEAR,
    P_CARD_COUNT,
    P_CARD_EFFECT,
    P_DRIVER_AMOUNT,
    P_HAND,
    PH_BOOST,
    PH_BOOST_OTHER,
    PH_DRIVER_CAR,
    PH_DRIVER_DECLARE,
    PH_DRIVER_DECLINE,
    PH_DRIVER_EXTRA,
    PH_DRIVER_REDRAW,
    PH_DRIVER_TO_ACTIVE,
    PH_DRIVER_TO_BAG,
    PH_DRIVER_WEAR,
    PH_ENGINEER,
    PH_MECHANIC,
    PH_PIT_CREW,
    PH_PIT_TEAM,
    PH_REMOVE,
    PHASE,
    PK_COUNT,
    PK_LEFT,
    PK_MUST,
    TURN_SEAT,
)
from transit_gym.envs.core.validate import relation_broken


@nb.njit(cache=True)
def _amount(p, driver):
    """The number on Driver ``driver`` (1-10)."""
    return p[P_DRIVER_AMOUNT + driver - 1]


@nb.njit(cache=True)
def _card_allows(s, p, effect):
    """The number on the card of the resolving cube; -1 unless that card has ``effect``
    (``act_colour`` against the decision is ``violation``'s code 21)."""
    colour = s[ACT_COLOUR]
    if colour < 0 or p[P_CARD_EFFECT + s[CARD_OF + colour]] != effect:
        return -1
    return p[P_CARD_COUNT + s[CARD_OF + colour]]


@nb.njit(cache=True)
def _driver_allows(s, p, phase):
    """``(most, counted)``: the picks the seat's driver allows in ``phase`` and whether the
    picks made (``pk_count``) count against them; ``most`` -1 outside a driver's pick."""
    seat = s[TURN_SEAT]
    driver = s[DRIVER_OF + seat]
    if phase == PH_DRIVER_TO_ACTIVE:   # Driver 02: up to N discard cubes to the active pile
        return _amount(p, 2), False
    if phase == PH_DRIVER_TO_BAG:      # Driver 03: up to N discard cubes into the bag
        return _amount(p, 3), True
    if phase == PH_DRIVER_DECLARE:     # Driver 04: declare up to N cubes of bag and discard
        cubes = total(s, pile(seat, BAG)) + total(s, pile(seat, DISCARD))
        return min(_amount(p, 4), cubes), True
    if phase == PH_DRIVER_CAR:         # Driver 06: up to N more spaces for the car
        return _amount(p, 6), False
    if phase == PH_DRIVER_DECLINE:     # Driver 01: N spaces per wear gained in the Decline
        return s[DRIVER_WEAR] * _amount(p, 1), False
    if phase == PH_DRIVER_WEAR:        # Driver 08: remove up to N wear cubes
        return _amount(p, 8), True
    if phase == PH_DRIVER_EXTRA:       # Driver 07: N per Decline wear; Driver 09: N
        if driver == 7:
            return s[DRIVER_WEAR] * _amount(p, 7), True
        return _amount(p, 9), True
    return -1, False


@nb.njit(cache=True)
def picks_broken(s, p, where):
    """The pick counters exceed what the pending decision's card or driver allows:
    Engineer's picks made and left, the removal after it (``pk_must`` never above
    ``pk_left``), Mechanic, Pit Crew, Pit Team and Boost draws (at most the card's number),
    a Boost offer to another seat (at most the Boost's bonus), every driver's picks, and
    Driver 10's redraw (``pk_left`` 0, at most a hand discarded)."""
    phase = s[PHASE]
    left = s[PK_LEFT]
    made = s[PK_COUNT]
    most = -1
    counted = False
    if phase == PH_ENGINEER:
        most = _card_allows(s, p, E_ENGINEER)
        counted = True
    elif phase == PH_MECHANIC:
        most = _card_allows(s, p, E_MECHANIC)
    elif phase == PH_PIT_CREW:
        most = _card_allows(s, p, E_PIT_CREW)
    elif phase == PH_PIT_TEAM:
        most = _card_allows(s, p, E_PIT_TEAM)
    elif phase == PH_BOOST:
        most = _card_allows(s, p, E_BOOST)
    elif phase == PH_BOOST_OTHER and s[CURRENT] != s[TURN_SEAT]:
        most = s[BOOST_BONUS]
    elif phase == PH_REMOVE:
        return s[PK_MUST] > left and relation_broken(where)
    elif phase == PH_DRIVER_REDRAW:
        hand = p[P_HAND]
        return (left != 0 or made + total(s, pile(s[TURN_SEAT], ACTIVE)) > hand) \
            and relation_broken(where)
    else:
        most, counted = _driver_allows(s, p, phase)
    if most < 0:
        return False
    return left + (made if counted else 0) > most and relation_broken(where)
