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
from transit_gym.envs.planes.data import (
    ACT_BACKWARDS,
    ACT_CHOOSE_ONE,
    ACT_DRAW_DISCARD,
    ACT_GATHER,
    ACT_IGNORE_NEUTRALS,
    ACT_MOVE_TWICE,
    ACT_OWN_ONLY,
    ACT_REGROUP,
    ACT_SEND,
    ACT_SKIP,
    COPIES,
    GREY,
    MAX_ARROWS,
    MAX_CUBES,
    MAX_GATES,
    MAX_SPACES,
    MAX_TYPES,
    NUM_COLORS,
    NUM_PARTY_COLORS,
)
from transit_gym.envs.planes.kernels import active_total, stuck
from transit_gym.envs.planes.state import (
    ACTIVE,
    BACKWARDS,
    BOARDED,
    BOX_CARDS,
    BOX_CUBES,
    BRANCH,
    CUBES,
    CURRENT,
    DECK,
    DISCARD,
    DROPPED,
    END_TRIGGERED,
    FIRST_PLAYER,
    GATE_COLOR,
    GOALS,
    HAND,
    IGNORE_BLOCKAGES,
    IGNORE_NEUTRALS,
    IN_PLAY,
    MAX_PLAYERS,
    MOVES_LEFT,
    OWN_ONLY,
    P_ACT_KIND,
    P_ACT_N,
    P_ACT_POI,
    P_END_AT,
    P_GATE_START,
    P_MAX_ROUNDS,
    P_NEUTRAL_CUBES,
    P_NEXT,
    P_NEXT_N,
    P_NUM_GATES,
    P_NUM_PLAYERS,
    P_NUM_SPACES,
    P_NUM_TYPES,
    P_PARTY_CUBES,
    P_PLANE_SLOTS,
    P_PLAYER_DECKS,
    P_POI,
    P_PREV,
    P_PREV_N,
    PH_ACTION,
    PH_BRANCH,
    PH_CHOOSE,
    PH_DEST,
    PH_DISCARD,
    PH_DRAW,
    PH_EXTRA_GOAL,
    PH_GOAL,
    PH_OVER,
    PH_SOURCE,
    PH_START,
    PH_STEP,
    PHASE,
    POS,
    SEL_A,
    SEL_B,
    SKIP_OWED,
    START,
    STAT_BOARDS,
    STEPS,
    TRACK,
    TURNS,
)

#: slots of the five per-seat statistics (stat_boards ... stat_drawn), contiguous
STAT_SLOTS = 5 * MAX_PLAYERS
#: spaces one move can enter: one per active cube, plus the skipped one
MAX_STEPS = MAX_CUBES + 1

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
    code = start_violation(s, where, PHASE, PH_OVER)
    if code:
        return code
    n_players = p[P_NUM_PLAYERS]
    if (outside(s, CURRENT, 0, n_players - 1, where)
            or outside(s, FIRST_PLAYER, 0, n_players - 1, where)):
        return 3
    if (outside(s, TURNS, 0, MAX_COUNTER, where) or outside(s, END_TRIGGERED, 0, 2, where)
            or any_outside(s, STAT_BOARDS, STAT_SLOTS, 0, MAX_COUNTER, where)):
        return 4
    code = _cubes(s, p, where)
    if code:
        return code
    code = _cards(s, p, where)
    if code:
        return code
    code = _effects(s, p, where)
    if code:
        return code
    code = _move(s, p, where)
    if code:
        return code
    code = _end(s, p, where)
    if code:
        return code
    if not _context_ok(s, p, where):
        return 18
    if not _selection_ok(s, p, where):
        return 22
    if s[PHASE] != PH_OVER and s[END_TRIGGERED] == 0 and stuck(s, p):
        relation_broken(where)
        return 21
    return 0


