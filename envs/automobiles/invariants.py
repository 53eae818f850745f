"""Which Automobiles states the kernels may run on: ``violation(s, p, where)``.

Run on every state that enters from outside (``State.from_dict``, ``set_state``,
unpickling, ``BatchEnv.load``) before any other kernel sees it. Every field a kernel uses
as an index, a loop bound or a count is range-checked; the cubes of each colour are
conserved (the supply is split over the stock and the seats' piles, the track and the
Nitro draw); the cubes placed this turn agree with ``on_track``; the market holds one
card of each colour with that card's cost and value; positions are consistent with the
spaces they name, and lie no farther than the movement left before the race ends allows
(``positions.py``). Money only feeds arithmetic and is kept far from int64 overflow.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles.cubes import card_effect
from transit_gym.envs.automobiles.data import (
    MAX_COUNT,
    MAX_PLAYERS,
    MAX_SEGMENTS,
    NUM_COLOURS,
    NUM_GEARS,
    WEAR,
)
from transit_gym.envs.automobiles.kernels import settle
from transit_gym.envs.automobiles.picks import picks_broken
from transit_gym.envs.automobiles.positions import position_range, positions_broken
from transit_gym.envs.automobiles.racing_season.cards_delayed import (
    delayed_violation,  # Racing Season
)
from transit_gym.envs.automobiles.racing_season.cards_piles import piles_violation  # pile cards
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.automobiles.state import (
    ACT_COLOUR,
    ACTIVE,
    AERO,
    BOOST_BONUS,
    BOOST_NEXT,
    BOUGHT_N,
    CAR_ABS,
    CAR_SEG,
    CAR_SPACE,
    CARD_OF,
    COST,
    CURRENT,
    DRAWN,
    DRIVER_HELD,
    DRIVER_OF,
    DRIVER_POOL,
    DRIVER_USED,
    DRIVER_WEAR,
    END_TRIGGERED,
    FAR,
    FUEL,
    LAST_LEAD_ROUND,
    LEAD_CHANGES,
    LEADER,
    MAX_PATH,
    MAX_PLACED,
    MONEY,
    MV_ABS,
    MV_ENTRY,
    MV_LEFT,
    MV_MASK,
    MV_MIN,
    MV_MIXED,
    MV_REDLINE,
    MV_SEG,
    MV_SPACE,
    MV_STEPS,
    ON_TRACK,
    P_CARD_COLOUR,
    P_CARD_COST,
    P_CARD_VALUE,
    P_DRIVER_EXTRA,
    P_DRIVERS,
    P_LAP,
    P_MAX_ROUNDS,
    P_NUM_CARDS,
    P_NUM_PLAYERS,
    P_NUM_SPACES,
    P_SPACE_END,
    P_SPACE_LEN,
    P_SUPPLY,
    PATH_N,
    PATH_SPACE,
    PENDING_BOOST,
    PH_ADRENALINE,
    PH_BOOST_OTHER,
    PH_BURNOUT,
    PH_CAMBER_TOE,
    PH_CRATE_MOVE,
    PH_DRIVER_DRAFT,
    PH_DRIVER_EXTRA,
    PH_DRIVER_REDRAW,
    PH_DRIVER_SORT,
    PH_DRIVER_TO_ACTIVE,
    PH_DRIVER_WEAR,
    PH_MOVE,
    PH_NITRO,
    PH_OVER,
    PH_SETUP_BUY,
    PH_STEERING,
    PH_SUSPENSION,
    PH_TIRES,
    PHASE,
    PHASE_DRIVERS,
    PHASE_EFFECT,
    PK_COUNT,
    PK_LEFT,
    PK_MUST,
    PK_TOTAL,
    PLACED_ABS,
    PLACED_COLOUR,
    PLACED_N,
    PLACED_SEG,
    PLACED_SPACE,
    REDLINE,
    REDLINE_WEAR,
    ROUNDS,
    START_PLAYER,
    START_RANK,
    STAT_BOUGHT,
    STAT_TURNS,
    STD_TURN,
    STOCK,
    TOP_COLOUR,
    TURN_SEAT,
    VALUE,
)
from transit_gym.envs.automobiles.state import LAYOUT as _LAYOUT
from transit_gym.envs.core.validate import (
    MAX_COUNTER,
    START_MESSAGES,
    any_outside,
    outside,
    relation_broken,
    start_violation,
)

NC = NUM_COLOURS
#: the per-seat cube piles, contiguous from ``bag`` to ``discard``
_PILES = _LAYOUT.offset("bag")
#: the race state (a season's vector holds more after it)
_STATE_SIZE = _LAYOUT.size
_PILE_SLOTS = 4 * MAX_PLAYERS * NC
#: the statistics, contiguous from ``stat_bought`` to ``stat_turns``
_STATS = STAT_BOUGHT
_STAT_SLOTS = STAT_TURNS + MAX_PLAYERS - STAT_BOUGHT
#: far beyond any position or sum of money in a real race, far from overflow
MAX_MAGNITUDE = 1 << 32

MESSAGES = {
    **START_MESSAGES,
    3: "a seat number is not a seat at the table",
    4: "a round, flag or statistic is out of range",
    5: "the market must hold one card of each colour, with that card's cost and value",
    6: "a cube count is negative or too large",
    7: "the cubes of a colour do not add up to its supply",
    8: "a seat beyond the table holds cubes or a car",
    9: "a car is not on a space of the track, or its position does not match its space",
    10: "the cubes placed this turn are out of range or disagree with the track counts",
    11: "the path of the moving cube is out of range",
    12: "a field of the cube being moved is out of range, or a move is left over outside "
        "the move's decision (mv_steps, mv_space, mv_left)",
    13: "a card-effect pick count or Boost field is out of range, or the picks made and "
        "left exceed what the resolving card or the seat's driver allows",
    14: "money or a purchase count is out of range",
    # Racing Season delayed cards
    15: "an Adrenaline or Crate Motor field is out of range, or their pending decision "
        "is one play cannot reach",
    16: "during the setup purchases no hand is drawn and no turn has started",
    # Racing Season, cards that move (racing_season/cards_moves.py)
    17: "a Redline / Fuel Injection flag or a flag of the moving cube is out of range",
    18: "a driver field is out of range (Racing Season drivers)",
    # Racing Season cards that change piles
    19: "a pile card's decision is pending without its card's cube resolving for the seat "
        "on turn",
    # relations
    24: "a driver decision is pending for a seat without that driver, or an End Phase "
        "driver decision while the turn's cubes are still used, on the track or placed",
    23: "current is not the seat on turn (turn_seat), nor the seat a Boost offer or a "
        "Crate Motor move has reached",
    21: "a card effect's decision is pending without a cube of that card's colour resolving "
        "(act_colour must name the market colour whose card has the effect, and a cube "
        "about to move waits in the used pile of the seat on turn)",
    22: "the pending decision has nothing left to choose: the rules would have moved on "
        "(phase, pk_left and the piles do not fit the decision)",
    20: "the driver draft does not fit its order (driver_of: the seats before the deciding "
        "one hold a driver, the rest none; driver_pool: the revealed drivers not taken; "
        "current = turn_seat; no turn started)",
    25: "a car or a cube of this turn lies farther than the race allows: its position "
        "(car_abs, placed_abs, mv_abs) plus the spaces still allowed before the race ends "
        "passes the finish line by more than a fresh turn and a round of turns can",
}


@nb.njit(cache=True)
def violation(s, p, where):
    """0 when the kernels may run on ``s``; else a code of ``MESSAGES`` (``where``: the
    offending slot and its allowed range, or -1s for a broken relation)."""
    code = start_violation(s, where, PHASE, PH_OVER)
    if code:
        return code
    n = p[P_NUM_PLAYERS]
    n_spaces = p[P_NUM_SPACES]
    over = s[PHASE] == PH_OVER
    if (outside(s, CURRENT, -1 if over else 0, n - 1, where)
            or outside(s, TURN_SEAT, 0, n - 1, where)
            or outside(s, START_PLAYER, 0, n - 1, where)
            or outside(s, BOOST_NEXT, 0, n, where)
            or outside(s, LEADER, 0, n - 1, where)
            or outside(s, START_RANK, 0, n, where)):
        return 3
    # a round that reaches max_rounds ends the race, so a live race has played fewer
    if (outside(s, ROUNDS, 0, p[P_MAX_ROUNDS] - (0 if over else 1), where)
            or outside(s, END_TRIGGERED, 0, 1, where)
            or outside(s, STD_TURN, 0, 1, where) or outside(s, AERO, 0, 1, where)
            or outside(s, TOP_COLOUR, -1, NUM_GEARS - 1, where)
            or outside(s, ACT_COLOUR, -1, NC - 1, where)
            or outside(s, LEAD_CHANGES, 0, MAX_COUNTER, where)
            or outside(s, LAST_LEAD_ROUND, 0, MAX_COUNTER, where)
            or any_outside(s, _STATS, _STAT_SLOTS, 0, MAX_COUNTER, where)):
        return 4
    for c in range(NC):
        if outside(s, CARD_OF + c, 0, p[P_NUM_CARDS] - 1, where):
            return 5
        card = s[CARD_OF + c]
        if p[P_CARD_COLOUR + card] != c:
            where[0] = CARD_OF + c
            where[1] = -1
            where[2] = -1
            return 5
        if (outside(s, COST + c, p[P_CARD_COST + card], p[P_CARD_COST + card], where)
                or outside(s, VALUE + c, p[P_CARD_VALUE + card], p[P_CARD_VALUE + card],
                           where)):
            return 5
    code = _cubes(s, p, n, where)
    if code:
        return code
    code = _cars(s, p, n, n_spaces, where)
    if code:
        return code
    code = _turn(s, p, n, n_spaces, where)
    if code:
        return code
    if delayed_violation(s, p, n, where):   # Racing Season delayed cards
        return 15
    if s[PHASE] == PH_SETUP_BUY and (   # Setup 7-9: hands are drawn after every purchase
            any_outside(s, ACTIVE, 2 * MAX_PLAYERS * NC, 0, 0, where)   # active and used
            or any_outside(s, ON_TRACK, NC, 0, 0, where)
            or outside(s, STD_TURN, 0, 0, where) or outside(s, PLACED_N, 0, 0, where)):
        return 16
    code = _move_cards(s, where)   # Racing Season: cards that move
    if code:
        return code
    if piles_violation(s, p, where):   # Racing Season cards that change piles
        return 19
    code = _drivers(s, p, n, where)
    if code:
        return code
    if _effect_broken(s, p, where):
        return 21
    if _decider_broken(s, p, n, where):
        return 23
    if _driver_decision_broken(s, where):
        return 24
    if positions_broken(s, p, where):
        return 25
    if not _settled(s, p):
        _mark_phase(where)
        return 22
    return 0


@nb.njit(cache=True)
def _mark_phase(where):
    where[0] = PHASE
    where[1] = -1
    where[2] = -1


@nb.njit(cache=True)
def _effect_broken(s, p, where):
    """A card effect's decision is pending only while a cube of that card's colour
    resolves (``act_colour``): Boost's draws need the Boost card in the market, Camber &
    Toe's pick needs a colour, and so on."""
    phase = s[PHASE]
    effect = PHASE_EFFECT[phase]
    if effect < 0:
        return False
    colour = s[ACT_COLOUR]
    if colour < 0 or card_effect(s, p, colour) != effect:
        where[0] = ACT_COLOUR
        where[1] = -1
        where[2] = -1
        return True
    # these decisions end in a move of the resolving cube, which waits in the used pile of
    # the seat on turn (Action Phase: a used cube goes to the used pile, then its effect)
    if phase in (PH_STEERING, PH_SUSPENSION, PH_TIRES, PH_BURNOUT, PH_CAMBER_TOE):
        used = _PILES + (2 * MAX_PLAYERS + s[TURN_SEAT]) * NC + colour
        if s[used] <= 0:
            where[0] = used
            where[1] = -1
            where[2] = -1
            return True
    return False


