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

from transit_gym.envs.automobile import state as st
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
STAT_SLOTS = st.STAT_END_VALUE + st.MAX_PLAYERS - st.STAT_PRODUCED

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
    if any_outside(s, start + n, st.MAX_PLAYERS - n, -1, -1, where):
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
    if st.PH_ACTION <= phase <= st.PH_CLOSE:
        return -1
    if phase <= st.PH_DURANT:
        return 0 if s[st.TURN] == 0 else 3
    return 3


@nb.njit(cache=True)
def _scalars(s, p, n, where):
    """Phase, seats, counters and the decision's context fields."""
    if outside(s, st.PHASE, 0, st.PH_OVER, where):
        return BAD_PHASE
    phase = s[st.PHASE]
    if outside(s, st.CURRENT, 0, n - 1, where):
        return BAD_SEAT
    if outside(s, st.TURN, 0, NUM_TURNS - 1, where) or outside(s, st.POS, 0, n - 1, where):
        return BAD_COUNTER
    expected = _round_expected(s, phase)
    if expected < 0:
        if outside(s, st.ROUND, 0, 2, where):
            return BAD_COUNTER
    elif outside(s, st.ROUND, expected, expected, where):
        return BAD_COUNTER
    if phase == st.PH_OVER and outside(s, st.TURN, NUM_TURNS - 1, NUM_TURNS - 1, where):
        return BAD_COUNTER
    if (outside(s, st.CTX_SPACE, -1, NUM_SPACES - 1, where) or outside(s, st.CTX_MODE, 0, 3, where)
            or outside(s, st.CTX_COUNT, 0, p[st.P_PER_ACTION], where)
            or outside(s, st.CTX_SRC, 0, st.NUM_SEGMENTS - 1, where)
            or outside(s, st.CTX_DST, 0, st.NUM_SEGMENTS - 1, where)
            or outside(s, st.CTX_AFTER, 0, 1, where) or outside(s, st.FORD_USED, 0, 1, where)):
        return BAD_CONTEXT
    if phase == st.PH_HOWARD:
        if outside(s, st.HOWARD_LEFT, 1, p[st.P_HOWARD_CARS], where):
            return BAD_CONTEXT
    elif outside(s, st.HOWARD_LEFT, 0, 0, where):
        return BAD_CONTEXT
    return 0


@nb.njit(cache=True)
def _resources(s, p, n, where):
    """Money, R&D cubes, loss cubes, loans and statistics: ranges and conservation."""
    total = p[st.P_BANK_TOTAL]
    if (any_outside(s, st.CASH, n, -total, total, where)
            or any_outside(s, st.CASH + n, st.MAX_PLAYERS - n, 0, 0, where)
            or outside(s, st.BANK, 0, (n + 1) * total, where)):
        return BAD_MONEY
    money = s[st.BANK]
    for seat in range(n):
        money += s[st.CASH + seat]
    if money != total:
        relation_broken(where)
        return BAD_MONEY
    cubes = p[st.P_RD_CUBES]
    if (any_outside(s, st.RD, n, 0, cubes, where)
            or any_outside(s, st.RD + n, st.MAX_PLAYERS - n, 0, 0, where)
            or outside(s, st.RD_STOCK, 0, cubes, where)
            or any_outside(s, st.CHAR_RD, st.NUM_CHARACTERS, 0, cubes, where)):
        return BAD_RD
    for c in range(st.NUM_CHARACTERS):   # a tile holds at most its printed cubes (P9)
        if outside(s, st.CHAR_RD + c, 0, p[st.P_CHAR_RD + c], where):
            return BAD_RD
    counted = s[st.RD_STOCK]
    for seat in range(n):
        counted += s[st.RD + seat]
    for c in range(st.NUM_CHARACTERS):
        counted += s[st.CHAR_RD + c]
    if counted != cubes:
        relation_broken(where)
        return BAD_RD
    cap = loss_cap(p)
    if (any_outside(s, st.LOSS, n, 0, cap, where)
            or any_outside(s, st.LOSS + n, st.MAX_PLAYERS - n, 0, 0, where)
            or any_outside(s, st.TURN_LOSS, n, 0, cap, where)
            or any_outside(s, st.TURN_LOSS + n, st.MAX_PLAYERS - n, 0, 0, where)
            or any_outside(s, st.LOANS, n, 0, p[st.P_LOANS_MAX], where)
            or any_outside(s, st.LOANS + n, st.MAX_PLAYERS - n, 0, 0, where)
            or any_outside(s, st.STAT_PRODUCED, STAT_SLOTS, 0, MAX_COUNTER, where)):
        return BAD_COUNT
    return 0


