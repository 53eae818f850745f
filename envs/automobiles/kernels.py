"""Jitted rules of Automobiles on the flat state vector: setup, the turn, every decision.

Rulebook sections (shared/rules/automobiles-rulebook.md) are named in the docstrings:
Setup, Standard Turn (Action, Buy, Car, Decline, End), Momentum, Alternative Turn -
Pit Stop, Drawing Cubes, Removing Cubes, Winning the Game, Card Clarifications.

A decision that has a single answer which changes nothing (e.g. "stop" when nothing
else is legal) is not asked: ``settle`` takes it and moves on to the next real decision.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles.board import (
    crossings,
    drafting,
    leader,
    momentum,
    move_possible,
    rank,
)
from transit_gym.envs.automobiles.cubes import (
    affordable,
    any_affordable,
    can_draw,
    draw_one,
    draw_to_active,
    gain,
    mask_cubes,
    move_cube,
    move_pile,
    pile,
    remove,
    total,
)
from transit_gym.envs.automobiles.data import (
    BLACK,
    LIGHT,
    MAX_SPACES,
    NUM_COLOURS,
    WEAR,
    WHITE,
)
from transit_gym.envs.automobiles.effects import (
    activate,
    can_activate,
    card_param,
    pit_team_can_buy,
    pit_team_pick_ok,
)
from transit_gym.envs.automobiles.moves import finish_move, next_steps, start_move, step_to
from transit_gym.envs.automobiles.racing_season import drivers as drv  # Racing Season drivers
from transit_gym.envs.automobiles.racing_season.cards_delayed import (  # delayed cards
    adrenaline_car_phase,
    adrenaline_later,
    adrenaline_step,
    adrenaline_steps,
    crate_after_end,
    crate_done,
    crate_step,
    crate_steps,
    delayed_turn_start,
)
from transit_gym.envs.automobiles.racing_season.cards_moves import (  # cards that move
    apply_move_card,
    move_card_mask,
    reset_turn_flags,
)
from transit_gym.envs.automobiles.racing_season.cards_piles import (  # Racing Season pile cards
    is_pile_phase,
    piles_apply,
    piles_mask,
    piles_settle,
)
from transit_gym.envs.automobiles.state import (
    ACT_COLOUR,
    ACTIVE,
    ADR_LEFT,  # Racing Season delayed cards
    AERO,
    BAG,
    BOOST_BONUS,
    BOOST_NEXT,
    BOUGHT_N,
    CAR_ABS,
    CAR_SEG,
    CAR_SPACE,
    CARD_OF,
    COST,
    CRATE_SPACES,  # Racing Season delayed cards
    CURRENT,
    DISCARD,
    DRAWN,
    END_TRIGGERED,
    FAR,
    LAST_LEAD_ROUND,
    LEAD_CHANGES,
    LEADER,
    MONEY,
    MV_LEFT,
    MV_MIN,
    MV_SPACE,
    NC,
    ON_TRACK,
    P_ACCELERATED,
    P_ALLOWANCE,
    P_CARD_COLOUR,
    P_CARD_COST,
    P_CARD_IN_POOL,
    P_CARD_SET,
    P_CARD_VALUE,
    P_CARD_WEAR,
    P_DRIVERS,
    P_EXCLUDED_SETS,
    P_GRID,
    P_GRID_OFFSET,
    P_HAND,
    P_LAP,
    P_LAPS,
    P_MAX_ROUNDS,
    P_NUM_CARDS,
    P_NUM_EXCLUDED,
    P_NUM_PLAYERS,
    P_SPACE_END,
    P_START,
    P_STARTING_BAG,
    P_SUPPLY,
    P_WEAR_CHART,
    PATH_N,
    PENDING_BOOST,
    PH_ACTION,
    PH_ADRENALINE,  # Racing Season delayed cards
    PH_ADRENALINE_MOVE,
    PH_BOOST,
    PH_BOOST_OTHER,
    PH_BURNOUT,
    PH_BUY,
    PH_CAMBER_TOE,
    PH_CAR_CHIEF,
    PH_CRATE_MOVE,  # Racing Season delayed cards
    PH_DRIVER_DRAFT,
    PH_ENGINEER,
    PH_MANAGER_BAG,
    PH_MANAGER_REMOVE,
    PH_MECHANIC,
    PH_MOVE,
    PH_NITRO,
    PH_OVER,
    PH_PIT_CREW,
    PH_PIT_TEAM,
    PH_PIT_TEAM_BUY,
    PH_REMOVE,
    PH_SETUP_BUY,
    PH_STEERING,
    PH_SUPERCHARGED,
    PH_SUSPENSION,
    PH_TIRES,
    PHASE,
    PK_COUNT,
    PK_LEFT,
    PK_MUST,
    PK_TOTAL,
    PLACED_ABS,
    PLACED_N,
    PLACED_SEG,
    PLACED_SPACE,
    ROUNDS,
    START_PLAYER,
    START_RANK,
    STAT_BOUGHT,
    STAT_PIT_STOPS,
    STAT_TURNS,
    STD_TURN,
    STOCK,
    TOP_COLOUR,
    TURN_SEAT,
    USED,
    VALUE,
)
from transit_gym.envs.core.draw import uniform_legal
from transit_gym.envs.core.errors import StateDictError, forced_steps_message
from transit_gym.envs.core.rng import below
from transit_gym.envs.core.scoring import win_share_rewards
from transit_gym.envs.core.slots import seat_to_move
from transit_gym.envs.core.validate import bump

# ----- actions ----------------------------------------------------------------------------------
A_STOP = 0          # end the phase / stop moving / choose no more / decline a draw
A_PIT_STOP = 1      # Alternative Turn - Pit Stop
A_DRAW = 2          # draw a cube (Boost)
A_ALL_WEAR = 3      # Pit Crew: remove all wear from the discard pile
A_ACTIVE = 4        # + colour: a cube of the active pile (activate it, or choose it)
A_DISCARD = A_ACTIVE + NC      # + colour: a cube of the discard pile
A_STOCK = A_DISCARD + NC       # + colour: a cube of the stock (buy it)
A_SPACE = A_STOCK + NC         # + space id: the next track space
# Racing Season drivers (drivers.py): use the driver's ability; + number - 1: draft a driver
A_USE_DRIVER = drv.A_USE_DRIVER
A_DRIVER = drv.A_DRIVER
assert (drv.A_STOP, drv.A_DRAW, drv.A_ACTIVE, drv.A_SPACE) == (A_STOP, A_DRAW, A_ACTIVE, A_SPACE)
assert A_USE_DRIVER == A_SPACE + MAX_SPACES
NUM_ACTIONS = A_SPACE + MAX_SPACES + drv.NUM_DRIVER_ACTIONS


# ----- setup ------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _draw_market(s, p):
    """One card per colour: the card set's, or drawn at random among the cards of that
    colour in the ``card_pool``."""
    for c in range(NUM_COLOURS):
        card = p[P_CARD_SET + c]
        if card < 0:
            n = 0
            for k in range(p[P_NUM_CARDS]):
                if p[P_CARD_COLOUR + k] == c and p[P_CARD_IN_POOL + k] != 0:
                    n += 1
            pick = below(s[0:4], n)
            for k in range(p[P_NUM_CARDS]):
                if p[P_CARD_COLOUR + k] == c and p[P_CARD_IN_POOL + k] != 0:
                    if pick == 0:
                        card = k
                        break
                    pick -= 1
        s[CARD_OF + c] = card


@nb.njit(cache=True)
def _excluded(s, p):
    """The market in ``s`` is one of the sets ``exclude_sets`` keeps out."""
    for e in range(p[P_NUM_EXCLUDED]):
        same = True
        for c in range(NUM_COLOURS):
            if s[CARD_OF + c] != p[P_EXCLUDED_SETS + e * NC + c]:
                same = False
                break
        if same:
            return True
    return False


@nb.njit(cache=True)
def _choose_cards(s, p):
    """Setup 2-3: the gear and wear cards, and one card per colour (from the card set, or
    drawn at random among the cards of that colour in the ``card_pool``; a drawn market
    equal to an ``exclude_sets`` set is drawn again from the same generator)."""
    _draw_market(s, p)
    while _excluded(s, p):
        _draw_market(s, p)
    for c in range(NUM_COLOURS):
        card = s[CARD_OF + c]
        s[COST + c] = p[P_CARD_COST + card]
        s[VALUE + c] = p[P_CARD_VALUE + card]


@nb.njit(cache=True)
def grid_slot(s, p, seat):
    """Starting slot (0 = P1) of seat: turn order from the start player."""
    n = p[P_NUM_PLAYERS]
    return (seat - s[START_PLAYER] + n) % n


@nb.njit(cache=True)
def init(s, p):
    """Setup 1-9: market, stock, cars on the grid in turn order, 12 starting cubes each,
    then the allowance purchases in turn order (hands are drawn after them)."""
    n = p[P_NUM_PLAYERS]
    start = p[P_START]
    if start < 0:
        start = below(s[0:4], n)
    s[START_PLAYER] = start
    _choose_cards(s, p)
    lap = p[P_LAP]
    for c in range(NUM_COLOURS):
        s[STOCK + c] = p[P_SUPPLY + c]
    for seat in range(n):
        space = p[P_GRID + grid_slot(s, p, seat)]
        s[CAR_SPACE + seat] = space
        s[CAR_SEG + seat] = 0
        s[CAR_ABS + seat] = p[P_SPACE_END + space] - lap - p[P_GRID_OFFSET]
        for c in range(NUM_COLOURS):
            k = p[P_STARTING_BAG + c]
            s[STOCK + c] -= k
            s[pile(seat, BAG) + c] += k
    s[LEADER] = leader(s, p)
    s[TOP_COLOUR] = -1
    s[FAR] = -1
    s[MV_SPACE] = -1
    s[ACT_COLOUR] = -1
    if p[P_DRIVERS] != 0:       # Racing Season drivers: the draft comes before Setup 7
        drv.begin_draft(s, p)
    else:
        _setup_begin(s, p)
    settle(s, p)


@nb.njit(cache=True)
def _setup_begin(s, p):
    """Setup 7: the start player spends its allowance first."""
    start = s[START_PLAYER]
    s[CURRENT] = start
    s[TURN_SEAT] = start
    s[MONEY] = p[P_ALLOWANCE + 0]
    s[BOUGHT_N] = 0
    s[PHASE] = PH_SETUP_BUY


@nb.njit(cache=True)
def _setup_next(s, p):
    """Next player's allowance purchases; after the last, everyone draws a hand (Setup 9)."""
    n = p[P_NUM_PLAYERS]
    nxt = (s[CURRENT] + 1) % n
    if nxt == s[START_PLAYER]:
        for k in range(n):
            draw_to_active(s, (s[START_PLAYER] + k) % n, p[P_HAND])
        start_turn(s, p, s[START_PLAYER])
        return
    s[CURRENT] = nxt
    s[TURN_SEAT] = nxt
    s[MONEY] = p[P_ALLOWANCE + grid_slot(s, p, nxt)]
    s[BOUGHT_N] = 0