@nb.njit(cache=True)
def _decider_broken(s, p, n, where):
    """The seat deciding is the seat on turn, except while another seat answers a Boost
    offer (the seat ``boost_next`` places after the one on turn) or moves the spaces a
    Crate Motor gave it."""
    phase = s[PHASE]
    if phase in (PH_OVER, PH_CRATE_MOVE):
        return False
    decider = s[TURN_SEAT]
    if phase == PH_BOOST_OTHER and s[CURRENT] != s[TURN_SEAT]:
        decider = (s[TURN_SEAT] + s[BOOST_NEXT]) % n
    return outside(s, CURRENT, decider, decider, where)


@nb.njit(cache=True)
def _driver_decision_broken(s, where):
    """Racing Season drivers: a driver's decision belongs to the seat on turn holding that
    driver, and the End Phase ones (Drivers 07-10) come after the turn's cubes went to
    the discard pile (nothing used, on the track or placed any more)."""
    phase = s[PHASE]
    if not PH_DRIVER_TO_ACTIVE <= phase < PH_OVER:
        return False
    held = s[DRIVER_OF + s[TURN_SEAT]]
    ok = ((PHASE_DRIVERS[phase] >> held) & 1) != 0
    if not ok:
        where[0] = DRIVER_OF + s[TURN_SEAT]
        where[1] = -1
        where[2] = -1
        return True
    if phase in (PH_DRIVER_WEAR, PH_DRIVER_EXTRA, PH_DRIVER_REDRAW):
        used = _PILES + (2 * MAX_PLAYERS + s[TURN_SEAT]) * NC
        return (any_outside(s, used, NC, 0, 0, where) or any_outside(s, ON_TRACK, NC, 0, 0,
                                                                     where)
                or outside(s, PLACED_N, 0, 0, where))
    return False


