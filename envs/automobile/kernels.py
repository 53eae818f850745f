"""Jitted turn structure of Automobile on the flat state vector (see ``state.py``).

``init``, ``legal_mask``, ``apply``, ``current_player`` and ``rewards`` follow the
core's kernel contract. ``apply`` resolves the chosen action and then every
forced step and chance event (demand tiles, automatic sales, P7-P9) until the
next real decision. RB sections are named in the docstrings: Starting the game,
P1-P9, Loans, the characters, Winning the game.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobile.actions import (
    A_BUILD,
    A_CLOSE,
    A_DONE,
    A_EXEC_AD,
    A_EXEC_CLOSE,
    A_EXEC_DISC,
    A_FORD,
    A_LOAN,
    A_MOVE,
    A_PASS,
    A_PRODUCE,
    A_QTY,
    A_RD,
    A_SALESMEN,
    A_SELECT,
    A_SHOWROOM,
    A_SPACE,
    A_WHAT,
    WHAT_ONE,
)
from transit_gym.envs.automobile.data import (
    CHRYSLER,
    DURANT,
    FORD,
    HOWARD,
    MASS,
    MAX_CARS,
    NUM_SPACES,
    NUM_TURNS,
    PREMIUM,
    SLOAN,
)
from transit_gym.envs.automobile.economy import (
    any_build,
    any_own_open,
    build_options,
    can_loan,
    close_space,
    do_build,
    ford_room,
    is_new_space,
    is_own_open,
    next_production_space,
    pay,
    produce,
    quantity_legal,
    rd_ahead_cost,
    receive,
    spend_rd,
    take_loan,
    take_rd,
)
from transit_gym.envs.automobile.market import (
    add_loss,
    allocate_losses,
    car_spaces,
    demand_sales,
    first_car_space,
    howard_sell,
    sale_move_ok,
    sale_moves,
    salesman_sell,
    unsold_cars,
)
from transit_gym.envs.automobile.state import (
    AD,
    ADS_BOUGHT,
    BAG,
    BAG_TILES,
    BANK,
    BOXES,
    BUILD_DURANT,
    BUILD_FORD,
    BUILD_NORMAL,
    CAR_COUNT,
    CARS,
    CASH,
    CHAR_OF,
    CHAR_RD,
    CHAR_SEAT,
    CLOSED,
    CLOSURES_USED,
    CTX_AFTER,
    CTX_COUNT,
    CTX_DST,
    CTX_MODE,
    CTX_SPACE,
    CTX_SRC,
    CURRENT,
    DEMAND,
    DISC,
    DISC_AVAIL,
    EXEC_AD,
    EXEC_CLOSE,
    EXEC_DISC1,
    EXEC_DISC2,
    FAC_COUNT,
    FACTORIES,
    FORD_USED,
    FRONTIER,
    HOWARD_LEFT,
    LOANS,
    LOSS,
    MAX_PLAYERS,
    NEXT_LEN,
    NEXT_ORDER,
    NUM_CHARACTERS,
    OWNER,
    P_AD_COSTS,
    P_BANK_TOTAL,
    P_CHAR_RD,
    P_CLOSURES,
    P_COST,
    P_DURANT_BORROW,
    P_FIRST,
    P_HIGHER_SEG,
    P_HOWARD_CARS,
    P_LOAN_AMOUNT,
    P_LOAN_INTEREST,
    P_LOAN_REPAY,
    P_LOANS_MAX,
    P_LOSS_PRICE,
    P_LOWER_SEG,
    P_MARKERS_ON_CLOSED,
    P_MASS_BAG,
    P_MAX_FACTORIES,
    P_MONEY,
    P_NUM_ADS,
    P_NUM_PLAYERS,
    P_NUM_STACKS,
    P_NUM_TILE_KINDS,
    P_PARTS_COST,
    P_PER_ACTION,
    P_PREMIUM_BAG,
    P_RD_CUBES,
    P_REWARD,
    P_SALESMEN,
    P_SEGMENT,
    P_SHORTFALL,
    P_SLOAN_MODE,
    P_STACKS,
    P_START_RD,
    P_TILE_COUNTS,
    P_TILE_VALUES,
    P_TILES_PER_PLAYER,
    PARTS,
    PARTS_AT,
    PASSED,
    PH_ACTION,
    PH_BUILD_SPACE,
    PH_BUILD_WHAT,
    PH_CLOSE,
    PH_DURANT,
    PH_EXEC,
    PH_EXEC_SPACE,
    PH_FORD_AFTER,
    PH_HOWARD,
    PH_OVER,
    PH_PRODUCE,
    PH_SALE_CAR,
    PH_SALE_MOVE,
    PH_SALESMEN,
    PH_SELECT,
    PHASE,
    PLAY_ORDER,
    POS,
    PRODUCED,
    RD,
    RD_STOCK,
    ROUND,
    SEL_ORDER,
    SHOW,
    STAT_END_VALUE,
    STAT_FORCED_LOANS,
    STAT_IDLE,
    STAT_INTEREST,
    STAT_LOSS_PAID,
    STAT_UNPAID,
    TILES,
    TURN,
    TURN_LOSS,
    USED,
)
from transit_gym.envs.core.draw import draw_from_counts
from transit_gym.envs.core.rng import below
from transit_gym.envs.core.scoring import score_difference_rewards, win_share_rewards
from transit_gym.envs.core.slots import seat_to_move
from transit_gym.envs.core.validate import bump

ACTION_ROUNDS = 3


# ----- small queries -----------------------------------------------------------------------------
@nb.njit(cache=True)
def _index_of(a, start, count, value):
    """The first ``k < count`` with ``a[start + k] == value``, or -1."""
    for k in range(count):
        if a[start + k] == value:
            return k
    return -1


@nb.njit(cache=True)
def _ask(s, seat, phase):
    """Hand decision ``phase`` to ``seat``."""
    s[CURRENT] = seat
    s[PHASE] = phase


@nb.njit(cache=True)
def salesmen_in_stock(s, p, seat):
    n = p[P_SALESMEN]
    for seg in range(3):
        n -= s[SHOW + seat * 3 + seg] + s[USED + seat * 3 + seg]
    return n


@nb.njit(cache=True)
def durant_reach(s, p, seat, extra):
    """Durant could build with ``extra`` dollars more: a factory in stock and an unoccupied
    space whose R&D he has and whose cost he could then pay."""
    if s[FAC_COUNT + seat] >= p[P_MAX_FACTORIES]:
        return False
    for i in range(NUM_SPACES):
        if (is_new_space(s, i) and rd_ahead_cost(s, p, i) <= s[RD + seat]
                and p[P_COST + i] <= s[CASH + seat] + extra):
            return True
    return False


@nb.njit(cache=True)
def durant_may_decline(s, p, seat):
    """Durant declines only when no build is affordable, and (option ``durant_borrow``)
    when even all the loans he has left would not make one affordable."""
    if any_build(s, p, seat, BUILD_DURANT):
        return False
    if p[P_DURANT_BORROW] == 0:
        return True
    left = p[P_LOANS_MAX] - s[LOANS + seat]
    return not durant_reach(s, p, seat, left * p[P_LOAN_AMOUNT])


@nb.njit(cache=True)
def exec_space_ok(s, p, seat, space, mode):
    """P6: closure on an own open space; markers on an own space that produced this turn
    (at most one ad per space; discounts once per space, never on premium)."""
    if mode == EXEC_CLOSE:
        return is_own_open(s, seat, space)
    if s[OWNER + space] != seat or s[PRODUCED + space] == 0:
        return False
    if s[CLOSED + space] != 0 and p[P_MARKERS_ON_CLOSED] == 0:
        return False
    if mode == EXEC_AD:
        return s[AD + space] == 0
    return s[DISC + space] == 0 and p[P_SEGMENT + space] != PREMIUM


@nb.njit(cache=True)
def any_exec_space(s, p, seat, mode):
    for i in range(NUM_SPACES):  # noqa: SIM110 - numba has no any() over generators
        if exec_space_ok(s, p, seat, i, mode):
            return True
    return False


@nb.njit(cache=True)
def discount_stack(s, p, size):
    """Index of the first discount display space holding ``size`` markers, or -1."""
    return _index_of(s, DISC_AVAIL, p[P_NUM_STACKS], size)


@nb.njit(cache=True)
def ad_cost(s, p):
    """R&D price of the next advertisement marker (-1 when none is left)."""
    if s[ADS_BOUGHT] >= p[P_NUM_ADS]:
        return -1
    return p[P_AD_COSTS + s[ADS_BOUGHT]]


@nb.njit(cache=True)
def tile_kind(p, value):
    """Kind of the demand tile of ``value``, or -1."""
    return _index_of(p, P_TILE_VALUES, p[P_NUM_TILE_KINDS], value)


# ----- setup and turn boundaries -----------------------------------------------------------------
@nb.njit(cache=True)
def _restock(s, p):
    """P9 / setup: characters back on their spaces with fresh R&D cubes (unclaimed ones
    return to the stock; a short stock fills the tiles top to bottom), the Executive
    Decisions display restocked."""
    for c in range(NUM_CHARACTERS):
        s[RD_STOCK] += s[CHAR_RD + c]
        s[CHAR_RD + c] = 0
        s[CHAR_SEAT + c] = -1
    for c in range(NUM_CHARACTERS):
        got = min(p[P_CHAR_RD + c], s[RD_STOCK])
        s[CHAR_RD + c] = got
        s[RD_STOCK] -= got
    for seat in range(MAX_PLAYERS):
        s[CHAR_OF + seat] = -1
    s[ADS_BOUGHT] = 0
    for j in range(p[P_NUM_STACKS]):
        s[DISC_AVAIL + j] = p[P_STACKS + j]
    s[CLOSURES_USED] = 0
    s[FORD_USED] = 0


@nb.njit(cache=True)
def _draw_tile(s, p):
    kind = draw_from_counts(s[0:4], s[BAG:BAG + p[P_NUM_TILE_KINDS]])
    return p[P_TILE_VALUES + kind]


@nb.njit(cache=True)
def _start_turn(s, p):
    """P1: in selection order every player draws 1 (turn 1) or 2 demand tiles secretly;
    then P2 begins with the first player of the selection order."""
    n = p[P_NUM_PLAYERS]
    turn = s[TURN]
    per_player = p[P_TILES_PER_PLAYER + turn]
    for k in range(n):
        seat = s[SEL_ORDER + k]
        s[TURN_LOSS + seat] = 0
        for t in range(per_player):
            s[TILES + seat * 2 + t] = _draw_tile(s, p)
        if per_player == 2 and s[TILES + seat * 2 + 1] > s[TILES + seat * 2]:
            hi = s[TILES + seat * 2 + 1]
            s[TILES + seat * 2 + 1] = s[TILES + seat * 2]
            s[TILES + seat * 2] = hi
    s[POS] = 0
    _ask(s, s[SEL_ORDER], PH_SELECT)


@nb.njit(cache=True)
def init(s, p):
    """Starting the game: money and R&D per player, characters and the Executive
    Decisions display stocked, demand tiles in the bag, a starting player (seat or
    seeded draw) and clockwise selection order; then turn 1 begins."""
    n = p[P_NUM_PLAYERS]
    s[BANK] = p[P_BANK_TOTAL]
    s[RD_STOCK] = p[P_RD_CUBES]
    for seat in range(MAX_PLAYERS):
        s[CHAR_OF + seat] = -1
        s[PARTS_AT + seat] = -1
        s[SEL_ORDER + seat] = -1
        s[NEXT_ORDER + seat] = -1
        s[PLAY_ORDER + seat] = -1
    for seat in range(n):
        receive(s, seat, p[P_MONEY])
        take_rd(s, seat, p[P_START_RD])
    for i in range(NUM_SPACES):
        s[OWNER + i] = -1
    s[FRONTIER] = -1
    for k in range(p[P_NUM_TILE_KINDS]):
        s[BAG + k] = p[P_TILE_COUNTS + k]
    _restock(s, p)
    first = p[P_FIRST]
    if first < 0:
        first = below(s[0:4], n)
    for k in range(n):
        s[SEL_ORDER + k] = (first + k) % n
    s[TURN] = 0
    _start_turn(s, p)


# ----- P2 ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _next_selector(s, p):
    """Next player in selection order, or P3 in character order once all have chosen."""
    n = p[P_NUM_PLAYERS]
    s[POS] += 1
    if s[POS] < n:
        _ask(s, s[SEL_ORDER + s[POS]], PH_SELECT)
        return
    k = 0
    for c in range(NUM_CHARACTERS):
        if s[CHAR_SEAT + c] >= 0:
            s[PLAY_ORDER + k] = s[CHAR_SEAT + c]
            k += 1
    s[ROUND] = 0
    s[POS] = 0
    _begin_action(s, p)


@nb.njit(cache=True)
def _select(s, p, seat, c):
    """P2: take the character and the R&D cubes on it; Durant builds at once."""
    s[CHAR_OF + seat] = c
    s[CHAR_SEAT + c] = seat
    s[RD + seat] += s[CHAR_RD + c]
    s[CHAR_RD + c] = 0
    if c == DURANT and (any_build(s, p, seat, BUILD_DURANT)
                        or (can_loan(s, p, seat) and durant_reach(s, p, seat, 1 << 40))):
        s[CTX_MODE] = BUILD_DURANT
        s[PHASE] = PH_DURANT
        return
    _next_selector(s, p)


# ----- P3 ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _begin_action(s, p):
    _ask(s, s[PLAY_ORDER + s[POS]], PH_ACTION)
    s[CTX_AFTER] = 0
    s[CTX_COUNT] = 0


@nb.njit(cache=True)
def _next_actor(s, p):
    n = p[P_NUM_PLAYERS]
    s[POS] += 1
    if s[POS] == n:
        s[POS] = 0
        s[ROUND] += 1
        if s[ROUND] == ACTION_ROUNDS:
            _phase4(s, p)
            return
    _begin_action(s, p)


@nb.njit(cache=True)
def _end_action(s, p):
    """After the normal action Ford may still take his extra build (Ford)."""
    seat = s[CURRENT]
    if (s[CHAR_OF + seat] == FORD and s[FORD_USED] == 0 and ford_room(s, p, seat)
            and (any_build(s, p, seat, BUILD_FORD) or can_loan(s, p, seat))):
        s[PHASE] = PH_FORD_AFTER
        return
    _next_actor(s, p)


@nb.njit(cache=True)
def _choose_action(s, p, seat, action):
    if action == A_BUILD:
        s[CTX_MODE] = BUILD_NORMAL
        s[PHASE] = PH_BUILD_SPACE
    elif action == A_FORD:
        s[CTX_MODE] = BUILD_FORD
        s[PHASE] = PH_BUILD_SPACE
    elif action == A_SALESMEN:
        s[CTX_COUNT] = 0
        s[PHASE] = PH_SALESMEN
    elif action == A_RD:
        take_rd(s, seat, 2)
        _end_action(s, p)
    elif action == A_PRODUCE:
        s[CTX_SPACE] = next_production_space(s, p, seat, -1)
        s[PHASE] = PH_PRODUCE
    else:
        s[PHASE] = PH_CLOSE


@nb.njit(cache=True)
def _build_done(s, p, seat, what):
    mode = s[CTX_MODE]
    do_build(s, p, seat, s[CTX_SPACE], what)
    if mode == BUILD_NORMAL:
        _end_action(s, p)
        return
    s[FORD_USED] = 1
    if s[CTX_AFTER] != 0:
        _next_actor(s, p)
    else:
        s[PHASE] = PH_ACTION


@nb.njit(cache=True)
def _place_salesman(s, p, seat, seg):
    """II. Place salesmen: one at a time, up to three per action, eight in all."""
    s[SHOW + seat * 3 + seg] += 1
    s[CTX_COUNT] += 1
    if s[CTX_COUNT] >= p[P_PER_ACTION] or salesmen_in_stock(s, p, seat) == 0:
        _end_action(s, p)


@nb.njit(cache=True)
def _produce_step(s, p, seat, n):
    """IV. Produce cars: a quantity (or none) for each own space in turn."""
    space = s[CTX_SPACE]
    if n > 0:
        produce(s, p, seat, space, n)
    nxt = next_production_space(s, p, seat, space)
    if nxt < 0:
        _end_action(s, p)
    else:
        s[CTX_SPACE] = nxt


# ----- P4 ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _phase4(s, p):
    """P4: Howard's player must sell two cars (fewer if fewer were produced)."""
    seat = s[CHAR_SEAT + HOWARD]
    s[HOWARD_LEFT] = 0
    if seat >= 0:
        s[HOWARD_LEFT] = min(p[P_HOWARD_CARS], s[CAR_COUNT + seat])
    _howard_continue(s, p)


