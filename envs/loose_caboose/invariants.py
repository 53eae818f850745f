"""Which Loose Caboose! states the kernels may run on: ``violation(s, p, where)``.

Run on every state that enters from outside (``State.from_dict``, ``set_state``,
unpickling, ``BatchEnv.load``) before any other kernel sees it. Every field a kernel uses
as an index, a loop bound or a count is range-checked; the cards must each be in exactly
one place with the ordered piles agreeing (``kernels.conservation_error``); the railway
must be one connected line on the grid; the pending decision must have its context.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.core.validate import (
    MAX_COUNTER,
    START_MESSAGES,
    any_outside,
    outside,
    relation_broken,
    start_violation,
)
from transit_gym.envs.loose_caboose import state as st
from transit_gym.envs.loose_caboose.data import CURVE, MAX_CARDS, MAX_VALUE
from transit_gym.envs.loose_caboose.kernels import (
    DX,
    DY,
    cell_in,
    cell_out,
    cell_x,
    cell_y,
    conservation_error,
)

#: slots of the six per-seat statistics (stat_passes ... stat_unpaid), contiguous
STAT_SLOTS = 6 * st.MAX_PLAYERS

MESSAGES = {
    **START_MESSAGES,
    3: "a seat number is not a seat at the table",
    4: "the value or count of the cards laid this turn does not fit the decision",
    5: "a flag or counter is out of range",
    6: "a pile length or railway index is out of range",
    7: "a card is in a place that does not exist",
    8: "the draw pile does not list exactly the cards in it",
    9: "the railway does not list exactly the cards on it",
    10: "a penalty pile is broken (its chain, or cards on it)",
    11: "the caboose is not on the railway",
    12: "the railway is not one connected line on the grid starting at the origin (the card "
        "at railway index i lies at most i cells from it)",
    13: "the cards laid this turn (the last turn_cards of the railway) do not all have the "
        "value of this turn",
}

_CONSERVATION = (0, 7, 8, 9, 10, 11)   # kernels.conservation_error code -> violation code


@nb.njit(cache=True)
def violation(s, p, where):
    """0 when the kernels may run on ``s``; else a code of ``MESSAGES`` (``where``: the
    offending slot and its allowed range, or -1s for a broken relation)."""
    code = start_violation(s, where, st.PHASE, st.PHASE_OVER)
    if code:
        return code
    n_players = p[st.P_NUM_PLAYERS]
    n_cards = p[st.P_NUM_CARDS]
    if outside(s, st.CURRENT, 0, n_players - 1, where) or outside(s, st.FIRST_PLAYER, 0,
                                                                n_players - 1, where):
        return 3
    continuing = s[st.PHASE] == st.PHASE_CONTINUE
    if continuing:
        if outside(s, st.TURN_VALUE, 1, MAX_VALUE, where) or outside(s, st.TURN_CARDS, 1, n_cards,
                                                                   where):
            return 4
    elif outside(s, st.TURN_VALUE, 0, 0, where) or outside(s, st.TURN_CARDS, 0, 0, where):
        return 4
    max_face = 0
    for f in range(p[st.P_NUM_FACES]):
        max_face = max(max_face, p[st.P_FACES + f])
    if (outside(s, st.END_TRIGGERED, 0, 1, where) or outside(s, st.TURNS, 0, MAX_COUNTER, where)
            or outside(s, st.LAST_WHEELS, -1, MAX_VALUE * max_face, where)
            or any_outside(s, st.STAT_PASSES, STAT_SLOTS, 0, MAX_COUNTER, where)):
        return 5
    if (outside(s, st.DECK_LEN, 0, n_cards, where) or outside(s, st.RAIL_LO, 0, n_cards - 1, where)
            or outside(s, st.RAIL_HI, s[st.RAIL_LO] + 1, n_cards, where)):
        return 6
    if (any_outside(s, st.LOC, n_cards, 0, st.Z_LAST - 1, where)
            or any_outside(s, st.LOC + n_cards, MAX_CARDS - n_cards, st.Z_UNUSED, st.Z_UNUSED,
                           where)):
        return 7
    if (any_outside(s, st.UNDER, n_cards, -1, n_cards - 1, where)
            or any_outside(s, st.PILE_TOP, n_players, -1, n_cards - 1, where)
            or any_outside(s, st.PILE_TOP + n_players, st.MAX_PLAYERS - n_players, -1, -1, where)):
        return 10
    for card in range(n_cards):   # only face-up penalty cards lie on another card
        loc = s[st.LOC + card]
        if s[st.UNDER + card] != -1 and not st.Z_PILE <= loc < st.Z_PILE + n_players:
            where[0] = st.UNDER + card
            where[1] = -1
            where[2] = -1
            return 10
    code = conservation_error(s, p)
    if code:
        relation_broken(where)
        return _CONSERVATION[code]
    if _railway_broken(s, p, where):
        return 12
    if continuing and _turn_cards_broken(s, p, where):
        return 13
    return 0


@nb.njit(cache=True)
def _railway_broken(s, p, where):
    """Each railway card sits where the one behind it leads, entering along that card's
    way out, and turns only if it is a curve, at most its railway index away from the
    origin; on the grid no two cards share a cell."""
    lo = s[st.RAIL_LO]
    hi = s[st.RAIL_HI]
    geometry = p[st.P_GEOMETRY] != 0
    for i in range(lo, hi):
        cell = s[st.RAIL_CELL + i]
        if outside(s, st.RAIL_CELL + i, 0, (1 << 20) - 1, where):
            return True
        turns = cell_in(cell) != cell_out(cell)
        # the first card lies at the origin and each card one cell on, so the card at
        # index i is at most i steps away: the next card laid still fits the grid
        far = abs(cell_x(cell)) + abs(cell_y(cell)) > i
        if far or (geometry and turns != (p[st.P_SHAPES + s[st.RAIL + i]] == CURVE)):
            where[0] = st.RAIL_CELL + i
            where[1] = -1
            where[2] = -1
            return True
        if i > lo:
            prev = s[st.RAIL_CELL + i - 1]
            d = cell_out(prev)
            if (cell_in(cell) != d or cell_x(cell) != cell_x(prev) + DX[d]
                    or cell_y(cell) != cell_y(prev) + DY[d]):
                where[0] = st.RAIL_CELL + i
                where[1] = -1
                where[2] = -1
                return True
    if geometry:
        taken = np.zeros(256 * 256, dtype=np.bool_)
        for i in range(lo, hi):
            key = s[st.RAIL_CELL + i] & 0xFFFF
            if taken[key]:
                where[0] = st.RAIL_CELL + i
                where[1] = -1
                where[2] = -1
                return True
            taken[key] = True
    return False


@nb.njit(cache=True)
def _turn_cards_broken(s, p, where):
    """Taking a Turn: the cards laid this turn all have one value, so the last
    ``turn_cards`` cards of the railway all have ``turn_value`` (which bounds the counter
    by the copies of that value, the observation's range)."""
    if outside(s, st.TURN_CARDS, 1, s[st.RAIL_HI] - s[st.RAIL_LO], where):
        return True
    for i in range(s[st.RAIL_HI] - s[st.TURN_CARDS], s[st.RAIL_HI]):
        if p[st.P_VALUES + s[st.RAIL + i]] != s[st.TURN_VALUE]:
            where[0] = st.TURN_CARDS
            where[1] = -1
            where[2] = -1
            return True
    return False