@nb.njit(cache=True)
def _settled(s, p):
    """The pending decision is one the rules stop at: a decision with nothing left to
    choose (Boost with no draw left, a pick with no cube to pick) would have been
    resolved by ``settle`` before the state was saved."""
    copy = s[:_STATE_SIZE].copy()
    settle(copy, p)
    for i in range(copy.shape[0]):  # noqa: SIM110 (no generators in numba)
        if copy[i] != s[i]:
            return False
    return True


@nb.njit(cache=True)
def _drivers(s, p, n, where):
    """Racing Season drivers: numbers 1..10 (0 = none; always 0 with the module off or for
    a seat beyond the table), no driver twice, pool and turn flags in range."""
    top = NUM_DRIVERS if p[P_DRIVERS] != 0 else 0
    for seat in range(MAX_PLAYERS):
        if outside(s, DRIVER_OF + seat, 0, top if seat < n else 0, where):
            return 18
    for seat in range(MAX_PLAYERS):   # a driver is held once, and then not in the pool
        d = s[DRIVER_OF + seat]
        if d > 0:
            if s[DRIVER_POOL + d - 1] != 0:
                relation_broken(where)
                return 18
            for other in range(seat):
                if s[DRIVER_OF + other] == d:
                    relation_broken(where)
                    return 18
    if (any_outside(s, DRIVER_POOL, NUM_DRIVERS, 0, 1 if top > 0 else 0, where)
            or outside(s, DRIVER_USED, 0, 1, where)
            or outside(s, DRIVER_WEAR, 0, p[P_SUPPLY + WEAR], where)):
        return 18
    pooled = 0
    for k in range(NUM_DRIVERS):
        pooled += s[DRIVER_POOL + k]
    seat = s[TURN_SEAT]
    discard = 0
    for c in range(NC):
        discard += s[_PILES + (3 * MAX_PLAYERS + seat) * NC + c]
    # the two driver decisions without a "stop": something to choose must be there
    if (s[PHASE] == PH_DRIVER_DRAFT and pooled == 0) or (
            s[PHASE] == PH_DRIVER_TO_ACTIVE and discard == 0):
        relation_broken(where)
        return 18
    if s[PHASE] == PH_DRIVER_DRAFT and _draft_broken(s, p, n, pooled, where):
        return 20
    return 0