@nb.njit(cache=True)
def _howard_continue(s, p):
    seat = s[CHAR_SEAT + HOWARD]
    while s[HOWARD_LEFT] > 0:
        if car_spaces(s, p, seat, -1) == 1:
            howard_sell(s, p, seat, first_car_space(s, p, seat, -1))
            s[HOWARD_LEFT] -= 1
        else:
            _ask(s, seat, PH_HOWARD)
            return
    _phase5(s, p)


# ----- P5 ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _phase5(s, p):
    for seg in range(3):
        s[BOXES + seg] = 0
    s[POS] = 0
    _p5_continue(s, p)


@nb.njit(cache=True)
def _p5_continue(s, p):
    """P5: in play order each player who can sell must sell one car through one salesman;
    repeated until nobody can. A forced single choice is played automatically."""
    n = p[P_NUM_PLAYERS]
    turn = s[TURN]
    while True:
        found = -1
        seat = -1
        count = 0
        last = -1
        for k in range(n):
            idx = (s[POS] + k) % n
            seat = s[PLAY_ORDER + idx]
            count, last = sale_moves(s, p, seat, turn)
            if count > 0:
                found = idx
                break
        if found < 0:
            _p5_end(s, p)
            return
        s[POS] = found
        s[CURRENT] = seat
        if count > 1:
            s[PHASE] = PH_SALE_MOVE
            return
        if _sale_move(s, p, seat, last):
            return
        s[POS] = (found + 1) % n


