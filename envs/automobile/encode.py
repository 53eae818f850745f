"""What one seat sees of Automobile, and actions in words.

A seat sees its own demand tiles only; of the others it sees how many tiles they
hold. Everything else is public on the table: money (paper money lies open),
R&D and loss cubes, loans, characters, factories, cars, salesmen, markers, the
demand revealed in the last P7. The order of the bag is hidden. Seats are listed
from the observer (block 0) clockwise; space owners are encoded the same way.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobile.data import FORD, MASS, MAX_STACK, NUM_SPACES, NUM_TURNS, PREMIUM
from transit_gym.envs.automobile.economy import is_new_space, rd_ahead_cost
from transit_gym.envs.automobile.kernels import ad_cost, discount_stack, salesmen_in_stock
from transit_gym.envs.automobile.market import box_capacity, loss_cap
from transit_gym.envs.automobile.state import (
    AD,
    ADS_BOUGHT,
    BOXES,
    CAR_COUNT,
    CARS,
    CASH,
    CHAR_OF,
    CHAR_RD,
    CHAR_SEAT,
    CLOSED,
    CLOSURES_USED,
    CTX_COUNT,
    CTX_DST,
    CTX_MODE,
    CTX_SPACE,
    CURRENT,
    DEMAND,
    DISC,
    FAC_COUNT,
    FACTORIES,
    FORD_USED,
    FRONTIER,
    HOWARD_LEFT,
    LOANS,
    LOSS,
    MAX_PLAYERS,
    NUM_CHARACTERS,
    NUM_PHASES,
    OWNER,
    P_AD_COSTS,
    P_BANK_TOTAL,
    P_BOX_CAP,
    P_CHAR_RD,
    P_CLOSURES,
    P_COST,
    P_HIGHER_SEG,
    P_HOWARD_CARS,
    P_LOANS_MAX,
    P_LOSS_PRICE,
    P_LOWER_SEG,
    P_MASS_BAG,
    P_MAX_CARS,
    P_MAX_FACTORIES,
    P_MAX_PER_SPACE,
    P_NUM_ADS,
    P_NUM_PLAYERS,
    P_NUM_TILE_KINDS,
    P_PARTS_FACTORIES,
    P_PER_ACTION,
    P_PREMIUM_BAG,
    P_RD_CUBES,
    P_SALESMEN,
    P_SEGMENT,
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
    PH_EXEC_SPACE,
    PH_FORD_AFTER,
    PH_OVER,
    PH_PRODUCE,
    PH_SALE_CAR,
    PHASE,
    PLAY_ORDER,
    PRODUCED,
    RD,
    RD_STOCK,
    ROUND,
    SEL_ORDER,
    SHOW,
    TILES,
    TURN,
    USED,
)
from transit_gym.envs.core.layout import Layout

SPACE_BLOCK = 18
PLAYER_BLOCK = 27

OBS = Layout(
    [
        ("decision", NUM_PHASES),        # pending decision of this seat (last: not deciding)
        ("turn", NUM_TURNS),
        ("round", 3),                     # P3 action round (all zero outside P3)
        ("ctx_space", NUM_SPACES),       # space of the pending build / production
        ("ctx_mode", 4),                 # build mode or executive-decision kind
        ("ctx_count", 1),                # salesmen placed in this action
        ("ctx_dst", 3),                  # P5: the chosen sales track
        ("howard_left", 1),
        ("ford_available", 1),           # I hold Ford and his extra build is unused
        ("own_tiles", 2),                # my demand tiles / 5, higher first
        ("spaces", NUM_SPACES * SPACE_BLOCK),
        ("players", MAX_PLAYERS * PLAYER_BLOCK),
        ("character_rd", NUM_CHARACTERS),
        ("character_taken", NUM_CHARACTERS),
        ("executive", 2 + MAX_STACK + 1),  # ads left, next ad cost, stacks of 1 / 2, closure
        ("boxes_filled", 3),
        ("boxes_open", 3),
        ("last_demand", 3),              # demand revealed in the last P7, by segment / 10
        ("tiles_this_turn", 3),          # demand tiles that will be revealed per segment
        ("rd_stock", 1),
        ("frontier", 1),
        ("loss_price", 1),
    ]
)
OBS_SIZE = OBS.size
O_DECISION, O_TURN, O_ROUND, O_CTX_SPACE = OBS.offsets("decision turn round ctx_space")
O_CTX_MODE, O_CTX_COUNT, O_CTX_DST = OBS.offsets("ctx_mode ctx_count ctx_dst")
O_HOWARD_LEFT, O_FORD, O_TILES = OBS.offsets("howard_left ford_available own_tiles")
O_SPACES, O_PLAYERS, O_CHAR_RD = OBS.offsets("spaces players character_rd")
O_CHAR_TAKEN, O_EXEC, O_BOXES_FILLED = OBS.offsets("character_taken executive boxes_filled")
O_BOXES_OPEN, O_LAST_DEMAND, O_TILES_TURN = OBS.offsets("boxes_open last_demand tiles_this_turn")
O_RD_STOCK, O_FRONTIER, O_LOSS_PRICE = OBS.offsets("rd_stock frontier loss_price")

# inside a space block
S_SEG, S_COST, S_RD_COST, S_NEW, S_OWNER = 0, 3, 4, 5, 6        # owner: 5 slots, 0 = me
S_FACTORIES, S_PARTS, S_CLOSED, S_CARS, S_PRODUCED, S_AD, S_DISC = 11, 12, 13, 14, 15, 16, 17
# inside a player block
B_PRESENT, B_TO_MOVE, B_CASH, B_RD, B_LOSS, B_LOANS = 0, 1, 2, 3, 4, 5
B_SHOW, B_USED, B_STOCK, B_FACTORIES, B_PARTS, B_CARS = 6, 9, 12, 13, 14, 15
B_CHAR = 16                    # 7 slots: the six characters, then "none"
B_PLAY_POS, B_PASSED, B_SEL_POS, B_TILES = 23, 24, 25, 26

CASH_SCALE = 1000.0
CUBE_SCALE = 10.0


@nb.njit(cache=True)
def observe(s, p, seat, out):
    """Fill ``out`` with the observation of ``seat`` (layout ``OBS``)."""
    n = p[P_NUM_PLAYERS]
    phase = s[PHASE]
    deciding = phase != PH_OVER and s[CURRENT] == seat
    out[O_DECISION + (phase if deciding else PH_OVER)] = 1.0
    turn = s[TURN]
    out[O_TURN + turn] = 1.0
    if PH_ACTION <= phase <= PH_CLOSE:   # P3 only: after P3 the round counter rests at 3
        out[O_ROUND + s[ROUND]] = 1.0
    if deciding:
        if phase in (PH_BUILD_WHAT, PH_PRODUCE):
            out[O_CTX_SPACE + s[CTX_SPACE]] = 1.0
        if phase in (PH_BUILD_SPACE, PH_BUILD_WHAT, PH_EXEC_SPACE, PH_DURANT):
            out[O_CTX_MODE + s[CTX_MODE]] = 1.0
        out[O_CTX_COUNT] = s[CTX_COUNT]
        if phase == PH_SALE_CAR:
            out[O_CTX_DST + s[CTX_DST]] = 1.0
    out[O_HOWARD_LEFT] = s[HOWARD_LEFT]
    if s[CHAR_OF + seat] == FORD and s[FORD_USED] == 0 and phase <= PH_FORD_AFTER:
        out[O_FORD] = 1.0
    for t in range(2):
        out[O_TILES + t] = s[TILES + seat * 2 + t] / 5.0
    # production spaces
    for i in range(NUM_SPACES):
        b = O_SPACES + i * SPACE_BLOCK
        out[b + S_SEG + p[P_SEGMENT + i]] = 1.0
        out[b + S_COST] = p[P_COST + i] / CASH_SCALE
        new = is_new_space(s, i)
        if new:
            out[b + S_NEW] = 1.0
            out[b + S_RD_COST] = rd_ahead_cost(s, p, i) / CUBE_SCALE
        owner = s[OWNER + i]
        if owner >= 0:
            out[b + S_OWNER + (owner - seat + n) % n] = 1.0
        out[b + S_FACTORIES] = s[FACTORIES + i] / 3.0
        out[b + S_PARTS] = s[PARTS + i]
        out[b + S_CLOSED] = s[CLOSED + i]
        out[b + S_CARS] = s[CARS + i] / CUBE_SCALE
        out[b + S_PRODUCED] = s[PRODUCED + i]
        out[b + S_AD] = s[AD + i]
        out[b + S_DISC] = s[DISC + i] / 2.0
    # players, from the observer clockwise
    for k in range(n):
        other = (seat + k) % n
        b = O_PLAYERS + k * PLAYER_BLOCK
        out[b + B_PRESENT] = 1.0
        out[b + B_TO_MOVE] = 1.0 if (phase != PH_OVER and s[CURRENT] == other) else 0.0
        out[b + B_CASH] = s[CASH + other] / CASH_SCALE
        out[b + B_RD] = s[RD + other] / CUBE_SCALE
        out[b + B_LOSS] = s[LOSS + other] / CUBE_SCALE
        out[b + B_LOANS] = s[LOANS + other]
        for seg in range(3):
            out[b + B_SHOW + seg] = s[SHOW + other * 3 + seg]
            out[b + B_USED + seg] = s[USED + other * 3 + seg]
        out[b + B_STOCK] = salesmen_in_stock(s, p, other)
        out[b + B_FACTORIES] = s[FAC_COUNT + other]
        out[b + B_PARTS] = 1.0 if s[PARTS_AT + other] >= 0 else 0.0
        out[b + B_CARS] = s[CAR_COUNT + other] / CUBE_SCALE
        c = s[CHAR_OF + other]
        out[b + B_CHAR + (c if c >= 0 else NUM_CHARACTERS)] = 1.0
        for j in range(n):
            if s[PLAY_ORDER + j] == other and c >= 0:
                out[b + B_PLAY_POS] = (j + 1) / n
            if s[SEL_ORDER + j] == other:
                out[b + B_SEL_POS] = (j + 1) / n
        out[b + B_PASSED] = s[PASSED + other]
        held = 0
        for t in range(2):
            if s[TILES + other * 2 + t] > 0:
                held += 1
        out[b + B_TILES] = held
    for c in range(NUM_CHARACTERS):
        out[O_CHAR_RD + c] = s[CHAR_RD + c]
        out[O_CHAR_TAKEN + c] = 1.0 if s[CHAR_SEAT + c] >= 0 else 0.0
    out[O_EXEC] = p[P_NUM_ADS] - s[ADS_BOUGHT]
    out[O_EXEC + 1] = max(ad_cost(s, p), 0)
    for size in range(1, MAX_STACK + 1):
        out[O_EXEC + 1 + size] = 1.0 if discount_stack(s, p, size) >= 0 else 0.0
    out[O_EXEC + 2 + MAX_STACK] = 1.0 if s[CLOSURES_USED] < p[P_CLOSURES] else 0.0
    for seg in range(3):
        out[O_BOXES_FILLED + seg] = s[BOXES + seg]
        out[O_BOXES_OPEN + seg] = box_capacity(p, seg, turn)
        out[O_LAST_DEMAND + seg] = s[DEMAND + seg] / CUBE_SCALE
    out[O_TILES_TURN + p[P_HIGHER_SEG + turn]] += n
    if p[P_TILES_PER_PLAYER + turn] == 2:
        out[O_TILES_TURN + p[P_LOWER_SEG + turn]] += n
    out[O_TILES_TURN + PREMIUM] += p[P_PREMIUM_BAG + turn]
    out[O_TILES_TURN + MASS] += p[P_MASS_BAG + turn]
    out[O_RD_STOCK] = s[RD_STOCK] / CUBE_SCALE
    out[O_FRONTIER] = (s[FRONTIER] + 1) / NUM_SPACES
    out[O_LOSS_PRICE] = p[P_LOSS_PRICE + turn] / 100.0


def layout() -> Layout:
    """Named slices of the observation vector."""
    return OBS


def low_high(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """True per-slot bounds of ``observe`` for the parameter vector ``p``: every state that
    play reaches or ``violation`` accepts observes inside them (float32 arrays)."""
    n = int(p[P_NUM_PLAYERS])
    low = np.zeros(OBS_SIZE, dtype=np.float64)
    high = np.zeros(OBS_SIZE, dtype=np.float64)

    def span(offset: int, count: int, lo: float, hi: float) -> None:
        low[offset:offset + count] = lo
        high[offset:offset + count] = hi

    for name in ("decision", "turn", "round", "ctx_space", "ctx_mode", "ctx_dst",
                 "ford_available"):
        span(OBS.offset(name), OBS.length(name), 0.0, 1.0)
    span(O_CTX_COUNT, 1, 0.0, p[P_PER_ACTION])
    span(O_HOWARD_LEFT, 1, 0.0, p[P_HOWARD_CARS])
    kinds = int(p[P_NUM_TILE_KINDS])
    max_tile = float(p[P_TILE_VALUES:P_TILE_VALUES + kinds].max())
    span(O_TILES, 2, 0.0, max_tile / 5.0)
    for i in range(NUM_SPACES):
        b = O_SPACES + i * SPACE_BLOCK
        span(b + S_SEG, 3, 0.0, 1.0)
        span(b + S_COST, 1, p[P_COST + i] / CASH_SCALE, p[P_COST + i] / CASH_SCALE)
        steps = i + 1                     # from no space built, the most to build ahead
        span(b + S_RD_COST, 1, 0.0, steps * (steps + 1) // 2 / CUBE_SCALE)
        span(b + S_OWNER, n, 0.0, 1.0)
        span(b + S_NEW, 1, 0.0, 1.0)
        span(b + S_FACTORIES, 1, 0.0, p[P_MAX_PER_SPACE] / 3.0)
        for slot in (S_PARTS, S_CLOSED, S_PRODUCED, S_AD):
            span(b + slot, 1, 0.0, 1.0)
        span(b + S_CARS, 1, 0.0, p[P_MAX_CARS] / CUBE_SCALE)
        span(b + S_DISC, 1, 0.0, 0.0 if p[P_SEGMENT + i] == PREMIUM else 1.0)
    money = p[P_BANK_TOTAL] / CASH_SCALE   # violation: |cash| <= the bank's total
    for k in range(n):
        b = O_PLAYERS + k * PLAYER_BLOCK
        span(b + B_PRESENT, 1, 1.0, 1.0)
        span(b + B_TO_MOVE, 1, 0.0, 1.0)
        span(b + B_CASH, 1, -money, money)
        span(b + B_RD, 1, 0.0, p[P_RD_CUBES] / CUBE_SCALE)
        span(b + B_LOSS, 1, 0.0, loss_cap(p) / CUBE_SCALE)
        span(b + B_LOANS, 1, 0.0, p[P_LOANS_MAX])
        span(b + B_SHOW, 7, 0.0, p[P_SALESMEN])        # showrooms, tracks, stock
        span(b + B_FACTORIES, 1, 0.0, p[P_MAX_FACTORIES])
        span(b + B_PARTS, 1, 0.0, 1.0 if p[P_PARTS_FACTORIES] > 0 else 0.0)
        span(b + B_CARS, 1, 0.0, p[P_MAX_CARS] / CUBE_SCALE)
        span(b + B_CHAR, NUM_CHARACTERS + 1, 0.0, 1.0)
        span(b + B_PLAY_POS, 3, 0.0, 1.0)               # play position, passed, selection
        span(b + B_TILES, 1, 0.0, 2.0)
    span(O_CHAR_RD, NUM_CHARACTERS, 0.0, 0.0)
    high[O_CHAR_RD:O_CHAR_RD + NUM_CHARACTERS] = p[P_CHAR_RD:P_CHAR_RD + NUM_CHARACTERS]
    span(O_CHAR_TAKEN, NUM_CHARACTERS, 0.0, 1.0)
    ads = int(p[P_NUM_ADS])
    span(O_EXEC, 1, 0.0, ads)
    span(O_EXEC + 1, 1, 0.0, float(p[P_AD_COSTS:P_AD_COSTS + ads].max()) if ads else 0.0)
    span(O_EXEC + 2, MAX_STACK + 1, 0.0, 1.0)
    turns = range(NUM_TURNS)
    for seg in range(3):
        caps = [int(p[P_BOX_CAP + seg * NUM_TURNS + t]) for t in turns]
        span(O_BOXES_FILLED + seg, 1, 0.0, max(caps))
        span(O_BOXES_OPEN + seg, 1, min(caps), max(caps))
        span(O_LAST_DEMAND + seg, 1, 0.0, (2 * n + 2) * max_tile / CUBE_SCALE)
        counts = []
        for t in turns:
            c = n * (p[P_HIGHER_SEG + t] == seg)
            c += n * (p[P_TILES_PER_PLAYER + t] == 2 and p[P_LOWER_SEG + t] == seg)
            c += p[P_PREMIUM_BAG + t] * (seg == PREMIUM) + p[P_MASS_BAG + t] * (seg == MASS)
            counts.append(int(c))
        span(O_TILES_TURN + seg, 1, min(counts), max(counts))
    span(O_RD_STOCK, 1, 0.0, p[P_RD_CUBES] / CUBE_SCALE)
    span(O_FRONTIER, 1, 0.0, 1.0)
    prices = p[P_LOSS_PRICE:P_LOSS_PRICE + NUM_TURNS] / 100.0
    span(O_LOSS_PRICE, 1, prices.min(), prices.max())
    return low.astype(np.float32), high.astype(np.float32)


def one_hot_groups(num_players: int) -> list[slice]:
    """Slices of the observation that are one-hot codes (each sums to at most 1)."""
    groups = [OBS.slice(name) for name in ("decision", "turn", "round", "ctx_space",
                                           "ctx_mode", "ctx_dst")]
    for i in range(NUM_SPACES):
        b = O_SPACES + i * SPACE_BLOCK
        groups += [slice(b + S_SEG, b + S_SEG + 3), slice(b + S_OWNER, b + S_OWNER + 5)]
    for k in range(num_players):
        b = O_PLAYERS + k * PLAYER_BLOCK + B_CHAR
        groups.append(slice(b, b + NUM_CHARACTERS + 1))
    return groups