@nb.njit(cache=True)
def _draft_broken(s, p, n, pooled, where):
    """The draft in progress (Racing Season drivers): the picks go from the seat right of
    the start player round to the start player, so the seats before the deciding one in
    that order hold a driver and the others none; the pool holds the revealed drivers not
    taken yet; no turn has started (nothing active, used or placed)."""
    if p[P_DRIVERS] == 0 or s[CURRENT] != s[TURN_SEAT]:
        where[0] = CURRENT
        where[1] = -1
        where[2] = -1
        return True
    start = s[START_PLAYER]
    picked = 0
    deciding = False
    for k in range(n):
        seat = (start + n - 1 - k) % n
        if seat == s[CURRENT]:
            deciding = True
        if deciding:
            if outside(s, DRIVER_OF + seat, 0, 0, where):
                return True
        else:
            picked += 1
            if outside(s, DRIVER_OF + seat, 1, NUM_DRIVERS, where):
                return True
    revealed = NUM_DRIVERS if p[P_DRIVERS] == 2 else min(NUM_DRIVERS, n + p[P_DRIVER_EXTRA])
    if pooled != revealed - picked:
        relation_broken(where)
        return True
    return (outside(s, STD_TURN, 0, 0, where) or outside(s, PLACED_N, 0, 0, where)
            or any_outside(s, ACTIVE, 2 * MAX_PLAYERS * NC, 0, 0, where)
            or any_outside(s, ON_TRACK, NC, 0, 0, where))


