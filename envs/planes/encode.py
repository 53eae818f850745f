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
from transit_gym.envs.planes.data import (
    MAX_GATES,
    MAX_SPACES,
    MAX_TYPES,
    NUM_COLORS,
    NUM_POI,
)
from transit_gym.envs.planes.kernels import (
    A_BOARD,
    A_CARD,
    A_DRAW,
    A_DROP,
    A_EXTRA_GOAL,
    A_IGNORE_BLOCKAGES,
    A_PASS,
    A_SKIP,
    A_SPACE,
    A_STOP,
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
from transit_gym.envs.planes.state import (
    ACTIVE,
    BACKWARDS,
    BOARDED,
    BRANCH,
    CUBES,
    CURRENT,
    DECK,
    DISCARD,
    DROPPED,
    END_TRIGGERED,
    FIRST_PLAYER,
    GATE_COLOR,
    HAND,
    IGNORE_BLOCKAGES,
    IGNORE_NEUTRALS,
    IN_PLAY,
    MAX_PLAYERS,
    MOVES_LEFT,
    NUM_PHASES,
    OWN_ONLY,
    P_END_AT,
    P_NUM_GATES,
    P_NUM_PLAYERS,
    P_NUM_SPACES,
    P_NUM_TYPES,
    P_PLANE_SLOTS,
    P_POI,
    P_VP_PER_CUBE,
    PH_OVER,
    PHASE,
    POS,
    SEL_A,
    SEL_B,
    SKIP_OWED,
    START,
    STEPS,
    TRACK,
)

PLAYER_BLOCK = 7     # hand size, deck size, goal VP, goal cards, own cubes boarded, VP, to move

OBS = Layout(
    [
        ("decision", NUM_PHASES + 1),          # the pending decision; last: not deciding
        ("players", 3),                        # 2, 3 or 4 players
        ("turn_order", MAX_PLAYERS),           # observer's place from the first player (P#)
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
        ("seats", MAX_PLAYERS * PLAYER_BLOCK),
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
    n_players = p[P_NUM_PLAYERS]
    phase = s[PHASE]
    deciding = phase != PH_OVER and s[CURRENT] == seat
    out[O_DECISION + (phase if deciding else NUM_PHASES)] = 1.0
    out[O_PLAYERS + n_players - 2] = 1.0
    out[O_TURN_ORDER + (seat - s[FIRST_PLAYER]) % n_players] = 1.0
    for sp in range(p[P_NUM_SPACES]):
        base = CUBES + sp * NUM_COLORS
        for c in range(NUM_COLORS):
            k = s[base + c]
            if k > 0:
                out[O_CUBES + sp * NUM_COLORS + relative_color(seat, c, n_players)] = k
        if blocked(s, p, sp):
            out[O_CONES + sp] = 1.0
        out[O_POI + sp * 6 + p[P_POI + sp]] = 1.0
    slots = p[P_PLANE_SLOTS]
    for g in range(p[P_NUM_GATES]):
        block = O_GATES + g * (NUM_COLORS + 1)
        out[block + relative_color(seat, s[GATE_COLOR + g], n_players)] = 1.0
        out[block + NUM_COLORS] = slots - s[BOARDED + g]
    for c in range(NUM_COLORS):
        if s[ACTIVE + c] > 0:
            out[O_ACTIVE + relative_color(seat, c, n_players)] = s[ACTIVE + c]
    if s[POS] >= 0:
        out[O_POS + s[POS]] = 1.0
    if s[START] >= 0:
        out[O_START + s[START]] = 1.0
    if s[BRANCH] >= 0:
        out[O_BRANCH + s[BRANCH]] = 1.0
    out[O_MOVE] = s[STEPS]
    out[O_MOVE + 1] = s[DROPPED]
    out[O_EFFECTS] = s[SKIP_OWED]
    out[O_EFFECTS + 1] = s[IGNORE_BLOCKAGES]
    out[O_EFFECTS + 2] = s[IGNORE_NEUTRALS]
    out[O_EFFECTS + 3] = s[OWN_ONLY]
    out[O_EFFECTS + 4] = s[BACKWARDS]
    out[O_EFFECTS + 5] = s[MOVES_LEFT]
    if s[IN_PLAY] >= 0:
        out[O_IN_PLAY + s[IN_PLAY]] = 1.0
    if s[SEL_A] >= 0:
        out[O_SELECTED + s[SEL_A]] = 1.0
    if s[SEL_B] >= 0:
        out[O_SELECTED + MAX_SPACES + s[SEL_B]] = 1.0
    hand = HAND + seat * MAX_TYPES
    stats = space_stats(s, p, seat)
    for t in range(p[P_NUM_TYPES]):
        k = s[hand + t]
        if k > 0:
            out[O_HAND + t] = k
            if goal_on_board(p, t, stats):
                out[O_GOAL_NOW + t] = 1.0
    for k in range(n_players):
        other = (seat + k) % n_players
        block = O_SEATS + k * PLAYER_BLOCK
        out[block + B_HAND] = hand_size(s, other)
        out[block + B_DECK] = pile_size(s, DECK + deck_row(p, other) * MAX_TYPES)
        goal_vp = goal_points(s, p, other)
        boarded = own_boarded(s, p, other)
        out[block + B_GOAL_VP] = goal_vp
        out[block + B_GOAL_CARDS] = goal_cards(s, other)
        out[block + B_BOARDED] = boarded
        out[block + B_VP] = goal_vp + p[P_VP_PER_CUBE] * boarded
        if phase != PH_OVER and s[CURRENT] == other:
            out[block + B_TO_MOVE] = 1.0
    discard = DISCARD + deck_row(p, seat) * MAX_TYPES
    for t in range(p[P_NUM_TYPES]):
        out[O_DISCARD + t] = s[discard + t]
    out[O_TRACK] = s[TRACK]
    out[O_TRACK + 1] = p[P_END_AT]
    out[O_TRACK + 2] = s[END_TRIGGERED]


def layout() -> Layout:
    """Named slices of the observation vector."""
    return OBS


def action_kind(action: int) -> tuple[str, int]:
    """``(kind, argument)`` of an action index, independent of the position."""
    if action == A_PASS:
        return "pass", 0
    if A_CARD <= action < A_SPACE:
        return "card", action - A_CARD
    if A_SPACE <= action < A_DROP:
        return "space", action - A_SPACE
    if A_DROP <= action < A_SKIP:
        return "drop", action - A_DROP
    if action == A_SKIP:
        return "skip", 0
    if action == A_STOP:
        return "stop", 0
    if A_BOARD <= action < A_IGNORE_BLOCKAGES:
        return "board", action - A_BOARD
    if action == A_IGNORE_BLOCKAGES:
        return "ignore_blockages", 0
    if action == A_EXTRA_GOAL:
        return "extra_goal", 0
    if action == A_DRAW:
        return "draw", 0
    return "unknown", action


ACTION_NAMES = [f"{kind} {arg}" if kind in ("card", "space", "drop", "board") else kind
                for kind, arg in map(action_kind, range(NUM_ACTIONS))]
