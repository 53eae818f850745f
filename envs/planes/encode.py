"""What one seat sees of Planes, and actions in words.

A seat sees its own hand; of the others only hand sizes. The board, planes, boarding
track, scored goals, the action card in play and the discard pile(s) are public; the
order of the deck(s) is never stored (draws are uniform from the deck's counts), so
only deck sizes are shown. Colours and seats are relative to the observer: colour 0
is its own, 1.. the next seats clockwise, then unassigned colours, then grey.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.core.layout import Layout
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.data import (
    MAX_GATES,
    MAX_SPACES,
    MAX_TYPES,
    NUM_COLORS,
    NUM_POI,
)
from transit_gym.envs.planes.kernels import (
    ACTION_KINDS,
    NUM_ACTIONS,
    blocked,
    deck_row,
    goal_cards,
    goal_on_board,
    goal_points,
    hand_size,
    own_boarded,
    pile_size,
    relative_color,
    space_stats,
)

PLAYER_BLOCK = 7     # hand size, deck size, goal VP, goal cards, own cubes boarded, VP, to move

OBS = Layout(
    [
        ("decision", st.NUM_PHASES + 1),          # the pending decision; last: not deciding
        ("players", 3),                        # 2, 3 or 4 players
        ("turn_order", st.MAX_PLAYERS),           # observer's place from the first player (P#)
        ("cubes", MAX_SPACES * NUM_COLORS),    # per space, relative colours
        ("cones", MAX_SPACES),
        ("poi", MAX_SPACES * NUM_POI),
        ("gates", MAX_GATES * (NUM_COLORS + 1)),   # plane colour one-hot, free slots
        ("active", NUM_COLORS),
        ("pos", MAX_SPACES),
        ("start", MAX_SPACES),
        ("branch", MAX_SPACES),
        ("move", 2),                           # spaces entered, a cube dropped where it is
        ("effects", 6),                        # skip owed, ignore blockages, ignore neutrals,
                                               # own only, backwards, move phases left
        ("in_play", MAX_TYPES),
        ("selected", 2 * MAX_SPACES),          # send: destination, first source
        ("hand", MAX_TYPES),
        ("goal_now", MAX_TYPES),               # own cards whose goal is on the board now
        ("seats", st.MAX_PLAYERS * PLAYER_BLOCK),
        ("discard", MAX_TYPES),                # the observer's discard pile
        ("track", 3),                          # cubes boarded, end space, end triggered
    ]
)
OBS_SIZE = OBS.size
O_DECISION, O_PLAYERS, O_TURN_ORDER, O_CUBES = OBS.offsets("decision players turn_order cubes")
O_CONES, O_POI, O_GATES, O_ACTIVE, O_POS, O_START = OBS.offsets("cones poi gates active pos start")
O_BRANCH, O_MOVE, O_EFFECTS, O_IN_PLAY = OBS.offsets("branch move effects in_play")
O_SELECTED, O_HAND, O_GOAL_NOW, O_SEATS = OBS.offsets("selected hand goal_now seats")
O_DISCARD, O_TRACK = OBS.offsets("discard track")
B_HAND, B_DECK, B_GOAL_VP, B_GOAL_CARDS, B_BOARDED, B_VP, B_TO_MOVE = range(PLAYER_BLOCK)


@nb.njit(cache=True)
def observe(s, p, seat, out):
    """Fill ``out`` with the observation of ``seat`` (layout ``OBS``)."""
    n_players = p[st.P_NUM_PLAYERS]
    phase = s[st.PHASE]
    deciding = phase != st.PH_OVER and s[st.CURRENT] == seat
    out[O_DECISION + (phase if deciding else st.NUM_PHASES)] = 1.0
    out[O_PLAYERS + n_players - 2] = 1.0
    out[O_TURN_ORDER + (seat - s[st.FIRST_PLAYER]) % n_players] = 1.0
    for sp in range(p[st.P_NUM_SPACES]):
        base = st.CUBES + sp * NUM_COLORS
        for c in range(NUM_COLORS):
            k = s[base + c]
            if k > 0:
                out[O_CUBES + sp * NUM_COLORS + relative_color(seat, c, n_players)] = k
        if blocked(s, p, sp):
            out[O_CONES + sp] = 1.0
        out[O_POI + sp * 6 + p[st.P_POI + sp]] = 1.0
    slots = p[st.P_PLANE_SLOTS]
    for g in range(p[st.P_NUM_GATES]):
        block = O_GATES + g * (NUM_COLORS + 1)
        out[block + relative_color(seat, s[st.GATE_COLOR + g], n_players)] = 1.0
        out[block + NUM_COLORS] = slots - s[st.BOARDED + g]
    for c in range(NUM_COLORS):
        if s[st.ACTIVE + c] > 0:
            out[O_ACTIVE + relative_color(seat, c, n_players)] = s[st.ACTIVE + c]
    if s[st.POS] >= 0:
        out[O_POS + s[st.POS]] = 1.0
    if s[st.START] >= 0:
        out[O_START + s[st.START]] = 1.0
    if s[st.BRANCH] >= 0:
        out[O_BRANCH + s[st.BRANCH]] = 1.0
    out[O_MOVE] = s[st.STEPS]
    out[O_MOVE + 1] = s[st.DROPPED]
    out[O_EFFECTS] = s[st.SKIP_OWED]
    out[O_EFFECTS + 1] = s[st.IGNORE_BLOCKAGES]
    out[O_EFFECTS + 2] = s[st.IGNORE_NEUTRALS]
    out[O_EFFECTS + 3] = s[st.OWN_ONLY]
    out[O_EFFECTS + 4] = s[st.BACKWARDS]
    out[O_EFFECTS + 5] = s[st.MOVES_LEFT]
    if s[st.IN_PLAY] >= 0:
        out[O_IN_PLAY + s[st.IN_PLAY]] = 1.0
    if s[st.SEL_A] >= 0:
        out[O_SELECTED + s[st.SEL_A]] = 1.0
    if s[st.SEL_B] >= 0:
        out[O_SELECTED + MAX_SPACES + s[st.SEL_B]] = 1.0
    hand = st.HAND + seat * MAX_TYPES
    stats = space_stats(s, p, seat)
    for t in range(p[st.P_NUM_TYPES]):
        k = s[hand + t]
        if k > 0:
            out[O_HAND + t] = k
            if goal_on_board(p, t, stats):
                out[O_GOAL_NOW + t] = 1.0
    for k in range(n_players):
        other = (seat + k) % n_players
        block = O_SEATS + k * PLAYER_BLOCK
        out[block + B_HAND] = hand_size(s, other)
        out[block + B_DECK] = pile_size(s, st.DECK + deck_row(p, other) * MAX_TYPES)
        goal_vp = goal_points(s, p, other)
        boarded = own_boarded(s, p, other)
        out[block + B_GOAL_VP] = goal_vp
        out[block + B_GOAL_CARDS] = goal_cards(s, other)
        out[block + B_BOARDED] = boarded
        out[block + B_VP] = goal_vp + p[st.P_VP_PER_CUBE] * boarded
        if phase != st.PH_OVER and s[st.CURRENT] == other:
            out[block + B_TO_MOVE] = 1.0
    discard = st.DISCARD + deck_row(p, seat) * MAX_TYPES
    for t in range(p[st.P_NUM_TYPES]):
        out[O_DISCARD + t] = s[discard + t]
    out[O_TRACK] = s[st.TRACK]
    out[O_TRACK + 1] = p[st.P_END_AT]
    out[O_TRACK + 2] = s[st.END_TRIGGERED]


def layout() -> Layout:
    """Named slices of the observation vector."""
    return OBS


def action_kind(action: int) -> tuple[str, int]:
    """``(kind, argument)`` of an action index, independent of the position."""
    if not 0 <= action < NUM_ACTIONS:
        return "unknown", action
    kind, first = next((kind, first) for kind, first in reversed(ACTION_KINDS) if first <= action)
    return kind, action - first


ACTION_NAMES = [f"{kind} {arg}" if kind in ("card", "space", "drop", "board") else kind
                for kind, arg in map(action_kind, range(NUM_ACTIONS))]