@nb.njit(cache=True)
def _spaces(s, p, n, where):
    """Each production space: owner, pieces, cars, flags and markers in range and
    consistent (a closed space holds no factories; pieces and cars need an owner)."""
    frontier = -1
    for i in range(NUM_SPACES):
        if (outside(s, st.OWNER + i, -1, n - 1, where)
                or outside(s, st.FACTORIES + i, 0, p[st.P_MAX_PER_SPACE], where)
                or outside(s, st.PARTS + i, 0, 1, where) or outside(s, st.CLOSED + i, 0, 1, where)
                or outside(s, st.CARS + i, 0, p[st.P_MAX_CARS], where)
                or outside(s, st.PRODUCED + i, 0, 1, where) or outside(s, st.AD + i, 0, 1, where)
                or outside(s, st.DISC + i, 0, 2, where)):
            return BAD_SPACE
        owned = s[st.OWNER + i] >= 0
        if owned:
            frontier = i
        if s[st.CLOSED + i] != 0:
            if s[st.FACTORIES + i] != 0 and _at(where, st.FACTORIES + i):
                return BAD_SPACE
            if not owned and _at(where, st.OWNER + i):
                return BAD_SPACE
        elif owned and s[st.FACTORIES + i] == 0 and _at(where, st.FACTORIES + i):
            return BAD_SPACE
        if s[st.PARTS + i] != 0 and s[st.FACTORIES + i] == 0 and _at(where, st.PARTS + i):
            return BAD_SPACE
        if (not owned and (s[st.CARS + i] != 0 or s[st.PRODUCED + i] != 0)
                and _at(where, st.OWNER + i)):
            return BAD_SPACE
        if (s[st.AD + i] + s[st.DISC + i] > 0 and s[st.PRODUCED + i] == 0
                and _at(where, st.PRODUCED + i)):
            return BAD_SPACE
        if s[st.DISC + i] != 0 and p[st.P_SEGMENT + i] == PREMIUM and _at(where, st.DISC + i):
            return BAD_SPACE
    if outside(s, st.FRONTIER, -1, NUM_SPACES - 1, where):
        return BAD_SPACE
    if s[st.FRONTIER] != frontier and _at(where, st.FRONTIER):
        return BAD_PIECES
    return 0


@nb.njit(cache=True)
def _pieces(s, p, n, where):
    """Factories, the parts factory and cars of each player agree with the board."""
    if (any_outside(s, st.FAC_COUNT, n, 0, p[st.P_MAX_FACTORIES], where)
            or any_outside(s, st.FAC_COUNT + n, st.MAX_PLAYERS - n, 0, 0, where)
            or any_outside(s, st.CAR_COUNT, n, 0, p[st.P_MAX_CARS], where)
            or any_outside(s, st.CAR_COUNT + n, st.MAX_PLAYERS - n, 0, 0, where)
            or any_outside(s, st.PARTS_AT + n, st.MAX_PLAYERS - n, -1, -1, where)):
        return BAD_PIECES
    for seat in range(n):
        high = NUM_SPACES - 1 if p[st.P_PARTS_FACTORIES] > 0 else -1
        if outside(s, st.PARTS_AT + seat, -1, high, where):
            return BAD_PIECES
        factories = 0
        cars = 0
        parts_at = -1
        for i in range(NUM_SPACES):
            if s[st.OWNER + i] != seat:
                continue
            factories += s[st.FACTORIES + i]
            cars += s[st.CARS + i]
            if s[st.PARTS + i] != 0:
                if parts_at >= 0:
                    _at(where, st.PARTS + i)
                    return BAD_PIECES
                parts_at = i
        if s[st.FAC_COUNT + seat] != factories and _at(where, st.FAC_COUNT + seat):
            return BAD_PIECES
        if s[st.CAR_COUNT + seat] != cars and _at(where, st.CAR_COUNT + seat):
            return BAD_PIECES
        if s[st.PARTS_AT + seat] != parts_at and _at(where, st.PARTS_AT + seat):
            return BAD_PIECES
    for i in range(NUM_SPACES):  # a parts factory on a space nobody owns
        if s[st.PARTS + i] != 0 and s[st.OWNER + i] < 0 and _at(where, st.OWNER + i):
            return BAD_PIECES
    return 0


