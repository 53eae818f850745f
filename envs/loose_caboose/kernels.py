"""Jitted rules of Loose Caboose! on the flat state vector (see ``state.py``).

Rulebook sections are named in the docstrings: Setup, How to Play, Add Tracks &
Move the Caboose, Adding Tracks, If the Caboose Derails, Taking Penalty Cards,
Cancelling Out Penalty Cards, Broken Tracks, Pass, Ending the Game.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.core.draw import shuffle_prefix
from transit_gym.envs.core.rng import below
from transit_gym.envs.core.scoring import score_difference_rewards, win_share_rewards
from transit_gym.envs.core.slots import seat_to_move
from transit_gym.envs.core.validate import bump
from transit_gym.envs.loose_caboose.data import CURVE, MAX_CARDS, MAX_VALUE, STRAIGHT
from transit_gym.envs.loose_caboose.state import (
    CABOOSE,
    CELL_BIAS,
    CURRENT,
    DECK,
    DECK_LEN,
    END_TRIGGERED,
    FIRST_PLAYER,
    LAST_WHEELS,
    LOC,
    MAX_PLAYERS,
    P_BANK_FIRST,
    P_BROKEN,
    P_FACES,
    P_FIRST,
    P_GEOMETRY,
    P_HAND_SIZE,
    P_INITIAL,
    P_NUM_CARDS,
    P_NUM_FACES,
    P_NUM_PLAYERS,
    P_PASS_BANKS,
    P_REMOVED,
    P_REWARD,
    P_SHAPES,
    P_VALUES,
    PHASE,
    PHASE_CHOOSE,
    PHASE_CONTINUE,
    PHASE_OVER,
    PILE_TOP,
    RAIL,
    RAIL_CELL,
    RAIL_HI,
    RAIL_LO,
    STAT_BANKED,
    STAT_CANCELS,
    STAT_DERAILS,
    STAT_PASSES,
    STAT_PLAYS,
    STAT_UNPAID,
    TURN_CARDS,
    TURN_VALUE,
    TURNS,
    UNDER,
    Z_BANK,
    Z_BANK_HIDDEN,
    Z_DECK,
    Z_DISCARD,
    Z_HAND,
    Z_HAND_FINAL,
    Z_LAST,
    Z_PILE,
    Z_RAIL,
    Z_REMOVED,
    Z_UNUSED,
)

# ----- actions -----------------------------------------------------------------------------
A_PASS = 0
A_ROLL = 1
A_PLAY = 2                      # + ((value - 1) * 2 + broken) * 3 + turn
TURN_STRAIGHT, TURN_LEFT, TURN_RIGHT = 0, 1, 2
NUM_ACTIONS = A_PLAY + MAX_VALUE * 2 * 3

# grid directions of travel: 0 east, 1 north, 2 west, 3 south
DX = np.array([1, 0, -1, 0], dtype=np.int64)
DY = np.array([0, 1, 0, -1], dtype=np.int64)


@nb.njit(cache=True)
def play_action(value: int, broken: int, turn: int) -> int:
    """Action index of laying a card of ``value``/``broken`` with ``turn``."""
    return A_PLAY + ((value - 1) * 2 + broken) * 3 + turn


@nb.njit(cache=True)
def decode_play(action: int) -> tuple[int, int, int]:
    """``(value, broken, turn)`` of a play action."""
    k = action - A_PLAY
    turn = k % 3
    kind = k // 3
    return kind // 2 + 1, kind % 2, turn


@nb.njit(cache=True)
def turned(direction: int, turn: int) -> int:
    """Direction of travel after a card laid with ``turn``."""
    if turn == TURN_LEFT:
        return (direction + 1) % 4
    if turn == TURN_RIGHT:
        return (direction + 3) % 4
    return direction


# ----- piles ------------------------------------------------------------------------------
@nb.njit(cache=True)
def _draw_top(s):
    """Top card of the draw pile (-1 if empty); an emptied pile triggers the end."""
    n = s[DECK_LEN]
    if n == 0:
        return -1
    card = s[DECK + n - 1]
    s[DECK_LEN] = n - 1
    if n - 1 == 0:
        s[END_TRIGGERED] = 1
    return card


@nb.njit(cache=True)
def _reshuffle_discards(s, p):
    """Ending the Game: the discard pile, shuffled, becomes the new draw pile."""
    n = 0
    for card in range(p[P_NUM_CARDS]):
        if s[LOC + card] == Z_DISCARD:
            s[DECK + n] = card
            s[LOC + card] = Z_DECK
            n += 1
    s[DECK_LEN] = n
    shuffle_prefix(s[0:4], s[DECK:DECK + MAX_CARDS], n)


@nb.njit(cache=True)
def _penalty_source(s, p):
    """Next penalty card: the back of the railway, else the draw pile (Taking Penalty
    Cards, note), else the reshuffled discards (Ending the Game). -1 if none exists."""
    lo = s[RAIL_LO]
    if lo < s[CABOOSE]:
        s[RAIL_LO] = lo + 1
        return s[RAIL + lo]
    if s[DECK_LEN] == 0:
        _reshuffle_discards(s, p)
    return _draw_top(s)


@nb.njit(cache=True)
def _take_penalty(s, p, seat):
    """One penalty card onto the face-up pile, cancelling with an equal top card."""
    card = _penalty_source(s, p)
    if card < 0:
        bump(s, STAT_UNPAID + seat, 1)
        return
    top = s[PILE_TOP + seat]
    if top >= 0 and p[P_VALUES + top] == p[P_VALUES + card]:
        s[PILE_TOP + seat] = s[UNDER + top]
        s[UNDER + top] = -1
        s[LOC + top] = Z_DISCARD
        s[LOC + card] = Z_DISCARD
        bump(s, STAT_CANCELS + seat, 1)
        return
    s[UNDER + card] = top
    s[PILE_TOP + seat] = card
    s[LOC + card] = Z_PILE + seat


@nb.njit(cache=True)
def _bank_penalty(s, p, seat):
    """One penalty card banked face down under the pile (Broken Tracks); never cancels.
    A card from the back of the railway was seen by all; one from the draw pile (Taking
    Penalty Cards, note) goes face down unseen, so only its owner knows its value (the
    owner may view their own pile, Cancelling Out Penalty Cards, notes)."""
    from_rail = s[RAIL_LO] < s[CABOOSE]
    card = _penalty_source(s, p)
    if card < 0:
        bump(s, STAT_UNPAID + seat, 1)
        return
    s[LOC + card] = (Z_BANK if from_rail else Z_BANK_HIDDEN) + seat
    bump(s, STAT_BANKED + seat, 1)


@nb.njit(cache=True)
def _penalties(s, p, seat, banked, taken):
    """Bank ``banked`` cards and take ``taken`` penalty cards, in the configured order."""
    if p[P_BANK_FIRST] != 0:
        for _ in range(banked):
            _bank_penalty(s, p, seat)
        for _ in range(taken):
            _take_penalty(s, p, seat)
    else:
        for _ in range(taken):
            _take_penalty(s, p, seat)
        for _ in range(banked):
            _bank_penalty(s, p, seat)


# ----- railway geometry -------------------------------------------------------------------
@nb.njit(cache=True)
def pack_cell(x, y, heading_in, heading_out):
    """One int for a railway card's grid cell and its headings in and out."""
    return ((x + CELL_BIAS) | ((y + CELL_BIAS) << 8) | (heading_in << 16)
            | (heading_out << 18))


