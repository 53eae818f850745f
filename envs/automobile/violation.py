"""Which Automobile states the kernels may run on: ``violation(s, p, where)``.

Run on every state that enters from outside (``State.from_dict``, ``set_state``,
unpickling, ``BatchEnv.load``) before any other kernel sees it. Every field a kernel or the
observation uses as an index, a loop bound or a count is range-checked; money, R&D cubes,
demand tiles and executive markers must be conserved; the piece counts must match the
board; the orders must be permutations of the seats; the pending decision must belong to
the seat whose turn it is and have a context on which its legal actions exist.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobile.data import (
    DURANT,
    FORD,
    HOWARD,
    MAX_STACKS,
    MAX_TILE_KINDS,
    NUM_SPACES,
    NUM_TURNS,
    PREMIUM,
)
from transit_gym.envs.automobile.economy import (
    any_build,
    any_own_open,
    build_options,
    can_produce_at,
)
from transit_gym.envs.automobile.kernels import (
    ad_cost,
    any_exec_space,
    discount_stack,
    salesmen_in_stock,
    tile_kind,
)
from transit_gym.envs.automobile.market import (
    box_capacity,
    car_spaces,
    loss_cap,
    sale_move_ok,
    sale_moves,
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
    NUM_SEGMENTS,
    OWNER,
    P_BANK_TOTAL,
    P_CHAR_RD,
    P_CLOSURES,
    P_HOWARD_CARS,
    P_LOANS_MAX,
    P_MASS_BAG,
    P_MAX_CARS,
    P_MAX_FACTORIES,
    P_MAX_PER_SPACE,
    P_NUM_ADS,
    P_NUM_PLAYERS,
    P_NUM_STACKS,
    P_NUM_TILE_KINDS,
    P_PARTS_FACTORIES,
    P_PER_ACTION,
    P_PREMIUM_BAG,
    P_RD_CUBES,
    P_SALESMEN,
    P_SEGMENT,
    P_STACKS,
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
    STAT_PRODUCED,
    TILES,
    TURN,
    TURN_LOSS,
    USED,
)
from transit_gym.envs.core.validate import (
    MAX_COUNTER,
    START_MESSAGES,
    any_outside,
    outside,
    relation_broken,
    rng_violation,
)
from transit_gym.envs.core.validate import slot_broken as _at  # names a culprit slot

#: the per-seat statistics stat_produced .. stat_end_value are contiguous
STAT_SLOTS = STAT_END_VALUE + MAX_PLAYERS - STAT_PRODUCED

MESSAGES = {
    **START_MESSAGES,
    3: "a seat number is not a seat at the table",
    4: "the turn, action round or order position is out of range for the decision",
    5: "the context of the pending decision is out of range",
    6: "money is out of range or not conserved between the bank and the players",
    7: "R&D cubes are out of range or not conserved",
    8: "a count of loss cubes, loans or a statistic is out of range",
    9: "salesmen or sale boxes are out of range or do not add up",
    10: "a production space holds impossible pieces",
    11: "a player's piece counts do not match the board",
    12: "the demand tiles are not conserved or not held as the turn requires",
    13: "the executive decisions display does not add up",
    14: "an order of play is not a permutation of the seats, or the passes disagree with it",
    15: "the characters and the seats holding them disagree",
    16: "the pending decision does not fit the seat to move or has no legal answer",
}

BAD_PHASE, BAD_SEAT, BAD_COUNTER, BAD_CONTEXT, BAD_MONEY, BAD_RD = 2, 3, 4, 5, 6, 7
BAD_COUNT, BAD_SALESMEN, BAD_SPACE, BAD_PIECES, BAD_TILES, BAD_EXEC = 8, 9, 10, 11, 12, 13
BAD_ORDER, BAD_CHARACTER, BAD_DECISION = 14, 15, 16


@nb.njit(cache=True)
def _permutation_broken(s, start, n, where):
    """``s[start:start+n]`` must hold each seat ``0..n-1`` once, and the rest of the
    ``MAX_PLAYERS`` slots -1."""
    if any_outside(s, start, n, 0, n - 1, where):
        return True
    if any_outside(s, start + n, MAX_PLAYERS - n, -1, -1, where):
        return True
    for a in range(n):
        for b in range(a):
            if s[start + a] == s[start + b]:
                return _at(where, start + a)
    return False


@nb.njit(cache=True)
def _round_expected(s, phase):
    """The action round of each decision: 0-2 in P3, 3 after it, and in P2 the value the
    last P3 left (0 before the first turn's P3); -1 for any of 0-2."""
    if PH_ACTION <= phase <= PH_CLOSE:
        return -1
    if phase <= PH_DURANT:
        return 0 if s[TURN] == 0 else 3
    return 3


@nb.njit(cache=True)
def _scalars(s, p, n, where):
    """Phase, seats, counters and the decision's context fields."""
    if outside(s, PHASE, 0, PH_OVER, where):
        return BAD_PHASE
    phase = s[PHASE]
    if outside(s, CURRENT, 0, n - 1, where):
        return BAD_SEAT
    if outside(s, TURN, 0, NUM_TURNS - 1, where) or outside(s, POS, 0, n - 1, where):
        return BAD_COUNTER
    expected = _round_expected(s, phase)
    if expected < 0:
        if outside(s, ROUND, 0, 2, where):
            return BAD_COUNTER
    elif outside(s, ROUND, expected, expected, where):
        return BAD_COUNTER
    if phase == PH_OVER and outside(s, TURN, NUM_TURNS - 1, NUM_TURNS - 1, where):
        return BAD_COUNTER
    if (outside(s, CTX_SPACE, -1, NUM_SPACES - 1, where) or outside(s, CTX_MODE, 0, 3, where)
            or outside(s, CTX_COUNT, 0, p[P_PER_ACTION], where)
            or outside(s, CTX_SRC, 0, NUM_SEGMENTS - 1, where)
            or outside(s, CTX_DST, 0, NUM_SEGMENTS - 1, where)
            or outside(s, CTX_AFTER, 0, 1, where) or outside(s, FORD_USED, 0, 1, where)):
        return BAD_CONTEXT
    if phase == PH_HOWARD:
        if outside(s, HOWARD_LEFT, 1, p[P_HOWARD_CARS], where):
            return BAD_CONTEXT
    elif outside(s, HOWARD_LEFT, 0, 0, where):
        return BAD_CONTEXT
    return 0


@nb.njit(cache=True)
def _resources(s, p, n, where):
    """Money, R&D cubes, loss cubes, loans and statistics: ranges and conservation."""
    total = p[P_BANK_TOTAL]
    if (any_outside(s, CASH, n, -total, total, where)
            or any_outside(s, CASH + n, MAX_PLAYERS - n, 0, 0, where)
            or outside(s, BANK, 0, (n + 1) * total, where)):
        return BAD_MONEY
    money = s[BANK]
    for seat in range(n):
        money += s[CASH + seat]
    if money != total:
        relation_broken(where)
        return BAD_MONEY
    cubes = p[P_RD_CUBES]
    if (any_outside(s, RD, n, 0, cubes, where)
            or any_outside(s, RD + n, MAX_PLAYERS - n, 0, 0, where)
            or outside(s, RD_STOCK, 0, cubes, where)
            or any_outside(s, CHAR_RD, NUM_CHARACTERS, 0, cubes, where)):
        return BAD_RD
    for c in range(NUM_CHARACTERS):   # a tile holds at most its printed cubes (P9)
        if outside(s, CHAR_RD + c, 0, p[P_CHAR_RD + c], where):
            return BAD_RD
    counted = s[RD_STOCK]
    for seat in range(n):
        counted += s[RD + seat]
    for c in range(NUM_CHARACTERS):
        counted += s[CHAR_RD + c]
    if counted != cubes:
        relation_broken(where)
        return BAD_RD
    cap = loss_cap(p)
    if (any_outside(s, LOSS, n, 0, cap, where)
            or any_outside(s, LOSS + n, MAX_PLAYERS - n, 0, 0, where)
            or any_outside(s, TURN_LOSS, n, 0, cap, where)
            or any_outside(s, TURN_LOSS + n, MAX_PLAYERS - n, 0, 0, where)
            or any_outside(s, LOANS, n, 0, p[P_LOANS_MAX], where)
            or any_outside(s, LOANS + n, MAX_PLAYERS - n, 0, 0, where)
            or any_outside(s, STAT_PRODUCED, STAT_SLOTS, 0, MAX_COUNTER, where)):
        return BAD_COUNT
    return 0


@nb.njit(cache=True)
def _spaces(s, p, n, where):
    """Each production space: owner, pieces, cars, flags and markers in range and
    consistent (a closed space holds no factories; pieces and cars need an owner)."""
    frontier = -1
    for i in range(NUM_SPACES):
        if (outside(s, OWNER + i, -1, n - 1, where)
                or outside(s, FACTORIES + i, 0, p[P_MAX_PER_SPACE], where)
                or outside(s, PARTS + i, 0, 1, where) or outside(s, CLOSED + i, 0, 1, where)
                or outside(s, CARS + i, 0, p[P_MAX_CARS], where)
                or outside(s, PRODUCED + i, 0, 1, where) or outside(s, AD + i, 0, 1, where)
                or outside(s, DISC + i, 0, 2, where)):
            return BAD_SPACE
        owned = s[OWNER + i] >= 0
        if owned:
            frontier = i
        if s[CLOSED + i] != 0:
            if s[FACTORIES + i] != 0 and _at(where, FACTORIES + i):
                return BAD_SPACE
            if not owned and _at(where, OWNER + i):
                return BAD_SPACE
        elif owned and s[FACTORIES + i] == 0 and _at(where, FACTORIES + i):
            return BAD_SPACE
        if s[PARTS + i] != 0 and s[FACTORIES + i] == 0 and _at(where, PARTS + i):
            return BAD_SPACE
        if not owned and (s[CARS + i] != 0 or s[PRODUCED + i] != 0) and _at(where, OWNER + i):
            return BAD_SPACE
        if s[AD + i] + s[DISC + i] > 0 and s[PRODUCED + i] == 0 and _at(where, PRODUCED + i):
            return BAD_SPACE
        if s[DISC + i] != 0 and p[P_SEGMENT + i] == PREMIUM and _at(where, DISC + i):
            return BAD_SPACE
    if outside(s, FRONTIER, -1, NUM_SPACES - 1, where):
        return BAD_SPACE
    if s[FRONTIER] != frontier and _at(where, FRONTIER):
        return BAD_PIECES
    return 0


@nb.njit(cache=True)
def _pieces(s, p, n, where):
    """Factories, the parts factory and cars of each player agree with the board."""
    if (any_outside(s, FAC_COUNT, n, 0, p[P_MAX_FACTORIES], where)
            or any_outside(s, FAC_COUNT + n, MAX_PLAYERS - n, 0, 0, where)
            or any_outside(s, CAR_COUNT, n, 0, p[P_MAX_CARS], where)
            or any_outside(s, CAR_COUNT + n, MAX_PLAYERS - n, 0, 0, where)
            or any_outside(s, PARTS_AT + n, MAX_PLAYERS - n, -1, -1, where)):
        return BAD_PIECES
    for seat in range(n):
        high = NUM_SPACES - 1 if p[P_PARTS_FACTORIES] > 0 else -1
        if outside(s, PARTS_AT + seat, -1, high, where):
            return BAD_PIECES
        factories = 0
        cars = 0
        parts_at = -1
        for i in range(NUM_SPACES):
            if s[OWNER + i] != seat:
                continue
            factories += s[FACTORIES + i]
            cars += s[CARS + i]
            if s[PARTS + i] != 0:
                if parts_at >= 0:
                    _at(where, PARTS + i)
                    return BAD_PIECES
                parts_at = i
        if s[FAC_COUNT + seat] != factories and _at(where, FAC_COUNT + seat):
            return BAD_PIECES
        if s[CAR_COUNT + seat] != cars and _at(where, CAR_COUNT + seat):
            return BAD_PIECES
        if s[PARTS_AT + seat] != parts_at and _at(where, PARTS_AT + seat):
            return BAD_PIECES
    for i in range(NUM_SPACES):  # a parts factory on a space nobody owns
        if s[PARTS + i] != 0 and s[OWNER + i] < 0 and _at(where, OWNER + i):
            return BAD_PIECES
    return 0


@nb.njit(cache=True)
def _salesmen(s, p, n, where):
    """Salesmen in showrooms and on sales tracks within each supply; sales tracks and
    filled boxes used only during P5, and in agreement there."""
    phase = s[PHASE]
    selling = phase in (PH_SALE_MOVE, PH_SALE_CAR)
    limit = p[P_SALESMEN]
    if (any_outside(s, SHOW, n * NUM_SEGMENTS, 0, limit, where)
            or any_outside(s, SHOW + n * NUM_SEGMENTS, (MAX_PLAYERS - n) * NUM_SEGMENTS,
                           0, 0, where)
            or any_outside(s, USED, n * NUM_SEGMENTS, 0, limit if selling else 0, where)
            or any_outside(s, USED + n * NUM_SEGMENTS, (MAX_PLAYERS - n) * NUM_SEGMENTS,
                           0, 0, where)):
        return BAD_SALESMEN
    for seat in range(n):
        if salesmen_in_stock(s, p, seat) < 0 and _at(where, SHOW + seat * NUM_SEGMENTS):
            return BAD_SALESMEN
    for seg in range(NUM_SEGMENTS):
        high = box_capacity(p, seg, s[TURN]) if selling else 0
        if outside(s, BOXES + seg, 0, high, where):
            return BAD_SALESMEN
        used = 0
        for seat in range(n):
            used += s[USED + seat * NUM_SEGMENTS + seg]
        if used != s[BOXES + seg] and _at(where, BOXES + seg):
            return BAD_SALESMEN
    return 0


@nb.njit(cache=True)
def _tiles(s, p, n, where):
    """Demand tiles: known values, each kind conserved over the bag, the players' hands
    and the P7 bag tiles; each player holds the tiles of this turn, higher first."""
    kinds = p[P_NUM_TILE_KINDS]
    turn = s[TURN]
    over = s[PHASE] == PH_OVER
    max_value = 0
    for k in range(kinds):
        if outside(s, BAG + k, 0, p[P_TILE_COUNTS + k], where):
            return BAD_TILES
        max_value = max(max_value, p[P_TILE_VALUES + k])
    if any_outside(s, BAG + kinds, MAX_TILE_KINDS - kinds, 0, 0, where):
        return BAD_TILES
    held = p[P_TILES_PER_PLAYER + turn]
    for seat in range(MAX_PLAYERS):
        for t in range(2):
            index = TILES + seat * 2 + t
            v = s[index]
            if seat >= n or t >= held:
                if outside(s, index, 0, 0, where):
                    return BAD_TILES
            elif (v <= 0 or tile_kind(p, v) < 0) and _at(where, index):
                return BAD_TILES
        if seat < n and held == 2 and s[TILES + seat * 2 + 1] > s[TILES + seat * 2]:
            _at(where, TILES + seat * 2 + 1)
            return BAD_TILES
    for t in range(2):
        index = BAG_TILES + t
        drawn = p[(P_PREMIUM_BAG if t == 0 else P_MASS_BAG) + turn] != 0
        if not (over and drawn):
            if outside(s, index, 0, 0, where):
                return BAD_TILES
        elif tile_kind(p, s[index]) < 0 and _at(where, index):
            return BAD_TILES
    for k in range(kinds):
        value = p[P_TILE_VALUES + k]
        count = s[BAG + k]
        for j in range(2 * n):
            if s[TILES + j] == value:
                count += 1
        for t in range(2):
            if s[BAG_TILES + t] == value:
                count += 1
        if count != p[P_TILE_COUNTS + k]:
            relation_broken(where)
            return BAD_TILES
    if any_outside(s, DEMAND, NUM_SEGMENTS, 0, (2 * n + 2) * max_value, where):
        return BAD_TILES
    return 0


@nb.njit(cache=True)
def _executive(s, p, n, where):
    """Ads bought match the ads on the board, each discount stack taken lies on one
    space, one executive closure at most."""
    num_stacks = p[P_NUM_STACKS]
    over = s[PHASE] == PH_OVER
    if (outside(s, ADS_BOUGHT, 0, p[P_NUM_ADS], where)
            or outside(s, CLOSURES_USED, 0, p[P_CLOSURES], where)
            or any_outside(s, DISC_AVAIL + num_stacks, MAX_STACKS - num_stacks, 0, 0, where)):
        return BAD_EXEC
    for j in range(num_stacks):
        v = s[DISC_AVAIL + j]
        if v != 0 and v != p[P_STACKS + j] and _at(where, DISC_AVAIL + j):
            return BAD_EXEC
    if over:   # P7 took the markers back; the display is restocked only in P9
        return 0
    ads = 0
    for i in range(NUM_SPACES):
        ads += s[AD + i]
    if ads != s[ADS_BOUGHT] and _at(where, ADS_BOUGHT):
        return BAD_EXEC
    for size in range(1, 3):
        placed = 0
        for i in range(NUM_SPACES):
            if s[DISC + i] == size:
                placed += 1
        taken = 0
        for j in range(num_stacks):
            if s[DISC_AVAIL + j] == 0 and p[P_STACKS + j] == size:
                taken += 1
        if placed != taken:
            relation_broken(where)
            return BAD_EXEC
    return 0


@nb.njit(cache=True)
def _orders(s, p, n, where):
    """Selection order, play order and the P6 pass order (with the passed flags)."""
    phase = s[PHASE]
    if _permutation_broken(s, SEL_ORDER, n, where):
        return BAD_ORDER
    if phase >= PH_ACTION or s[TURN] > 0:
        if _permutation_broken(s, PLAY_ORDER, n, where):
            return BAD_ORDER
    elif any_outside(s, PLAY_ORDER, MAX_PLAYERS, -1, -1, where):
        return BAD_ORDER
    in_p6 = phase in (PH_EXEC, PH_EXEC_SPACE)
    if in_p6:
        if outside(s, NEXT_LEN, 0, n - 1, where):
            return BAD_ORDER
    elif s[NEXT_LEN] != 0 and outside(s, NEXT_LEN, n, n, where):
        return BAD_ORDER
    if phase == PH_OVER and outside(s, NEXT_LEN, n, n, where):
        return BAD_ORDER
    length = s[NEXT_LEN]
    if (any_outside(s, NEXT_ORDER, length, 0, n - 1, where)
            or any_outside(s, NEXT_ORDER + length, MAX_PLAYERS - length, -1, -1, where)
            or any_outside(s, PASSED, n, 0, 1, where)
            or any_outside(s, PASSED + n, MAX_PLAYERS - n, 0, 0, where)):
        return BAD_ORDER
    for a in range(length):
        for b in range(a):
            if s[NEXT_ORDER + a] == s[NEXT_ORDER + b] and _at(where, NEXT_ORDER + a):
                return BAD_ORDER
    for seat in range(n):
        listed = 0
        for k in range(length):
            if s[NEXT_ORDER + k] == seat:
                listed = 1
        if s[PASSED + seat] != listed and _at(where, PASSED + seat):
            return BAD_ORDER
    return 0


@nb.njit(cache=True)
def _characters(s, p, n, where):
    """Each character with at most one seat and back; in P2 exactly the seats that have
    chosen hold one, from P3 on every seat does, in character order of play."""
    if (any_outside(s, CHAR_OF, n, -1, NUM_CHARACTERS - 1, where)
            or any_outside(s, CHAR_OF + n, MAX_PLAYERS - n, -1, -1, where)
            or any_outside(s, CHAR_SEAT, NUM_CHARACTERS, -1, n - 1, where)):
        return BAD_SEAT
    for c in range(NUM_CHARACTERS):
        seat = s[CHAR_SEAT + c]
        if seat >= 0 and s[CHAR_OF + seat] != c and _at(where, CHAR_SEAT + c):
            return BAD_CHARACTER
    for seat in range(n):
        c = s[CHAR_OF + seat]
        if c >= 0 and s[CHAR_SEAT + c] != seat and _at(where, CHAR_OF + seat):
            return BAD_CHARACTER
    phase = s[PHASE]
    if phase <= PH_DURANT:
        chosen = s[POS] + (1 if phase == PH_DURANT else 0)
        for k in range(n):
            seat = s[SEL_ORDER + k]
            if (s[CHAR_OF + seat] >= 0) != (k < chosen) and _at(where, CHAR_OF + seat):
                return BAD_CHARACTER
        return 0
    last = -1
    for k in range(n):
        c = s[CHAR_OF + s[PLAY_ORDER + k]]
        if c <= last and _at(where, PLAY_ORDER + k):
            return BAD_CHARACTER
        last = c
    return 0


@nb.njit(cache=True)
def _decision(s, p, n, where):
    """The seat to move is the one the decision belongs to, and the decision's context
    leaves it a legal answer other than a loan."""
    phase = s[PHASE]
    if phase == PH_OVER:
        return 0
    seat = s[CURRENT]
    if phase <= PH_DURANT:
        owner = s[SEL_ORDER + s[POS]]
    elif phase == PH_HOWARD:
        owner = s[CHAR_SEAT + HOWARD]
    else:
        owner = s[PLAY_ORDER + s[POS]]
    if seat != owner and _at(where, CURRENT):
        return BAD_DECISION
    mode = s[CTX_MODE]
    char = s[CHAR_OF + seat]
    ford_free = char == FORD and s[FORD_USED] == 0
    ok = True
    if phase == PH_SELECT:
        ok = char < 0
    elif phase == PH_DURANT:
        ok = char == DURANT and mode == BUILD_DURANT
    elif phase in (PH_BUILD_SPACE, PH_BUILD_WHAT):
        ok = mode < BUILD_DURANT and (mode != BUILD_FORD or ford_free)
        if ok and phase == PH_BUILD_SPACE:
            ok = any_build(s, p, seat, mode)
        elif ok:
            ok = s[CTX_SPACE] >= 0 and build_options(s, p, seat, s[CTX_SPACE], mode) != 0
    elif phase == PH_FORD_AFTER:
        ok = ford_free
    elif phase == PH_SALESMEN:
        ok = s[CTX_COUNT] < p[P_PER_ACTION] and salesmen_in_stock(s, p, seat) > 0
    elif phase == PH_PRODUCE:
        ok = s[CTX_SPACE] >= 0 and can_produce_at(s, p, seat, s[CTX_SPACE])
    elif phase == PH_CLOSE:
        ok = any_own_open(s, seat)
    elif phase == PH_HOWARD:
        ok = s[HOWARD_LEFT] <= s[CAR_COUNT + seat] and car_spaces(s, p, seat, -1) > 0
    elif phase == PH_SALE_MOVE:
        count, _ = sale_moves(s, p, seat, s[TURN])
        ok = count > 0
    elif phase == PH_SALE_CAR:
        ok = sale_move_ok(s, p, seat, s[CTX_SRC], s[CTX_DST], s[TURN])
    elif phase in (PH_EXEC, PH_EXEC_SPACE):
        ok = s[PASSED + seat] == 0
        if ok and phase == PH_EXEC_SPACE:
            if mode == EXEC_CLOSE:
                ok = s[CLOSURES_USED] < p[P_CLOSURES]
            elif mode == EXEC_AD:
                cost = ad_cost(s, p)
                ok = 0 <= cost <= s[RD + seat]
            elif mode == EXEC_DISC1:
                ok = discount_stack(s, p, 1) >= 0
            elif mode == EXEC_DISC2:
                ok = discount_stack(s, p, 2) >= 0
            ok = ok and any_exec_space(s, p, seat, mode)
    if not ok:
        index = CURRENT
        if phase in (PH_BUILD_SPACE, PH_BUILD_WHAT, PH_DURANT, PH_EXEC_SPACE):
            index = CTX_MODE
        if phase in (PH_BUILD_WHAT, PH_PRODUCE):
            index = CTX_SPACE
        _at(where, index)
        return BAD_DECISION
    return 0


@nb.njit(cache=True)
def violation(s, p, where):
    """0 when the kernels may run on ``s``; else a code of ``MESSAGES`` (``where``: the
    offending slot and its allowed range, or -1s for a broken relation). The checks run
    from plain ranges to relations, so each relation reads only checked values."""
    code = rng_violation(s, where)
    if code:
        return code
    n = p[P_NUM_PLAYERS]
    code = _scalars(s, p, n, where)
    if code:
        return code
    code = _resources(s, p, n, where)
    if code:
        return code
    code = _spaces(s, p, n, where)
    if code:
        return code
    code = _pieces(s, p, n, where)
    if code:
        return code
    code = _salesmen(s, p, n, where)
    if code:
        return code
    code = _tiles(s, p, n, where)
    if code:
        return code
    code = _executive(s, p, n, where)
    if code:
        return code
    code = _orders(s, p, n, where)
    if code:
        return code
    code = _characters(s, p, n, where)
    if code:
        return code
    return _decision(s, p, n, where)