# ----- the turn -------------------------------------------------------------------------------
@nb.njit(cache=True)
def start_turn(s, p, seat):
    """A new turn of ``seat``: its race position is fixed now for this Action Phase."""
    s[TURN_SEAT] = seat
    s[CURRENT] = seat
    s[STD_TURN] = 0
    s[AERO] = 0
    s[TOP_COLOUR] = -1
    s[PLACED_N] = 0
    s[FAR] = -1
    s[PATH_N] = 0
    s[MONEY] = 0
    s[BOUGHT_N] = 0
    s[MV_SPACE] = -1
    s[ACT_COLOUR] = -1
    s[START_RANK] = rank(s, p, seat)
    bump(s, STAT_TURNS + seat, 1)
    reset_turn_flags(s)   # Racing Season: Redline, Fuel Injection
    drv.new_turn(s)   # Racing Season drivers
    if p[P_ACCELERATED] != 0 and s[PENDING_BOOST + seat] > 0:
        s[PHASE] = PH_BOOST_OTHER
    else:
        s[PHASE] = PH_ACTION
    delayed_turn_start(s, p, seat)   # Racing Season: Crate Motor spaces waiting (Accelerated)


@nb.njit(cache=True)
def _enter_buy(s, p, seat):
    """Buy Phase: the cubes left in the active pile are worth their card's value."""
    money = 0
    active = pile(seat, ACTIVE)
    for c in range(NUM_COLOURS):
        money += s[active + c] * s[VALUE + c]
    s[STD_TURN] = 1
    s[MONEY] = money
    s[BOUGHT_N] = 0
    s[PHASE] = PH_BUY


