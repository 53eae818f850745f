"""The Automobile decision procedure: every decision of the game (P2 selection, P3 actions,
builds, production, P4-P5 sales, P6 executive decisions) with every constant read from a
parameter vector (layout in :mod:`transit_gym.agents.tuned.automobile_layout`).

The rule-based agent is this procedure at ``RULE_BASED`` (a constant of the kernels); a
tuned agent is it at its own vector. ``policy(code, p, obs, mask, words)`` is the kernel
for the jitted whole-game loops (``play_games``): code 0 plays uniformly at random, 1 is
the rule-based agent, and code ``TUNED_CODE + k`` plays with the ``k``-th vector appended
to the game parameters ``p`` by :func:`params_with_vectors`. The procedure reads only the
observation and the mask.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.agents.tuned.automobile_layout import (
    BUILD_CASH_BASE,
    BUILD_CASH_PER_TURN,
    BUILD_MAX_FACTORIES,
    BUILD_MIN_FACTORIES,
    CLOSE_MIN_LOSS,
    CLOSE_USE,
    EXEC_AD_MIN_CARS,
    EXEC_AD_MIN_RD,
    EXEC_CLOSE,
    EXEC_CLOSE_MIN_LOSS,
    EXEC_DISC,
    EXEC_DISC_MIN_CARS,
    FORD_BUILD_CASH,
    FORD_USE,
    LOAN_CASH_BELOW,
    LOAN_MAX,
    PRODUCE_FORCE_ROUND,
    PRODUCE_MIN_ROUND,
    QTY_BAG_TILE,
    QTY_BIAS,
    QTY_HOWARD,
    QTY_MASS_LATE,
    QTY_MASS_T2,
    QTY_MIDDLE_LATE,
    QTY_MIDDLE_T1,
    QTY_MIDDLE_T2,
    QTY_OWN_CARS,
    QTY_OWN_TILE,
    QTY_RIVAL_CARS,
    QTY_SALESMAN,
    QTY_SCALE,
    QTY_SKIP,
    QTY_SKIP_EXCESS,
    SALESMEN_PER_TURN,
    SALESMEN_TARGET,
    SEL_HIGH,
    SEL_HOWARD_BONUS,
    SEL_HOWARD_TURN,
    SEL_LOW,
    SEL_LOW_LOSS,
    SEL_RD_WEIGHT,
    SPACE_COST,
    SPACE_EARLY,
    SPACE_INDEX,
    SPACE_LATE,
    SPACE_LATE_TURN,
    SPACE_OWN,
    SPACE_PER_FACTORY,
    SPACE_RD_COST,
    VECTOR_SIZE,
    WHAT_ONE_PARTS_CASH,
    WHAT_PARTS_FIRST,
    rule_based_vector,
)
from transit_gym.agents.tuned.packing import TUNED_CODE, append_vectors, read_vector
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
    WHAT_ONE_PARTS,
    WHAT_PARTS,
    WHAT_TWO,
)
from transit_gym.envs.automobile.data import HOWARD, MASS, MAX_CARS, MIDDLE, NUM_SPACES, PREMIUM
from transit_gym.envs.automobile.encode import (
    B_CARS,
    B_CASH,
    B_CHAR,
    B_FACTORIES,
    B_LOANS,
    B_LOSS,
    B_PRESENT,
    B_RD,
    B_SHOW,
    B_STOCK,
    CASH_SCALE,
    CUBE_SCALE,
    O_CHAR_RD,
    O_CTX_MODE,
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
    S_DISC,
    S_FACTORIES,
    S_NEW,
    S_OWNER,
    S_RD_COST,
    S_SEG,
    SPACE_BLOCK,
)
from transit_gym.envs.automobile.state import (
    EXEC_CLOSE as KIND_CLOSE,
)
from transit_gym.envs.automobile.state import (
    NUM_PHASES,
    PH_ACTION,
    PH_BUILD_SPACE,
    PH_BUILD_WHAT,
    PH_CLOSE,
    PH_DURANT,
    PH_EXEC,
    PH_EXEC_SPACE,
    PH_FORD_AFTER,
    PH_HOWARD,
    PH_PRODUCE,
    PH_SALE_MOVE,
    PH_SALESMEN,
    PH_SELECT,
)
from transit_gym.envs.core.draw import uniform_legal

#: the rule-based agent's vector, frozen into the kernels that read it
RULE_BASED = rule_based_vector()
#: what ``best_space`` ranks the legal spaces by
BY_SCORE, BY_SEGMENT, BY_CARS = 0, 1, 2


def params_with_vectors(params: np.ndarray, vectors: list[np.ndarray]) -> np.ndarray:
    """The game parameters followed by ``vectors``: what ``policy`` reads for codes >=
    ``TUNED_CODE`` (:func:`~transit_gym.agents.tuned.packing.append_vectors`)."""
    return append_vectors(params, vectors, VECTOR_SIZE)


# ----- observation helpers --------------------------------------------------------------------
@nb.njit(cache=True)
def argmax_slice(obs, start, n):
    """Index of the largest of ``obs[start:start + n]`` (the first of a tie)."""
    best = 0
    for i in range(1, n):
        if obs[start + i] > obs[start + best]:
            best = i
    return best


@nb.njit(cache=True)
def segment(obs, space):
    return argmax_slice(obs, O_SPACES + space * SPACE_BLOCK + S_SEG, 3)


@nb.njit(cache=True)
def _space_obs(obs, space, slot):
    return obs[O_SPACES + space * SPACE_BLOCK + slot]


@nb.njit(cache=True)
def _mine(obs, space):
    return _space_obs(obs, space, S_OWNER) > 0.0


@nb.njit(cache=True)
def _salesmen(obs):
    me = O_PLAYERS
    return obs[me + B_SHOW] + obs[me + B_SHOW + 1] + obs[me + B_SHOW + 2]


# ----- P2 -----------------------------------------------------------------------------------
@nb.njit(cache=True)
def _select(v, obs, mask, turn):
    """The legal character with the highest score (few or many loss cubes, Howard's bonus
    once cars are expected, the R&D on the tile); -1 when none is legal."""
    me = O_PLAYERS
    loss = obs[me + B_LOSS] * CUBE_SCALE
    base = SEL_LOW if loss < v[SEL_LOW_LOSS] else SEL_HIGH
    howard = obs[me + B_FACTORIES] > 0.0 and turn >= v[SEL_HOWARD_TURN]
    best = -1
    best_score = 0.0
    for c in range(6):
        if mask[A_SELECT + c]:
            score = v[base + c] + v[SEL_RD_WEIGHT] * obs[O_CHAR_RD + c]
            if howard and c == HOWARD:
                score += v[SEL_HOWARD_BONUS]
            if best < 0 or score > best_score:
                best = c
                best_score = score
    return -1 if best < 0 else A_SELECT + best


# ----- building ---------------------------------------------------------------------------
@nb.njit(cache=True)
def _space_score(v, obs, space, turn):
    """Preference for building on ``space``: its segment this turn, far ahead, cheap in R&D,
    an own space with few factories, a cheap factory."""
    seg = segment(obs, space)
    score = v[SPACE_INDEX] * float(space)
    score += v[(SPACE_LATE if turn >= v[SPACE_LATE_TURN] else SPACE_EARLY) + seg]
    if _space_obs(obs, space, S_NEW) > 0.0:
        score -= v[SPACE_RD_COST] * _space_obs(obs, space, S_RD_COST) * CUBE_SCALE
    else:
        score += v[SPACE_OWN] - v[SPACE_PER_FACTORY] * _space_obs(obs, space, S_FACTORIES) * 3.0
    score -= _space_obs(obs, space, S_COST) * v[SPACE_COST]
    return score


@nb.njit(cache=True)
def best_space(v, obs, mask, turn, by):
    """The legal space ranked highest by ``by`` (the first of a tie), or -1: by the build
    preference, by segment (dearer higher) or by the cars on it."""
    best = -1
    best_key = -1.0e9
    for i in range(NUM_SPACES):
        if mask[A_SPACE + i]:
            if by == BY_SCORE:
                key = _space_score(v, obs, i, turn)
            elif by == BY_SEGMENT:
                key = float(segment(obs, i))
            else:
                key = float(_space_obs(obs, i, S_CARS))
            if key > best_key:
                best_key = key
                best = i
    return best


@nb.njit(cache=True)
def _ford_build(v, obs, mask):
    """Take Ford's extra build (gate on, legal, enough cash)."""
    return (v[FORD_USE] > 0.0 and mask[A_FORD]
            and obs[O_PLAYERS + B_CASH] * CASH_SCALE >= v[FORD_BUILD_CASH])