@nb.njit(cache=True)
def _cubes(s, p, where):
    """Cube counts in range, planes at the right gates, track, 40 cubes conserved."""
    n_spaces = p[P_NUM_SPACES]
    n_gates = p[P_NUM_GATES]
    cap = np.empty(NUM_COLORS, dtype=np.int64)
    for c in range(NUM_COLORS):
        cap[c] = p[P_PARTY_CUBES] if c < NUM_PARTY_COLORS else p[P_NEUTRAL_CUBES]
    per_color = np.zeros(NUM_COLORS, dtype=np.int64)
    for sp in range(MAX_SPACES):
        for c in range(NUM_COLORS):
            i = CUBES + sp * NUM_COLORS + c
            if outside(s, i, 0, cap[c] if sp < n_spaces else 0, where):
                return 5
            per_color[c] += s[i]
    for c in range(NUM_COLORS):
        # in play only unused neutral cubes stay in the box; constructed test positions
        # keep spare party cubes there too (no kernel reads the box)
        if (outside(s, ACTIVE + c, 0, cap[c], where)
                or outside(s, BOX_CUBES + c, 0, cap[c], where)):
            return 5
        per_color[c] += s[ACTIVE + c] + s[BOX_CUBES + c]
    party = np.zeros(NUM_PARTY_COLORS, dtype=np.int64)
    boarded = 0
    for g in range(MAX_GATES):
        if g >= n_gates:
            if outside(s, GATE_COLOR + g, -1, -1, where):
                return 6
            if outside(s, BOARDED + g, 0, 0, where):
                return 7
            continue
        if p[P_GATE_START + g] < 0:
            if outside(s, GATE_COLOR + g, GREY, GREY, where):
                return 6
        else:
            if outside(s, GATE_COLOR + g, 0, NUM_PARTY_COLORS - 1, where):
                return 6
            party[s[GATE_COLOR + g]] += 1
        if outside(s, BOARDED + g, 0, p[P_PLANE_SLOTS], where):
            return 7
        per_color[s[GATE_COLOR + g]] += s[BOARDED + g]
        boarded += s[BOARDED + g]
    for c in range(NUM_PARTY_COLORS):
        if party[c] != 1:
            relation_broken(where)
            return 6
    if outside(s, TRACK, boarded, boarded, where):
        return 8
    for c in range(NUM_COLORS):
        if per_color[c] != cap[c]:
            relation_broken(where)
            return 9
    return 0


@nb.njit(cache=True)
def _cards(s, p, where):
    """Card counts in range, each card in exactly one place (MESSAGES 10-13)."""
    n_players = p[P_NUM_PLAYERS]
    n_types = p[P_NUM_TYPES]
    decks = p[P_PLAYER_DECKS] != 0
    if outside(s, IN_PLAY, -1, n_types - 1, where):
        return 11
    total = np.zeros(MAX_TYPES, dtype=np.int64)
    for row in range(MAX_PLAYERS):
        for t in range(MAX_TYPES):
            for base in (HAND, GOALS, DECK, DISCARD):
                if base in (HAND, GOALS):
                    used = row < n_players
                else:   # the shared deck is row 0; Player Decks use one row per seat
                    used = row < n_players if decks else row == 0
                high = COPIES if used and t < n_types else 0
                i = base + row * MAX_TYPES + t
                if outside(s, i, 0, high, where):
                    return 10
                total[t] += s[i]
    for t in range(MAX_TYPES):
        high = COPIES if decks and t < n_types else 0
        if outside(s, BOX_CARDS + t, 0, high, where):
            return 10
        total[t] += s[BOX_CARDS + t]
    if s[IN_PLAY] >= 0:
        total[s[IN_PLAY]] += 1
    for t in range(n_types):
        if total[t] != COPIES:
            relation_broken(where)
            return 12
    if not decks:
        return 0
    for seat in range(n_players):
        for t in range(n_types):
            own = 0
            for base in (HAND, GOALS, DECK, DISCARD):
                own += s[base + seat * MAX_TYPES + t]
            if s[IN_PLAY] == t and seat == s[CURRENT]:
                own += 1
            if own != 1:
                relation_broken(where)
                return 13
    return 0


@nb.njit(cache=True)
def _card_kind(s, p):
    card = s[IN_PLAY]
    return p[P_ACT_KIND + card] if card >= 0 else -1


@nb.njit(cache=True)
def _effects(s, p, where):
    """Card-effect flags are 0/1 and set only by the card in play (the flags outlive the
    card only in the end-of-turn draw, after the card is discarded)."""
    kind = _card_kind(s, p)
    lingering = s[PHASE] == PH_DRAW
    flags = (SKIP_OWED, IGNORE_BLOCKAGES, IGNORE_NEUTRALS, OWN_ONLY, BACKWARDS)
    kinds = (ACT_SKIP, ACT_CHOOSE_ONE, ACT_IGNORE_NEUTRALS, ACT_OWN_ONLY, ACT_BACKWARDS)
    for i in range(5):
        high = 1 if lingering or kind == kinds[i] else 0
        if outside(s, flags[i], 0, high, where):
            return 14
    phase = s[PHASE]
    if phase in (PH_START, PH_STEP, PH_BRANCH):   # this move and, with Move Twice, one more
        low, high = 1, 2 if kind == ACT_MOVE_TWICE else 1
    elif phase in (PH_GOAL, PH_DRAW):   # every move of the turn is made
        low, high = 0, 0
    elif phase == PH_OVER:
        low, high = 0, 1
    else:   # the action phase and the card's decisions come before the one move
        low, high = 1, 1
    if outside(s, MOVES_LEFT, low, high, where):
        return 19
    if phase in (PH_ACTION, PH_DRAW) and outside(s, IN_PLAY, -1, -1, where):
        return 20
    return 0


