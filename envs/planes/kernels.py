"""Jitted rules of Planes on the flat state vector (see ``state.py``).

Docstrings name the rulebook section each rule comes from: Setup, Taking a Turn,
Action Phase, Move Phase, Boarding a Plane, Blockages, Goal Phase, Winning the Game,
Rule Clarifications, Card Clarifications, Optional Rules.

Seat ``i`` plays colour ``i``; colours the table leaves unassigned (``num_players``
to 3) and grey (4) are the neutral colours. Single-option decisions are resolved
without asking: the action phase is skipped when no card can be played, the goal
phase when no goal can be scored.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.core.draw import draw_from_counts
from transit_gym.envs.core.errors import StateDictError, forced_steps_message
from transit_gym.envs.core.rng import below
from transit_gym.envs.core.scoring import score_difference_rewards, win_share_rewards
from transit_gym.envs.core.slots import seat_to_move, slot_sum
from transit_gym.envs.core.validate import bump
from transit_gym.envs.planes.data import (
    ACT_BACKWARDS,
    ACT_CHOOSE_ONE,
    ACT_DRAW,
    ACT_DRAW_DISCARD,
    ACT_GATHER,
    ACT_IGNORE_NEUTRALS,
    ACT_MOVE_TWICE,
    ACT_OWN_ONLY,
    ACT_REGROUP,
    ACT_SEND,
    ACT_SKIP,
    GREY,
    MAX_ARROWS,
    MAX_GATES,
    MAX_SPACES,
    MAX_TYPES,
    NUM_COLORS,
    NUM_PARTY_COLORS,
    SOLE_MINE,
    SOLE_NEUTRAL,
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
    P_ACT_N,
    P_ACT_POI,
    P_BLOCKAGE_ALL,
    P_EMPTY_DRAW,
    P_END_AT,
    P_END_DRAW_MUST,
    P_FIRST,
    P_GATE_ACCESS,
    P_GATE_START,
    P_GOAL_COLORS,
    P_GOAL_CUBES,
    P_GOAL_MINE_HI,
    P_GOAL_MINE_LO,
    P_GOAL_NEUTRAL_HI,
    P_GOAL_NEUTRAL_LO,
    P_GOAL_POI,
    P_GOAL_SOLE,
    P_HAND_SIZE,
    P_MAX_ROUNDS,
    P_NEUTRAL_CUBES,
    P_NEUTRAL_DRAW,
    P_NEUTRAL_PER_SPACE,
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
    P_REWARD,
    P_SKIP_MUST,
    P_START_SPACE,
    P_STRICT_SOLE,
    P_THRESHOLD,
    P_VP,
    P_VP_PER_CUBE,
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
    STAT_ACTIONS,
    STAT_BOARDS,
    STAT_DRAWN,
    STAT_FREE_BOARDS,
    STAT_MOVES,
    STEPS,
    TRACK,
    TURNS,
)

# ----- actions -----------------------------------------------------------------------------
A_PASS = 0                                  # no action card / no goal / no end-of-turn draw
A_CARD = 1                                  # + card type: play, score or discard that card
A_SPACE = A_CARD + MAX_TYPES                # + space: start, destination, source, or arrow
A_DROP = A_SPACE + MAX_SPACES               # + colour relative to the mover: drop one ahead
A_SKIP = A_DROP + NUM_COLORS                # pass the space ahead without dropping
A_STOP = A_SKIP + 1                         # put every active cube where the move is
A_BOARD = A_STOP + 1                        # + gate: the last active cube boards its plane
A_IGNORE_BLOCKAGES = A_BOARD + MAX_GATES    # choose-one, first option
A_EXTRA_GOAL = A_IGNORE_BLOCKAGES + 1       # choose-one, second option
A_DRAW = A_EXTRA_GOAL + 1                   # empty hand: draw one card
NUM_ACTIONS = A_DRAW + 1
#: each kind of action with its first index, in index order (an argument counts from there)
ACTION_KINDS = (
    ("pass", A_PASS), ("card", A_CARD), ("space", A_SPACE), ("drop", A_DROP), ("skip", A_SKIP),
    ("stop", A_STOP), ("board", A_BOARD), ("ignore_blockages", A_IGNORE_BLOCKAGES),
    ("extra_goal", A_EXTRA_GOAL), ("draw", A_DRAW),
)

# Transitions between phases set an internal "auto" phase that ``_advance`` resolves in a
# loop (no recursion between kernels): it runs until a seat has a real decision.
AUTO_TURN = 20       # start a turn: the action phase, unless no card can be played
AUTO_MOVE = 21       # begin a move phase, unless the mover has no cube on the board
AUTO_GOAL = 22       # the goal phase, unless no goal can be scored
AUTO_END = 23        # end of the turn: discard the action card, empty-hand draw
AUTO_NEXT = 24       # pass the turn on, or end the game after the round


# ----- colours ----------------------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def relative_color(seat, color, n_players):
    """Colour as seen by ``seat``: its own 0, the next seats 1.., neutral colours as they are."""
    if color < n_players:
        return (color - seat) % n_players
    return color


@nb.njit(cache=True, inline="always")
def absolute_color(seat, rel, n_players):
    if rel < n_players:
        return (seat + rel) % n_players
    return rel


# ----- spaces and cubes -------------------------------------------------------------------
@nb.njit(cache=True)
def blocked(s, p, sp):
    """Blockages: a cone stands on a space with 7+ cubes of any kind (reference sheet and
    game example, the default ``blockage_counts="all"``) or 7+ party cubes (``"party"``,
    the main text's wording)."""
    base = CUBES + sp * NUM_COLORS
    count = s[base] + s[base + 1] + s[base + 2] + s[base + 3]
    if p[P_BLOCKAGE_ALL] != 0:
        count += s[base + 4]
    return count >= p[P_THRESHOLD]


@nb.njit(cache=True)
def own_on_board(s, p, seat):
    total = 0
    for sp in range(p[P_NUM_SPACES]):
        total += s[CUBES + sp * NUM_COLORS + seat]
    return total


@nb.njit(cache=True)
def active_total(s):
    return s[ACTIVE] + s[ACTIVE + 1] + s[ACTIVE + 2] + s[ACTIVE + 3] + s[ACTIVE + 4]


@nb.njit(cache=True)
def targets(s, p, sp):
    """``(base, count)`` of the arrows leaving ``sp`` in this move's direction."""
    if s[BACKWARDS] != 0:
        return P_PREV + sp * MAX_ARROWS, p[P_PREV_N + sp]
    return P_NEXT + sp * MAX_ARROWS, p[P_NEXT_N + sp]


# ----- cards ------------------------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def deck_row(p, seat):
    """Row of the deck and discard pile a seat uses (its own with Player Decks)."""
    return seat if p[P_PLAYER_DECKS] != 0 else 0


@nb.njit(cache=True)
def hand_size(s, seat):
    return slot_sum(s, HAND + seat * MAX_TYPES, MAX_TYPES)


@nb.njit(cache=True)
def pile_size(s, base):
    return slot_sum(s, base, MAX_TYPES)


@nb.njit(cache=True)
def can_draw(s, p, seat):
    row = deck_row(p, seat) * MAX_TYPES
    return pile_size(s, DECK + row) + pile_size(s, DISCARD + row) > 0


@nb.njit(cache=True)
def draw_card(s, p, seat):
    """Draw one card into ``seat``'s hand; an empty deck is first rebuilt from the shuffled
    discards (Rule Clarifications). Returns the card type, -1 when no card is left."""
    row = deck_row(p, seat) * MAX_TYPES
    deck = s[DECK + row:DECK + row + MAX_TYPES]
    if pile_size(s, DECK + row) == 0:
        for t in range(MAX_TYPES):
            deck[t] += s[DISCARD + row + t]
            s[DISCARD + row + t] = 0
    t = draw_from_counts(s[0:4], deck)
    if t >= 0:
        s[HAND + seat * MAX_TYPES + t] += 1
        bump(s, STAT_DRAWN + seat, 1)
    return t


@nb.njit(cache=True)
def draw_cards(s, p, seat, n):
    for _ in range(n):
        draw_card(s, p, seat)


@nb.njit(cache=True)
def discard_card(s, p, seat, t):
    s[DISCARD + deck_row(p, seat) * MAX_TYPES + t] += 1


# ----- goals ------------------------------------------------------------------------------
# Goal checks work on per-space statistics, computed once per position and seat:
# total cubes, distinct colours, neutral cubes (grey or unassigned), the seat's cubes.
ST_TOTAL, ST_COLORS, ST_NEUTRAL, ST_MINE = 0, 1, 2, 3


@nb.njit(cache=True)
def pattern_ok(p, t, poi, total, colors, neutral, mine):
    """Goal Phase / Card Clarifications: a space with point of interest ``poi`` and these
    cube statistics shows the goal of card ``t``."""
    want = p[P_GOAL_POI + t]
    if want >= 0 and poi != want:
        return False
    want = p[P_GOAL_CUBES + t]
    if want >= 0 and total != want:
        return False
    want = p[P_GOAL_COLORS + t]
    if want >= 0 and colors != want:
        return False
    if mine < p[P_GOAL_MINE_LO + t] or mine > p[P_GOAL_MINE_HI + t]:
        return False
    if neutral < p[P_GOAL_NEUTRAL_LO + t] or neutral > p[P_GOAL_NEUTRAL_HI + t]:
        return False
    if p[P_STRICT_SOLE] != 0:
        sole = p[P_GOAL_SOLE + t]
        if sole == SOLE_MINE and total != mine:
            return False
        if sole == SOLE_NEUTRAL and total != neutral:
            return False
    return True


@nb.njit(cache=True)
def space_stats(s, p, seat):
    """``(spaces, 4)`` statistics of the board for ``seat``: only cubes on the board
    count (Card Clarifications, General Notes)."""
    n_players = p[P_NUM_PLAYERS]
    stats = np.zeros((MAX_SPACES, 4), dtype=np.int64)
    for sp in range(p[P_NUM_SPACES]):
        base = CUBES + sp * NUM_COLORS
        for c in range(NUM_COLORS):
            k = s[base + c]
            if k > 0:
                stats[sp, ST_TOTAL] += k
                stats[sp, ST_COLORS] += 1
                if c >= n_players:
                    stats[sp, ST_NEUTRAL] += k
        stats[sp, ST_MINE] = s[base + seat]
    return stats


@nb.njit(cache=True)
def goal_on_board(p, t, stats):
    found = False
    for sp in range(p[P_NUM_SPACES]):
        if pattern_ok(p, t, p[P_POI + sp], stats[sp, ST_TOTAL], stats[sp, ST_COLORS],
                      stats[sp, ST_NEUTRAL], stats[sp, ST_MINE]):
            found = True
            break
    return found


@nb.njit(cache=True)
def goal_met(s, p, seat, t):
    """The goal of card ``t`` is present somewhere on the board for ``seat``."""
    return goal_on_board(p, t, space_stats(s, p, seat))


@nb.njit(cache=True)
def any_goal_scorable(s, p, seat):
    base = HAND + seat * MAX_TYPES
    held = False
    for t in range(p[P_NUM_TYPES]):
        if s[base + t] > 0:
            held = True
            break
    if not held:
        return False
    stats = space_stats(s, p, seat)
    found = False
    for t in range(p[P_NUM_TYPES]):
        if s[base + t] > 0 and goal_on_board(p, t, stats):
            found = True
            break
    return found


@nb.njit(cache=True)
def score_goal(s, seat, t):
    s[HAND + seat * MAX_TYPES + t] -= 1
    s[GOALS + seat * MAX_TYPES + t] += 1


# ----- scoring ----------------------------------------------------------------------------
@nb.njit(cache=True)
def own_boarded(s, p, seat):
    """Party cubes of ``seat`` on its own plane (Winning the Game)."""
    total = 0
    for g in range(p[P_NUM_GATES]):
        if s[GATE_COLOR + g] == seat:
            total += s[BOARDED + g]
    return total


@nb.njit(cache=True)
def goal_points(s, p, seat):
    total = 0
    for t in range(p[P_NUM_TYPES]):
        total += s[GOALS + seat * MAX_TYPES + t] * p[P_VP + t]
    return total


@nb.njit(cache=True)
def goal_cards(s, seat):
    return pile_size(s, GOALS + seat * MAX_TYPES)


@nb.njit(cache=True)
def score(s, p, seat):
    """Winning the Game: goal VP plus 5 VP per own cube boarded on the own plane."""
    return goal_points(s, p, seat) + p[P_VP_PER_CUBE] * own_boarded(s, p, seat)


@nb.njit(cache=True)
def winners(s, p, out):
    """Most VP; ties to most own cubes boarded, then most goal cards; a tie beyond that
    ("play again") is shared. Returns the number of winners."""
    n_players = p[P_NUM_PLAYERS]
    best = (-1, -1, -1)
    for seat in range(n_players):
        key = (score(s, p, seat), own_boarded(s, p, seat), goal_cards(s, seat))
        if key > best:
            best = key
    count = 0
    for seat in range(n_players):
        key = (score(s, p, seat), own_boarded(s, p, seat), goal_cards(s, seat))
        out[seat] = 1 if key == best else 0
        count += out[seat]
    return count


@nb.njit(cache=True)
def rewards(s, p, out):
    """Zero-sum terminal rewards: +1 shared by the winners and -1 by the others (mode 0),
    or own VP minus the mean VP of the others (mode 1)."""
    n_players = p[P_NUM_PLAYERS]
    out[:] = 0.0
    if s[PHASE] != PH_OVER:
        return
    if p[P_REWARD] == 1:
        points = np.zeros(n_players, dtype=np.float64)
        for seat in range(n_players):
            points[seat] = score(s, p, seat)
        score_difference_rewards(points, n_players, out, 1.0)
        return
    won = np.zeros(n_players, dtype=np.int64)
    winners(s, p, won)
    win_share_rewards(won, n_players, out)


# ----- setup ------------------------------------------------------------------------------
@nb.njit(cache=True)
def color_at_start(s, p, k):
    """Setup 3: the starting player's colour at P1, clockwise on; unassigned colours fill
    the remaining start spaces."""
    n_players = p[P_NUM_PLAYERS]
    if k < n_players:
        return (s[FIRST_PLAYER] + k) % n_players
    return k


@nb.njit(cache=True)
def init(s, p):
    """Setup 1-7: boarding token on 0; party cubes on P1-P4; two neutral cubes on every
    other space; each plane at the gate matching its colour's start; deal 3 cards."""
    n_players = p[P_NUM_PLAYERS]
    first = p[P_FIRST]
    if first < 0:
        first = below(s[0:4], n_players)
    s[FIRST_PLAYER] = first
    is_start = np.zeros(MAX_SPACES, dtype=np.bool_)
    for k in range(NUM_PARTY_COLORS):
        sp = p[P_START_SPACE + k]
        is_start[sp] = True
        s[CUBES + sp * NUM_COLORS + color_at_start(s, p, k)] = p[P_PARTY_CUBES]
    neutral_left = p[P_NEUTRAL_CUBES]
    for sp in range(p[P_NUM_SPACES]):
        if not is_start[sp]:
            s[CUBES + sp * NUM_COLORS + GREY] = p[P_NEUTRAL_PER_SPACE]
            neutral_left -= p[P_NEUTRAL_PER_SPACE]
    s[BOX_CUBES + GREY] = neutral_left
    for g in range(MAX_GATES):
        s[GATE_COLOR + g] = -1
    for g in range(p[P_NUM_GATES]):
        k = p[P_GATE_START + g]
        s[GATE_COLOR + g] = GREY if k < 0 else color_at_start(s, p, k)
    n_types = p[P_NUM_TYPES]
    for t in range(n_types):
        if p[P_PLAYER_DECKS] != 0:
            for seat in range(n_players):
                s[DECK + seat * MAX_TYPES + t] = 1
            s[BOX_CARDS + t] = MAX_PLAYERS - n_players
        else:
            s[DECK + t] = MAX_PLAYERS
    for _ in range(p[P_HAND_SIZE]):
        for k in range(n_players):
            seat = (first + k) % n_players
            draw_card(s, p, seat)
    for seat in range(n_players):
        s[STAT_DRAWN + seat] = 0
    s[CURRENT] = first
    s[PHASE] = AUTO_TURN
    _advance(s, p)


# ----- turn structure ---------------------------------------------------------------------
@nb.njit(cache=True)
def _clear_turn(s):
    s[IN_PLAY] = -1
    s[SEL_A] = -1
    s[SEL_B] = -1
    s[SKIP_OWED] = 0
    s[IGNORE_BLOCKAGES] = 0
    s[IGNORE_NEUTRALS] = 0
    s[OWN_ONLY] = 0
    s[BACKWARDS] = 0
    s[MOVES_LEFT] = 1
    _clear_move(s)


@nb.njit(cache=True)
def _clear_move(s):
    s[POS] = -1
    s[START] = -1
    s[STEPS] = 0
    s[DROPPED] = 0
    s[BRANCH] = -1


#: whole rounds of turns one step may pass without a decision before it gives up: a turn
#: passes without one only for a seat with no party cube on the board, no card it can play
#: and no goal to score, and only an empty-hand draw changes that, so by the third such
#: round no seat can ever decide again (``stuck``; ``violation`` refuses such a state)
MAX_FORCED_ROUNDS = 3
_FORCED_STEPS = forced_steps_message(
    "planes", f"one step passed {MAX_FORCED_ROUNDS} rounds of turns",
    "cubes, hand, deck and discard: no seat has a party cube on the board, a card to play, "
    "a goal to score or a card to draw")


@nb.njit(cache=True)
def seat_stuck(s, p, seat):
    """Whether ``seat``'s turns pass without a decision and change nothing: no party cube
    on the board, no card to play as an action, no goal to score, no card to draw."""
    if own_on_board(s, p, seat) > 0 or can_draw(s, p, seat) or any_goal_scorable(s, p, seat):
        return False
    base = HAND + seat * MAX_TYPES
    for t in range(p[P_NUM_TYPES]):
        if s[base + t] > 0 and card_playable(s, p, seat, t):
            return False
    return True


@nb.njit(cache=True)
def stuck(s, p):
    """Whether no seat can ever make a decision again (Taking a Turn: every phase of every
    seat's turn is empty), so that the game could only pass turns forever."""
    for seat in range(p[P_NUM_PLAYERS]):  # noqa: SIM110 (no generators in numba)
        if not seat_stuck(s, p, seat):
            return False
    return True


@nb.njit(cache=True)
def _advance(s, p):
    """Resolve forced steps up to the next decision (or the end). More than
    ``MAX_FORCED_ROUNDS`` rounds of turns without a decision raise ``StateDictError``: no seat
    can decide again, a state no legal play reaches (``violation`` code 21)."""
    forced_turns = 0
    while True:
        phase = s[PHASE]
        if phase == AUTO_NEXT:
            forced_turns += 1
            if forced_turns > MAX_FORCED_ROUNDS * p[P_NUM_PLAYERS]:
                raise StateDictError(_FORCED_STEPS)
        if phase == AUTO_TURN:
            _start_turn(s, p)
        elif phase == AUTO_MOVE:
            _begin_move(s, p)
        elif phase == AUTO_GOAL:
            _goal_phase(s, p)
        elif phase == AUTO_END:
            _end_turn(s, p)
        elif phase == AUTO_NEXT:
            _next_turn(s, p)
        else:
            return


@nb.njit(cache=True)
def _start_turn(s, p):
    """Taking a Turn: action phase (optional), move phase, goal phase (optional)."""
    _clear_turn(s)
    seat = s[CURRENT]
    base = HAND + seat * MAX_TYPES
    for t in range(p[P_NUM_TYPES]):
        if s[base + t] > 0 and card_playable(s, p, seat, t):
            s[PHASE] = PH_ACTION
            return
    s[PHASE] = AUTO_MOVE


@nb.njit(cache=True)
def _begin_move(s, p):
    """Move Phase: must move; a seat with no party cube left on the board cannot."""
    _clear_move(s)
    if own_on_board(s, p, s[CURRENT]) == 0:
        s[MOVES_LEFT] = 0
        s[PHASE] = AUTO_GOAL
        return
    s[PHASE] = PH_START


@nb.njit(cache=True)
def _end_move(s, p):
    """After a move: Move Twice makes a second move phase, then the goal phase."""
    for c in range(NUM_COLORS):
        s[ACTIVE + c] = 0
    s[SKIP_OWED] = 0
    s[MOVES_LEFT] -= 1
    _clear_move(s)
    s[PHASE] = AUTO_MOVE if s[MOVES_LEFT] > 0 else AUTO_GOAL


@nb.njit(cache=True)
def _goal_phase(s, p):
    s[PHASE] = PH_GOAL if any_goal_scorable(s, p, s[CURRENT]) else AUTO_END


@nb.njit(cache=True)
def _end_turn(s, p):
    """Action Phase: the played action card is discarded at the end of the turn.
    Goal Phase: a player with an empty hand may (or, by option, does) draw 1 card."""
    seat = s[CURRENT]
    if s[IN_PLAY] >= 0:
        discard_card(s, p, seat, s[IN_PLAY])
        s[IN_PLAY] = -1
    s[PHASE] = AUTO_NEXT
    if hand_size(s, seat) == 0 and can_draw(s, p, seat):
        if p[P_END_DRAW_MUST] != 0:
            draw_cards(s, p, seat, p[P_EMPTY_DRAW])
        else:
            s[PHASE] = PH_DRAW


@nb.njit(cache=True)
def _next_turn(s, p):
    """Winning the Game: once triggered, the game ends when the round is complete. The
    ``max_rounds`` limit (not in the rulebook) triggers the end after that many rounds."""
    bump(s, TURNS, 1)
    n_players = p[P_NUM_PLAYERS]
    nxt = (s[CURRENT] + 1) % n_players
    limit = p[P_MAX_ROUNDS]
    if limit > 0 and s[TURNS] >= limit * n_players and s[END_TRIGGERED] == 0:
        s[END_TRIGGERED] = 2
    if s[END_TRIGGERED] != 0 and nxt == s[FIRST_PLAYER]:
        s[PHASE] = PH_OVER
        _clear_turn(s)
        return
    s[CURRENT] = nxt
    s[PHASE] = AUTO_TURN


@nb.njit(cache=True)
def _check_end(s, p):
    """Winning the Game: all planes of one colour full, or the track at its end space."""
    if s[TRACK] >= p[P_END_AT]:
        s[END_TRIGGERED] = 1
        return
    slots = p[P_PLANE_SLOTS]
    for c in range(NUM_COLORS):
        planes = 0
        full = 0
        for g in range(p[P_NUM_GATES]):
            if s[GATE_COLOR + g] == c:
                planes += 1
                if s[BOARDED + g] >= slots:
                    full += 1
        if planes > 0 and planes == full:
            s[END_TRIGGERED] = 1
            return


@nb.njit(cache=True)
def current_player(s, p):
    return seat_to_move(s, PHASE, PH_OVER, CURRENT)


# ----- action cards -----------------------------------------------------------------------
@nb.njit(cache=True)
def has_poi(p, poi):
    found = False
    for sp in range(p[P_NUM_SPACES]):
        if p[P_POI + sp] == poi:
            found = True
            break
    return found


@nb.njit(cache=True)
def card_playable(s, p, seat, t):
    """Action Phase: a card can be played when its effect can be carried out (cards that
    move cubes or change the move need party cubes on the board)."""
    kind = p[P_ACT_KIND + t]
    if kind in (ACT_DRAW, ACT_DRAW_DISCARD, ACT_CHOOSE_ONE):
        return True
    own = own_on_board(s, p, seat)
    if kind == ACT_GATHER:
        return own >= 1 and has_poi(p, p[P_ACT_POI + t])
    if kind == ACT_SEND:
        return own >= p[P_ACT_N + t] and has_poi(p, p[P_ACT_POI + t])
    return own >= 1


@nb.njit(cache=True)
def _play_card(s, p, seat, t):
    """Card Clarifications, Action column: resolve card ``t`` played as an action."""
    s[HAND + seat * MAX_TYPES + t] -= 1
    s[IN_PLAY] = t
    bump(s, STAT_ACTIONS + seat, 1)
    kind = p[P_ACT_KIND + t]
    if kind == ACT_DRAW:
        draw_cards(s, p, seat, p[P_ACT_N + t])
    elif kind == ACT_DRAW_DISCARD:
        draw_cards(s, p, seat, p[P_ACT_N + t])
        if hand_size(s, seat) > 0:
            s[PHASE] = PH_DISCARD
            return
    elif kind in (ACT_GATHER, ACT_SEND):
        s[PHASE] = PH_DEST
        return
    elif kind == ACT_REGROUP:
        s[PHASE] = PH_SOURCE
        return
    elif kind == ACT_CHOOSE_ONE:
        s[PHASE] = PH_CHOOSE
        return
    elif kind == ACT_SKIP:
        s[SKIP_OWED] = 1
    elif kind == ACT_IGNORE_NEUTRALS:
        s[IGNORE_NEUTRALS] = 1
    elif kind == ACT_BACKWARDS:
        s[BACKWARDS] = 1
    elif kind == ACT_OWN_ONLY:
        s[OWN_ONLY] = 1
    elif kind == ACT_MOVE_TWICE:
        s[MOVES_LEFT] = 2
    s[PHASE] = AUTO_MOVE


@nb.njit(cache=True)
def _move_cubes(s, seat, frm, to, n):
    s[CUBES + frm * NUM_COLORS + seat] -= n
    s[CUBES + to * NUM_COLORS + seat] += n


@nb.njit(cache=True)
def _gather(s, p, seat, to):
    """Gather / Regroup: every party cube of ``seat`` on the board joins space ``to``."""
    for sp in range(p[P_NUM_SPACES]):
        if sp != to:
            _move_cubes(s, seat, sp, to, s[CUBES + sp * NUM_COLORS + seat])


@nb.njit(cache=True)
def _gathered(s, p, seat, sp, kind):
    """When the card in play is of ``kind`` (Gather or Regroup), gather at ``sp`` and go
    on to the move; whether it was."""
    if p[P_ACT_KIND + s[IN_PLAY]] != kind:
        return False
    _gather(s, p, seat, sp)
    s[PHASE] = AUTO_MOVE
    return True


@nb.njit(cache=True)
def _choose_dest(s, p, seat, sp):
    if _gathered(s, p, seat, sp, ACT_GATHER):
        return
    s[SEL_A] = sp
    s[PHASE] = PH_SOURCE


@nb.njit(cache=True)
def _choose_source(s, p, seat, sp):
    if _gathered(s, p, seat, sp, ACT_REGROUP):
        return
    t = s[IN_PLAY]
    if p[P_ACT_N + t] == 2 and s[SEL_B] < 0:
        s[SEL_B] = sp
        return
    if s[SEL_B] >= 0:
        _move_cubes(s, seat, s[SEL_B], s[SEL_A], 1)
    _move_cubes(s, seat, sp, s[SEL_A], 1)
    s[PHASE] = AUTO_MOVE


# ----- the move ---------------------------------------------------------------------------
@nb.njit(cache=True)
def _pick_up(s, p, seat, sp):
    """Move Phase: every cube of the chosen space becomes active; Move Only Your Party
    keeps only the mover's, Ignore Neutrals leaves grey and unassigned colours behind."""
    n_players = p[P_NUM_PLAYERS]
    base = CUBES + sp * NUM_COLORS
    for c in range(NUM_COLORS):
        take = s[base + c]
        if s[OWN_ONLY] != 0 and c != seat:
            take = 0
        if s[IGNORE_NEUTRALS] != 0 and c >= n_players:
            take = 0
        s[ACTIVE + c] = take
        s[base + c] -= take
    s[POS] = sp
    s[START] = sp
    s[STEPS] = 0
    s[DROPPED] = 0
    s[BRANCH] = -1
    bump(s, STAT_MOVES + seat, 1)
    s[PHASE] = PH_STEP


@nb.njit(cache=True)
def _skip_possible_from(s, p, sp):
    """Skip 1 Space: some space ahead has no cone and can be passed without a cube."""
    base, n = targets(s, p, sp)
    found = False
    for i in range(n):
        if not blocked(s, p, p[base + i]):
            found = True
            break
    return found


@nb.njit(cache=True)
def _must_skip_now(s, p):
    """With Skip 1 Space (and ``skip="must"``) the move may not end while a skip is
    still possible from where the active cubes are."""
    return s[SKIP_OWED] != 0 and p[P_SKIP_MUST] != 0 and _skip_possible_from(s, p, s[POS])


@nb.njit(cache=True)
def _mask_ahead(s, p, seat, target, mask):
    """Drop one active cube into ``target`` (any colour the mover holds), or skip it."""
    n_players = p[P_NUM_PLAYERS]
    cone = blocked(s, p, target)
    last = active_total(s) == 1
    skip_ok = s[SKIP_OWED] != 0 and not cone
    if not (last and skip_ok and p[P_SKIP_MUST] != 0):
        for c in range(NUM_COLORS):
            if s[ACTIVE + c] > 0:
                mask[A_DROP + relative_color(seat, c, n_players)] = 1
    if skip_ok:
        mask[A_SKIP] = 1


@nb.njit(cache=True)
def _mask_step(s, p, seat, mask):
    """Move Phase: one cube per space along the arrows; stop anywhere after the first
    space; a gate takes only the last active cube, of the plane's colour (Boarding)."""
    pos = s[POS]
    must_skip = _must_skip_now(s, p)
    if s[DROPPED] != 0 and not must_skip:
        mask[A_STOP] = 1
    if active_total(s) == 1 and not must_skip:
        color = 0
        while s[ACTIVE + color] == 0:
            color += 1
        slots = p[P_PLANE_SLOTS]
        for g in range(p[P_NUM_GATES]):
            if (p[P_GATE_ACCESS + g] == pos and s[GATE_COLOR + g] == color
                    and s[BOARDED + g] < slots):
                mask[A_BOARD + g] = 1
    base, n = targets(s, p, pos)
    if n == 1:
        _mask_ahead(s, p, seat, p[base], mask)
    else:
        for i in range(n):
            target = p[base + i]
            # entering a cone ends the move, so with a skip owed only skippable arrows
            if not (must_skip and blocked(s, p, target) and s[IGNORE_BLOCKAGES] == 0):
                mask[A_SPACE + target] = 1


@nb.njit(cache=True)
def _ahead(s, p):
    """The space the next cube goes to: the only arrow's, or the arrow picked."""
    if s[BRANCH] >= 0:
        return s[BRANCH]
    base, _ = targets(s, p, s[POS])
    return p[base]


@nb.njit(cache=True)
def _drop(s, p, seat, rel):
    """Drop one active cube of colour ``rel`` (relative to the mover) into the space ahead.
    Blockages: nothing moves past a cone, so entering a space that already has one ends
    the move there with every active cube (unless blockages are ignored)."""
    target = _ahead(s, p)
    s[BRANCH] = -1
    if blocked(s, p, target) and s[IGNORE_BLOCKAGES] == 0:
        s[POS] = target
        s[STEPS] += 1
        _stop(s, p)
        return
    color = absolute_color(seat, rel, p[P_NUM_PLAYERS])
    s[ACTIVE + color] -= 1
    s[CUBES + target * NUM_COLORS + color] += 1
    s[POS] = target
    s[STEPS] += 1
    s[DROPPED] = 1
    if active_total(s) == 0:
        _end_move(s, p)
        return
    s[PHASE] = PH_STEP


@nb.njit(cache=True)
def _skip(s, p):
    """Skip 1 Space: pass the space ahead without dropping a cube there."""
    target = _ahead(s, p)
    s[BRANCH] = -1
    s[POS] = target
    s[STEPS] += 1
    s[DROPPED] = 0
    s[SKIP_OWED] = 0
    s[PHASE] = PH_STEP


@nb.njit(cache=True)
def _stop(s, p):
    """Stop: every remaining active cube goes into the space the move is in."""
    base = CUBES + s[POS] * NUM_COLORS
    for c in range(NUM_COLORS):
        s[base + c] += s[ACTIVE + c]
        s[ACTIVE + c] = 0
    _end_move(s, p)


@nb.njit(cache=True)
def _board(s, p, seat, g):
    """Boarding a Plane: the cube takes a slot, the boarding token advances, and a cube of
    no player at the table earns the mover 2 cards at once."""
    color = 0
    while s[ACTIVE + color] == 0:
        color += 1
    s[ACTIVE + color] = 0
    s[BOARDED + g] += 1
    s[TRACK] += 1
    bump(s, STAT_BOARDS + seat, 1)
    if color >= p[P_NUM_PLAYERS]:
        bump(s, STAT_FREE_BOARDS + seat, 1)
        draw_cards(s, p, seat, p[P_NEUTRAL_DRAW])
    _check_end(s, p)
    _end_move(s, p)


# ----- the decision API -------------------------------------------------------------------
@nb.njit(cache=True)
def legal_mask(s, p, mask):
    phase = s[PHASE]
    if phase == PH_OVER:
        return
    seat = s[CURRENT]
    hand = HAND + seat * MAX_TYPES
    n_types = p[P_NUM_TYPES]
    n_spaces = p[P_NUM_SPACES]
    if phase == PH_STEP:
        _mask_step(s, p, seat, mask)
    elif phase == PH_BRANCH:
        _mask_ahead(s, p, seat, s[BRANCH], mask)
    elif phase == PH_START:
        for sp in range(n_spaces):
            if s[CUBES + sp * NUM_COLORS + seat] > 0:
                mask[A_SPACE + sp] = 1
    elif phase == PH_ACTION:
        mask[A_PASS] = 1
        for t in range(n_types):
            if s[hand + t] > 0 and card_playable(s, p, seat, t):
                mask[A_CARD + t] = 1
    elif phase in (PH_GOAL, PH_EXTRA_GOAL):
        if phase == PH_GOAL:
            mask[A_PASS] = 1
        stats = space_stats(s, p, seat)
        for t in range(n_types):
            if s[hand + t] > 0 and goal_on_board(p, t, stats):
                mask[A_CARD + t] = 1
    elif phase == PH_DISCARD:
        for t in range(n_types):
            if s[hand + t] > 0:
                mask[A_CARD + t] = 1
    elif phase == PH_CHOOSE:
        mask[A_IGNORE_BLOCKAGES] = 1
        if any_goal_scorable(s, p, seat):
            mask[A_EXTRA_GOAL] = 1
    elif phase == PH_DEST:
        poi = p[P_ACT_POI + s[IN_PLAY]]
        for sp in range(n_spaces):
            if p[P_POI + sp] == poi:
                mask[A_SPACE + sp] = 1
    elif phase == PH_SOURCE:
        for sp in range(n_spaces):
            own = s[CUBES + sp * NUM_COLORS + seat]
            if sp == s[SEL_B]:
                own -= 1
            if own > 0:
                mask[A_SPACE + sp] = 1
    elif phase == PH_DRAW:
        mask[A_PASS] = 1
        mask[A_DRAW] = 1


@nb.njit(cache=True)
def apply(s, p, action):
    phase = s[PHASE]
    seat = s[CURRENT]
    if phase in (PH_STEP, PH_BRANCH):
        if action >= A_DROP and action < A_SKIP:
            _drop(s, p, seat, action - A_DROP)
        elif action == A_SKIP:
            _skip(s, p)
        elif action == A_STOP:
            _stop(s, p)
        elif action >= A_BOARD and action < A_BOARD + MAX_GATES:
            _board(s, p, seat, action - A_BOARD)
        else:
            s[BRANCH] = action - A_SPACE
            s[PHASE] = PH_BRANCH
    elif phase == PH_START:
        _pick_up(s, p, seat, action - A_SPACE)
    elif phase == PH_ACTION:
        if action == A_PASS:
            s[PHASE] = AUTO_MOVE
        else:
            _play_card(s, p, seat, action - A_CARD)
    elif phase == PH_GOAL:
        if action != A_PASS:
            score_goal(s, seat, action - A_CARD)
        s[PHASE] = AUTO_END
    elif phase == PH_EXTRA_GOAL:
        score_goal(s, seat, action - A_CARD)
        s[PHASE] = AUTO_MOVE
    elif phase == PH_DISCARD:
        s[HAND + seat * MAX_TYPES + action - A_CARD] -= 1
        discard_card(s, p, seat, action - A_CARD)
        s[PHASE] = AUTO_MOVE
    elif phase == PH_CHOOSE:
        if action == A_IGNORE_BLOCKAGES:
            s[IGNORE_BLOCKAGES] = 1
            s[PHASE] = AUTO_MOVE
        else:
            s[PHASE] = PH_EXTRA_GOAL
    elif phase == PH_DEST:
        _choose_dest(s, p, seat, action - A_SPACE)
    elif phase == PH_SOURCE:
        _choose_source(s, p, seat, action - A_SPACE)
    elif phase == PH_DRAW:
        if action == A_DRAW:
            draw_cards(s, p, seat, p[P_EMPTY_DRAW])
        s[PHASE] = AUTO_NEXT
    _advance(s, p)