@nb.njit(cache=True)
def cell_x(cell):
    return (cell & 0xFF) - CELL_BIAS


@nb.njit(cache=True)
def cell_y(cell):
    return ((cell >> 8) & 0xFF) - CELL_BIAS


@nb.njit(cache=True)
def cell_in(cell):
    return (cell >> 16) & 3


@nb.njit(cache=True)
def cell_out(cell):
    return (cell >> 18) & 3


@nb.njit(cache=True)
def _lay(s, card, turn):
    """Put ``card`` at the front of the railway, turning by ``turn`` on the grid."""
    hi = s[RAIL_HI]
    if hi == s[RAIL_LO]:
        x, y, direction = 0, 0, 0
    else:
        front = s[RAIL_CELL + hi - 1]
        direction = cell_out(front)
        x = cell_x(front) + DX[direction]
        y = cell_y(front) + DY[direction]
    s[RAIL + hi] = card
    s[RAIL_CELL + hi] = pack_cell(x, y, direction, turned(direction, turn))
    s[LOC + card] = Z_RAIL
    s[RAIL_HI] = hi + 1


@nb.njit(cache=True)
def _cell_taken(s, x, y):
    """Whether a railway card occupies grid cell ``(x, y)``."""
    target = (x + CELL_BIAS) | ((y + CELL_BIAS) << 8)
    found = False
    for i in range(s[RAIL_LO], s[RAIL_HI]):
        if (s[RAIL_CELL + i] & 0xFFFF) == target:
            found = True
            break
    return found


