"""Which Planes states the kernels may run on: ``violation(s, p, where)``, one jitted check.

Run on every state that enters from outside (``State.from_dict``, ``set_state``,
unpickling, ``BatchEnv.load``) before any other kernel sees it, and after every step of
the property tests (``PlanesGame.check_invariants``). Every field a kernel, the encoder or
the rule-based agent uses as an index, a loop bound or a count is range-checked first
(``where`` receives the slot and its allowed range); then the 40 cubes and 60 cards must
each be in exactly one place, and the pending decision must have its context.
``MESSAGES`` says what each code means.
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
from transit_gym.envs.core.validate import slot_broken as _mark  # names a culprit slot
from transit_gym.envs.planes import data
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.kernels import active_total, stuck

#: slots of the five per-seat statistics (stat_boards ... stat_drawn), contiguous
STAT_SLOTS = 5 * st.MAX_PLAYERS
#: spaces one move can enter: one per active cube, plus the skipped one
MAX_STEPS = data.MAX_CUBES + 1

MESSAGES = {
    **START_MESSAGES,
    3: "current or first player is not a seat at the table",
    4: "a turn counter, statistic or end flag is out of range",
    5: "a cube count is out of range (negative, more than the colour has, or off the board)",
    6: "a gate's plane colour is wrong (neutral gates grey, G1-G4 one party colour each)",
    7: "a plane holds more cubes than it has slots, or a missing gate holds cubes",
    8: "the boarding track differs from the number of cubes on planes",
    9: "cubes are not each in exactly one place (5 per party colour, 20 grey)",
    10: "a card count is out of range (negative, over 4, a card type that does not exist, "
        "a seat beyond the table, or a pile the options do not have)",
    11: "the card in play is not a card type",
    12: "cards are not each in exactly one place (4 copies of each card)",
    13: "with Player Decks a seat does not hold exactly one copy of each card",
    14: "a card-effect flag or the move count is out of range or does not match the card "
        "in play",
    15: "the move's fields (position, start, steps, arrow, active cubes) do not fit the "
        "decision",
    16: "a chosen space (send destination or source) is off the board",
    17: "the end of the game does not fit the track, the round count or the phase",
    18: "the pending decision lacks its context (card in play, chosen space or arrow)",
    19: "moves_left does not fit the phase (1 before the move, 1-2 during it with Move "
        "Twice, 0 in the goal phase and the end-of-turn draw)",
    20: "a card is in play during the action phase or the end-of-turn draw (in_play must "
        "be -1 until a card is played, and the card is discarded before the draw)",
    21: "a live game in which no seat can ever decide again (Taking a Turn: no seat has a "
        "party cube on the board, a card it can play, a goal to score or a card to draw), "
        "so play could only pass turns forever",
    22: "a chosen space (sel_a, sel_b) is left over: only a Send being resolved (or the "
        "end-of-turn draw after it) holds one, and a second source only for Send 2",
}


@nb.njit(cache=True)
def violation(s, p, where):
    """0 when the kernels may run on ``s``; else a code of ``MESSAGES`` (``where``: the
    offending slot and its allowed range, or -1s for a broken relation)."""
    code = start_violation(s, where, st.PHASE, st.PH_OVER)
    if code:
        return code
    n_players = p[st.P_NUM_PLAYERS]
    if (outside(s, st.CURRENT, 0, n_players - 1, where)
            or outside(s, st.FIRST_PLAYER, 0, n_players - 1, where)):
        return 3
    if (outside(s, st.TURNS, 0, MAX_COUNTER, where) or outside(s, st.END_TRIGGERED, 0, 2, where)
            or any_outside(s, st.STAT_BOARDS, STAT_SLOTS, 0, MAX_COUNTER, where)):
        return 4
    # the first part that fails names the code
    code = (_cubes(s, p, where) or _cards(s, p, where) or _effects(s, p, where)
            or _move(s, p, where) or _end(s, p, where))
    if code:
        return code
    if not _context_ok(s, p, where):
        return 18
    if not _selection_ok(s, p, where):
        return 22
    if s[st.PHASE] != st.PH_OVER and s[st.END_TRIGGERED] == 0 and stuck(s, p):
        relation_broken(where)
        return 21
    return 0


@nb.njit(cache=True)
def _cubes(s, p, where):
    """Cube counts in range, planes at the right gates, track, 40 cubes conserved."""
    n_spaces = p[st.P_NUM_SPACES]
    n_gates = p[st.P_NUM_GATES]
    cap = np.empty(data.NUM_COLORS, dtype=np.int64)
    for c in range(data.NUM_COLORS):
        cap[c] = p[st.P_PARTY_CUBES] if c < data.NUM_PARTY_COLORS else p[st.P_NEUTRAL_CUBES]
    per_color = np.zeros(data.NUM_COLORS, dtype=np.int64)
    for sp in range(data.MAX_SPACES):
        for c in range(data.NUM_COLORS):
            i = st.CUBES + sp * data.NUM_COLORS + c
            if outside(s, i, 0, cap[c] if sp < n_spaces else 0, where):
                return 5
            per_color[c] += s[i]
    for c in range(data.NUM_COLORS):
        # in play only unused neutral cubes stay in the box; constructed test positions
        # keep spare party cubes there too (no kernel reads the box)
        if (outside(s, st.ACTIVE + c, 0, cap[c], where)
                or outside(s, st.BOX_CUBES + c, 0, cap[c], where)):
            return 5
        per_color[c] += s[st.ACTIVE + c] + s[st.BOX_CUBES + c]
    party = np.zeros(data.NUM_PARTY_COLORS, dtype=np.int64)
    boarded = 0
    for g in range(data.MAX_GATES):
        if g >= n_gates:
            if outside(s, st.GATE_COLOR + g, -1, -1, where):
                return 6
            if outside(s, st.BOARDED + g, 0, 0, where):
                return 7
            continue
        if p[st.P_GATE_START + g] < 0:
            if outside(s, st.GATE_COLOR + g, data.GREY, data.GREY, where):
                return 6
        else:
            if outside(s, st.GATE_COLOR + g, 0, data.NUM_PARTY_COLORS - 1, where):
                return 6
            party[s[st.GATE_COLOR + g]] += 1
        if outside(s, st.BOARDED + g, 0, p[st.P_PLANE_SLOTS], where):
            return 7
        per_color[s[st.GATE_COLOR + g]] += s[st.BOARDED + g]
        boarded += s[st.BOARDED + g]
    for c in range(data.NUM_PARTY_COLORS):
        if party[c] != 1:
            relation_broken(where)
            return 6
    if outside(s, st.TRACK, boarded, boarded, where):
        return 8
    for c in range(data.NUM_COLORS):
        if per_color[c] != cap[c]:
            relation_broken(where)
            return 9
    return 0


@nb.njit(cache=True)
def _cards(s, p, where):
    """Card counts in range, each card in exactly one place (MESSAGES 10-13)."""
    n_players = p[st.P_NUM_PLAYERS]
    n_types = p[st.P_NUM_TYPES]
    decks = p[st.P_PLAYER_DECKS] != 0
    if outside(s, st.IN_PLAY, -1, n_types - 1, where):
        return 11
    total = np.zeros(data.MAX_TYPES, dtype=np.int64)
    for row in range(st.MAX_PLAYERS):
        for t in range(data.MAX_TYPES):
            for base in (st.HAND, st.GOALS, st.DECK, st.DISCARD):
                if base in (st.HAND, st.GOALS):
                    used = row < n_players
                else:   # the shared deck is row 0; Player Decks use one row per seat
                    used = row < n_players if decks else row == 0
                high = data.COPIES if used and t < n_types else 0
                i = base + row * data.MAX_TYPES + t
                if outside(s, i, 0, high, where):
                    return 10
                total[t] += s[i]
    for t in range(data.MAX_TYPES):
        high = data.COPIES if decks and t < n_types else 0
        if outside(s, st.BOX_CARDS + t, 0, high, where):
            return 10
        total[t] += s[st.BOX_CARDS + t]
    if s[st.IN_PLAY] >= 0:
        total[s[st.IN_PLAY]] += 1
    for t in range(n_types):
        if total[t] != data.COPIES:
            relation_broken(where)
            return 12
    if not decks:
        return 0
    for seat in range(n_players):
        for t in range(n_types):
            own = 0
            for base in (st.HAND, st.GOALS, st.DECK, st.DISCARD):
                own += s[base + seat * data.MAX_TYPES + t]
            if s[st.IN_PLAY] == t and seat == s[st.CURRENT]:
                own += 1
            if own != 1:
                relation_broken(where)
                return 13
    return 0


@nb.njit(cache=True)
def _card_kind(s, p):
    card = s[st.IN_PLAY]
    return p[st.P_ACT_KIND + card] if card >= 0 else -1


@nb.njit(cache=True)
def _effects(s, p, where):
    """Card-effect flags are 0/1 and set only by the card in play (the flags outlive the
    card only in the end-of-turn draw, after the card is discarded)."""
    kind = _card_kind(s, p)
    lingering = s[st.PHASE] == st.PH_DRAW
    flags = (st.SKIP_OWED, st.IGNORE_BLOCKAGES, st.IGNORE_NEUTRALS, st.OWN_ONLY, st.BACKWARDS)
    kinds = (data.ACT_SKIP, data.ACT_CHOOSE_ONE, data.ACT_IGNORE_NEUTRALS, data.ACT_OWN_ONLY,
             data.ACT_BACKWARDS)
    for i in range(5):
        high = 1 if lingering or kind == kinds[i] else 0
        if outside(s, flags[i], 0, high, where):
            return 14
    phase = s[st.PHASE]
    if phase in (st.PH_START, st.PH_STEP, st.PH_BRANCH):   # this move, with Move Twice one more
        low, high = 1, 2 if kind == data.ACT_MOVE_TWICE else 1
    elif phase in (st.PH_GOAL, st.PH_DRAW):   # every move of the turn is made
        low, high = 0, 0
    elif phase == st.PH_OVER:
        low, high = 0, 1
    else:   # the action phase and the card's decisions come before the one move
        low, high = 1, 1
    if outside(s, st.MOVES_LEFT, low, high, where):
        return 19
    if phase in (st.PH_ACTION, st.PH_DRAW) and outside(s, st.IN_PLAY, -1, -1, where):
        return 20
    return 0


@nb.njit(cache=True)
def _move(s, p, where):
    """During a move: the active cubes' space, start, steps, the arrow picked; outside a
    move those fields are cleared and no cube is active."""
    n_spaces = p[st.P_NUM_SPACES]
    phase = s[st.PHASE]
    moving = phase in (st.PH_STEP, st.PH_BRANCH)
    if not moving:
        if (outside(s, st.POS, -1, -1, where) or outside(s, st.START, -1, -1, where)
                or outside(s, st.STEPS, 0, 0, where) or outside(s, st.DROPPED, 0, 0, where)
                or outside(s, st.BRANCH, -1, -1, where)
                or any_outside(s, st.ACTIVE, data.NUM_COLORS, 0, 0, where)):
            return 15
    else:
        if (outside(s, st.POS, 0, n_spaces - 1, where)
                or outside(s, st.START, 0, n_spaces - 1, where)
                or outside(s, st.STEPS, 0, MAX_STEPS, where)
                or outside(s, st.DROPPED, 0, 1, where)):
            return 15
        active = active_total(s)
        if active == 0:
            _mark(where, st.ACTIVE)
            return 15
        # each step drops an active cube or uses the one skip owed, so the steps still
        # to come fit the counter's range: steps + active + skip owed <= MAX_STEPS
        if outside(s, st.STEPS, 0, MAX_STEPS - active - s[st.SKIP_OWED], where):
            return 15
        if phase == st.PH_STEP:
            if outside(s, st.BRANCH, -1, -1, where):
                return 15
        else:
            if outside(s, st.BRANCH, 0, n_spaces - 1, where):
                return 15
            if s[st.BACKWARDS] != 0:
                base = st.P_PREV + s[st.POS] * data.MAX_ARROWS
                n = p[st.P_PREV_N + s[st.POS]]
            else:
                base = st.P_NEXT + s[st.POS] * data.MAX_ARROWS
                n = p[st.P_NEXT_N + s[st.POS]]
            found = False
            for i in range(n):
                if p[base + i] == s[st.BRANCH]:
                    found = True
            if not found:
                _mark(where, st.BRANCH)
                return 15
    if (outside(s, st.SEL_A, -1, n_spaces - 1, where)
            or outside(s, st.SEL_B, -1, n_spaces - 1, where)):
        return 16
    return 0


@nb.njit(cache=True)
def _end(s, p, where):
    """The end is triggered once the track reaches its end space (or the round limit);
    a finished game has a trigger and no card in play."""
    if s[st.TRACK] >= p[st.P_END_AT] and s[st.END_TRIGGERED] != 1:
        _mark(where, st.END_TRIGGERED)
        return 17
    if s[st.END_TRIGGERED] == 2 and p[st.P_MAX_ROUNDS] == 0:
        _mark(where, st.END_TRIGGERED)
        return 17
    if s[st.PHASE] == st.PH_OVER and (s[st.END_TRIGGERED] == 0 or s[st.IN_PLAY] != -1):
        _mark(where, st.PHASE)
        return 17
    return 0


@nb.njit(cache=True)
def _context_ok(s, p, where):
    """Each decision has what it acts on: the card being resolved, the destination of a
    send (a space with the card's point of interest), the first source of Send 2 (still
    holding the mover's cube)."""
    phase = s[st.PHASE]
    kind = _card_kind(s, p)
    card = s[st.IN_PLAY]
    ok = True
    if phase in (st.PH_CHOOSE, st.PH_EXTRA_GOAL):
        ok = kind == data.ACT_CHOOSE_ONE
    elif phase == st.PH_DISCARD:
        ok = kind == data.ACT_DRAW_DISCARD
    elif phase == st.PH_DEST:
        ok = (kind in (data.ACT_GATHER, data.ACT_SEND)) and s[st.SEL_A] == -1 and s[st.SEL_B] == -1
    elif phase == st.PH_SOURCE:
        if kind == data.ACT_REGROUP:
            ok = s[st.SEL_A] == -1 and s[st.SEL_B] == -1
        elif kind == data.ACT_SEND:
            ok = s[st.SEL_A] >= 0 and p[st.P_POI + s[st.SEL_A]] == p[st.P_ACT_POI + card]
            if ok and s[st.SEL_B] >= 0:
                ok = (p[st.P_ACT_N + card] == 2
                      and s[st.CUBES + s[st.SEL_B] * data.NUM_COLORS + s[st.CURRENT]] >= 1)
        else:
            ok = False
    if not ok:
        _mark(where, st.PHASE)
    return ok


@nb.njit(cache=True)
def _selection_ok(s, p, where):
    """The spaces chosen for a Send (``sel_a`` destination, ``sel_b`` first source) are
    held only while that Send is the card in play (through the rest of its turn) or in the
    end-of-turn draw after it; the second source only for Send 2."""
    if s[st.SEL_A] < 0 and s[st.SEL_B] < 0:
        return True
    if s[st.PHASE] == st.PH_DRAW:
        return True
    card = s[st.IN_PLAY]
    if card < 0 or p[st.P_ACT_KIND + card] != data.ACT_SEND:
        _mark(where, st.SEL_A if s[st.SEL_A] >= 0 else st.SEL_B)
        return False
    if s[st.SEL_B] >= 0 and (s[st.SEL_A] < 0 or p[st.P_ACT_N + card] != 2):
        _mark(where, st.SEL_B)
        return False
    return True
