"""Racing Season cards that move a cube: Burnout, Camber & Toe, Redline, Fuel Injection
Engine, Bump & Run and Overdrive (R-YUC appendix; base Card Clarifications apply).

Jitted helpers called from one-line hooks in ``effects`` (when a card may be activated,
what activating it does, how far and on which colours a gear cube moves), ``kernels``
(the two new decisions ``burnout`` and ``camber_toe``; the turn flags reset in
``start_turn``) and ``moves`` (Overdrive's mixed colours, Redline's wear).

Choices made where the card text leaves room (see ``docs/racing_season/cards_moves.md``):

- Race position is ``start_rank``, fixed at the start of the Action Phase, inner lane
  first on a tie; "last" is position = number of players (second of two is last).
- Camber & Toe moves exactly ``count`` spaces ("move 1 space"), so it needs a gear cube
  in the active pile and such a move; Burnout's move is "up to", so it needs only a gear
  cube with a lower colour in the discard pile.
- Redline: a white gear cube moves on any one gear colour; it gains the card's ``wear``
  only when it did not move as a white (its spaces did not all show white).
- Fuel Injection: each gear cube activated afterwards must move its normal ``count``
  and may go on up to ``count`` times the card's ``count`` spaces, all of one colour.
  Another copy may still be activated: it gains its wear and changes nothing else.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobiles.board import move_possible
from transit_gym.envs.automobiles.cubes import gain, move_cube, pile, wear_then_pick
from transit_gym.envs.automobiles.data import (
    BLACK,
    DARK,
    E_BUMP_RUN,
    E_BURNOUT,
    E_CAMBER_TOE,
    E_FUEL_INJECTION,
    E_OVERDRIVE,
    E_REDLINE,
    LIGHT,
    NUM_GEARS,
    WEAR,
    WHITE,
)
from transit_gym.envs.automobiles.moves import start_move
from transit_gym.envs.automobiles.state import (
    ACTIVE,
    DISCARD,
    FUEL,
    MAX_PATH,
    MV_MIXED,
    MV_REDLINE,
    P_NUM_PLAYERS,
    PH_BURNOUT,
    PH_CAMBER_TOE,
    PK_LEFT,
    REDLINE,
    REDLINE_WEAR,
    START_RANK,
)

ALL_GEARS = (1 << NUM_GEARS) - 1


@nb.njit(cache=True)
def is_move_card(effect):
    """One of the six Racing Season effects written here."""
    return effect in (E_BURNOUT, E_CAMBER_TOE, E_REDLINE, E_FUEL_INJECTION, E_BUMP_RUN,
                      E_OVERDRIVE)


# ----- gear cubes under Redline and Fuel Injection ---------------------------------------------
@nb.njit(cache=True)
def gear_colours(s, colour):
    """Colours a gear cube of ``colour`` may move on: its own, or any gear colour for a
    white one while Redline is active."""
    if colour == WHITE and s[REDLINE] != 0:
        return ALL_GEARS
    return 1 << colour


@nb.njit(cache=True)
def start_gear_move(s, seat, colour, count):
    """An activated gear cube moves ``count`` spaces of one colour; with Fuel Injection it
    may go on to ``count`` times the multiplier (capped by the turn's path capacity)."""
    most = count
    if s[FUEL] > 0:
        most = min(count * s[FUEL], MAX_PATH)
    start_move(s, gear_colours(s, colour), most, count)
    if colour == WHITE and s[REDLINE] != 0:
        s[MV_REDLINE] = s[REDLINE_WEAR]


@nb.njit(cache=True)
def reset_turn_flags(s):
    """Start of a turn: no Redline, no Fuel Injection."""
    s[REDLINE] = 0
    s[REDLINE_WEAR] = 0
    s[FUEL] = 0


# ----- activation -------------------------------------------------------------------------------
@nb.njit(cache=True)
def _has(s, offset, low, high):
    """The pile at ``offset`` holds a gear cube of a colour in ``low..high``."""
    for g in range(low, high + 1):  # noqa: SIM110 - numba has no generators
        if s[offset + g] > 0:
            return True
    return False


@nb.njit(cache=True)
def move_card_ready(s, p, seat, effect, count):
    """The whole effect can be applied now (the card's cube is still in the active pile)."""
    if effect == E_BURNOUT:      # a discarded gear with a colour below it; the move is "up to"
        return _has(s, pile(seat, DISCARD), LIGHT, BLACK)
    if effect == E_CAMBER_TOE:   # a gear to discard, and the exact move of any colour
        return _has(s, pile(seat, ACTIVE), WHITE, BLACK) and move_possible(
            s, p, seat, ALL_GEARS, count)
    return True                  # Redline, Fuel Injection; Bump & Run, Overdrive move "up to"


@nb.njit(cache=True)
def activate_move_card(s, p, seat, effect, wear, count, bonus):
    """Apply the effect of an activated cube (already in the used pile)."""
    rank = s[START_RANK]
    last = rank == p[P_NUM_PLAYERS]
    if effect == E_BURNOUT:
        wear_then_pick(s, seat, wear, count, PH_BURNOUT)
    elif effect == E_CAMBER_TOE:
        wear_then_pick(s, seat, wear, count, PH_CAMBER_TOE)
    elif effect == E_REDLINE:
        if s[REDLINE] == 0:         # its wear is gained per white cube used (moves.py)
            s[REDLINE] = 1
            s[REDLINE_WEAR] = wear
    elif effect == E_FUEL_INJECTION:
        gain(s, seat, WEAR, wear)
        s[FUEL] = max(s[FUEL], count)
    elif effect == E_BUMP_RUN:
        gain(s, seat, WEAR, wear)
        if rank > 1:
            start_move(s, 1 << DARK, count + (bonus if last else 0), 0)
    elif effect == E_OVERDRIVE:
        gain(s, seat, WEAR, wear)
        if rank == 1:
            colours = 1 << WHITE
        elif last:
            colours = (1 << (DARK + 1)) - 1
        else:
            colours = (1 << (LIGHT + 1)) - 1
        start_move(s, colours, count, 0)
        s[MV_MIXED] = 1


# ----- the decisions ------------------------------------------------------------------------------
@nb.njit(cache=True)
def move_card_mask(s, p, seat, phase, mask, a_active, a_discard):
    """Legal gear choices: Burnout a discarded light gray or higher gear, Camber & Toe any
    gear of the active pile."""
    if phase == PH_BURNOUT:
        discard = pile(seat, DISCARD)
        for g in range(LIGHT, BLACK + 1):
            if s[discard + g] > 0:
                mask[a_discard + g] = 1
    else:
        active = pile(seat, ACTIVE)
        for g in range(WHITE, BLACK + 1):
            if s[active + g] > 0:
                mask[a_active + g] = 1


@nb.njit(cache=True)
def apply_move_card(s, p, seat, phase, colour):
    """The chosen gear: Burnout's stays in the discard pile and the red cube moves up to
    ``pk_left`` spaces of the colour below it; Camber & Toe's goes from the active to the
    discard pile and the red cube moves exactly ``pk_left`` spaces of any colour."""
    if phase == PH_BURNOUT:
        start_move(s, 1 << (colour - 1), s[PK_LEFT], 0)
    else:
        move_cube(s, pile(seat, ACTIVE), pile(seat, DISCARD), colour)
        start_move(s, ALL_GEARS, s[PK_LEFT], s[PK_LEFT])
    s[PK_LEFT] = 0