@nb.njit(cache=True)
def _car_phase(s, p, seat):
    """Car Phase: the car goes to the farthest cube placed this turn (its segment)."""
    far = s[FAR]
    if s[PLACED_N] == 0 or far < 0:
        return
    seg = s[PLACED_SEG + far]
    s[CAR_SPACE + seat] = s[PLACED_SPACE + far]
    s[CAR_SEG + seat] = seg
    s[CAR_ABS + seat] = s[PLACED_ABS + far] - seg


@nb.njit(cache=True)
def decline_wear(s, p, seat):
    """Decline Phase: wear for the highest colour moved on; none without a move, when
    drafting, or after Aerodynamics."""
    if s[PLACED_N] == 0 or s[TOP_COLOUR] < 0 or s[AERO] != 0 or drafting(s, p, seat):
        return 0
    return p[P_WEAR_CHART + s[TOP_COLOUR]]


@nb.njit(cache=True)
def end_turn(s, p):
    """End Phase (track, active and used cubes to the discard pile, draw 7), Momentum,
    lead statistics, then the next player; the game ends with the round in which a car
    finished its last lap (or after ``max_rounds`` rounds). Driver decisions may pause it
    before and after the draw."""
    seat = s[TURN_SEAT]
    discard = pile(seat, DISCARD)
    active = pile(seat, ACTIVE)
    used = pile(seat, USED)
    for c in range(NUM_COLOURS):
        s[discard + c] += s[ON_TRACK + c] + s[active + c] + s[used + c]
        s[ON_TRACK + c] = 0
        s[active + c] = 0
        s[used + c] = 0
    s[PLACED_N] = 0
    s[FAR] = -1
    s[PATH_N] = 0
    if drv.wear_offer(s, p, seat):   # Racing Season: Driver 08
        return
    _end_draw(s, p)


@nb.njit(cache=True)
def _end_draw(s, p):
    """End Phase: draw the new active pile."""
    seat = s[TURN_SEAT]
    draw_to_active(s, seat, p[P_HAND])
    if drv.after_draw_offer(s, p, seat):   # Racing Season: Drivers 07, 09, 10
        return
    _end_finish(s, p)


@nb.njit(cache=True)
def _end_finish(s, p):
    """After the End Phase: Momentum, Crate Motor's moves, the lead, the game end, the
    next player."""
    seat = s[TURN_SEAT]
    momentum(s, p)
    if crate_after_end(s, p, seat):   # Racing Season: Crate Motor, cars behind move first
        return
    _end_turn_tail(s, p)


