"""Built-in Automobile agents as one jitted kernel (code 0 random, 1 rule-based).

The rule-based agent reads only its observation and mask. It never borrows and
never closes. Each turn it builds on the most advanced space it can reach in the
segment with demand (middle class, mass market from turn 3), adds factories there,
keeps two salesmen in the middle-class showroom, produces on its last action about
what its salesmen, Howard and its share of the demand can absorb (its own demand
tiles tell it part of the demand), sells the dearest cars first and passes in P6
unless an advertisement fits a space with many cars.
"""

from __future__ import annotations

import numba as nb

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.envs.automobile.actions import (
    A_BUILD,
    A_DONE,
    A_EXEC_AD,
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
    WHAT_ONE_PARTS,
    WHAT_PARTS,
    WHAT_TWO,
)
from transit_gym.envs.automobile.data import (
    CHRYSLER,
    DURANT,
    FORD,
    HOWARD,
    KETTERING,
    MASS,
    MAX_CARS,
    MIDDLE,
    NUM_SPACES,
    PREMIUM,
    SLOAN,
)
from transit_gym.envs.automobile.encode import (
    B_CARS,
    B_CASH,
    B_CHAR,
    B_FACTORIES,
    B_LOSS,
    B_PRESENT,
    B_RD,
    B_SHOW,
    B_STOCK,
    CASH_SCALE,
    CUBE_SCALE,
    O_CTX_SPACE,
    O_DECISION,
    O_PLAYERS,
    O_ROUND,
    O_SPACES,
    O_TILES,
    O_TURN,
    PLAYER_BLOCK,
    S_CARS,
    S_COST,
    S_FACTORIES,
    S_NEW,
    S_OWNER,
    S_RD_COST,
    S_SEG,
    SPACE_BLOCK,
)
from transit_gym.envs.automobile.state import (
    NUM_PHASES,
    PH_ACTION,
    PH_BUILD_SPACE,
    PH_BUILD_WHAT,
    PH_DURANT,
    PH_EXEC,
    PH_EXEC_SPACE,
    PH_HOWARD,
    PH_PRODUCE,
    PH_SALE_MOVE,
    PH_SALESMEN,
    PH_SELECT,
)
from transit_gym.envs.core.draw import uniform_legal

TARGET_SALESMEN = 2
#: what ``_best_space`` ranks the legal spaces by
BY_SCORE, BY_SEGMENT, BY_CARS = 0, 1, 2


@nb.njit(cache=True)
def _argmax(obs, start, n):
    best = 0
    for i in range(1, n):
        if obs[start + i] > obs[start + best]:
            best = i
    return best


@nb.njit(cache=True)
def _segment(obs, space):
    return _argmax(obs, O_SPACES + space * SPACE_BLOCK + S_SEG, 3)


@nb.njit(cache=True)
def _mine(obs, space):
    return obs[O_SPACES + space * SPACE_BLOCK + S_OWNER] > 0.0


@nb.njit(cache=True)
def _wanted_segment(turn):
    """Middle class has demand every turn; mass market gets the higher tiles from turn 3."""
    return MIDDLE if turn < 2 else MASS


@nb.njit(cache=True)
def _select(obs, mask, turn):
    me = O_PLAYERS
    loss = obs[me + B_LOSS] * CUBE_SCALE
    cars_expected = obs[me + B_FACTORIES] > 0.0
    prefs = (SLOAN, CHRYSLER, KETTERING, HOWARD, FORD, DURANT)
    if loss < 4.0:
        prefs = (KETTERING, CHRYSLER, SLOAN, HOWARD, FORD, DURANT)
    if cars_expected and turn >= 1:
        prefs = (HOWARD, prefs[0], prefs[1], prefs[2], FORD, DURANT)
    for c in prefs:
        if mask[A_SELECT + c]:
            return A_SELECT + c
    for c in range(6):
        if mask[A_SELECT + c]:
            return A_SELECT + c
    return -1


