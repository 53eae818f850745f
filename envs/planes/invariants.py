"""The invariants of a Planes state as one jitted check (fast enough to run after every
step of the property tests, and safe on arbitrary numbers from a state dict).

``violation(s, p)`` returns 0 when every invariant holds, else the number of the first
broken one; ``MESSAGES`` says what it means.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.planes.data import (
    ACT_CHOOSE_ONE,
    ACT_DRAW_DISCARD,
    ACT_GATHER,
    ACT_REGROUP,
    ACT_SEND,
    COPIES,
    GREY,
    MAX_GATES,
    MAX_SPACES,
    MAX_TYPES,
    NUM_COLORS,
    NUM_PARTY_COLORS,
)
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
    P_GATE_START,
    P_NEUTRAL_CUBES,
    P_NUM_GATES,
    P_NUM_PLAYERS,
    P_NUM_SPACES,
    P_NUM_TYPES,
    P_PARTY_CUBES,
    P_PLANE_SLOTS,
    P_PLAYER_DECKS,
    PH_BRANCH,
    PH_CHOOSE,
    PH_DEST,
    PH_DISCARD,
    PH_EXTRA_GOAL,
    PH_OVER,
    PH_SOURCE,
    PH_STEP,
    PHASE,
    POS,
    SEL_A,
    SEL_B,
    SKIP_OWED,
    START,
    STEPS,
    TRACK,
    TURNS,
)

MESSAGES = {
    1: "phase is not a decision of the game",
    2: "current or first player is not a seat at the table",
    3: "a cube count is negative",
    4: "cubes lie on spaces the airport does not have",
    5: "a gate's plane colour is wrong (neutral gates grey, G1-G4 one party colour each)",
    6: "a plane holds more cubes than it has slots, or a missing gate holds cubes",
    7: "the boarding track differs from the number of cubes on planes",
    8: "cubes are not each in exactly one place (5 per party colour, 20 grey)",
    9: "a card count is negative or names a card type that does not exist",
    10: "cards are not each in exactly one place (4 copies of each card)",
    11: "a seat beyond the table holds cards",
    12: "cards sit in personal decks or the box without Player Decks",
    13: "with Player Decks a seat does not hold exactly one copy of each card",
    14: "the card in play is not a card type",
    15: "active cubes exist outside a move, or a move has none",
    16: "a space reference (move, selection, branch) is off the board",
    17: "a card-effect flag or the move count is out of range",
    18: "the game is over without an end trigger",
    19: "turn or move counters are negative",
    20: "the pending decision lacks its context (card in play, chosen space or arrow)",
}


@nb.njit(cache=True)
def _space_ok(v, n_spaces, allow_none):
    if allow_none and v == -1:
        return True
    return 0 <= v < n_spaces


@nb.njit(cache=True)
def violation(s, p):
    """0 if the state is consistent, else the number of the first broken invariant."""
    n_players = p[P_NUM_PLAYERS]
    n_spaces = p[P_NUM_SPACES]
    n_gates = p[P_NUM_GATES]
    n_types = p[P_NUM_TYPES]
    phase = s[PHASE]
    if phase < 0 or phase > PH_OVER:
        return 1
    if not (0 <= s[CURRENT] < n_players and 0 <= s[FIRST_PLAYER] < n_players):
        return 2
    per_color = np.zeros(NUM_COLORS, dtype=np.int64)
    for sp in range(MAX_SPACES):
        for c in range(NUM_COLORS):
            k = s[CUBES + sp * NUM_COLORS + c]
            if k < 0:
                return 3
            if k > 0 and sp >= n_spaces:
                return 4
            per_color[c] += k
    for c in range(NUM_COLORS):
        if s[ACTIVE + c] < 0 or s[BOX_CUBES + c] < 0:
            return 3
        per_color[c] += s[ACTIVE + c] + s[BOX_CUBES + c]
    party = np.zeros(NUM_PARTY_COLORS, dtype=np.int64)
    boarded = 0
    for g in range(MAX_GATES):
        color = s[GATE_COLOR + g]
        k = s[BOARDED + g]
        if k < 0:
            return 3
        if g >= n_gates:
            if color != -1:
                return 5
            if k != 0:
                return 6
            continue
        if p[P_GATE_START + g] < 0:
            if color != GREY:
                return 5
        else:
            if not 0 <= color < NUM_PARTY_COLORS:
                return 5
            party[color] += 1
        if k > p[P_PLANE_SLOTS]:
            return 6
        per_color[color] += k
        boarded += k
    for c in range(NUM_PARTY_COLORS):
        if party[c] != 1:
            return 5
    if s[TRACK] != boarded:
        return 7
    for c in range(NUM_COLORS):
        want = p[P_PARTY_CUBES] if c < NUM_PARTY_COLORS else p[P_NEUTRAL_CUBES]
        if per_color[c] != want:
            return 8
    r = _cards(s, p, n_players, n_types)
    if r != 0:
        return r
    moving = phase in (PH_STEP, PH_BRANCH)
    active = 0
    for c in range(NUM_COLORS):
        active += s[ACTIVE + c]
    if (active > 0) != moving:
        return 15
    if moving and not (_space_ok(s[POS], n_spaces, False) and _space_ok(s[START], n_spaces,
                                                                       False)):
        return 16
    for v in (s[POS], s[START], s[BRANCH], s[SEL_A], s[SEL_B]):
        if not _space_ok(v, n_spaces, True):
            return 16
    for v in (s[SKIP_OWED], s[IGNORE_BLOCKAGES], s[IGNORE_NEUTRALS], s[OWN_ONLY],
              s[BACKWARDS], s[DROPPED]):
        if v != 0 and v != 1:
            return 17
    if not 0 <= s[MOVES_LEFT] <= 2 or not 0 <= s[END_TRIGGERED] <= 2:
        return 17
    if phase == PH_OVER and s[END_TRIGGERED] == 0:
        return 18
    if s[TURNS] < 0 or s[STEPS] < 0:
        return 19
    if not _context_ok(s, p, phase):
        return 20
    return 0


@nb.njit(cache=True)
def _context_ok(s, p, phase):
    """Each decision has what it acts on: the card being resolved, the destination of a
    send, the arrow picked at a branch."""
    card = s[IN_PLAY]
    kind = p[P_ACT_KIND + card] if card >= 0 else -1
    if phase in (PH_CHOOSE, PH_EXTRA_GOAL):
        return kind == ACT_CHOOSE_ONE
    if phase == PH_DISCARD:
        return kind == ACT_DRAW_DISCARD
    if phase == PH_DEST:
        return kind in (ACT_GATHER, ACT_SEND)
    if phase == PH_SOURCE:
        return kind == ACT_REGROUP or (kind == ACT_SEND and s[SEL_A] >= 0)
    if phase == PH_BRANCH:
        return s[BRANCH] >= 0
    return True


@nb.njit(cache=True)
def _cards(s, p, n_players, n_types):
    """Card invariants: counts, conservation, seats, decks (see ``MESSAGES`` 9-14)."""
    in_play = s[IN_PLAY]
    if in_play < -1 or in_play >= n_types:
        return 14
    total = np.zeros(MAX_TYPES, dtype=np.int64)
    for row in range(MAX_PLAYERS):
        for t in range(MAX_TYPES):
            for base in (HAND, GOALS, DECK, DISCARD):
                k = s[base + row * MAX_TYPES + t]
                if k < 0 or (k > 0 and t >= n_types):
                    return 9
                if k > 0 and row >= n_players and (base in (HAND, GOALS)):
                    return 11
                total[t] += k
    for t in range(MAX_TYPES):
        k = s[BOX_CARDS + t]
        if k < 0 or (k > 0 and t >= n_types):
            return 9
        total[t] += k
    if in_play >= 0:
        total[in_play] += 1
    for t in range(n_types):
        if total[t] != COPIES:
            return 10
    if p[P_PLAYER_DECKS] == 0:
        for t in range(MAX_TYPES):
            if s[BOX_CARDS + t] != 0:
                return 12
            for row in range(1, MAX_PLAYERS):
                if s[DECK + row * MAX_TYPES + t] != 0 or s[DISCARD + row * MAX_TYPES + t] != 0:
                    return 12
        return 0
    for seat in range(n_players):
        for t in range(n_types):
            own = 0
            for base in (HAND, GOALS, DECK, DISCARD):
                own += s[base + seat * MAX_TYPES + t]
            if in_play == t and seat == s[CURRENT]:
                own += 1
            if own != 1:
                return 13
    return 0
