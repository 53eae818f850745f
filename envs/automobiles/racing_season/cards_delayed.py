"""Racing Season cards whose effect comes later in the turn (R-YUC appendix): Adrenaline
and Crate Motor. Jitted helpers; ``effects.py`` and ``kernels.py`` call them from small
hooks. ``docs/racing_season/cards_delayed.md`` states the rulings.

Adrenaline (green): one of two options. Option 1 moves the green cube ``count`` light gray
spaces now (an ordinary cube move). Option 2 (decision ``adrenaline``, answer ``A_STOP``)
adds ``bonus`` to ``adr_bonus``; in the Car Phase, after the car went to its farthest
cube, the car may move on up to ``adr_bonus`` light gray spaces per race position gained
during that Car Phase (decision ``adrenaline_move``): several option-2 cubes add up. The
spaces count for the Decline Phase (highest colour moved on, drafting at the end).

Crate Motor (blue): the blue cube moves up to ``count`` spaces of one colour now; each
cube adds ``bonus`` to ``crate_award``. After the End Phase (and its Momentum) every car
in a lower race position than the user's gets ``crate_award`` spaces (``crate_spaces``)
of any colours, moved without wear by that car's player (decision ``crate_move``), one
player at a time from the best position down (positions are taken anew after each
player's move and Momentum). With Accelerated Play the spaces wait for the player's own
turn and are moved at its start, before the Action Phase.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles.board import cars_in, momentum, rank, reach, scan_from
from transit_gym.envs.automobiles.cubes import card_effect, card_param
from transit_gym.envs.automobiles.data import (
    BLUE,
    E_ADRENALINE,
    E_CRATE_MOTOR,
    GREEN,
    LIGHT,
    MAX_PLAYERS,
    NUM_COLOURS,
    NUM_GEARS,
)
from transit_gym.envs.automobiles.moves import finish_move, start_move
from transit_gym.envs.automobiles.state import (
    ACT_COLOUR,
    ADR_BONUS,
    ADR_LEFT,
    CAR_ABS,
    CAR_SEG,
    CAR_SPACE,
    CRATE_AWARD,
    CRATE_SPACES,
    CURRENT,
    MAX_PATH,
    P_ACCELERATED,
    P_CARD_BONUS,
    P_NUM_CARDS,
    P_NUM_PLAYERS,
    P_SPACE_TOP,
    P_SUPPLY,
    PATH_N,
    PATH_SPACE,
    PENDING_BOOST,
    PH_ACTION,
    PH_ADRENALINE,
    PH_ADRENALINE_MOVE,
    PH_BOOST_OTHER,
    PH_CRATE_MOVE,
    PHASE,
    START_RANK,
    TOP_COLOUR,
    TURN_SEAT,
    USED,
)
from transit_gym.envs.core.validate import any_outside, outside, relation_broken

ALL_GEARS = (1 << NUM_GEARS) - 1
LIGHT_ONLY = 1 << LIGHT


# ----- a car moving by itself, space by space ---------------------------------------------------
@nb.njit(cache=True)
def car_steps(s, p, seat, colours, out, offset):
    """Mark the spaces seat's car may move onto next (``out[offset + space]``, when ``out``
    has room): adjacent to the car, forward, of ``colours``, with a free segment (How to
    Move on the Track). Returns how many."""
    return scan_from(s, p, seat, s[CAR_SPACE + seat], s[CAR_SEG + seat], colours, out, offset)


@nb.njit(cache=True)
def car_step(s, p, seat, to, colours):
    """Move seat's car one space onto ``to`` (a legal next space): it takes the segment
    right behind the cars already there. Momentum is applied at once: the mover never
    goes back, so only the cars it left behind move up, exactly as they would when its
    whole move is over (and no decision sees a gap)."""
    d = reach(s, p, seat, s[CAR_SPACE + seat], s[CAR_SEG + seat], to, colours)
    front = s[CAR_ABS + seat] + d
    seg = cars_in(s, p, to, seat)
    s[CAR_SPACE + seat] = to
    s[CAR_SEG + seat] = seg
    s[CAR_ABS + seat] = front - seg
    momentum(s, p)   # cars behind fill the segment it left (nothing else can change)


# ----- Adrenaline ---------------------------------------------------------------------------
@nb.njit(cache=True)
def adrenaline_activate(s, count):
    """Activation: the choice between the options; option 1 is prepared as a light gray
    move of exactly ``count`` spaces whose first step answers the decision."""
    start_move(s, LIGHT_ONLY, count, count)
    s[PHASE] = PH_ADRENALINE


@nb.njit(cache=True)
def adrenaline_later(s, p, seat):
    """Option 2: no move now; the card's ``bonus`` spaces per position wait for the Car
    Phase (added to those of earlier option-2 cubes this turn)."""
    finish_move(s, p, seat)
    bonus = card_param(s, p, s[ACT_COLOUR], P_CARD_BONUS)
    s[ADR_BONUS] = min(s[ADR_BONUS] + bonus, bonus_caps(p)[0])


@nb.njit(cache=True)
def adrenaline_car_phase(s, p, seat, start_rank):
    """After the car's Car Phase move: with option 2 chosen and positions gained since
    ``start_rank`` (the position at the start of the Car Phase), open the car's light gray
    move. Returns True when that decision is pending."""
    gained = start_rank - rank(s, p, seat)
    if s[ADR_BONUS] <= 0 or gained <= 0:
        return False
    momentum(s, p)   # the segment the car left is filled (see ``car_step``)
    s[ADR_LEFT] = s[ADR_BONUS] * gained
    s[PHASE] = PH_ADRENALINE_MOVE
    return True


@nb.njit(cache=True)
def adrenaline_steps(s, p, seat, out, offset):
    """Legal light gray next spaces of the car in its Adrenaline move; how many."""
    if s[ADR_LEFT] <= 0 or s[PATH_N] >= MAX_PATH:
        return 0
    return car_steps(s, p, seat, LIGHT_ONLY, out, offset)


@nb.njit(cache=True)
def adrenaline_step(s, p, seat, to):
    """One light gray space of the car; it is on the turn's path (Decline Phase)."""
    car_step(s, p, seat, to, LIGHT_ONLY)
    s[PATH_SPACE + s[PATH_N]] = to
    s[PATH_N] += 1
    top = p[P_SPACE_TOP + to]
    if top > s[TOP_COLOUR]:
        s[TOP_COLOUR] = top
    s[ADR_LEFT] -= 1


