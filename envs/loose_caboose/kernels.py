"""Jitted rules of Loose Caboose! on the flat state vector (see ``state.py``).

Rulebook sections are named in the docstrings: Setup, How to Play, Add Tracks &
Move the Caboose, Adding Tracks, If the Caboose Derails, Taking Penalty Cards,
Cancelling Out Penalty Cards, Broken Tracks, Pass, Ending the Game.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from envs.core.draw import shuffle_prefix
from envs.core.rng import below
from envs.loose_caboose.data import CURVE, MAX_CARDS, MAX_VALUE, STRAIGHT
from envs.loose_caboose.state import (
    BANK,
    BANK_LEN,
    CABOOSE,
    CURRENT,
    DECK,
    DECK_LEN,
    DISCARD,
    DISCARD_LEN,
    END_TRIGGERED,
    FIRST_PLAYER,
    HAND,
    HAND_FINAL,
    HAND_FINAL_LEN,
    HAND_LEN,
    LAST_WHEELS,
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
    PENALTY,
    PENALTY_LEN,
    PHASE,
    PHASE_CHOOSE,
    PHASE_CONTINUE,
    PHASE_OVER,
    RAIL,
    RAIL_HI,
    RAIL_IN,
    RAIL_LO,
    RAIL_OUT,
    RAIL_X,
    RAIL_Y,
    REMOVED,
    REMOVED_LEN,
    STAT_BANKED,
    STAT_CANCELS,
    STAT_DERAILS,
    STAT_PASSES,
    STAT_PLAYS,
    STAT_UNPAID,
    TURN_CARDS,
    TURN_VALUE,
    TURNS,
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
def _push_discard(s, card):
    s[DISCARD + s[DISCARD_LEN]] = card
    s[DISCARD_LEN] += 1


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
def _penalty_source(s):
    """Next penalty card: the back of the railway, else the draw pile (Taking Penalty
    Cards, note), else the reshuffled discards (Ending the Game). -1 if none exists."""
    lo = s[RAIL_LO]
    if lo < s[CABOOSE]:
        s[RAIL_LO] = lo + 1
        return s[RAIL + lo]
    if s[DECK_LEN] == 0 and s[DISCARD_LEN] > 0:
        n = s[DISCARD_LEN]
        for i in range(n):
            s[DECK + i] = s[DISCARD + i]
        s[DECK_LEN] = n
        s[DISCARD_LEN] = 0
        shuffle_prefix(s[0:4], s[DECK:DECK + MAX_CARDS], n)
    return _draw_top(s)


@nb.njit(cache=True)
def _take_penalty(s, p, seat):
    """One penalty card onto the face-up pile, cancelling with an equal top card."""
    card = _penalty_source(s)
    if card < 0:
        s[STAT_UNPAID + seat] += 1
        return
    base = PENALTY + seat * MAX_CARDS
    n = s[PENALTY_LEN + seat]
    if n > 0:
        top = s[base + n - 1]
        if p[P_VALUES + top] == p[P_VALUES + card]:
            s[PENALTY_LEN + seat] = n - 1
            _push_discard(s, top)
            _push_discard(s, card)
            s[STAT_CANCELS + seat] += 1
            return
    s[base + n] = card
    s[PENALTY_LEN + seat] = n + 1


@nb.njit(cache=True)
def _bank_penalty(s, seat):
    """One penalty card banked face down under the pile (Broken Tracks); never cancels."""
    card = _penalty_source(s)
    if card < 0:
        s[STAT_UNPAID + seat] += 1
        return
    s[BANK + seat * MAX_CARDS + s[BANK_LEN + seat]] = card
    s[BANK_LEN + seat] += 1
    s[STAT_BANKED + seat] += 1


@nb.njit(cache=True)
def _penalties(s, p, seat, banked, taken):
    """Bank ``banked`` cards and take ``taken`` penalty cards, in the configured order."""
    if p[P_BANK_FIRST] != 0:
        for _ in range(banked):
            _bank_penalty(s, seat)
        for _ in range(taken):
            _take_penalty(s, p, seat)
    else:
        for _ in range(taken):
            _take_penalty(s, p, seat)
        for _ in range(banked):
            _bank_penalty(s, seat)


# ----- railway geometry -------------------------------------------------------------------
@nb.njit(cache=True)
def _lay(s, card, turn):
    """Put ``card`` at the front of the railway, turning by ``turn`` on the grid."""
    hi = s[RAIL_HI]
    if hi == s[RAIL_LO]:
        x, y, direction = 0, 0, 0
    else:
        front = hi - 1
        direction = s[RAIL_OUT + front]
        x = s[RAIL_X + front] + DX[direction]
        y = s[RAIL_Y + front] + DY[direction]
    s[RAIL + hi] = card
    s[RAIL_X + hi] = x
    s[RAIL_Y + hi] = y
    s[RAIL_IN + hi] = direction
    s[RAIL_OUT + hi] = turned(direction, turn)
    s[RAIL_HI] = hi + 1


@nb.njit(cache=True)
def placement_ok(s, turn):
    """Adding Tracks: the next cell is free (no overlap) and the new card does not close
    the railway into a loop (its exit would lead into the back card's open end)."""
    lo = s[RAIL_LO]
    front = s[RAIL_HI] - 1
    direction = s[RAIL_OUT + front]
    x = s[RAIL_X + front] + DX[direction]
    y = s[RAIL_Y + front] + DY[direction]
    for i in range(lo, front + 1):
        if s[RAIL_X + i] == x and s[RAIL_Y + i] == y:
            return False
    out = turned(direction, turn)
    if (out == s[RAIL_IN + lo] and x + DX[out] == s[RAIL_X + lo]
            and y + DY[out] == s[RAIL_Y + lo]):
        return False
    return True


# ----- hands ------------------------------------------------------------------------------
@nb.njit(cache=True)
def _find_in_hand(s, p, seat, value, broken, shape):
    """Index in the hand of a card with ``value``/``broken`` and ``shape`` (-1 any shape)."""
    base = HAND + seat * MAX_CARDS
    for i in range(s[HAND_LEN + seat]):
        card = s[base + i]
        if p[P_VALUES + card] == value and p[P_BROKEN + card] == broken:
            if shape < 0 or p[P_SHAPES + card] == shape:
                return i
    return -1


@nb.njit(cache=True)
def _remove_from_hand(s, seat, index):
    base = HAND + seat * MAX_CARDS
    n = s[HAND_LEN + seat]
    card = s[base + index]
    for i in range(index, n - 1):
        s[base + i] = s[base + i + 1]
    s[HAND_LEN + seat] = n - 1
    return card


@nb.njit(cache=True)
def _add_to_hand(s, seat, card):
    s[HAND + seat * MAX_CARDS + s[HAND_LEN + seat]] = card
    s[HAND_LEN + seat] += 1


# ----- turn structure ---------------------------------------------------------------------
@nb.njit(cache=True)
def _start_turn(s):
    """How to Play: the player draws 1 card (no hand limit), then decides."""
    card = _draw_top(s)
    if card >= 0:
        _add_to_hand(s, s[CURRENT], card)
    s[PHASE] = PHASE_CHOOSE
    s[TURN_VALUE] = 0
    s[TURN_CARDS] = 0


@nb.njit(cache=True)
def _end_turn(s, p):
    """Ending the Game: after the turn in which the draw pile ran out, hands join the
    penalty piles without cancelling; otherwise play passes to the left."""
    s[TURNS] += 1
    s[TURN_VALUE] = 0
    s[TURN_CARDS] = 0
    n_players = p[P_NUM_PLAYERS]
    if s[END_TRIGGERED] != 0:
        for seat in range(n_players):
            n = s[HAND_LEN + seat]
            for i in range(n):
                s[HAND_FINAL + seat * MAX_CARDS + i] = s[HAND + seat * MAX_CARDS + i]
            s[HAND_FINAL_LEN + seat] = n
            s[HAND_LEN + seat] = 0
        s[PHASE] = PHASE_OVER
        return
    s[CURRENT] = (s[CURRENT] + 1) % n_players
    _start_turn(s)


@nb.njit(cache=True)
def init(s, p):
    """Setup 1-6: shuffle, lay 3 connected cards, caboose on the middle one, remove
    cards unseen by player count, deal 2 each; the first player draws to start."""
    n_cards = p[P_NUM_CARDS]
    words = s[0:4]
    for c in range(n_cards):
        s[DECK + c] = c
    s[DECK_LEN] = n_cards
    shuffle_prefix(words, s[DECK:DECK + MAX_CARDS], n_cards)
    s[RAIL_LO] = 0
    s[RAIL_HI] = 0
    for _ in range(p[P_INITIAL]):
        card = _draw_top(s)
        turn = TURN_STRAIGHT
        if p[P_SHAPES + card] == CURVE:
            turn = TURN_LEFT + below(words, 2)
        _lay(s, card, turn)
    s[CABOOSE] = (s[RAIL_HI] - 1) // 2
    for i in range(p[P_REMOVED]):
        s[REMOVED + i] = _draw_top(s)
    s[REMOVED_LEN] = p[P_REMOVED]
    n_players = p[P_NUM_PLAYERS]
    for _ in range(p[P_HAND_SIZE]):
        for seat in range(n_players):
            _add_to_hand(s, seat, _draw_top(s))
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
    if s[PHASE] == PHASE_OVER:
        return -1
    return s[CURRENT]


@nb.njit(cache=True)
def legal_mask(s, p, mask):
    """Pass or lay a first card; then lay another card of the same value or roll."""
    phase = s[PHASE]
    if phase == PHASE_OVER:
        return
    seat = s[CURRENT]
    geometry = p[P_GEOMETRY] != 0
    if phase == PHASE_CHOOSE:
        mask[A_PASS] = 1
    else:
        mask[A_ROLL] = 1
    turn_ok = np.ones(3, dtype=np.bool_)
    if geometry:
        for t in range(3):
            turn_ok[t] = placement_ok(s, t)
    value_lo, value_hi = 1, MAX_VALUE
    if phase == PHASE_CONTINUE:
        value_lo = s[TURN_VALUE]
        value_hi = value_lo
    for value in range(value_lo, value_hi + 1):
        for broken in range(2):
            if not geometry:
                if _find_in_hand(s, p, seat, value, broken, -1) >= 0:
                    mask[play_action(value, broken, TURN_STRAIGHT)] = 1
                continue
            if turn_ok[0] and _find_in_hand(s, p, seat, value, broken, STRAIGHT) >= 0:
                mask[play_action(value, broken, TURN_STRAIGHT)] = 1
            if (turn_ok[1] or turn_ok[2]) and _find_in_hand(s, p, seat, value, broken,
                                                           CURVE) >= 0:
                if turn_ok[1]:
                    mask[play_action(value, broken, TURN_LEFT)] = 1
                if turn_ok[2]:
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
    s[STAT_PASSES + seat] += 1
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
        s[STAT_DERAILS + seat] += 1
    s[STAT_PLAYS + seat] += 1
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
    card = _remove_from_hand(s, seat, _find_in_hand(s, p, seat, value, broken, shape))
    _lay(s, card, turn)
    s[TURN_VALUE] = value
    s[TURN_CARDS] += 1
    s[PHASE] = PHASE_CONTINUE


# ----- scoring ----------------------------------------------------------------------------
@nb.njit(cache=True)
def pile_points(s, p, seat):
    """Penalty points of ``seat``: face-up pile, banked cards and (at the end) hand."""
    total = 0
    for i in range(s[PENALTY_LEN + seat]):
        total += p[P_VALUES + s[PENALTY + seat * MAX_CARDS + i]]
    for i in range(s[BANK_LEN + seat]):
        total += p[P_VALUES + s[BANK + seat * MAX_CARDS + i]]
    for i in range(s[HAND_FINAL_LEN + seat]):
        total += p[P_VALUES + s[HAND_FINAL + seat * MAX_CARDS + i]]
    return total


@nb.njit(cache=True)
def pile_cards(s, seat):
    return s[PENALTY_LEN + seat] + s[BANK_LEN + seat] + s[HAND_FINAL_LEN + seat]


@nb.njit(cache=True)
def winners(s, p, out):
    """Ending the Game: fewest points wins, then fewest cards; remaining ties share."""
    n_players = p[P_NUM_PLAYERS]
    best_points = 1 << 40
    best_cards = 1 << 40
    for seat in range(n_players):
        pts = pile_points(s, p, seat)
        cards = pile_cards(s, seat)
        if pts < best_points or (pts == best_points and cards < best_cards):
            best_points = pts
            best_cards = cards
    count = 0
    for seat in range(n_players):
        win = pile_points(s, p, seat) == best_points and pile_cards(s, seat) == best_cards
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
        total = 0
        for seat in range(n_players):
            total += pile_points(s, p, seat)
        for seat in range(n_players):
            own = pile_points(s, p, seat)
            out[seat] = (total - own) / (n_players - 1) - own
        return
    won = np.zeros(n_players, dtype=np.int64)
    n_won = winners(s, p, won)
    if n_won == n_players:
        return
    for seat in range(n_players):
        if won[seat]:
            out[seat] = 1.0 / n_won
        else:
            out[seat] = -1.0 / (n_players - n_won)