@nb.njit(cache=True)
def _end_turn_tail(s, p):
    """After the End Phase: lead statistics, the end of the game, the next player."""
    seat = s[TURN_SEAT]
    n = p[P_NUM_PLAYERS]
    lead = leader(s, p)
    if lead != s[LEADER]:
        s[LEADER] = lead
        bump(s, LEAD_CHANGES, 1)
        s[LAST_LEAD_ROUND] = s[ROUNDS] + 1
    for other in range(n):
        if crossings(s, p, other) >= p[P_LAPS]:
            s[END_TRIGGERED] = 1
    nxt = (seat + 1) % n
    if nxt == s[START_PLAYER]:
        s[ROUNDS] += 1
        if s[END_TRIGGERED] != 0 or s[ROUNDS] >= p[P_MAX_ROUNDS]:
            s[PHASE] = PH_OVER
            s[CURRENT] = -1
            return
    start_turn(s, p, nxt)


@nb.njit(cache=True)
def _finish_standard_turn(s, p):
    """After the Buy Phase: Car, Decline and End phases."""
    seat = s[TURN_SEAT]
    _car_phase(s, p, seat)
    if drv.car_offer(s, p, seat):   # Racing Season: Driver 06, right after the normal move
        return
    _car_phase_end(s, p)


@nb.njit(cache=True)
def _car_phase_end(s, p):
    """The end of the Car Phase: Adrenaline's option 2 counts the positions gained since
    the start of the phase (the car has not moved since the Action Phase began, so that
    is ``start_rank``; Driver 06's space is part of the phase), then the Decline Phase."""
    seat = s[TURN_SEAT]
    if adrenaline_car_phase(s, p, seat, s[START_RANK]):   # Racing Season: Adrenaline
        return
    _decline(s, p)


@nb.njit(cache=True)
def _decline(s, p):
    """Decline Phase, then the End Phase."""
    seat = s[TURN_SEAT]
    gained = gain(s, seat, WEAR, decline_wear(s, p, seat))
    drv.note_decline_wear(s, p, seat, gained)   # Racing Season: Drivers 01, 07
    if drv.decline_offer(s, p, seat):           # Racing Season: Driver 01
        return
    end_turn(s, p)


@nb.njit(cache=True)
def _driver_next(s, p, code):
    """Continue the turn after a driver decision (``drivers.NEXT_*``)."""
    if code == drv.NEXT_SETUP:
        _setup_begin(s, p)
    elif code == drv.NEXT_DECLINE:   # Driver 06 moved: the rest of the Car Phase
        _car_phase_end(s, p)
    elif code == drv.NEXT_END:
        end_turn(s, p)
    elif code == drv.NEXT_DRAW:
        _end_draw(s, p)
    elif code == drv.NEXT_FINISH:
        _end_finish(s, p)


@nb.njit(cache=True)
def _pit_stop(s, p):
    """Alternative Turn - Pit Stop: all wear of the active pile back to the stock, End."""
    seat = s[TURN_SEAT]
    active = pile(seat, ACTIVE)
    s[STOCK + WEAR] += s[active + WEAR]
    s[active + WEAR] = 0
    bump(s, STAT_PIT_STOPS + seat, 1)
    end_turn(s, p)


# ----- Boost offers -------------------------------------------------------------------------------
@nb.njit(cache=True)
def _boost_offers(s, p):
    """After a Boost: every other player may draw (now, in turn order, or at the start of
    their own turn with Accelerated Play)."""
    n = p[P_NUM_PLAYERS]
    bonus = s[BOOST_BONUS]
    seat = s[TURN_SEAT]
    if bonus <= 0:
        s[PHASE] = PH_ACTION
        return
    if p[P_ACCELERATED] != 0:
        for k in range(1, n):
            s[PENDING_BOOST + (seat + k) % n] += bonus
        s[PHASE] = PH_ACTION
        return
    s[BOOST_NEXT] = 1
    s[CURRENT] = (seat + 1) % n
    s[PK_LEFT] = bonus
    s[PHASE] = PH_BOOST_OTHER


@nb.njit(cache=True)
def _next_boost_offer(s, p):
    n = p[P_NUM_PLAYERS]
    s[BOOST_NEXT] += 1
    if s[BOOST_NEXT] >= n:
        s[CURRENT] = s[TURN_SEAT]
        s[PHASE] = PH_ACTION
        return
    s[CURRENT] = (s[TURN_SEAT] + s[BOOST_NEXT]) % n
    s[PK_LEFT] = s[BOOST_BONUS]


@nb.njit(cache=True)
def _own_offer_done(s):
    """Accelerated Play: the waiting free draws of the player on turn are used up."""
    s[PENDING_BOOST + s[TURN_SEAT]] = 0
    s[PHASE] = PH_ACTION


# ----- forced decisions --------------------------------------------------------------------------
@nb.njit(cache=True)
def _any_activation(s, p, seat):
    for c in range(NUM_COLOURS):  # noqa: SIM110 - numba has no generators
        if can_activate(s, p, seat, c):
            return True
    return False