@nb.njit(cache=True)
def _salesmen(s, p, n, where):
    """Salesmen in showrooms and on sales tracks within each supply; sales tracks and
    filled boxes used only during P5, and in agreement there."""
    phase = s[st.PHASE]
    selling = phase in (st.PH_SALE_MOVE, st.PH_SALE_CAR)
    limit = p[st.P_SALESMEN]
    if (any_outside(s, st.SHOW, n * st.NUM_SEGMENTS, 0, limit, where)
            or any_outside(s, st.SHOW + n * st.NUM_SEGMENTS, (st.MAX_PLAYERS - n) * st.NUM_SEGMENTS,
                           0, 0, where)
            or any_outside(s, st.USED, n * st.NUM_SEGMENTS, 0, limit if selling else 0, where)
            or any_outside(s, st.USED + n * st.NUM_SEGMENTS, (st.MAX_PLAYERS - n) * st.NUM_SEGMENTS,
                           0, 0, where)):
        return BAD_SALESMEN
    for seat in range(n):
        if salesmen_in_stock(s, p, seat) < 0 and _at(where, st.SHOW + seat * st.NUM_SEGMENTS):
            return BAD_SALESMEN
    for seg in range(st.NUM_SEGMENTS):
        high = box_capacity(p, seg, s[st.TURN]) if selling else 0
        if outside(s, st.BOXES + seg, 0, high, where):
            return BAD_SALESMEN
        used = 0
        for seat in range(n):
            used += s[st.USED + seat * st.NUM_SEGMENTS + seg]
        if used != s[st.BOXES + seg] and _at(where, st.BOXES + seg):
            return BAD_SALESMEN
    return 0


@nb.njit(cache=True)
def _tiles(s, p, n, where):
    """Demand tiles: known values, each kind conserved over the bag, the players' hands
    and the P7 bag tiles; each player holds the tiles of this turn, higher first."""
    kinds = p[st.P_NUM_TILE_KINDS]
    turn = s[st.TURN]
    over = s[st.PHASE] == st.PH_OVER
    max_value = 0
    for k in range(kinds):
        if outside(s, st.BAG + k, 0, p[st.P_TILE_COUNTS + k], where):
            return BAD_TILES
        max_value = max(max_value, p[st.P_TILE_VALUES + k])
    if any_outside(s, st.BAG + kinds, MAX_TILE_KINDS - kinds, 0, 0, where):
        return BAD_TILES
    held = p[st.P_TILES_PER_PLAYER + turn]
    for seat in range(st.MAX_PLAYERS):
        for t in range(2):
            index = st.TILES + seat * 2 + t
            v = s[index]
            if seat >= n or t >= held:
                if outside(s, index, 0, 0, where):
                    return BAD_TILES
            elif (v <= 0 or tile_kind(p, v) < 0) and _at(where, index):
                return BAD_TILES
        if seat < n and held == 2 and s[st.TILES + seat * 2 + 1] > s[st.TILES + seat * 2]:
            _at(where, st.TILES + seat * 2 + 1)
            return BAD_TILES
    for t in range(2):
        index = st.BAG_TILES + t
        drawn = p[(st.P_PREMIUM_BAG if t == 0 else st.P_MASS_BAG) + turn] != 0
        if not (over and drawn):
            if outside(s, index, 0, 0, where):
                return BAD_TILES
        elif tile_kind(p, s[index]) < 0 and _at(where, index):
            return BAD_TILES
    for k in range(kinds):
        value = p[st.P_TILE_VALUES + k]
        count = s[st.BAG + k]
        for j in range(2 * n):
            if s[st.TILES + j] == value:
                count += 1
        for t in range(2):
            if s[st.BAG_TILES + t] == value:
                count += 1
        if count != p[st.P_TILE_COUNTS + k]:
            relation_broken(where)
            return BAD_TILES
    if any_outside(s, st.DEMAND, st.NUM_SEGMENTS, 0, (2 * n + 2) * max_value, where):
        return BAD_TILES
    return 0