@nb.njit(cache=True)
def placement_ok(s, turn):
    """Adding Tracks: the next cell is free (cards cannot overlap) and the new card's rail
    does not lead into a card of the railway: into the back card's open end that closes a
    loop; into the side of any card the rail runs into the railway, a junction that no
    card can ever continue (the next card would overlap), which we read as the same
    forbidden loop (docs/loose_caboose.md, "Adding Tracks: our reading")."""
    hi = s[RAIL_HI]
    front = s[RAIL_CELL + hi - 1]
    direction = cell_out(front)
    x = cell_x(front) + DX[direction]
    y = cell_y(front) + DY[direction]
    if _cell_taken(s, x, y):
        return False
    out = turned(direction, turn)
    return not _cell_taken(s, x + DX[out], y + DY[out])


@nb.njit(cache=True)
def _escapes(s, x, y):
    """Whether the free cell ``(x, y)`` is joined through free cells to the outside of the
    railway's bounding box (so a railway led into it can always be extended)."""
    lo = s[RAIL_LO]
    hi = s[RAIL_HI]
    x0 = x1 = x
    y0 = y1 = y
    for i in range(lo, hi):
        cx = cell_x(s[RAIL_CELL + i])
        cy = cell_y(s[RAIL_CELL + i])
        x0, x1 = min(x0, cx), max(x1, cx)
        y0, y1 = min(y0, cy), max(y1, cy)
    x0 -= 1
    y0 -= 1
    w = x1 - x0 + 2
    h = y1 - y0 + 2
    blocked = np.zeros(w * h, dtype=np.bool_)
    for i in range(lo, hi):
        blocked[(cell_y(s[RAIL_CELL + i]) - y0) * w + cell_x(s[RAIL_CELL + i]) - x0] = True
    queue = np.empty(w * h, dtype=np.int64)
    start = (y - y0) * w + x - x0
    queue[0] = start
    blocked[start] = True
    head, tail = 0, 1
    while head < tail:
        at = queue[head]
        head += 1
        ax, ay = at % w, at // w
        if ax == 0 or ay == 0 or ax == w - 1 or ay == h - 1:
            return True
        for d in range(4):
            nxt = (ay + DY[d]) * w + ax + DX[d]
            if not blocked[nxt]:
                blocked[nxt] = True
                queue[tail] = nxt
                tail += 1
    return False