@nb.njit(cache=True)
def _nitro_keep(s, p, seat, colour):
    """Nitro: the kept cube goes to the active pile, the other drawn ones to the discard."""
    s[DRAWN + colour] -= 1
    s[pile(seat, ACTIVE) + colour] += 1
    move_pile(s, DRAWN, pile(seat, DISCARD))
    s[PHASE] = PH_ACTION


#: forced steps one ``settle`` may take: legal play needs a few dozen at most (the setup
#: purchases of every seat, one turn's phases); more means a state no legal play reaches
MAX_FORCED_STEPS = 1000
_FORCED_STEPS = forced_steps_message(
    "automobiles", f"one step took {MAX_FORCED_STEPS} forced steps",
    "phase, current, turn_seat, start_player and the pick counters")


@nb.njit(cache=True)
def settle(s, p):
    """Take every decision that has one answer changing nothing, until a real one; more
    than ``MAX_FORCED_STEPS`` of them raise ``StateDictError`` (never a silent stop)."""
    empty = np.zeros(0, dtype=np.int8)
    for _ in range(MAX_FORCED_STEPS):
        phase = s[PHASE]
        seat = s[TURN_SEAT]
        if phase == PH_SETUP_BUY:
            if any_affordable(s, p, s[MONEY]):
                return
            _setup_next(s, p)
        elif phase == PH_ACTION:
            if s[STD_TURN] == 0 or _any_activation(s, p, seat) \
                    or drv.action_use_ok(s, p, seat):
                return
            _enter_buy(s, p, seat)
        elif phase == PH_BUY:
            if any_affordable(s, p, s[MONEY]) or drv.buy_use_ok(s, p, seat):
                return
            _finish_standard_turn(s, p)
        elif phase == PH_MOVE:
            if next_steps(s, p, seat, empty, 0) > 0:
                return
            finish_move(s, p, seat)
        elif phase == PH_ENGINEER:
            if s[PK_LEFT] > 0 and total(s, pile(seat, ACTIVE)) > 0:
                return
            s[PK_LEFT] = s[PK_COUNT]
            s[PK_MUST] = s[PK_COUNT]
            s[PHASE] = PH_REMOVE
        elif phase == PH_REMOVE:
            if s[PK_LEFT] > 0 and total(s, pile(seat, DISCARD)) > 0:
                return
            s[PHASE] = PH_ACTION
        elif phase == PH_MANAGER_REMOVE:
            if total(s, pile(seat, ACTIVE)) > 0:
                return
            s[PHASE] = PH_MANAGER_BAG
        elif phase == PH_MANAGER_BAG:
            if total(s, pile(seat, ACTIVE)) + total(s, pile(seat, DISCARD)) > 0:
                return
            s[PHASE] = PH_ACTION
        elif phase == PH_MECHANIC:
            return
        elif phase == PH_PIT_CREW:
            if s[PK_LEFT] > 0 and total(s, pile(seat, DISCARD)) >= s[PK_LEFT]:
                return
            _remove_all_wear(s, seat)
        elif phase == PH_PIT_TEAM:
            if s[PK_LEFT] > 0 and total(s, pile(seat, DISCARD)) > 0:
                return
            s[PHASE] = PH_PIT_TEAM_BUY
        elif phase == PH_BOOST:
            if s[PK_LEFT] > 0 and can_draw(s, seat, 1):
                return
            _boost_offers(s, p)
        elif phase == PH_BOOST_OTHER:
            decider = s[CURRENT]
            if decider == seat:
                if s[PENDING_BOOST + seat] > 0 and can_draw(s, seat, 1):
                    return
                _own_offer_done(s)
            else:
                if s[PK_LEFT] > 0 and can_draw(s, decider, 1):
                    return
                _next_boost_offer(s, p)
        elif phase == PH_NITRO:
            kinds = 0
            last = -1
            for c in range(NUM_COLOURS):
                if s[DRAWN + c] > 0:
                    kinds += 1
                    last = c
            if kinds > 1:
                return
            if last < 0:
                s[PHASE] = PH_ACTION
            else:
                _nitro_keep(s, p, seat, last)
        elif phase == PH_SUPERCHARGED:
            if s[PK_LEFT] > 0 and total(s, pile(seat, DISCARD)) > 0:
                return
            s[PHASE] = PH_ACTION
        elif phase == PH_ADRENALINE:       # Racing Season delayed cards
            if next_steps(s, p, seat, empty, 0) > 0:
                return
            adrenaline_later(s, p, seat)
        elif phase == PH_ADRENALINE_MOVE:
            if adrenaline_steps(s, p, seat, empty, 0) > 0:
                return
            s[ADR_LEFT] = 0
            _decline(s, p)
        elif phase == PH_CRATE_MOVE:
            if crate_steps(s, p, empty, 0) > 0:
                return
            if crate_done(s, p):
                _end_turn_tail(s, p)
        elif PH_DRIVER_DRAFT <= phase < PH_OVER:   # Racing Season drivers
            code = drv.settle_phase(s, p)
            if code == drv.PENDING:
                return
            _driver_next(s, p, code)
        elif is_pile_phase(phase):   # Racing Season cards that change piles
            if piles_settle(s, p, seat):
                return
        else:
            return
    raise StateDictError(_FORCED_STEPS)