# ----- Crate Motor --------------------------------------------------------------------------
@nb.njit(cache=True)
def crate_activate(s, p, count, bonus):
    """Activation: the blue cube moves up to ``count`` spaces of one colour; the cars
    behind will get ``bonus`` more spaces each after the End Phase."""
    start_move(s, ALL_GEARS, count, 0)
    s[CRATE_AWARD] = min(s[CRATE_AWARD] + bonus, bonus_caps(p)[1])


@nb.njit(cache=True)
def _next_crate_seat(s, p):
    """The waiting player in the best race position now, -1 when none waits."""
    best = -1
    best_rank = 0
    for seat in range(p[P_NUM_PLAYERS]):
        if s[CRATE_SPACES + seat] > 0:
            r = rank(s, p, seat)
            if best < 0 or r < best_rank:
                best = seat
                best_rank = r
    return best


@nb.njit(cache=True)
def crate_after_end(s, p, seat):
    """After seat's End Phase and Momentum: the cars behind seat's get their spaces.
    Returns True when one of those players must now decide (not with Accelerated Play:
    the spaces wait for each player's own turn)."""
    award = s[CRATE_AWARD]
    s[CRATE_AWARD] = 0
    if award <= 0:
        return False
    mine = rank(s, p, seat)
    most = bonus_caps(p)[2]
    for other in range(p[P_NUM_PLAYERS]):
        if other != seat and rank(s, p, other) > mine:
            s[CRATE_SPACES + other] = min(s[CRATE_SPACES + other] + award, most)
    if p[P_ACCELERATED] != 0:
        return False
    nxt = _next_crate_seat(s, p)
    if nxt < 0:
        return False
    s[CURRENT] = nxt
    s[PHASE] = PH_CRATE_MOVE
    return True


@nb.njit(cache=True)
def crate_steps(s, p, out, offset):
    """Legal next spaces (any colour) of the deciding player's car; how many."""
    seat = s[CURRENT]
    if s[CRATE_SPACES + seat] <= 0:
        return 0
    return car_steps(s, p, seat, ALL_GEARS, out, offset)


@nb.njit(cache=True)
def crate_step(s, p, to):
    """One awarded space of the deciding player's car (no wear, not on the turn's path)."""
    seat = s[CURRENT]
    car_step(s, p, seat, to, ALL_GEARS)
    s[CRATE_SPACES + seat] -= 1


@nb.njit(cache=True)
def crate_done(s, p):
    """The deciding player's move is over: Momentum, then the next waiting player.
    Returns True when the turn's End Phase may go on (nobody waits any more); on a
    player's own turn (Accelerated Play) its Action Phase (or Boost draws) follows."""
    seat = s[CURRENT]
    s[CRATE_SPACES + seat] = 0
    momentum(s, p)
    turn = s[TURN_SEAT]
    if seat == turn and p[P_ACCELERATED] != 0:
        s[START_RANK] = rank(s, p, turn)
        if s[PENDING_BOOST + turn] > 0:
            s[PHASE] = PH_BOOST_OTHER
        else:
            s[PHASE] = PH_ACTION
        return False
    nxt = _next_crate_seat(s, p)
    if nxt >= 0:
        s[CURRENT] = nxt
        return False
    s[CURRENT] = turn
    return True


# ----- the turn ----------------------------------------------------------------------------------
@nb.njit(cache=True)
def delayed_turn_start(s, p, seat):
    """A new turn: no option-2 Adrenaline, no Crate Motor yet; with Accelerated Play the
    spaces awarded since the player's last turn are moved first."""
    s[ADR_BONUS] = 0
    s[ADR_LEFT] = 0
    s[CRATE_AWARD] = 0
    if p[P_ACCELERATED] != 0 and s[CRATE_SPACES + seat] > 0:
        s[PHASE] = PH_CRATE_MOVE


