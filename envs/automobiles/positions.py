"""How far the unwrapped positions may lie: ``position_range`` and ``positions_broken``.

Positions only grow (How to Move on the Track: every step goes forward; Momentum fills
segments of a car's own space), and the race ends with the round in which a car crosses
the finish line on its last lap (Car Phase; Winning the Game). So what bounds a position
is the movement still allowed before that end, which a saved state can tell:

- one step (a cube's or a car's, onto the next space) ends at most the longest space
  past the point it left: the new space covers the unit just past that point;
- the seat on turn still has ``MAX_PATH - path_n`` steps of cubes and Adrenaline, and a
  driver's car moves (Driver 06 after the Car Phase, then Driver 01 in the Decline Phase:
  ``pk_left`` while they run, the most the driver allows before);
- every car still moves its awarded Crate Motor spaces (``crate_spaces``), and the award
  of this turn until it is handed out after the End Phase;
- the turns left: once the end is in sight (``end_triggered``, or a car already past the
  line, which triggers it when the turn ends) the turns up to the start player's; before
  that, a whole round, counted from a car that has not crossed the line; before the
  first turn (the driver draft, the setup purchases) a fresh turn and a whole round.

A car's reach is the front edge of its space (Momentum moves a car up within its space;
a step leaves from the front of a segment), and for the seat on turn also the fronts of
the turn's placed cubes and of the moving cube (the Car Phase moves the car onto the
farthest). ``positions_broken`` requires each reach plus the longest space per step still
allowed to stay within the ceiling of ``position_range``. A step uses up one of the steps
allowed and adds at most the longest space; a turn that ends leaves one turn fewer; and
while no car has crossed the line, a new turn starts with every reach less than a space
past the line, which the ceiling allows for with a whole round after it. So every legal
move from an accepted state leads to an accepted state, and real play is accepted.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobiles.data import WEAR
from transit_gym.envs.automobiles.racing_season.cards_delayed import bonus_caps
from transit_gym.envs.automobiles.state import (
    CAR_ABS,
    CAR_SEG,
    CRATE_SPACES,
    END_TRIGGERED,
    MAX_PATH,
    MV_ABS,
    MV_SPACE,
    P_ACCELERATED,
    P_DRIVER_AMOUNT,
    P_DRIVERS,
    P_LAP,
    P_LAPS,
    P_NUM_PLAYERS,
    P_NUM_SPACES,
    P_SPACE_LEN,
    P_SUPPLY,
    PATH_N,
    PH_ADRENALINE_MOVE,
    PH_CRATE_MOVE,
    PH_DRIVER_CAR,
    PH_DRIVER_DECLINE,
    PH_DRIVER_DRAFT,
    PH_DRIVER_EXTRA,
    PH_DRIVER_REDRAW,
    PH_DRIVER_WEAR,
    PH_OVER,
    PH_SETUP_BUY,
    PHASE,
    PK_LEFT,
    PLACED_ABS,
    PLACED_N,
    START_PLAYER,
    TURN_SEAT,
)


@nb.njit(cache=True)
def _longest(p):
    """The most one step adds to a position: the longest space of the track."""
    most = 1
    for space in range(p[P_NUM_SPACES]):
        most = max(most, p[P_SPACE_LEN + space])
    return most


@nb.njit(cache=True)
def _driver_steps(p):
    """The most car moves a driver gives in one turn: Driver 06's number, or Driver 01's
    number per wear cube gained in the Decline Phase (a seat holds one driver)."""
    if p[P_DRIVERS] == 0:
        return 0
    return max(p[P_DRIVER_AMOUNT + 5], p[P_SUPPLY + WEAR] * p[P_DRIVER_AMOUNT + 0])


@nb.njit(cache=True)
def _turn_steps(p):
    """The most steps one turn gives a car: the turn's path, two driver moves' worth (the
    budget held before the Car Phase) and one Crate Motor award."""
    return MAX_PATH + 2 * _driver_steps(p) + bonus_caps(p)[1]


@nb.njit(cache=True)
def finish_line(p):
    """The unwrapped position of the finish line on the last lap: a car past it has
    finished (``board.crossings`` reaches ``laps``)."""
    return (p[P_LAPS] - 1) * p[P_LAP]


@nb.njit(cache=True)
def position_range(p):
    """``(low, high)``: the range of every unwrapped position. ``low`` is ``laps + 4``
    laps before the line, far behind every start; ``high`` is the finish line plus, in
    steps of the longest space, a fresh turn with every awarded space (and one step for
    the segment of a car not past the line) and a round of turns after it."""
    n = p[P_NUM_PLAYERS]
    spaces = bonus_caps(p)[2]
    fresh = _turn_steps(p) + spaces + 1
    low = -(p[P_LAPS] + 4) * p[P_LAP]
    return low, finish_line(p) + _longest(p) * (fresh + (n - 1) * _turn_steps(p))


@nb.njit(cache=True)
def _before_first_turn(s):
    """The driver draft and the setup purchases go round the table before the first turn:
    the first round, a fresh turn of the start player first, is still to come (the seat
    deciding is not the one whose turn comes first)."""
    return s[PHASE] in (PH_DRIVER_DRAFT, PH_SETUP_BUY)


@nb.njit(cache=True)
def _own_steps(s, p):
    """The steps the seat on turn may still make itself this turn (see the module)."""
    phase = s[PHASE]
    path = MAX_PATH - s[PATH_N]
    drivers = _driver_steps(p)
    if _before_first_turn(s):
        return MAX_PATH + 2 * drivers
    if phase == PH_DRIVER_DECLINE:
        return s[PK_LEFT]
    if phase == PH_DRIVER_CAR:
        return s[PK_LEFT] + path + drivers
    if phase == PH_ADRENALINE_MOVE:
        return path + drivers
    if phase in (PH_DRIVER_WEAR, PH_DRIVER_EXTRA, PH_DRIVER_REDRAW) or (
            phase == PH_CRATE_MOVE and p[P_ACCELERATED] == 0):
        return 0   # the End Phase has begun
    return path + 2 * drivers


@nb.njit(cache=True)
def _turns_after(s, p):
    """Whole turns that may still follow this one before the race ends."""
    n = p[P_NUM_PLAYERS]
    if _before_first_turn(s):
        return n - 1
    line = finish_line(p)
    in_sight = s[END_TRIGGERED] != 0
    for seat in range(n):
        if s[CAR_ABS + seat] > line:
            in_sight = True
    if not in_sight:
        return n - 1
    return (s[START_PLAYER] - s[TURN_SEAT] - 1 + n) % n


@nb.njit(cache=True)
def positions_broken(s, p, where):
    """True (``where``: the farthest slot of the car breaking it and the most it may
    hold) when a car's reach plus the steps still allowed passes ``position_range``'s
    ceiling (see the module). A finished race is not checked."""
    if s[PHASE] == PH_OVER:
        return False
    low, high = position_range(p)
    step = _longest(p)
    turn = s[TURN_SEAT]
    if _before_first_turn(s):   # the seats take turns at the purchases; the start player's
        turn = s[START_PLAYER]  # turn is the first to move a car
    # the award of this turn is handed out after the End Phase (then moved at once,
    # or, with Accelerated Play, at each player's own turn)
    pending = bonus_caps(p)[1]
    if s[PHASE] == PH_CRATE_MOVE and p[P_ACCELERATED] == 0:
        pending = 0
    later = _turns_after(s, p) * _turn_steps(p)
    for seat in range(p[P_NUM_PLAYERS]):
        slot = CAR_ABS + seat
        reach = s[slot] + s[CAR_SEG + seat]
        steps = s[CRATE_SPACES + seat] + pending + later
        if seat == turn:
            steps += _own_steps(s, p)
            for i in range(s[PLACED_N]):
                if s[PLACED_ABS + i] > reach:
                    slot = PLACED_ABS + i
                    reach = s[slot]
            if s[MV_SPACE] >= 0 and s[MV_ABS] > reach:
                slot = MV_ABS
                reach = s[slot]
        excess = reach + step * steps - high
        if excess > 0:
            where[0] = slot
            where[1] = low
            where[2] = s[slot] - excess
            return True
    return False