@nb.njit(cache=True)
def _cubes(s, p, n, where):
    """Counts in range, nothing held by seats beyond the table, each colour conserved."""
    most = 0
    for c in range(NC):
        most = max(most, p[P_SUPPLY + c])
    if (any_outside(s, STOCK, NC, 0, most, where) or any_outside(s, _PILES, _PILE_SLOTS, 0,
                                                                  most, where)
            or any_outside(s, ON_TRACK, NC, 0, most, where)
            or any_outside(s, DRAWN, NC, 0, most, where)
            or any_outside(s, DRIVER_HELD, NC, 0, most, where)):
        return 6
    for pile in range(4):
        for seat in range(n, MAX_PLAYERS):
            if any_outside(s, _PILES + (pile * MAX_PLAYERS + seat) * NC, NC, 0, 0, where):
                return 8
    turn = s[TURN_SEAT]
    setup = s[PHASE] == PH_SETUP_BUY   # nobody has a used pile before the first turn
    for seat in range(n):   # only the seat on turn has a used pile
        used = _PILES + (2 * MAX_PLAYERS + seat) * NC
        if (seat != turn or setup) and any_outside(s, used, NC, 0, 0, where):
            return 8
    if s[PHASE] != PH_NITRO and any_outside(s, DRAWN, NC, 0, 0, where):
        return 6
    if s[PHASE] != PH_DRIVER_SORT and any_outside(s, DRIVER_HELD, NC, 0, 0, where):
        return 6
    for c in range(NC):
        total = s[STOCK + c] + s[ON_TRACK + c] + s[DRAWN + c] + s[DRIVER_HELD + c]
        for pile in range(4):
            for seat in range(n):
                total += s[_PILES + (pile * MAX_PLAYERS + seat) * NC + c]
        if total != p[P_SUPPLY + c]:
            relation_broken(where)
            return 7
    return 0


@nb.njit(cache=True)
def _position_ok(p, space, seg, abs_front):
    """A segment of a space, with the unwrapped front of that segment matching it."""
    if not 0 <= seg < p[P_SPACE_LEN + space]:
        return False
    lap = p[P_LAP]
    return (abs_front + seg - p[P_SPACE_END + space]) % lap == 0


@nb.njit(cache=True)
def _cars(s, p, n, n_spaces, where):
    """Each car on a space of the track, its segment and unwrapped position consistent."""
    low, high = position_range(p)
    for seat in range(MAX_PLAYERS):
        if seat >= n:
            if (outside(s, CAR_SPACE + seat, 0, 0, where) or outside(s, CAR_SEG + seat, 0, 0,
                                                                     where)
                    or outside(s, CAR_ABS + seat, 0, 0, where)
                    or outside(s, PENDING_BOOST + seat, 0, 0, where)):
                return 8
            continue
        if (outside(s, CAR_SPACE + seat, 0, n_spaces - 1, where)
                or outside(s, CAR_SEG + seat, 0, MAX_SEGMENTS - 1, where)
                or outside(s, CAR_ABS + seat, low, high, where)):
            return 9
        if not _position_ok(p, s[CAR_SPACE + seat], s[CAR_SEG + seat], s[CAR_ABS + seat]):
            where[0] = CAR_ABS + seat
            where[1] = -1
            where[2] = -1
            return 9
    for seat in range(n):   # Momentum: the segments ahead of a car in its space are full
        ahead = 0
        for other in range(n):
            if (other != seat and s[CAR_SPACE + other] == s[CAR_SPACE + seat]
                    and s[CAR_SEG + other] < s[CAR_SEG + seat]):
                ahead += 1
        if ahead != s[CAR_SEG + seat]:
            where[0] = CAR_SEG + seat
            where[1] = ahead
            where[2] = ahead
            return 9
    return 0