# ----- observation -------------------------------------------------------------------------------
@nb.njit(cache=True)
def observe_delayed(s, p, seat, out, base):
    """Public: option-2 spaces per position and the Car Phase spaces left, the Crate
    Motor award of this turn, then each seat's awarded spaces (observer first, then
    clockwise)."""
    out[base] = s[ADR_BONUS]
    out[base + 1] = s[ADR_LEFT]
    out[base + 2] = s[CRATE_AWARD]
    n = p[P_NUM_PLAYERS]
    for k in range(n):
        out[base + 3 + k] = s[CRATE_SPACES + (seat + k) % n]


@nb.njit(cache=True)
def bonus_caps(p):
    """The most each delayed-card field can hold: option-2 Adrenaline spaces per position
    (every green cube with the largest bonus), the Crate Motor award of a turn (every blue
    cube), a seat's awarded spaces (an award from each other seat); the Car Phase spaces
    are the first times the positions gained (at most the seats less one). Play never
    reaches more; the kernels saturate there, and ``violation`` accepts no more."""
    most = 1
    for k in range(p[P_NUM_CARDS]):
        most = max(most, p[P_CARD_BONUS + k])
    others = max(1, p[P_NUM_PLAYERS] - 1)
    award = p[P_SUPPLY + BLUE] * most
    per_position = p[P_SUPPLY + GREEN] * most
    return per_position, award, award * others, per_position * others


def delayed_obs_high(high: np.ndarray, base: int, supply: np.ndarray, most_bonus: int,
                     players: int) -> None:
    """Upper bounds of the ``delayed`` observation slots (``Game.obs_low_high``)."""
    per_position = float(supply[GREEN] * most_bonus)
    award = float(supply[BLUE] * most_bonus)
    high[base] = per_position
    high[base + 1] = per_position * max(1, players - 1)
    high[base + 2] = award
    high[base + 3:base + 3 + MAX_PLAYERS] = award * max(1, players - 1)



@nb.njit(cache=True)
def delayed_violation(s, p, n, where):
    """True when a delayed-card field is out of range (negative, beyond every cube of the
    supply times the largest card bonus times the seats, or held by a seat beyond the
    table), or the pending delayed-card decision is one play cannot reach
    (``invariants.violation``; ``where`` names the slot, or -1s for a relation)."""
    per_position, award, spaces, car_phase = bonus_caps(p)
    adrenaline = _in_market(s, p, E_ADRENALINE)
    crate = _in_market(s, p, E_CRATE_MOTOR)
    if (outside(s, ADR_BONUS, 0, per_position if adrenaline else 0, where)
            or outside(s, ADR_LEFT, 0, car_phase if adrenaline else 0, where)
            or outside(s, CRATE_AWARD, 0, award if crate else 0, where)
            or any_outside(s, CRATE_SPACES, n, 0, spaces if crate else 0, where)
            or any_outside(s, CRATE_SPACES + n, MAX_PLAYERS - n, 0, 0, where)):
        return True
    if _crate_broken(s, p, n, where):
        return True
    if _decision_broken(s, p):
        relation_broken(where)
        return True
    return False


@nb.njit(cache=True)
def _in_market(s, p, effect):
    """Whether the card of some market colour has ``effect``."""
    for c in range(NUM_COLOURS):  # noqa: SIM110 (no generators in numba)
        if card_effect(s, p, c) == effect:
            return True
    return False


@nb.njit(cache=True)
def _crate_broken(s, p, n, where):
    """Crate Motor: the award of a turn is handed out before anyone moves the spaces
    (none left during such a move); without Accelerated Play the spaces are moved right
    after the End Phase that awarded them, so outside that move no seat holds any."""
    if s[PHASE] == PH_CRATE_MOVE:
        return outside(s, CRATE_AWARD, 0, 0, where)
    if p[P_ACCELERATED] == 0:
        return any_outside(s, CRATE_SPACES, n, 0, 0, where)
    return False


@nb.njit(cache=True)
def _decision_broken(s, p):
    """A pending delayed-card decision that play could not have left: Adrenaline's choice
    without an Adrenaline cube resolving, either Adrenaline decision by another seat than
    the one on turn, a Crate Motor move by a seat with no spaces, or by the seat on turn
    without Accelerated Play."""
    phase = s[PHASE]
    current = s[CURRENT]
    turn = s[TURN_SEAT]
    if phase == PH_ADRENALINE:   # the resolving cube waits in the used pile for its move
        colour = s[ACT_COLOUR]
        return (current != turn or colour < 0
                or card_effect(s, p, colour) != E_ADRENALINE
                or s[USED + turn * NUM_COLOURS + colour] <= 0)
    if phase == PH_ADRENALINE_MOVE:
        return current != turn
    if phase == PH_CRATE_MOVE:
        return s[CRATE_SPACES + current] <= 0 or (current == turn and p[P_ACCELERATED] == 0)
    return False