@nb.njit(cache=True)
def _remove_all_wear(s, seat):
    discard = pile(seat, DISCARD)
    s[STOCK + WEAR] += s[discard + WEAR]
    s[discard + WEAR] = 0
    s[PHASE] = PH_ACTION


# ----- the kernel contract ------------------------------------------------------------------------
@nb.njit(cache=True)
def current_player(s, p):
    return seat_to_move(s, PHASE, PH_OVER, CURRENT)


@nb.njit(cache=True)
def legal_mask(s, p, mask):
    """The legal answers of the pending decision."""
    phase = s[PHASE]
    if phase == PH_OVER:
        return
    seat = s[TURN_SEAT]
    active = pile(seat, ACTIVE)
    discard = pile(seat, DISCARD)
    if phase in (PH_SETUP_BUY, PH_BUY):
        money = s[MONEY]
        some = False
        for c in range(NUM_COLOURS):
            if affordable(s, p, c, money):
                mask[A_STOCK + c] = 1
                some = True
        if phase == PH_BUY or s[BOUGHT_N] > 0 or not some:
            mask[A_STOP] = 1
        if phase == PH_BUY and drv.buy_use_ok(s, p, seat):   # Racing Season drivers
            mask[A_USE_DRIVER] = 1
    elif phase == PH_ACTION:
        mask[A_STOP] = 1
        if s[STD_TURN] == 0:
            mask[A_PIT_STOP] = 1
        for c in range(NUM_COLOURS):
            if can_activate(s, p, seat, c):
                mask[A_ACTIVE + c] = 1
        if drv.action_use_ok(s, p, seat):   # Racing Season drivers
            mask[A_USE_DRIVER] = 1
    elif phase == PH_MOVE:
        next_steps(s, p, seat, mask, A_SPACE)
        if s[MV_MIN] == 0:
            mask[A_STOP] = 1
    elif phase == PH_CAR_CHIEF:
        for g in range(WHITE, BLACK + 1):
            if s[discard + g] > 0 and (g == BLACK or s[STOCK + g + 1] > 0):
                mask[A_DISCARD + g] = 1
    elif phase in (PH_ENGINEER, PH_MANAGER_REMOVE):
        mask[A_STOP] = 1
        mask_cubes(s, active, mask, A_ACTIVE)
    elif phase == PH_REMOVE:
        if s[PK_MUST] == 0:
            mask[A_STOP] = 1
        mask_cubes(s, discard, mask, A_DISCARD)
    elif phase == PH_MANAGER_BAG:
        mask[A_STOP] = 1
        mask_cubes(s, active, mask, A_ACTIVE)
        mask_cubes(s, discard, mask, A_DISCARD)
    elif phase == PH_MECHANIC:
        mask_cubes(s, active, mask, A_ACTIVE)
    elif phase == PH_PIT_CREW:
        mask[A_ALL_WEAR] = 1
        mask_cubes(s, discard, mask, A_DISCARD)
    elif phase == PH_PIT_TEAM:
        if pit_team_can_buy(s, p, s[PK_TOTAL]):
            mask[A_STOP] = 1
        for c in range(NUM_COLOURS):
            if pit_team_pick_ok(s, p, seat, c):
                mask[A_DISCARD + c] = 1
    elif phase == PH_PIT_TEAM_BUY:
        for c in range(NUM_COLOURS):
            if affordable(s, p, c, s[PK_TOTAL]):
                mask[A_STOCK + c] = 1
    elif phase == PH_STEERING:
        for g in range(LIGHT, BLACK + 1):
            if s[active + g] > 0:
                mask[A_ACTIVE + g] = 1
    elif phase == PH_SUSPENSION:
        for g in range(WHITE, BLACK + 1):
            if s[discard + g] > 0 and move_possible(s, p, seat, 1 << g, s[PK_LEFT]):
                mask[A_DISCARD + g] = 1
    elif phase == PH_TIRES:
        for g in range(LIGHT, BLACK + 1):
            if s[active + g] > 0 and move_possible(s, p, seat, (1 << g) - 1, s[PK_LEFT]):
                mask[A_ACTIVE + g] = 1
    elif phase in (PH_BOOST, PH_BOOST_OTHER):
        mask[A_STOP] = 1
        mask[A_DRAW] = 1
    elif phase == PH_NITRO:
        mask_cubes(s, DRAWN, mask, A_ACTIVE)
    elif phase == PH_SUPERCHARGED:
        mask[A_STOP] = 1
        mask_cubes(s, discard, mask, A_DISCARD)
    elif phase == PH_ADRENALINE:       # Racing Season: option 1's first space, or option 2
        next_steps(s, p, seat, mask, A_SPACE)
        mask[A_STOP] = 1
    elif phase == PH_ADRENALINE_MOVE:
        adrenaline_steps(s, p, seat, mask, A_SPACE)
        mask[A_STOP] = 1
    elif phase == PH_CRATE_MOVE:
        crate_steps(s, p, mask, A_SPACE)
        mask[A_STOP] = 1
    elif phase in (PH_BURNOUT, PH_CAMBER_TOE):   # Racing Season: cards that move
        move_card_mask(s, p, seat, phase, mask, A_ACTIVE, A_DISCARD)
    elif PH_DRIVER_DRAFT <= phase < PH_OVER:   # Racing Season drivers
        drv.legal_mask(s, p, mask)
    elif is_pile_phase(phase):   # Racing Season cards that change piles
        piles_mask(s, p, seat, mask, A_STOP, A_DRAW, A_ACTIVE, A_DISCARD)