@nb.njit(cache=True)
def _executive(s, p, n, where):
    """Ads bought match the ads on the board, each discount stack taken lies on one
    space, one executive closure at most."""
    num_stacks = p[st.P_NUM_STACKS]
    over = s[st.PHASE] == st.PH_OVER
    if (outside(s, st.ADS_BOUGHT, 0, p[st.P_NUM_ADS], where)
            or outside(s, st.CLOSURES_USED, 0, p[st.P_CLOSURES], where)
            or any_outside(s, st.DISC_AVAIL + num_stacks, MAX_STACKS - num_stacks, 0, 0, where)):
        return BAD_EXEC
    for j in range(num_stacks):
        v = s[st.DISC_AVAIL + j]
        if v != 0 and v != p[st.P_STACKS + j] and _at(where, st.DISC_AVAIL + j):
            return BAD_EXEC
    if over:   # P7 took the markers back; the display is restocked only in P9
        return 0
    ads = 0
    for i in range(NUM_SPACES):
        ads += s[st.AD + i]
    if ads != s[st.ADS_BOUGHT] and _at(where, st.ADS_BOUGHT):
        return BAD_EXEC
    for size in range(1, 3):
        placed = 0
        for i in range(NUM_SPACES):
            if s[st.DISC + i] == size:
                placed += 1
        taken = 0
        for j in range(num_stacks):
            if s[st.DISC_AVAIL + j] == 0 and p[st.P_STACKS + j] == size:
                taken += 1
        if placed != taken:
            relation_broken(where)
            return BAD_EXEC
    return 0


@nb.njit(cache=True)
def _orders(s, p, n, where):
    """Selection order, play order and the P6 pass order (with the passed flags)."""
    phase = s[st.PHASE]
    if _permutation_broken(s, st.SEL_ORDER, n, where):
        return BAD_ORDER
    if phase >= st.PH_ACTION or s[st.TURN] > 0:
        if _permutation_broken(s, st.PLAY_ORDER, n, where):
            return BAD_ORDER
    elif any_outside(s, st.PLAY_ORDER, st.MAX_PLAYERS, -1, -1, where):
        return BAD_ORDER
    in_p6 = phase in (st.PH_EXEC, st.PH_EXEC_SPACE)
    if in_p6:
        if outside(s, st.NEXT_LEN, 0, n - 1, where):
            return BAD_ORDER
    elif s[st.NEXT_LEN] != 0 and outside(s, st.NEXT_LEN, n, n, where):
        return BAD_ORDER
    if phase == st.PH_OVER and outside(s, st.NEXT_LEN, n, n, where):
        return BAD_ORDER
    length = s[st.NEXT_LEN]
    if (any_outside(s, st.NEXT_ORDER, length, 0, n - 1, where)
            or any_outside(s, st.NEXT_ORDER + length, st.MAX_PLAYERS - length, -1, -1, where)
            or any_outside(s, st.PASSED, n, 0, 1, where)
            or any_outside(s, st.PASSED + n, st.MAX_PLAYERS - n, 0, 0, where)):
        return BAD_ORDER
    for a in range(length):
        for b in range(a):
            if s[st.NEXT_ORDER + a] == s[st.NEXT_ORDER + b] and _at(where, st.NEXT_ORDER + a):
                return BAD_ORDER
    for seat in range(n):
        listed = 0
        for k in range(length):
            if s[st.NEXT_ORDER + k] == seat:
                listed = 1
        if s[st.PASSED + seat] != listed and _at(where, st.PASSED + seat):
            return BAD_ORDER
    return 0


@nb.njit(cache=True)
def _characters(s, p, n, where):
    """Each character with at most one seat and back; in P2 exactly the seats that have
    chosen hold one, from P3 on every seat does, in character order of play."""
    if (any_outside(s, st.CHAR_OF, n, -1, st.NUM_CHARACTERS - 1, where)
            or any_outside(s, st.CHAR_OF + n, st.MAX_PLAYERS - n, -1, -1, where)
            or any_outside(s, st.CHAR_SEAT, st.NUM_CHARACTERS, -1, n - 1, where)):
        return BAD_SEAT
    for c in range(st.NUM_CHARACTERS):
        seat = s[st.CHAR_SEAT + c]
        if seat >= 0 and s[st.CHAR_OF + seat] != c and _at(where, st.CHAR_SEAT + c):
            return BAD_CHARACTER
    for seat in range(n):
        c = s[st.CHAR_OF + seat]
        if c >= 0 and s[st.CHAR_SEAT + c] != seat and _at(where, st.CHAR_OF + seat):
            return BAD_CHARACTER
    phase = s[st.PHASE]
    if phase <= st.PH_DURANT:
        chosen = s[st.POS] + (1 if phase == st.PH_DURANT else 0)
        for k in range(n):
            seat = s[st.SEL_ORDER + k]
            if (s[st.CHAR_OF + seat] >= 0) != (k < chosen) and _at(where, st.CHAR_OF + seat):
                return BAD_CHARACTER
        return 0
    last = -1
    for k in range(n):
        c = s[st.CHAR_OF + s[st.PLAY_ORDER + k]]
        if c <= last and _at(where, st.PLAY_ORDER + k):
            return BAD_CHARACTER
        last = c
    return 0