@nb.njit(cache=True)
def _setup_turn_ok(s, turn, lookahead):
    """Setup 2: the next initial card may take ``turn`` under Adding Tracks (no overlap, no
    loop); with ``lookahead`` its rail must also lead into a free cell joined to the open
    grid, so that the railway can always be extended."""
    hi = s[RAIL_HI]
    if hi == s[RAIL_LO]:
        return True
    if not placement_ok(s, turn):
        return False
    if not lookahead:
        return True
    front = s[RAIL_CELL + hi - 1]
    direction = cell_out(front)
    out = turned(direction, turn)
    cx = cell_x(front) + DX[direction]
    cy = cell_y(front) + DY[direction]
    x = cx + DX[out]
    y = cy + DY[out]
    if _cell_taken(s, x, y):
        return False
    # the new card's own cell blocks the grid too: lay it, test, take it back
    s[RAIL_CELL + hi] = pack_cell(cx, cy, direction, out)
    s[RAIL_HI] = hi + 1
    ok = _escapes(s, x, y)
    s[RAIL_HI] = hi
    return ok


@nb.njit(cache=True)
def _initial_turn(s, p, card, lookahead):
    """Turn of an initial railway card (a curve turns left or right at random among the
    allowed ways), or -1 when the card fits nowhere."""
    words = s[0:4]
    geometry = p[P_GEOMETRY] != 0
    if p[P_SHAPES + card] != CURVE:
        if not geometry or _setup_turn_ok(s, TURN_STRAIGHT, lookahead):
            return TURN_STRAIGHT
        return -1
    if not geometry:
        return TURN_LEFT + below(words, 2)
    left = _setup_turn_ok(s, TURN_LEFT, lookahead)
    right = _setup_turn_ok(s, TURN_RIGHT, lookahead)
    if left and right:
        return TURN_LEFT + below(words, 2)
    if left:
        return TURN_LEFT
    if right:
        return TURN_RIGHT
    return -1


@nb.njit(cache=True)
def _put_under_draw_pile(s, card):
    """Return ``card`` (just drawn) to the bottom of the draw pile."""
    n = s[DECK_LEN]
    for i in range(n, 0, -1):
        s[DECK + i] = s[DECK + i - 1]
    s[DECK] = card
    s[DECK_LEN] = n + 1


@nb.njit(cache=True)
def _lay_initial_card(s, p):
    """Setup 2: draw a card and lay it with its rails connected (Adding Tracks: no overlap,
    no loop, and the rail leads into open grid). A card that fits nowhere goes under the
    draw pile and the next is drawn; if no card fits, the next one is laid without the
    open-grid condition (or, failing that too, straight or turning left)."""
    for _ in range(s[DECK_LEN]):
        card = _draw_top(s)
        turn = _initial_turn(s, p, card, True)
        if turn >= 0:
            _lay(s, card, turn)
            return
        _put_under_draw_pile(s, card)
    card = _draw_top(s)
    turn = _initial_turn(s, p, card, False)
    if turn < 0:
        turn = TURN_STRAIGHT if p[P_SHAPES + card] != CURVE else TURN_LEFT
    _lay(s, card, turn)


# ----- hands ------------------------------------------------------------------------------
@nb.njit(cache=True)
def _find_in_hand(s, p, seat, value, broken, shape):
    """Lowest card id in the hand with ``value``/``broken`` and ``shape`` (-1 any shape)."""
    where = Z_HAND + seat
    for card in range(p[P_NUM_CARDS]):
        if (s[LOC + card] == where and p[P_VALUES + card] == value
                and p[P_BROKEN + card] == broken
                and (shape < 0 or p[P_SHAPES + card] == shape)):
            return card
    return -1


@nb.njit(cache=True)
def hand_kinds(s, p, seat, out):
    """Count the hand of ``seat`` by kind ``((value - 1) * 2 + broken) * 2 + shape``."""
    where = Z_HAND + seat
    for card in range(p[P_NUM_CARDS]):
        if s[LOC + card] == where:
            out[((p[P_VALUES + card] - 1) * 2 + p[P_BROKEN + card]) * 2
                + p[P_SHAPES + card]] += 1


# ----- turn structure ---------------------------------------------------------------------
@nb.njit(cache=True)
def _start_turn(s):
    """How to Play: the player draws 1 card (no hand limit), then decides."""
    card = _draw_top(s)
    if card >= 0:
        s[LOC + card] = Z_HAND + s[CURRENT]
    s[PHASE] = PHASE_CHOOSE
    s[TURN_VALUE] = 0
    s[TURN_CARDS] = 0