@nb.njit(cache=True)
def _space_score(obs, space, turn):
    """Preference for building on ``space``: the wanted segment, far ahead, cheap in R&D."""
    b = O_SPACES + space * SPACE_BLOCK
    seg = _segment(obs, space)
    score = float(space)
    if seg == _wanted_segment(turn):
        score += 40.0
    elif seg == MIDDLE:
        score += 25.0
    elif seg == PREMIUM:
        score -= 30.0
    if obs[b + S_NEW] > 0.0:
        score -= 6.0 * obs[b + S_RD_COST] * CUBE_SCALE
    else:
        score += 30.0 - 10.0 * obs[b + S_FACTORIES] * 3.0
    score -= obs[b + S_COST] * 10.0
    return score


@nb.njit(cache=True)
def _best_space(obs, mask, turn, by):
    """The legal space ranked highest by ``by`` (the first of a tie), or -1: by the build
    preference, by segment (dearer higher) or by the cars on it."""
    best = -1
    best_key = -1.0e9
    for i in range(NUM_SPACES):
        if mask[A_SPACE + i]:
            if by == BY_SCORE:
                key = _space_score(obs, i, turn)
            elif by == BY_SEGMENT:
                key = float(_segment(obs, i))
            else:
                key = float(obs[O_SPACES + i * SPACE_BLOCK + S_CARS])
            if key > best_key:
                best_key = key
                best = i
    return best


@nb.njit(cache=True)
def _action(obs, mask, turn):
    me = O_PLAYERS
    rnd = _argmax(obs, O_ROUND, 3)
    cash = obs[me + B_CASH] * CASH_SCALE
    factories = obs[me + B_FACTORIES]
    cars = obs[me + B_CARS] * CUBE_SCALE
    salesmen = obs[me + B_SHOW] + obs[me + B_SHOW + 1] + obs[me + B_SHOW + 2]
    if rnd == 2 and cars == 0.0 and mask[A_PRODUCE]:
        return A_PRODUCE
    if mask[A_BUILD] and (factories < 2.0 or (factories < 5.0 and cash > 1200.0 + 300.0 * turn)):
        return A_BUILD
    if mask[A_SALESMEN] and salesmen < TARGET_SALESMEN and obs[me + B_STOCK] > 0.0:
        return A_SALESMEN
    if rnd >= 1 and cars == 0.0 and mask[A_PRODUCE]:
        return A_PRODUCE
    return A_RD


@nb.njit(cache=True)
def _what(obs, mask):
    cash = obs[O_PLAYERS + B_CASH] * CASH_SCALE
    if mask[A_WHAT + WHAT_TWO]:
        return A_WHAT + WHAT_TWO
    if mask[A_WHAT + WHAT_ONE_PARTS] and cash > 1500.0:
        return A_WHAT + WHAT_ONE_PARTS
    if mask[A_WHAT + WHAT_ONE]:
        return A_WHAT + WHAT_ONE
    if mask[A_WHAT + WHAT_PARTS]:
        return A_WHAT + WHAT_PARTS
    return -1