@nb.njit(cache=True)
def _action(v, obs, mask, turn):
    me = O_PLAYERS
    rnd = argmax_slice(obs, O_ROUND, 3)
    cash = obs[me + B_CASH] * CASH_SCALE
    factories = obs[me + B_FACTORIES]
    cars = obs[me + B_CARS] * CUBE_SCALE
    if mask[A_LOAN] and obs[me + B_LOANS] < v[LOAN_MAX] and cash < v[LOAN_CASH_BELOW]:
        return A_LOAN
    if _ford_build(v, obs, mask):
        return A_FORD
    if (v[CLOSE_USE] > 0.0 and mask[A_CLOSE]
            and obs[me + B_LOSS] * CUBE_SCALE >= v[CLOSE_MIN_LOSS]):
        return A_CLOSE
    if rnd >= v[PRODUCE_FORCE_ROUND] and cars == 0.0 and mask[A_PRODUCE]:
        return A_PRODUCE
    if mask[A_BUILD] and (factories < v[BUILD_MIN_FACTORIES] or (
            factories < v[BUILD_MAX_FACTORIES]
            and cash > v[BUILD_CASH_BASE] + v[BUILD_CASH_PER_TURN] * turn)):
        return A_BUILD
    target = v[SALESMEN_TARGET] + v[SALESMEN_PER_TURN] * turn
    if mask[A_SALESMEN] and _salesmen(obs) < target and obs[me + B_STOCK] > 0.0:
        return A_SALESMEN
    if rnd >= v[PRODUCE_MIN_ROUND] and cars == 0.0 and mask[A_PRODUCE]:
        return A_PRODUCE
    return A_RD


