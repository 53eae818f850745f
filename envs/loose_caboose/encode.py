"""What one seat sees of Loose Caboose!, the action layout, and actions in words.

A seat sees its own hand; of the others only their hand sizes. Penalty piles,
banked cards (taken face up from the railway before they were turned down), the
railway and the discard pile are public. The removed cards and the order of
the draw pile are hidden. Other seats are listed from the observer's left.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.core.layout import Layout
from transit_gym.envs.loose_caboose import state as st
from transit_gym.envs.loose_caboose.data import MAX_VALUE
from transit_gym.envs.loose_caboose.kernels import (
    A_PASS,
    A_PLAY,
    A_ROLL,
    NUM_ACTIONS,
    decode_play,
    placement_ok,
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
        ("players", st.MAX_PLAYERS * PLAYER_BLOCK),
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
O_DECISION, O_HAND, O_TURN_VALUE, O_TURN_CARDS = OBS.offsets("decision hand turn_value turn_cards")
O_PLAYERS, O_RAILWAY, O_BACK = OBS.offsets("players railway back_values")
O_BROKEN_AHEAD, O_PLACEMENTS, O_GEOMETRY = OBS.offsets("broken_ahead placements geometry")
O_DRAW, O_DISCARD, O_END = OBS.offsets("draw_pile discard_values end_triggered")
O_UNSEEN, O_MEAN_WHEELS = OBS.offsets("unseen_values mean_wheels")

# inside each player block
B_PRESENT, B_TO_MOVE, B_HAND_SIZE, B_PILE_SIZE, B_TOP = 0, 1, 2, 3, 4   # top: 5 slots
B_PILE_POINTS, B_BANKED, B_POINTS = 9, 10, 11


@nb.njit(cache=True)
def observe(s, p, seat, out):
    """Fill ``out`` with the observation of ``seat`` (layout ``OBS``)."""
    n_players = p[st.P_NUM_PLAYERS]
    phase = s[st.PHASE]
    current = s[st.CURRENT]
    if current == seat and phase == st.PHASE_CHOOSE:
        out[O_DECISION] = 1.0
    elif current == seat and phase == st.PHASE_CONTINUE:
        out[O_DECISION + 1] = 1.0
    else:
        out[O_DECISION + 2] = 1.0
    # one pass over the cards: what this seat sees, by place
    seen = np.zeros(MAX_VALUE, dtype=np.int64)
    hand_size = np.zeros(st.MAX_PLAYERS, dtype=np.int64)
    pile_size = np.zeros(st.MAX_PLAYERS, dtype=np.int64)
    pile_points = np.zeros(st.MAX_PLAYERS, dtype=np.int64)
    banked = np.zeros(st.MAX_PLAYERS, dtype=np.int64)
    points = np.zeros(st.MAX_PLAYERS, dtype=np.int64)
    own_hand = st.Z_HAND + seat
    for card in range(p[st.P_NUM_CARDS]):
        where = s[st.LOC + card]
        value = p[st.P_VALUES + card]
        if where == own_hand:
            kind = ((value - 1) * 2 + p[st.P_BROKEN + card]) * 2 + p[st.P_SHAPES + card]
            out[O_HAND + kind] += 1.0
            hand_size[seat] += 1
            seen[value - 1] += 1
        elif st.Z_HAND <= where < st.Z_HAND + st.MAX_PLAYERS:
            hand_size[where - st.Z_HAND] += 1
        elif where == st.Z_RAIL:
            seen[value - 1] += 1
        elif where == st.Z_DISCARD:
            out[O_DISCARD + value - 1] += 1.0
            seen[value - 1] += 1
        elif st.Z_PILE <= where < st.Z_PILE + st.MAX_PLAYERS:
            other = where - st.Z_PILE
            pile_size[other] += 1
            pile_points[other] += value
            points[other] += value
            seen[value - 1] += 1
        elif st.Z_BANK <= where < st.Z_BANK + st.MAX_PLAYERS:
            banked[where - st.Z_BANK] += 1
            points[where - st.Z_BANK] += value
            seen[value - 1] += 1
        elif st.Z_HAND_FINAL <= where < st.Z_HAND_FINAL + st.MAX_PLAYERS:
            points[where - st.Z_HAND_FINAL] += value
            seen[value - 1] += 1
        elif st.Z_BANK_HIDDEN <= where < st.Z_BANK_HIDDEN + st.MAX_PLAYERS:
            owner = where - st.Z_BANK_HIDDEN   # face down, unseen: only its owner knows it
            banked[owner] += 1
            if owner == seat:
                points[owner] += value
                seen[value - 1] += 1
    out[O_TURN_VALUE + s[st.TURN_VALUE]] = 1.0
    out[O_TURN_CARDS] = s[st.TURN_CARDS]
    for k in range(n_players):
        other = (seat + k) % n_players
        block = O_PLAYERS + k * PLAYER_BLOCK
        out[block + B_PRESENT] = 1.0
        if other == current and phase != st.PHASE_OVER:
            out[block + B_TO_MOVE] = 1.0
        out[block + B_HAND_SIZE] = hand_size[other]
        out[block + B_PILE_SIZE] = pile_size[other]
        top = s[st.PILE_TOP + other]
        out[block + B_TOP + (p[st.P_VALUES + top] if top >= 0 else 0)] = 1.0
        out[block + B_PILE_POINTS] = pile_points[other] / 10.0
        out[block + B_BANKED] = banked[other]
        out[block + B_POINTS] = points[other] / 10.0
    lo = s[st.RAIL_LO]
    hi = s[st.RAIL_HI]
    caboose = s[st.CABOOSE]
    out[O_RAILWAY] = hi - lo
    out[O_RAILWAY + 1] = hi - 1 - caboose
    out[O_RAILWAY + 2] = caboose - lo
    for k in range(min(BACK_WINDOW, caboose - lo)):
        out[O_BACK + k] = p[st.P_VALUES + s[st.RAIL + lo + k]] / 4.0
    for k in range(min(AHEAD_WINDOW, hi - 1 - caboose)):
        out[O_BROKEN_AHEAD + k] = p[st.P_BROKEN + s[st.RAIL + caboose + 1 + k]]
    if p[st.P_GEOMETRY] != 0:
        out[O_GEOMETRY] = 1.0
        for t in range(3):
            if placement_ok(s, t):
                out[O_PLACEMENTS + t] = 1.0
    else:
        out[O_PLACEMENTS] = 1.0
    out[O_DRAW] = s[st.DECK_LEN]
    out[O_END] = s[st.END_TRIGGERED]
    for v in range(MAX_VALUE):
        out[O_UNSEEN + v] = p[st.P_VALUE_TOTALS + v] - seen[v]
    out[O_MEAN_WHEELS] = p[st.P_FACE_SUM] / p[st.P_NUM_FACES]


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