@nb.njit(cache=True)
def _sale_move(s, p, seat, move):
    """P5: the salesman of ``move`` (showroom * 3 + sales track) sells the seat's car;
    True when the seat must first choose which space the car comes from (then asked)."""
    src = move // 3
    dst = move % 3
    if car_spaces(s, p, seat, dst) > 1:
        s[CTX_SRC] = src
        s[CTX_DST] = dst
        s[PHASE] = PH_SALE_CAR
        return True
    salesman_sell(s, p, seat, src, dst, first_car_space(s, p, seat, dst))
    return False


@nb.njit(cache=True)
def _after_sale(s, p):
    s[POS] = (s[POS] + 1) % p[P_NUM_PLAYERS]
    _p5_continue(s, p)


@nb.njit(cache=True)
def _p5_end(s, p):
    """Unused salesmen leave the salesroom with a loss cube each; the others move to the
    showroom of the track they sold on."""
    n = p[P_NUM_PLAYERS]
    for seat in range(n):
        idle = 0
        for seg in range(3):
            idle += s[SHOW + seat * 3 + seg]
            s[SHOW + seat * 3 + seg] = s[USED + seat * 3 + seg]
            s[USED + seat * 3 + seg] = 0
        if idle > 0:
            add_loss(s, p, seat, idle)
            bump(s, STAT_IDLE + seat, idle)
    for seg in range(3):
        s[BOXES + seg] = 0
    _phase6(s, p)


