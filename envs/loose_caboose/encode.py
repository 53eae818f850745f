"""What one seat sees of Loose Caboose!, the action layout, and actions in words.

A seat sees its own hand; of the others only their hand sizes. Penalty piles,
banked cards (taken face up from the railway before they were turned down), the
railway and the discard pile are public. The removed cards and the order of
the draw pile are hidden. Other seats are listed from the observer's left.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from envs.core.layout import Layout
from envs.loose_caboose.data import MAX_CARDS, MAX_VALUE
from envs.loose_caboose.kernels import (
    A_PASS,
    A_PLAY,
    A_ROLL,
    NUM_ACTIONS,
    decode_play,
    pile_points,
    placement_ok,
)
from envs.loose_caboose.state import (
    BANK,
    BANK_LEN,
    CABOOSE,
    CURRENT,
    DECK_LEN,
    DISCARD,
    DISCARD_LEN,
    END_TRIGGERED,
    HAND,
    HAND_FINAL,
    HAND_FINAL_LEN,
    HAND_LEN,
    MAX_PLAYERS,
    P_BROKEN,
    P_FACES,
    P_GEOMETRY,
    P_NUM_CARDS,
    P_NUM_FACES,
    P_NUM_PLAYERS,
    P_SHAPES,
    P_VALUES,
    PENALTY,
    PENALTY_LEN,
    PHASE,
    PHASE_CHOOSE,
    PHASE_CONTINUE,
    RAIL,
    RAIL_HI,
    RAIL_LO,
    TURN_CARDS,
    TURN_VALUE,
)

BACK_WINDOW = 8      # values of the next penalty cards at the back of the railway
AHEAD_WINDOW = 12    # Broken Track flags of the cards ahead of the caboose
PLAYER_BLOCK = 12

OBS = Layout(
    [
        ("decision", 3),            # choose / continue / not deciding
        ("hand", MAX_VALUE * 2 * 2),  # own cards by (value, broken, shape)
        ("turn_value", MAX_VALUE + 1),
        ("turn_cards", 1),
        ("players", MAX_PLAYERS * PLAYER_BLOCK),
        ("railway", 3),             # length, cards ahead of the caboose, cards behind it
        ("back_values", BACK_WINDOW),
        ("broken_ahead", AHEAD_WINDOW),
        ("placements", 3),          # straight / left / right placement possible
        ("geometry", 1),
        ("draw_pile", 1),
        ("discard_values", MAX_VALUE),
        ("end_triggered", 1),
        ("unseen_values", MAX_VALUE),
        ("mean_wheels", 1),
    ]
)
OBS_SIZE = OBS.size
O_DECISION = OBS.offset("decision")
O_HAND = OBS.offset("hand")
O_TURN_VALUE = OBS.offset("turn_value")
O_TURN_CARDS = OBS.offset("turn_cards")
O_PLAYERS = OBS.offset("players")
O_RAILWAY = OBS.offset("railway")
O_BACK = OBS.offset("back_values")
O_BROKEN_AHEAD = OBS.offset("broken_ahead")
O_PLACEMENTS = OBS.offset("placements")
O_GEOMETRY = OBS.offset("geometry")
O_DRAW = OBS.offset("draw_pile")
O_DISCARD = OBS.offset("discard_values")
O_END = OBS.offset("end_triggered")
O_UNSEEN = OBS.offset("unseen_values")
O_MEAN_WHEELS = OBS.offset("mean_wheels")

# inside each player block
B_PRESENT, B_TO_MOVE, B_HAND_SIZE, B_PILE_SIZE, B_TOP = 0, 1, 2, 3, 4   # top: 5 slots
B_PILE_POINTS, B_BANKED, B_POINTS = 9, 10, 11


@nb.njit(cache=True)
def _count_values(s, p, base, n, seen):
    for i in range(n):
        seen[p[P_VALUES + s[base + i]] - 1] += 1


@nb.njit(cache=True)
def observe(s, p, seat, out):
    """Fill ``out`` with the observation of ``seat`` (layout ``OBS``)."""
    n_players = p[P_NUM_PLAYERS]
    phase = s[PHASE]
    deciding = s[CURRENT] == seat
    if deciding and phase == PHASE_CHOOSE:
        out[O_DECISION] = 1.0
    elif deciding and phase == PHASE_CONTINUE:
        out[O_DECISION + 1] = 1.0
    else:
        out[O_DECISION + 2] = 1.0
    seen = np.zeros(MAX_VALUE, dtype=np.int64)
    hand = HAND + seat * MAX_CARDS
    for i in range(s[HAND_LEN + seat]):
        card = s[hand + i]
        value = p[P_VALUES + card]
        kind = ((value - 1) * 2 + p[P_BROKEN + card]) * 2 + p[P_SHAPES + card]
        out[O_HAND + kind] += 1.0
        seen[value - 1] += 1
    out[O_TURN_VALUE + s[TURN_VALUE]] = 1.0
    out[O_TURN_CARDS] = s[TURN_CARDS]
    for k in range(n_players):
        other = (seat + k) % n_players
        block = O_PLAYERS + k * PLAYER_BLOCK
        out[block + B_PRESENT] = 1.0
        out[block + B_TO_MOVE] = 1.0 if (other == s[CURRENT] and phase != 2) else 0.0
        out[block + B_HAND_SIZE] = s[HAND_LEN + other]
        n_pile = s[PENALTY_LEN + other]
        out[block + B_PILE_SIZE] = n_pile
        top_value = 0
        if n_pile > 0:
            top_value = p[P_VALUES + s[PENALTY + other * MAX_CARDS + n_pile - 1]]
        out[block + B_TOP + top_value] = 1.0
        pile = 0
        for i in range(n_pile):
            pile += p[P_VALUES + s[PENALTY + other * MAX_CARDS + i]]
        out[block + B_PILE_POINTS] = pile / 10.0
        out[block + B_BANKED] = s[BANK_LEN + other]
        out[block + B_POINTS] = pile_points(s, p, other) / 10.0
        _count_values(s, p, PENALTY + other * MAX_CARDS, n_pile, seen)
        _count_values(s, p, BANK + other * MAX_CARDS, s[BANK_LEN + other], seen)
        _count_values(s, p, HAND_FINAL + other * MAX_CARDS, s[HAND_FINAL_LEN + other], seen)
    lo = s[RAIL_LO]
    hi = s[RAIL_HI]
    caboose = s[CABOOSE]
    out[O_RAILWAY] = hi - lo
    out[O_RAILWAY + 1] = hi - 1 - caboose
    out[O_RAILWAY + 2] = caboose - lo
    _count_values(s, p, RAIL + lo, hi - lo, seen)
    for k in range(BACK_WINDOW):
        if lo + k < caboose:
            out[O_BACK + k] = p[P_VALUES + s[RAIL + lo + k]] / 4.0
    for k in range(AHEAD_WINDOW):
        i = caboose + 1 + k
        if i < hi:
            out[O_BROKEN_AHEAD + k] = p[P_BROKEN + s[RAIL + i]]
    if p[P_GEOMETRY] != 0:
        out[O_GEOMETRY] = 1.0
        for t in range(3):
            out[O_PLACEMENTS + t] = 1.0 if placement_ok(s, t) else 0.0
    else:
        out[O_PLACEMENTS] = 1.0
    out[O_DRAW] = s[DECK_LEN]
    discard = np.zeros(MAX_VALUE, dtype=np.int64)
    _count_values(s, p, DISCARD, s[DISCARD_LEN], discard)
    for v in range(MAX_VALUE):
        out[O_DISCARD + v] = discard[v]
        seen[v] += discard[v]
    out[O_END] = s[END_TRIGGERED]
    total = np.zeros(MAX_VALUE, dtype=np.int64)
    for card in range(p[P_NUM_CARDS]):
        total[p[P_VALUES + card] - 1] += 1
    for v in range(MAX_VALUE):
        out[O_UNSEEN + v] = total[v] - seen[v]
    wheels = 0
    for f in range(p[P_NUM_FACES]):
        wheels += p[P_FACES + f]
    out[O_MEAN_WHEELS] = wheels / p[P_NUM_FACES]


def layout() -> Layout:
    """Named slices of the observation vector."""
    return OBS


TURN_NAMES = ("straight", "turning left", "turning right")


def action_name(action: int) -> str:
    """Name of an action index, independent of the position."""
    if action == A_PASS:
        return "pass"
    if action == A_ROLL:
        return "stop laying and roll"
    if not A_PLAY <= action < NUM_ACTIONS:
        return f"unknown action {action}"
    value, broken, turn = decode_play(action)
    kind = "Broken Track" if broken else "track"
    return f"lay a {value} {kind} card {TURN_NAMES[turn]}"