@nb.njit(cache=True)
def _end_turn(s, p):
    """Ending the Game: after the turn in which the draw pile ran out, hands join the
    penalty piles without cancelling; otherwise play passes to the left."""
    bump(s, TURNS, 1)
    s[TURN_VALUE] = 0
    s[TURN_CARDS] = 0
    n_players = p[P_NUM_PLAYERS]
    if s[END_TRIGGERED] != 0:
        for card in range(p[P_NUM_CARDS]):
            where = s[LOC + card]
            if Z_HAND <= where < Z_HAND + n_players:
                s[LOC + card] = Z_HAND_FINAL + where - Z_HAND
        s[PHASE] = PHASE_OVER
        return
    s[CURRENT] = (s[CURRENT] + 1) % n_players
    _start_turn(s)


@nb.njit(cache=True)
def init(s, p):
    """Setup 1-6: shuffle, lay 3 connected cards (``_lay_initial_card``), caboose on the
    middle one, remove cards unseen by player count, deal 2 each; the first player draws
    to start."""
    n_cards = p[P_NUM_CARDS]
    words = s[0:4]
    for c in range(MAX_CARDS):
        s[LOC + c] = Z_DECK if c < n_cards else Z_UNUSED
        s[UNDER + c] = -1
    for seat in range(MAX_PLAYERS):
        s[PILE_TOP + seat] = -1
    for c in range(n_cards):
        s[DECK + c] = c
    s[DECK_LEN] = n_cards
    shuffle_prefix(words, s[DECK:DECK + MAX_CARDS], n_cards)
    s[RAIL_LO] = 0
    s[RAIL_HI] = 0
    for _ in range(p[P_INITIAL]):
        _lay_initial_card(s, p)
    s[CABOOSE] = (s[RAIL_HI] - 1) // 2
    for _ in range(p[P_REMOVED]):
        s[LOC + _draw_top(s)] = Z_REMOVED
    n_players = p[P_NUM_PLAYERS]
    for _ in range(p[P_HAND_SIZE]):
        for seat in range(n_players):
            s[LOC + _draw_top(s)] = Z_HAND + seat
    s[END_TRIGGERED] = 0
    s[LAST_WHEELS] = -1
    first = p[P_FIRST]
    if first < 0:
        first = below(words, n_players)
    s[FIRST_PLAYER] = first
    s[CURRENT] = first
    _start_turn(s)


@nb.njit(cache=True)
def current_player(s, p):
    return seat_to_move(s, PHASE, PHASE_OVER, CURRENT)


@nb.njit(cache=True)
def legal_mask(s, p, mask):
    """Pass or lay a first card; then lay another card of the same value or roll."""
    phase = s[PHASE]
    if phase == PHASE_OVER:
        return
    if phase == PHASE_CHOOSE:
        mask[A_PASS] = 1
    else:
        mask[A_ROLL] = 1
    kinds = np.zeros(MAX_VALUE * 4, dtype=np.int64)
    hand_kinds(s, p, s[CURRENT], kinds)
    geometry = p[P_GEOMETRY] != 0
    straight_ok = left_ok = right_ok = True
    if geometry:
        straight_ok = placement_ok(s, TURN_STRAIGHT)
        left_ok = placement_ok(s, TURN_LEFT)
        right_ok = placement_ok(s, TURN_RIGHT)
    value_lo, value_hi = 1, MAX_VALUE
    if phase == PHASE_CONTINUE:
        value_lo = s[TURN_VALUE]
        value_hi = value_lo
    for value in range(value_lo, value_hi + 1):
        for broken in range(2):
            kind = ((value - 1) * 2 + broken) * 2
            n_straight = kinds[kind + STRAIGHT]
            n_curve = kinds[kind + CURVE]
            if not geometry:
                if n_straight + n_curve > 0:
                    mask[play_action(value, broken, TURN_STRAIGHT)] = 1
                continue
            if straight_ok and n_straight > 0:
                mask[play_action(value, broken, TURN_STRAIGHT)] = 1
            if n_curve > 0:
                if left_ok:
                    mask[play_action(value, broken, TURN_LEFT)] = 1
                if right_ok:
                    mask[play_action(value, broken, TURN_RIGHT)] = 1