# ----- P6 ----------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _phase6(s, p):
    n = p[P_NUM_PLAYERS]
    for seat in range(n):
        s[PASSED + seat] = 0
        s[NEXT_ORDER + seat] = -1
    s[NEXT_LEN] = 0
    s[POS] = 0
    _p6_continue(s, p)


@nb.njit(cache=True)
def _p6_continue(s, p):
    """P6: in play order each player who has not passed makes one decision, until all pass."""
    n = p[P_NUM_PLAYERS]
    for k in range(n):
        idx = (s[POS] + k) % n
        seat = s[PLAY_ORDER + idx]
        if s[PASSED + seat] == 0:
            s[POS] = idx
            _ask(s, seat, PH_EXEC)
            return
    _phase7(s, p)


@nb.njit(cache=True)
def _exec_choice(s, p, seat, action):
    n = p[P_NUM_PLAYERS]
    if action == A_PASS:
        s[PASSED + seat] = 1
        s[NEXT_ORDER + s[NEXT_LEN]] = seat
        s[NEXT_LEN] += 1
        s[POS] = (s[POS] + 1) % n
        _p6_continue(s, p)
        return
    if action == A_EXEC_CLOSE:
        s[CTX_MODE] = EXEC_CLOSE
    elif action == A_EXEC_AD:
        s[CTX_MODE] = EXEC_AD
    elif action == A_EXEC_DISC:
        s[CTX_MODE] = EXEC_DISC1
    else:
        s[CTX_MODE] = EXEC_DISC2
    s[PHASE] = PH_EXEC_SPACE