@nb.njit(cache=True)
def apply(s, p, action):
    """Resolve the legal ``action`` and every forced step after it."""
    _apply(s, p, action)
    settle(s, p)


@nb.njit(cache=True)
def _buy(s, p, seat, colour, money_field, to_bag):
    s[STOCK + colour] -= 1
    s[money_field] -= s[COST + colour]
    target = pile(seat, BAG) if to_bag else pile(seat, USED)
    s[target + colour] += 1
    bump(s, STAT_BOUGHT + seat * NC + colour, 1)


@nb.njit(cache=True)
def _apply(s, p, action):
    """One decision, handed to the kernel of its phase's group: the turn's own steps, the
    base cards' cube picks, moves and draws, then the Racing Season's (delayed cards, cards
    that move, drivers, cards that change piles), each of those in its own module."""
    phase = s[PHASE]
    seat = s[TURN_SEAT]
    colour = -1
    if A_ACTIVE <= action < A_SPACE:
        colour = (action - A_ACTIVE) % NC
    if phase <= PH_MOVE:
        _apply_turn(s, p, phase, seat, action, colour)
    elif phase <= PH_PIT_TEAM_BUY:
        _apply_pick(s, p, phase, seat, action, colour)
    elif phase <= PH_TIRES:
        _apply_start_move(s, phase, seat, colour)
    elif phase <= PH_SUPERCHARGED:
        _apply_draw(s, p, phase, seat, action, colour)
    else:
        _apply_racing_season(s, p, phase, seat, action, colour)


@nb.njit(cache=True)
def _apply_turn(s, p, phase, seat, action, colour):
    """Setup purchases, the Action and Buy Phases, and a move's steps (Turn Sequence)."""
    if phase == PH_SETUP_BUY:
        if action == A_STOP:
            _setup_next(s, p)
        else:
            _buy(s, p, seat, colour, MONEY, True)
            bump(s, BOUGHT_N, 1)
    elif phase == PH_ACTION:
        if action == A_STOP:
            _enter_buy(s, p, seat)
        elif action == A_PIT_STOP:
            _pit_stop(s, p)
        elif action == A_USE_DRIVER:   # Racing Season drivers
            drv.use(s, p, seat)
        else:
            activate(s, p, seat, colour)
    elif phase == PH_BUY:
        if action == A_STOP:
            _finish_standard_turn(s, p)
        elif action == A_USE_DRIVER:   # Racing Season drivers
            drv.use(s, p, seat)
        else:
            _buy(s, p, seat, colour, MONEY, False)
            bump(s, BOUGHT_N, 1)
    else:   # PH_MOVE
        if action == A_STOP:
            finish_move(s, p, seat)
        else:
            step_to(s, p, seat, action - A_SPACE)
            if s[MV_LEFT] == 0:
                finish_move(s, p, seat)


@nb.njit(cache=True)
def _apply_pick(s, p, phase, seat, action, colour):
    """The base cards that pick cubes to remove, upgrade, bag or buy: Car Chief, Engineer
    (then the removal it sets up), Manager, Mechanic, Pit Crew, Pit Team."""
    active = pile(seat, ACTIVE)
    discard = pile(seat, DISCARD)
    if phase == PH_CAR_CHIEF:
        remove(s, discard, colour)
        if colour < BLACK:
            gain(s, seat, colour + 1, 1)
        s[PHASE] = PH_ACTION
    elif phase == PH_ENGINEER:
        if action == A_STOP:
            s[PK_LEFT] = s[PK_COUNT]
            s[PK_MUST] = s[PK_COUNT]
            s[PHASE] = PH_REMOVE
        else:
            move_cube(s, active, discard, colour)
            s[PK_COUNT] += 1
            s[PK_LEFT] -= 1
    elif phase == PH_REMOVE:
        if action == A_STOP:
            s[PHASE] = PH_ACTION
        else:
            remove(s, discard, colour)
            s[PK_LEFT] -= 1
            if s[PK_MUST] > 0:
                s[PK_MUST] -= 1
    elif phase == PH_MANAGER_REMOVE:
        if action != A_STOP:
            remove(s, active, colour)
        s[PHASE] = PH_MANAGER_BAG
    elif phase == PH_MANAGER_BAG:
        if A_ACTIVE <= action < A_DISCARD:
            move_cube(s, active, pile(seat, BAG), colour)
        elif A_DISCARD <= action < A_STOCK:
            move_cube(s, discard, pile(seat, BAG), colour)
        s[PHASE] = PH_ACTION
    elif phase == PH_MECHANIC:
        move_cube(s, active, pile(seat, USED), colour)
        s[PK_MUST] = 0
        s[PHASE] = PH_REMOVE
    elif phase == PH_PIT_CREW:
        if action == A_ALL_WEAR:
            _remove_all_wear(s, seat)
        else:
            remove(s, discard, colour)
            s[PK_LEFT] -= 1
            s[PK_MUST] = s[PK_LEFT]
            s[PHASE] = PH_REMOVE
    elif phase == PH_PIT_TEAM:
        if action == A_STOP:
            s[PHASE] = PH_PIT_TEAM_BUY
        else:
            remove(s, discard, colour)
            s[PK_TOTAL] += s[COST + colour]
            s[PK_LEFT] -= 1
    else:   # PH_PIT_TEAM_BUY
        _buy(s, p, seat, colour, PK_TOTAL, False)
        s[PK_TOTAL] = 0
        s[PHASE] = PH_ACTION