@nb.njit(cache=True)
def _turn(s, p, n, n_spaces, where):
    """The turn in progress: placed cubes, the moving cube's path, picks, money. A cube's
    position lies in ``position_range`` and the front of the segment a step may leave
    from (its own, or with Weaving one it passed) is not behind the range, so that no step
    goes below it."""
    low, high = position_range(p)
    if outside(s, PLACED_N, 0, MAX_PLACED, where):
        return 10
    placed = s[PLACED_N]
    on_track = np.zeros(NC, dtype=np.int64)
    for i in range(placed):
        if (outside(s, PLACED_SPACE + i, 0, n_spaces - 1, where)
                or outside(s, PLACED_COLOUR + i, 0, NC - 1, where)
                or outside(s, PLACED_SEG + i, 0, MAX_SEGMENTS - 1, where)
                or outside(s, PLACED_ABS + i, low + s[PLACED_SEG + i], high, where)):
            return 10
        if (s[PLACED_ABS + i] - p[P_SPACE_END + s[PLACED_SPACE + i]]) % p[P_LAP] != 0:
            where[0] = PLACED_ABS + i
            where[1] = -1
            where[2] = -1
            return 10
        on_track[s[PLACED_COLOUR + i]] += 1
    for c in range(NC):
        if on_track[c] != s[ON_TRACK + c]:
            where[0] = ON_TRACK + c
            where[1] = on_track[c]
            where[2] = on_track[c]
            return 10
    if outside(s, FAR, -1 if placed == 0 else 0, placed - 1, where):
        return 10
    if outside(s, PATH_N, 0, MAX_PATH, where) or any_outside(s, PATH_SPACE, s[PATH_N], 0,
                                                             n_spaces - 1, where):
        return 11
    if (outside(s, MV_MASK, 0, (1 << NUM_GEARS) - 1, where)
            or outside(s, MV_LEFT, 0, MAX_PATH, where) or outside(s, MV_MIN, 0, MAX_PATH, where)
            or outside(s, MV_STEPS, 0, MAX_PATH, where)
            or outside(s, MV_SPACE, -1, n_spaces - 1, where)
            or outside(s, MV_SEG, 0, MAX_SEGMENTS - 1, where)
            or outside(s, MV_ENTRY, 0, MAX_SEGMENTS - 1, where)   # Weaving (rs_tracks)
            or outside(s, MV_ABS, low + max(s[MV_SEG], s[MV_ENTRY]), high, where)):
        return 12
    if (s[MV_STEPS] > 0) != (s[MV_SPACE] >= 0) or (
            s[MV_SPACE] >= 0 and (s[MV_ABS] - p[P_SPACE_END + s[MV_SPACE]]) % p[P_LAP] != 0):
        relation_broken(where)
        return 12
    # a move is under way only in its decision (and Adrenaline's choice, which prepares
    # one): elsewhere none is left over for a later stop to place
    if s[PHASE] != PH_MOVE and (outside(s, MV_STEPS, 0, 0, where)
                                or outside(s, MV_SPACE, -1, -1, where)
                                or (s[PHASE] != PH_ADRENALINE
                                    and outside(s, MV_LEFT, 0, 0, where))):
        return 12
    if s[PHASE] == PH_MOVE:   # the moving cube waits in the used pile of the seat on turn
        colour = s[ACT_COLOUR]
        if colour < 0 or s[_PILES + (2 * MAX_PLAYERS + s[TURN_SEAT]) * NC + colour] <= 0:
            relation_broken(where)
            return 12
    cubes = 0
    for c in range(NC):
        cubes += p[P_SUPPLY + c]
    if (outside(s, PK_LEFT, 0, cubes, where) or outside(s, PK_MUST, 0, cubes, where)
            or outside(s, PK_COUNT, 0, cubes, where)
            or outside(s, PK_TOTAL, 0, MAX_MAGNITUDE, where)
            or outside(s, BOOST_BONUS, 0, cubes, where)
            or any_outside(s, PENDING_BOOST, n, 0, cubes, where)):
        return 13
    # a driver's extra draws: those made and those left together stay within the cubes there
    # are, so the next draw (one more made, one fewer left) keeps the count in its range
    if s[PHASE] == PH_DRIVER_EXTRA and s[PK_COUNT] + s[PK_LEFT] > cubes:
        relation_broken(where)
        return 13
    if picks_broken(s, p, where):   # no more picks than the card or driver allows
        return 13
    # bought_n only says whether a cube was bought this turn: a counter saturating at the
    # cap like the statistics, so the next purchase never takes it out of range
    if (outside(s, MONEY, 0, MAX_MAGNITUDE, where)
            or outside(s, BOUGHT_N, 0, MAX_COUNTER, where)):
        return 14
    return 0


@nb.njit(cache=True)
def _move_cards(s, where):
    """Racing Season, cards that move: the turn flags, and the moving cube's flags (set
    only while a cube is being moved)."""
    moving = 1 if s[PHASE] == PH_MOVE else 0
    if (outside(s, REDLINE, 0, 1, where) or outside(s, REDLINE_WEAR, 0, MAX_COUNT, where)
            or outside(s, FUEL, 0, MAX_COUNT, where)
            or outside(s, MV_MIXED, 0, moving, where)
            or outside(s, MV_REDLINE, 0, MAX_COUNT * moving, where)):
        return 17
    return 0