@nb.njit(cache=True)
def _exec_space(s, p, seat, space):
    mode = s[CTX_MODE]
    if mode == EXEC_CLOSE:
        close_space(s, p, seat, space)
        s[CLOSURES_USED] += 1
    elif mode == EXEC_AD:
        spend_rd(s, seat, ad_cost(s, p))
        s[ADS_BOUGHT] += 1
        s[AD + space] = 1
    else:
        size = 1 if mode == EXEC_DISC1 else 2
        s[DISC_AVAIL + discount_stack(s, p, size)] = 0
        s[DISC + space] = size
    s[POS] = (s[POS] + 1) % p[P_NUM_PLAYERS]
    _p6_continue(s, p)


# ----- P7-P9 -------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _phase7(s, p):
    """P7: reveal the tiles (higher/lower to the turn's segments), draw the bag tiles for
    premium (turns 3-4) and the extra mass tile (turn 4), sell by demand, unsold cars
    give loss cubes, markers go back."""
    n = p[P_NUM_PLAYERS]
    turn = s[TURN]
    hi_seg = p[P_HIGHER_SEG + turn]
    lo_seg = p[P_LOWER_SEG + turn]
    for seg in range(3):
        s[DEMAND + seg] = 0
    for seat in range(n):
        s[DEMAND + hi_seg] += s[TILES + seat * 2]
        if lo_seg >= 0:
            s[DEMAND + lo_seg] += s[TILES + seat * 2 + 1]
    if p[P_PREMIUM_BAG + turn] != 0:
        s[BAG_TILES] = _draw_tile(s, p)
        s[DEMAND + PREMIUM] += s[BAG_TILES]
    if p[P_MASS_BAG + turn] != 0:
        s[BAG_TILES + 1] = _draw_tile(s, p)
        s[DEMAND + MASS] += s[BAG_TILES + 1]
    for seg in range(3):
        demand_sales(s, p, seg, s[DEMAND + seg])
    unsold_cars(s, p)
    for i in range(NUM_SPACES):
        s[AD + i] = 0
        s[DISC + i] = 0
    _phase8(s, p)