@nb.njit(cache=True)
def _decision(s, p, n, where):
    """The seat to move is the one the decision belongs to, and the decision's context
    leaves it a legal answer other than a loan."""
    phase = s[st.PHASE]
    if phase == st.PH_OVER:
        return 0
    seat = s[st.CURRENT]
    if phase <= st.PH_DURANT:
        owner = s[st.SEL_ORDER + s[st.POS]]
    elif phase == st.PH_HOWARD:
        owner = s[st.CHAR_SEAT + HOWARD]
    else:
        owner = s[st.PLAY_ORDER + s[st.POS]]
    if seat != owner and _at(where, st.CURRENT):
        return BAD_DECISION
    mode = s[st.CTX_MODE]
    char = s[st.CHAR_OF + seat]
    ford_free = char == FORD and s[st.FORD_USED] == 0
    ok = True
    if phase == st.PH_SELECT:
        ok = char < 0
    elif phase == st.PH_DURANT:
        ok = char == DURANT and mode == st.BUILD_DURANT
    elif phase in (st.PH_BUILD_SPACE, st.PH_BUILD_WHAT):
        ok = mode < st.BUILD_DURANT and (mode != st.BUILD_FORD or ford_free)
        if ok and phase == st.PH_BUILD_SPACE:
            ok = any_build(s, p, seat, mode)
        elif ok:
            ok = s[st.CTX_SPACE] >= 0 and build_options(s, p, seat, s[st.CTX_SPACE], mode) != 0
    elif phase == st.PH_FORD_AFTER:
        ok = ford_free
    elif phase == st.PH_SALESMEN:
        ok = s[st.CTX_COUNT] < p[st.P_PER_ACTION] and salesmen_in_stock(s, p, seat) > 0
    elif phase == st.PH_PRODUCE:
        ok = s[st.CTX_SPACE] >= 0 and can_produce_at(s, p, seat, s[st.CTX_SPACE])
    elif phase == st.PH_CLOSE:
        ok = any_own_open(s, seat)
    elif phase == st.PH_HOWARD:
        ok = s[st.HOWARD_LEFT] <= s[st.CAR_COUNT + seat] and car_spaces(s, p, seat, -1) > 0
    elif phase == st.PH_SALE_MOVE:
        count, _ = sale_moves(s, p, seat, s[st.TURN])
        ok = count > 0
    elif phase == st.PH_SALE_CAR:
        ok = sale_move_ok(s, p, seat, s[st.CTX_SRC], s[st.CTX_DST], s[st.TURN])
    elif phase in (st.PH_EXEC, st.PH_EXEC_SPACE):
        ok = s[st.PASSED + seat] == 0
        if ok and phase == st.PH_EXEC_SPACE:
            if mode == st.EXEC_CLOSE:
                ok = s[st.CLOSURES_USED] < p[st.P_CLOSURES]
            elif mode == st.EXEC_AD:
                cost = ad_cost(s, p)
                ok = 0 <= cost <= s[st.RD + seat]
            elif mode == st.EXEC_DISC1:
                ok = discount_stack(s, p, 1) >= 0
            elif mode == st.EXEC_DISC2:
                ok = discount_stack(s, p, 2) >= 0
            ok = ok and any_exec_space(s, p, seat, mode)
    if not ok:
        index = st.CURRENT
        if phase in (st.PH_BUILD_SPACE, st.PH_BUILD_WHAT, st.PH_DURANT, st.PH_EXEC_SPACE):
            index = st.CTX_MODE
        if phase in (st.PH_BUILD_WHAT, st.PH_PRODUCE):
            index = st.CTX_SPACE
        _at(where, index)
        return BAD_DECISION
    return 0


@nb.njit(cache=True)
def violation(s, p, where):
    """0 when the kernels may run on ``s``; else a code of ``MESSAGES`` (``where``: the
    offending slot and its allowed range, or -1s for a broken relation). The checks run
    from plain ranges to relations, so each relation reads only checked values."""
    n = p[st.P_NUM_PLAYERS]
    # the first failing check's code (0 when all pass), in the order above
    return (rng_violation(s, where) or _scalars(s, p, n, where) or _resources(s, p, n, where)
            or _spaces(s, p, n, where) or _pieces(s, p, n, where) or _salesmen(s, p, n, where)
            or _tiles(s, p, n, where) or _executive(s, p, n, where) or _orders(s, p, n, where)
            or _characters(s, p, n, where) or _decision(s, p, n, where))