@nb.njit(cache=True)
def _quantity(obs, mask, turn):
    """Cars to produce on the space being asked about."""
    space = _argmax(obs, O_CTX_SPACE, NUM_SPACES)
    seg = _segment(obs, space)
    me = O_PLAYERS
    salesmen = obs[me + B_SHOW] + obs[me + B_SHOW + 1] + obs[me + B_SHOW + 2]
    opponents = 0.0
    for k in range(1, 5):
        opponents += obs[O_PLAYERS + k * PLAYER_BLOCK + B_PRESENT]
    own = 0.0
    for t in range(2):
        own += obs[O_TILES + t] * 5.0
    # expected demand per segment this turn, with one's own tiles known
    per_tile = 3.5
    demand = 0.0
    if seg == MIDDLE:
        if turn == 0:
            demand = obs[O_TILES] * 5.0 + opponents * per_tile
        elif turn == 1:
            demand = obs[O_TILES] * 5.0 + opponents * 4.2
        else:
            demand = obs[O_TILES + 1] * 5.0 + opponents * 2.8
    elif seg == MASS:
        if turn == 1:
            demand = obs[O_TILES + 1] * 5.0 + opponents * 2.8
        elif turn >= 2:
            demand = obs[O_TILES] * 5.0 + opponents * 4.2 + (per_tile if turn == 3 else 0.0)
    else:
        demand = per_tile if turn >= 2 else 0.0
    share = demand / (1.0 + opponents)
    extra = 0.0
    if seg != PREMIUM:
        extra += salesmen
    if obs[me + B_CHAR + HOWARD] > 0.0:
        extra += 2.0
    target = int(share + extra + 0.5)
    best = -1
    best_gap = 1 << 30
    for n in range(1, MAX_CARS + 1):
        if mask[A_QTY + n]:
            gap = abs(n - target)
            if gap < best_gap:
                best_gap = gap
                best = n
    if best < 0 or (target <= 0 and mask[A_QTY]):
        return A_QTY
    return A_QTY + best


@nb.njit(cache=True)
def _sale_move(mask):
    """Dearest track first (premium > middle > mass), a salesman from that showroom first."""
    for dst in range(2, -1, -1):
        if mask[A_MOVE + dst * 3 + dst]:
            return A_MOVE + dst * 3 + dst
        for src in range(3):
            if mask[A_MOVE + src * 3 + dst]:
                return A_MOVE + src * 3 + dst
    return -1


@nb.njit(cache=True)
def _exec(obs, mask):
    if mask[A_EXEC_AD] and obs[O_PLAYERS + B_RD] * CUBE_SCALE >= 3.0:
        for i in range(NUM_SPACES):
            if _mine(obs, i) and obs[O_SPACES + i * SPACE_BLOCK + S_CARS] * CUBE_SCALE >= 4.0:
                return A_EXEC_AD
    return A_PASS


@nb.njit(cache=True)
def _first_legal(mask, avoid):
    for a in range(mask.shape[0]):
        if mask[a] and a != avoid:
            return a
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1


@nb.njit(cache=True)
def rule_based(p, obs, mask):
    decision = _argmax(obs, O_DECISION, NUM_PHASES)
    turn = _argmax(obs, O_TURN, 4)
    if decision == PH_SELECT:
        return _select(obs, mask, turn)
    if decision == PH_DURANT:
        if mask[A_DONE]:
            return A_DONE
        return A_SPACE + _best_space(obs, mask, turn, BY_SCORE)
    if decision == PH_ACTION:
        return _action(obs, mask, turn)
    if decision == PH_BUILD_SPACE:
        return A_SPACE + _best_space(obs, mask, turn, BY_SCORE)
    if decision == PH_BUILD_WHAT:
        return _what(obs, mask)
    if decision == PH_SALESMEN:
        salesmen = obs[O_PLAYERS + B_SHOW] + obs[O_PLAYERS + B_SHOW + 1]
        salesmen += obs[O_PLAYERS + B_SHOW + 2]
        if mask[A_DONE] and salesmen >= TARGET_SALESMEN:
            return A_DONE
        return A_SHOWROOM + MIDDLE
    if decision == PH_PRODUCE:
        return _quantity(obs, mask, turn)
    if decision == PH_HOWARD:
        return A_SPACE + _best_space(obs, mask, turn, BY_SEGMENT)
    if decision == PH_SALE_MOVE:
        return _sale_move(mask)
    if decision == PH_EXEC:
        return _exec(obs, mask)
    if decision == PH_EXEC_SPACE:
        return A_SPACE + _best_space(obs, mask, turn, BY_CARS)
    if mask[A_DONE]:
        return A_DONE
    return _first_legal(mask, A_LOAN)


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Built-in agent ``code``: 0 uniformly random, 1 rule-based."""
    if code == 1:
        return rule_based(p, obs, mask)
    return uniform_legal(words, mask)