@nb.njit(cache=True)
def _apply_start_move(s, phase, seat, colour):
    """The base cards that start a move of the chosen gear: Steering, Suspension, Tires."""
    if phase == PH_STEERING:
        move_cube(s, pile(seat, ACTIVE), pile(seat, DISCARD), colour)
        start_move(s, 1 << (colour - 1), s[PK_LEFT], 0)
    elif phase == PH_SUSPENSION:
        start_move(s, 1 << colour, s[PK_LEFT], s[PK_LEFT])
    else:   # PH_TIRES
        start_move(s, (1 << colour) - 1, s[PK_LEFT], s[PK_LEFT])


@nb.njit(cache=True)
def _apply_draw(s, p, phase, seat, action, colour):
    """The base cards that draw cubes: Boost (and its offers to the others), Nitro,
    Supercharged."""
    active = pile(seat, ACTIVE)
    if phase == PH_BOOST:
        if action == A_STOP:
            _boost_offers(s, p)
        else:
            drawn = draw_one(s, seat)
            if drawn >= 0:
                s[active + drawn] += 1
                gain(s, seat, WEAR, card_param(s, p, s[ACT_COLOUR], P_CARD_WEAR))
            s[PK_LEFT] -= 1
    elif phase == PH_BOOST_OTHER:
        decider = s[CURRENT]
        if decider == seat:
            if action == A_STOP:
                _own_offer_done(s)
            else:
                draw_to_active(s, seat, 1)
                s[PENDING_BOOST + seat] -= 1
        else:
            if action == A_STOP:
                _next_boost_offer(s, p)
            else:
                draw_to_active(s, decider, 1)
                s[PK_LEFT] -= 1
    elif phase == PH_NITRO:
        _nitro_keep(s, p, seat, colour)
    else:   # PH_SUPERCHARGED
        if action == A_STOP:
            s[PHASE] = PH_ACTION
        else:
            move_cube(s, pile(seat, DISCARD), active, colour)
            s[PK_LEFT] -= 1


@nb.njit(cache=True)
def _apply_racing_season(s, p, phase, seat, action, colour):
    """The Racing Season's decisions: delayed cards (Adrenaline, Crate Motor), cards that
    move, drivers and cards that change piles (their kernels live in ``racing_season/``)."""
    if phase == PH_ADRENALINE:       # Racing Season delayed cards
        if action == A_STOP:
            adrenaline_later(s, p, seat)
        else:
            s[PHASE] = PH_MOVE
            step_to(s, p, seat, action - A_SPACE)
            if s[MV_LEFT] == 0:
                finish_move(s, p, seat)
    elif phase == PH_ADRENALINE_MOVE:
        if action == A_STOP:
            s[ADR_LEFT] = 0
        else:
            adrenaline_step(s, p, seat, action - A_SPACE)
    elif phase == PH_CRATE_MOVE:
        if action == A_STOP:
            s[CRATE_SPACES + s[CURRENT]] = 0
        else:
            crate_step(s, p, action - A_SPACE)
    elif phase in (PH_BURNOUT, PH_CAMBER_TOE):   # Racing Season: cards that move
        apply_move_card(s, p, seat, phase, colour)
    elif PH_DRIVER_DRAFT <= phase < PH_OVER:   # Racing Season drivers
        _driver_next(s, p, drv.apply_action(s, p, action))
    elif is_pile_phase(phase):   # Racing Season cards that change piles
        piles_apply(s, p, seat, action, A_STOP, A_DRAW, A_ACTIVE, A_DISCARD)


@nb.njit(cache=True)
def rewards(s, p, out):
    """Winning the Game: the car farthest past the line wins (inner lane on a tie):
    +1 to the winner, -1 shared by the others (zero-sum)."""
    n = p[P_NUM_PLAYERS]
    out[:] = 0.0
    if s[PHASE] != PH_OVER:
        return
    won = np.zeros(n, dtype=np.int64)
    for seat in range(n):
        won[seat] = rank(s, p, seat) == 1
    win_share_rewards(won, n, out)


@nb.njit(cache=True)
def random_playout(s, p, words, max_decisions):
    """Play uniformly random legal actions (agent chance from ``words``) until the game
    ends or ``max_decisions``; returns the decisions made."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    made = 0
    while made < max_decisions and current_player(s, p) >= 0:
        mask[:] = 0
        legal_mask(s, p, mask)
        apply(s, p, uniform_legal(words, mask))
        made += 1
    return made