@nb.njit(cache=True)
def _charge(s, p, seat, amount):
    """A P8 payment. Short of cash: loans are taken first (shortfall 0) and the rest is
    debt (negative cash, shortfall 0/1), or the unpaid part is forgiven (shortfall 2)."""
    mode = p[P_SHORTFALL]
    if mode == 0:
        while s[CASH + seat] < amount and can_loan(s, p, seat):
            take_loan(s, p, seat)
            bump(s, STAT_FORCED_LOANS + seat, 1)
    if mode == 2:
        paid = min(amount, max(s[CASH + seat], 0))
        bump(s, STAT_UNPAID + seat, amount - paid)
        pay(s, seat, paid)
        return paid
    pay(s, seat, amount)
    return amount


@nb.njit(cache=True)
def _phase8(s, p):
    """P8: allocate loss cubes, Sloan and Chrysler discard, pay the turn's price per cube
    held, then $50 interest per loan."""
    n = p[P_NUM_PLAYERS]
    turn = s[TURN]
    allocate_losses(s, p)
    sloan = s[CHAR_SEAT + SLOAN]
    if sloan >= 0:
        base = s[LOSS + sloan]
        if p[P_SLOAN_MODE] == 1:
            base = min(s[TURN_LOSS + sloan], s[LOSS + sloan])
        s[LOSS + sloan] -= (base + 1) // 2
    chrysler = s[CHAR_SEAT + CHRYSLER]
    if chrysler >= 0:
        s[LOSS + chrysler] -= min(turn + 1, s[LOSS + chrysler])
    for k in range(n):
        seat = s[PLAY_ORDER + k]
        bump(s, STAT_LOSS_PAID + seat, _charge(s, p, seat, s[LOSS + seat] * p[P_LOSS_PRICE + turn]))
        bump(s, STAT_INTEREST + seat, _charge(s, p, seat, s[LOANS + seat] * p[P_LOAN_INTEREST]))
    if turn == NUM_TURNS - 1:
        _final(s, p)
    else:
        _phase9(s, p)


@nb.njit(cache=True)
def _phase9(s, p):
    """P9: tiles back in the bag, markers and characters restocked, the P6 pass order
    becomes the selection order, next turn."""
    n = p[P_NUM_PLAYERS]
    for seat in range(n):
        for t in range(2):
            v = s[TILES + seat * 2 + t]
            if v > 0:
                s[BAG + tile_kind(p, v)] += 1
                s[TILES + seat * 2 + t] = 0
    for t in range(2):
        v = s[BAG_TILES + t]
        if v > 0:
            s[BAG + tile_kind(p, v)] += 1
            s[BAG_TILES + t] = 0
    for i in range(NUM_SPACES):
        s[PRODUCED + i] = 0
    _restock(s, p)
    for k in range(n):
        s[SEL_ORDER + k] = s[NEXT_ORDER + k]
    s[TURN] += 1
    _start_turn(s, p)


@nb.njit(cache=True)
def factory_value(s, p, seat):
    """Winning the game: full building cost of each factory on the board, $500 for the
    parts factory."""
    value = 0
    for i in range(NUM_SPACES):
        if s[OWNER + i] == seat and s[CLOSED + i] == 0:
            value += s[FACTORIES + i] * p[P_COST + i] + s[PARTS + i] * p[P_PARTS_COST]
    return value