@nb.njit(cache=True)
def _roll(s, p, dice):
    """Roll ``dice`` dice; return the total wheels."""
    wheels = 0
    n_faces = p[P_NUM_FACES]
    for _ in range(dice):
        wheels += p[P_FACES + below(s[0:4], n_faces)]
    return wheels


@nb.njit(cache=True)
def _pass(s, p, seat):
    """Pass: the caboose advances 1 card toward the front (not past it), then 1 penalty."""
    banked = 0
    if s[CABOOSE] < s[RAIL_HI] - 1:
        s[CABOOSE] += 1
        if p[P_PASS_BANKS] != 0 and p[P_BROKEN + s[RAIL + s[CABOOSE]]] != 0:
            banked = 1
    bump(s, STAT_PASSES + seat, 1)
    _penalties(s, p, seat, banked, 1)


@nb.njit(cache=True)
def _move_caboose(s, p, seat):
    """Roll dice equal to the value laid; move one card per wheel; derail past the front
    (penalties = steps not made); bank once per Broken Track passed over or stopped on."""
    wheels = _roll(s, p, s[TURN_VALUE])
    s[LAST_WHEELS] = wheels
    start = s[CABOOSE]
    ahead = s[RAIL_HI] - 1 - start
    moved = min(wheels, ahead)
    banked = 0
    for i in range(start + 1, start + moved + 1):
        if p[P_BROKEN + s[RAIL + i]] != 0:
            banked += 1
    s[CABOOSE] = start + moved
    derail = wheels - moved
    if derail > 0:
        bump(s, STAT_DERAILS + seat, 1)
    bump(s, STAT_PLAYS + seat, 1)
    _penalties(s, p, seat, banked, derail)


@nb.njit(cache=True)
def apply(s, p, action):
    seat = s[CURRENT]
    if action == A_PASS:
        _pass(s, p, seat)
        _end_turn(s, p)
        return
    if action == A_ROLL:
        _move_caboose(s, p, seat)
        _end_turn(s, p)
        return
    value, broken, turn = decode_play(action)
    shape = -1
    if p[P_GEOMETRY] != 0:
        shape = STRAIGHT if turn == TURN_STRAIGHT else CURVE
    _lay(s, _find_in_hand(s, p, seat, value, broken, shape), turn)
    s[TURN_VALUE] = value
    s[TURN_CARDS] += 1
    s[PHASE] = PHASE_CONTINUE


# ----- scoring ----------------------------------------------------------------------------
@nb.njit(cache=True)
def _counts_against(where, seat):
    """Whether a card in place ``where`` counts against ``seat`` (pile, bank, final hand)."""
    return (where == Z_PILE + seat or where == Z_BANK + seat or where == Z_HAND_FINAL + seat
            or where == Z_BANK_HIDDEN + seat)


@nb.njit(cache=True)
def pile_points(s, p, seat):
    """Penalty points of ``seat``: face-up pile, banked cards and (at the end) hand."""
    total = 0
    for card in range(p[P_NUM_CARDS]):
        if _counts_against(s[LOC + card], seat):
            total += p[P_VALUES + card]
    return total


@nb.njit(cache=True)
def pile_cards(s, p, seat):
    """Penalty cards of ``seat`` (pile, bank and final hand)."""
    total = 0
    for card in range(p[P_NUM_CARDS]):
        if _counts_against(s[LOC + card], seat):
            total += 1
    return total