@nb.njit(cache=True)
def _what(v, obs, mask):
    cash = obs[O_PLAYERS + B_CASH] * CASH_SCALE
    parts = mask[A_WHAT + WHAT_ONE_PARTS] and cash > v[WHAT_ONE_PARTS_CASH]
    if v[WHAT_PARTS_FIRST] > 0.0 and cash > v[WHAT_ONE_PARTS_CASH]:
        for what in (WHAT_ONE_PARTS, WHAT_PARTS):
            if mask[A_WHAT + what]:
                return A_WHAT + what
    if mask[A_WHAT + WHAT_TWO]:
        return A_WHAT + WHAT_TWO
    if parts:
        return A_WHAT + WHAT_ONE_PARTS
    if mask[A_WHAT + WHAT_ONE]:
        return A_WHAT + WHAT_ONE
    if mask[A_WHAT + WHAT_PARTS]:
        return A_WHAT + WHAT_PARTS
    return -1


# ----- production -------------------------------------------------------------------------
@nb.njit(cache=True)
def _demand(v, obs, seg, turn, opponents):
    """Expected demand of segment ``seg`` this turn, one's own tiles known (RB P7)."""
    own = v[QTY_OWN_TILE]
    if seg == MIDDLE:
        if turn == 0:
            return obs[O_TILES] * own + opponents * v[QTY_MIDDLE_T1]
        if turn == 1:
            return obs[O_TILES] * own + opponents * v[QTY_MIDDLE_T2]
        return obs[O_TILES + 1] * own + opponents * v[QTY_MIDDLE_LATE]
    if seg == MASS:
        if turn == 1:
            return obs[O_TILES + 1] * own + opponents * v[QTY_MASS_T2]
        if turn >= 2:
            return (obs[O_TILES] * own + opponents * v[QTY_MASS_LATE]
                    + (v[QTY_BAG_TILE] if turn == 3 else 0.0))
        return 0.0
    return v[QTY_BAG_TILE] if turn >= 2 else 0.0


@nb.njit(cache=True)
def _quantity(v, obs, mask, turn):
    """Cars to produce on the space being asked about: one's share of the expected demand
    plus what the salesmen and Howard can take."""
    seg = segment(obs, argmax_slice(obs, O_CTX_SPACE, NUM_SPACES))
    opponents = 0.0
    for k in range(1, 5):
        opponents += obs[O_PLAYERS + k * PLAYER_BLOCK + B_PRESENT]
    own_cars = 0.0
    rival_cars = 0.0
    for i in range(NUM_SPACES):
        if segment(obs, i) == seg:
            if _mine(obs, i):
                own_cars += _space_obs(obs, i, S_CARS) * CUBE_SCALE
            else:
                rival_cars += _space_obs(obs, i, S_CARS) * CUBE_SCALE
    demand = _demand(v, obs, seg, turn, opponents) - v[QTY_RIVAL_CARS] * rival_cars
    share = demand / (1.0 + opponents) * v[QTY_SCALE]
    extra = -v[QTY_OWN_CARS] * own_cars
    if seg != PREMIUM:
        extra += v[QTY_SALESMAN] * _salesmen(obs)
    if obs[O_PLAYERS + B_CHAR + HOWARD] > 0.0:
        extra += v[QTY_HOWARD]
    target = int(share + extra + v[QTY_BIAS])
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
    if v[QTY_SKIP] > 0.0 and mask[A_QTY] and best - target > v[QTY_SKIP_EXCESS]:
        return A_QTY
    return A_QTY + best