@nb.njit(cache=True)
def _final(s, p):
    """After turn 4 (no P9): factories cashed in at full value, loans repaid at $600 (a
    shortfall is debt, or forgiven with ``shortfall='forgive'``; no new loans then)."""
    n = p[P_NUM_PLAYERS]
    for seat in range(n):
        value = factory_value(s, p, seat)
        receive(s, seat, value)
        s[STAT_END_VALUE + seat] = value
        due = s[LOANS + seat] * p[P_LOAN_REPAY]
        if p[P_SHORTFALL] == 2:
            paid = min(due, max(s[CASH + seat], 0))
            bump(s, STAT_UNPAID + seat, due - paid)
            due = paid
        pay(s, seat, due)
    s[PHASE] = PH_OVER


# ----- the kernel contract -----------------------------------------------------------------------
@nb.njit(cache=True)
def current_player(s, p):
    return seat_to_move(s, PHASE, PH_OVER, CURRENT)


@nb.njit(cache=True)
def legal_mask(s, p, mask):
    """The legal answers of the pending decision (see ``state.PH_*``)."""
    phase = s[PHASE]
    if phase == PH_OVER:
        return
    seat = s[CURRENT]
    forced_sale = PH_HOWARD <= phase <= PH_SALE_CAR  # P4/P5: nothing costs money there
    if not forced_sale and can_loan(s, p, seat):
        mask[A_LOAN] = 1
    if phase == PH_SELECT:
        for c in range(NUM_CHARACTERS):
            if s[CHAR_SEAT + c] < 0:
                mask[A_SELECT + c] = 1
    elif phase == PH_DURANT:
        for i in range(NUM_SPACES):
            if build_options(s, p, seat, i, BUILD_DURANT) != 0:
                mask[A_SPACE + i] = 1
        if durant_may_decline(s, p, seat):
            mask[A_DONE] = 1
    elif phase == PH_ACTION:
        if any_build(s, p, seat, BUILD_NORMAL):
            mask[A_BUILD] = 1
        if salesmen_in_stock(s, p, seat) > 0:
            mask[A_SALESMEN] = 1
        mask[A_RD] = 1
        if next_production_space(s, p, seat, -1) >= 0:
            mask[A_PRODUCE] = 1
        if any_own_open(s, seat):
            mask[A_CLOSE] = 1
        if (s[CHAR_OF + seat] == FORD and s[FORD_USED] == 0
                and any_build(s, p, seat, BUILD_FORD)):
            mask[A_FORD] = 1
    elif phase == PH_BUILD_SPACE:
        for i in range(NUM_SPACES):
            if build_options(s, p, seat, i, s[CTX_MODE]) != 0:
                mask[A_SPACE + i] = 1
    elif phase == PH_BUILD_WHAT:
        bits = build_options(s, p, seat, s[CTX_SPACE], s[CTX_MODE])
        for w in range(4):
            if (bits >> w) & 1:
                mask[A_WHAT + w] = 1
    elif phase == PH_FORD_AFTER:
        mask[A_DONE] = 1
        if any_build(s, p, seat, BUILD_FORD):
            mask[A_FORD] = 1
    elif phase == PH_SALESMEN:
        for seg in range(3):
            mask[A_SHOWROOM + seg] = 1
        if s[CTX_COUNT] > 0:
            mask[A_DONE] = 1
    elif phase == PH_PRODUCE:
        for n in range(MAX_CARS + 1):
            if quantity_legal(s, p, seat, s[CTX_SPACE], n):
                mask[A_QTY + n] = 1
    elif phase == PH_CLOSE:
        for i in range(NUM_SPACES):
            if is_own_open(s, seat, i):
                mask[A_SPACE + i] = 1
    elif phase == PH_HOWARD:
        for i in range(NUM_SPACES):
            if s[OWNER + i] == seat and s[CARS + i] > 0:
                mask[A_SPACE + i] = 1
    elif phase == PH_SALE_MOVE:
        for src in range(3):
            for dst in range(3):
                if sale_move_ok(s, p, seat, src, dst, s[TURN]):
                    mask[A_MOVE + src * 3 + dst] = 1
    elif phase == PH_SALE_CAR:
        dst = s[CTX_DST]
        for i in range(NUM_SPACES):
            if s[OWNER + i] == seat and s[CARS + i] > 0 and p[P_SEGMENT + i] == dst:
                mask[A_SPACE + i] = 1
    elif phase == PH_EXEC:
        mask[A_PASS] = 1
        if s[CLOSURES_USED] < p[P_CLOSURES] and any_own_open(s, seat):
            mask[A_EXEC_CLOSE] = 1
        cost = ad_cost(s, p)
        if cost >= 0 and s[RD + seat] >= cost and any_exec_space(s, p, seat, EXEC_AD):
            mask[A_EXEC_AD] = 1
        if any_exec_space(s, p, seat, EXEC_DISC1):
            for size in range(1, 3):
                if discount_stack(s, p, size) >= 0:
                    mask[A_EXEC_DISC + size - 1] = 1
    elif phase == PH_EXEC_SPACE:
        mode = s[CTX_MODE]
        for i in range(NUM_SPACES):
            if exec_space_ok(s, p, seat, i, mode):
                mask[A_SPACE + i] = 1