@nb.njit(cache=True)
def winners(s, p, out):
    """Ending the Game: fewest points wins, then fewest cards; remaining ties share."""
    n_players = p[P_NUM_PLAYERS]
    best_points = 1 << 40
    best_cards = 1 << 40
    for seat in range(n_players):
        pts = pile_points(s, p, seat)
        cards = pile_cards(s, p, seat)
        if pts < best_points or (pts == best_points and cards < best_cards):
            best_points = pts
            best_cards = cards
    count = 0
    for seat in range(n_players):
        win = pile_points(s, p, seat) == best_points and pile_cards(s, p, seat) == best_cards
        out[seat] = win
        count += win
    return count


@nb.njit(cache=True)
def rewards(s, p, out):
    """Zero-sum terminal rewards: +1 shared by the winners, -1 shared by the others
    (reward_mode 0); or the mean of the others' points minus one's own (mode 1)."""
    n_players = p[P_NUM_PLAYERS]
    out[:] = 0.0
    if s[PHASE] != PHASE_OVER:
        return
    if p[P_REWARD] == 1:
        negated = np.zeros(n_players, dtype=np.float64)
        for seat in range(n_players):
            negated[seat] = -pile_points(s, p, seat)
        score_difference_rewards(negated, n_players, out, 1.0)
        return
    won = np.zeros(n_players, dtype=np.int64)
    winners(s, p, won)
    win_share_rewards(won, n_players, out)


# ----- conservation -----------------------------------------------------------------------
CONSERVED = 0
BAD_PLACE = 1
BAD_DRAW_PILE = 2
BAD_RAILWAY = 3
BAD_PENALTY_PILE = 4
BAD_CABOOSE = 5


@nb.njit(cache=True)
def conservation_error(s, p):
    """0 when every card is in exactly one place and the ordered piles agree with the
    places; otherwise a code naming what is broken (see the constants above)."""
    n = p[P_NUM_CARDS]
    n_players = p[P_NUM_PLAYERS]
    listed = np.zeros(MAX_CARDS, dtype=np.int64)
    in_deck = 0
    in_rail = 0
    on_pile = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for card in range(n):
        where = s[LOC + card]
        shared = Z_DECK <= where <= Z_REMOVED        # deck, railway, discard, removed
        per_seat = Z_HAND <= where < Z_LAST and (
            (where - Z_HAND) % MAX_PLAYERS < n_players)  # hands, piles, banks, final hands
        ok = shared or per_seat
        if not ok:
            return BAD_PLACE
        if where == Z_DECK:
            in_deck += 1
        elif where == Z_RAIL:
            in_rail += 1
        elif Z_PILE <= where < Z_PILE + n_players:
            on_pile[where - Z_PILE] += 1
    for card in range(n, MAX_CARDS):
        if s[LOC + card] != Z_UNUSED:
            return BAD_PLACE
    if s[DECK_LEN] != in_deck:
        return BAD_DRAW_PILE
    for i in range(s[DECK_LEN]):
        card = s[DECK + i]
        if card < 0 or card >= n or s[LOC + card] != Z_DECK or listed[card] != 0:
            return BAD_DRAW_PILE
        listed[card] = 1
    lo = s[RAIL_LO]
    hi = s[RAIL_HI]
    if hi - lo != in_rail:
        return BAD_RAILWAY
    for i in range(lo, hi):
        card = s[RAIL + i]
        if card < 0 or card >= n or s[LOC + card] != Z_RAIL or listed[card] != 0:
            return BAD_RAILWAY
        listed[card] = 1
    if not lo <= s[CABOOSE] < hi:
        return BAD_CABOOSE
    for seat in range(MAX_PLAYERS):
        card = s[PILE_TOP + seat]
        count = 0
        while card >= 0:
            if card >= n or s[LOC + card] != Z_PILE + seat or count > n:
                return BAD_PENALTY_PILE
            count += 1
            card = s[UNDER + card]
        if seat < n_players and count != on_pile[seat]:
            return BAD_PENALTY_PILE
        if seat >= n_players and count != 0:
            return BAD_PENALTY_PILE
    return CONSERVED