# ----- sales and executive decisions ------------------------------------------------------
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
def _own_space_with(obs, min_cars, premium_ok):
    """Whether an own space holds at least ``min_cars`` cars (without a discount and not
    premium unless ``premium_ok``)."""
    for i in range(NUM_SPACES):
        if not _mine(obs, i) or _space_obs(obs, i, S_CARS) * CUBE_SCALE < min_cars:
            continue
        if premium_ok or (segment(obs, i) != PREMIUM and _space_obs(obs, i, S_DISC) == 0.0):
            return True
    return False


@nb.njit(cache=True)
def _exec(v, obs, mask):
    """P6: close with many loss cubes, an ad on a full space, a discount, else pass."""
    me = O_PLAYERS
    if (v[EXEC_CLOSE] > 0.0 and mask[A_EXEC_CLOSE]
            and obs[me + B_LOSS] * CUBE_SCALE >= v[EXEC_CLOSE_MIN_LOSS]):
        return A_EXEC_CLOSE
    if (mask[A_EXEC_AD] and obs[me + B_RD] * CUBE_SCALE >= v[EXEC_AD_MIN_RD]
            and _own_space_with(obs, v[EXEC_AD_MIN_CARS], True)):
        return A_EXEC_AD
    if v[EXEC_DISC] > 0.0 and _own_space_with(obs, v[EXEC_DISC_MIN_CARS], False):
        for size in range(1, -1, -1):
            if mask[A_EXEC_DISC + size]:
                return A_EXEC_DISC + size
    return A_PASS


@nb.njit(cache=True)
def _first_space(mask):
    """The least advanced legal space (a closure: it takes the most loss cubes, RB P8)."""
    for i in range(NUM_SPACES):
        if mask[A_SPACE + i]:
            return A_SPACE + i
    return -1


@nb.njit(cache=True)
def _exec_space(v, obs, mask, turn):
    """A closure on the least advanced legal space, an ad or a discount on the space with
    the most cars."""
    if obs[O_CTX_MODE + KIND_CLOSE] > 0.0:
        return _first_space(mask)
    return A_SPACE + best_space(v, obs, mask, turn, BY_CARS)


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
def decide(v, p, obs, mask):
    """The action of the procedure at vector ``v`` (reads the observation and the mask)."""
    decision = argmax_slice(obs, O_DECISION, NUM_PHASES)
    turn = argmax_slice(obs, O_TURN, 4)
    if decision == PH_SELECT:
        return _select(v, obs, mask, turn)
    if decision == PH_DURANT:
        if mask[A_DONE]:
            return A_DONE
        return A_SPACE + best_space(v, obs, mask, turn, BY_SCORE)
    if decision == PH_ACTION:
        return _action(v, obs, mask, turn)
    if decision == PH_BUILD_SPACE:
        return A_SPACE + best_space(v, obs, mask, turn, BY_SCORE)
    if decision == PH_BUILD_WHAT:
        return _what(v, obs, mask)
    if decision == PH_FORD_AFTER and _ford_build(v, obs, mask):
        return A_FORD
    if decision == PH_SALESMEN:
        target = v[SALESMEN_TARGET] + v[SALESMEN_PER_TURN] * turn
        if mask[A_DONE] and _salesmen(obs) >= target:
            return A_DONE
        return A_SHOWROOM + MIDDLE
    if decision == PH_PRODUCE:
        return _quantity(v, obs, mask, turn)
    if decision == PH_HOWARD:
        return A_SPACE + best_space(v, obs, mask, turn, BY_SEGMENT)
    if decision == PH_SALE_MOVE:
        return _sale_move(mask)
    if decision == PH_EXEC:
        return _exec(v, obs, mask)
    if decision == PH_EXEC_SPACE:
        return _exec_space(v, obs, mask, turn)
    if decision == PH_CLOSE:
        return _first_space(mask)
    if mask[A_DONE]:
        return A_DONE
    return _first_legal(mask, A_LOAN)


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Agent ``code``: 0 uniformly random, 1 rule-based, ``TUNED_CODE + k`` the procedure at
    the ``k``-th vector appended to ``p``."""
    if code >= TUNED_CODE:
        return decide(read_vector(p, code - TUNED_CODE), p, obs, mask)
    if code == 1:
        return decide(RULE_BASED, p, obs, mask)
    return uniform_legal(words, mask)