@nb.njit(cache=True)
def apply(s, p, action):
    """Play ``action`` (legal) and resolve everything up to the next decision."""
    seat = s[CURRENT]
    if action == A_LOAN:
        take_loan(s, p, seat)
        return
    phase = s[PHASE]
    if phase == PH_SELECT:
        _select(s, p, seat, action - A_SELECT)
    elif phase == PH_DURANT:
        if action != A_DONE:
            s[CTX_SPACE] = action - A_SPACE
            do_build(s, p, seat, action - A_SPACE, WHAT_ONE)
        _next_selector(s, p)
    elif phase == PH_ACTION:
        _choose_action(s, p, seat, action)
    elif phase == PH_BUILD_SPACE:
        s[CTX_SPACE] = action - A_SPACE
        s[PHASE] = PH_BUILD_WHAT
    elif phase == PH_BUILD_WHAT:
        _build_done(s, p, seat, action - A_WHAT)
    elif phase == PH_FORD_AFTER:
        if action == A_FORD:
            s[CTX_MODE] = BUILD_FORD
            s[CTX_AFTER] = 1
            s[PHASE] = PH_BUILD_SPACE
        else:
            _next_actor(s, p)
    elif phase == PH_SALESMEN:
        if action == A_DONE:
            _end_action(s, p)
        else:
            _place_salesman(s, p, seat, action - A_SHOWROOM)
    elif phase == PH_PRODUCE:
        _produce_step(s, p, seat, action - A_QTY)
    elif phase == PH_CLOSE:
        close_space(s, p, seat, action - A_SPACE)
        _end_action(s, p)
    elif phase == PH_HOWARD:
        howard_sell(s, p, seat, action - A_SPACE)
        s[HOWARD_LEFT] -= 1
        _howard_continue(s, p)
    elif phase == PH_SALE_MOVE:
        if not _sale_move(s, p, seat, action - A_MOVE):
            _after_sale(s, p)
    elif phase == PH_SALE_CAR:
        salesman_sell(s, p, seat, s[CTX_SRC], s[CTX_DST], action - A_SPACE)
        _after_sale(s, p)
    elif phase == PH_EXEC:
        _exec_choice(s, p, seat, action)
    elif phase == PH_EXEC_SPACE:
        _exec_space(s, p, seat, action - A_SPACE)


# ----- results -----------------------------------------------------------------------------------
@nb.njit(cache=True)
def winner(s, p):
    """Most cash; a tie goes to the tied player earliest in the last P6 pass order."""
    n = p[P_NUM_PLAYERS]
    best = -1
    for k in range(n):
        seat = s[NEXT_ORDER + k]
        if seat < 0:
            continue
        if best < 0 or s[CASH + seat] > s[CASH + best]:
            best = seat
    return best


@nb.njit(cache=True)
def rewards(s, p, out):
    """Zero-sum: +1 to the winner, -1 shared by the others (reward_mode 0); or own cash
    minus the others' mean, in thousands of dollars (mode 1)."""
    n = p[P_NUM_PLAYERS]
    out[:] = 0.0
    if s[PHASE] != PH_OVER:
        return
    if p[P_REWARD] == 1:
        cash = np.zeros(n, dtype=np.float64)
        for seat in range(n):
            cash[seat] = s[CASH + seat]
        score_difference_rewards(cash, n, out, 1.0 / 1000.0)
        return
    won = np.zeros(n, dtype=np.int64)
    won[winner(s, p)] = 1
    win_share_rewards(won, n, out)