@nb.njit(cache=True)
def _move(s, p, where):
    """During a move: the active cubes' space, start, steps, the arrow picked; outside a
    move those fields are cleared and no cube is active."""
    n_spaces = p[P_NUM_SPACES]
    phase = s[PHASE]
    moving = phase in (PH_STEP, PH_BRANCH)
    if not moving:
        if (outside(s, POS, -1, -1, where) or outside(s, START, -1, -1, where)
                or outside(s, STEPS, 0, 0, where) or outside(s, DROPPED, 0, 0, where)
                or outside(s, BRANCH, -1, -1, where)
                or any_outside(s, ACTIVE, NUM_COLORS, 0, 0, where)):
            return 15
    else:
        if (outside(s, POS, 0, n_spaces - 1, where) or outside(s, START, 0, n_spaces - 1, where)
                or outside(s, STEPS, 0, MAX_STEPS, where) or outside(s, DROPPED, 0, 1, where)):
            return 15
        active = active_total(s)
        if active == 0:
            _mark(where, ACTIVE)
            return 15
        # each step drops an active cube or uses the one skip owed, so the steps still
        # to come fit the counter's range: steps + active + skip owed <= MAX_STEPS
        if outside(s, STEPS, 0, MAX_STEPS - active - s[SKIP_OWED], where):
            return 15
        if phase == PH_STEP:
            if outside(s, BRANCH, -1, -1, where):
                return 15
        else:
            if outside(s, BRANCH, 0, n_spaces - 1, where):
                return 15
            if s[BACKWARDS] != 0:
                base = P_PREV + s[POS] * MAX_ARROWS
                n = p[P_PREV_N + s[POS]]
            else:
                base = P_NEXT + s[POS] * MAX_ARROWS
                n = p[P_NEXT_N + s[POS]]
            found = False
            for i in range(n):
                if p[base + i] == s[BRANCH]:
                    found = True
            if not found:
                _mark(where, BRANCH)
                return 15
    if outside(s, SEL_A, -1, n_spaces - 1, where) or outside(s, SEL_B, -1, n_spaces - 1, where):
        return 16
    return 0


@nb.njit(cache=True)
def _end(s, p, where):
    """The end is triggered once the track reaches its end space (or the round limit);
    a finished game has a trigger and no card in play."""
    if s[TRACK] >= p[P_END_AT] and s[END_TRIGGERED] != 1:
        _mark(where, END_TRIGGERED)
        return 17
    if s[END_TRIGGERED] == 2 and p[P_MAX_ROUNDS] == 0:
        _mark(where, END_TRIGGERED)
        return 17
    if s[PHASE] == PH_OVER and (s[END_TRIGGERED] == 0 or s[IN_PLAY] != -1):
        _mark(where, PHASE)
        return 17
    return 0


@nb.njit(cache=True)
def _context_ok(s, p, where):
    """Each decision has what it acts on: the card being resolved, the destination of a
    send (a space with the card's point of interest), the first source of Send 2 (still
    holding the mover's cube)."""
    phase = s[PHASE]
    kind = _card_kind(s, p)
    card = s[IN_PLAY]
    ok = True
    if phase in (PH_CHOOSE, PH_EXTRA_GOAL):
        ok = kind == ACT_CHOOSE_ONE
    elif phase == PH_DISCARD:
        ok = kind == ACT_DRAW_DISCARD
    elif phase == PH_DEST:
        ok = (kind in (ACT_GATHER, ACT_SEND)) and s[SEL_A] == -1 and s[SEL_B] == -1
    elif phase == PH_SOURCE:
        if kind == ACT_REGROUP:
            ok = s[SEL_A] == -1 and s[SEL_B] == -1
        elif kind == ACT_SEND:
            ok = s[SEL_A] >= 0 and p[P_POI + s[SEL_A]] == p[P_ACT_POI + card]
            if ok and s[SEL_B] >= 0:
                ok = (p[P_ACT_N + card] == 2
                      and s[CUBES + s[SEL_B] * NUM_COLORS + s[CURRENT]] >= 1)
        else:
            ok = False
    if not ok:
        _mark(where, PHASE)
    return ok


@nb.njit(cache=True)
def _selection_ok(s, p, where):
    """The spaces chosen for a Send (``sel_a`` destination, ``sel_b`` first source) are
    held only while that Send is the card in play (through the rest of its turn) or in the
    end-of-turn draw after it; the second source only for Send 2."""
    if s[SEL_A] < 0 and s[SEL_B] < 0:
        return True
    if s[PHASE] == PH_DRAW:
        return True
    card = s[IN_PLAY]
    if card < 0 or p[P_ACT_KIND + card] != ACT_SEND:
        _mark(where, SEL_A if s[SEL_A] >= 0 else SEL_B)
        return False
    if s[SEL_B] >= 0 and (s[SEL_A] < 0 or p[P_ACT_N + card] != 2):
        _mark(where, SEL_B)
        return False
    return True
