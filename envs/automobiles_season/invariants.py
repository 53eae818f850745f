"""Which Racing Season states the kernels may run on: ``violation(s, p, where)``.

The season fields are checked first (they choose the race parameter block), then the
race fields with the race's own check on the current race's block. The race's codes
(``invariants.MESSAGES``) keep their meaning; the season's start at 40.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles.cubes import pile
from transit_gym.envs.automobiles.data import NUM_COLOURS
from transit_gym.envs.automobiles.invariants import MESSAGES as RACE_MESSAGES
from transit_gym.envs.automobiles.invariants import violation as race_violation
from transit_gym.envs.automobiles.state import ACTIVE, DISCARD, PH_OVER, PHASE, USED
from transit_gym.envs.automobiles_season.data import MAX_RACES, MAX_SPONSORS
from transit_gym.envs.automobiles_season.state import (
    AWARD_K,
    DECK,
    DECK_TOP,
    EFF_EXTRA,
    EFF_LEFT,
    EFF_MONEY,
    EFF_NONWEAR,
    EFF_PLACE,
    FINISH,
    MARKET,
    MP,
    NEWS,
    OWNED,
    PLACES,
    PLAYER_OF,
    POINTS,
    Q_NUM_PLAYERS,
    Q_NUM_RACES,
    Q_NUM_SPONSORS,
    Q_POOL,
    Q_SPONSORS,
    RACE_NO,
    S_DROP,
    S_OVER,
    S_PICK,
    S_RACE,
    S_STANDARD,
    SEASON_PHASE,
    SP_LOG,
    TRACK_ORDER,
    race_params,
)
from transit_gym.envs.core.validate import MAX_COUNTER, any_outside, outside, relation_broken

#: the season's own codes, above every code of the race's check
SEASON_MESSAGES = {
    40: "the race number, season phase, track order or news bits are out of range",
    41: "the race's phase disagrees with the season phase (or cubes are off the bags "
        "between races)",
    42: "player_of / finish is not an ordering of the players",
    43: "points, places or the award position are out of range",
    44: "the sponsor deck is not an ordering of the sponsors",
    45: "a sponsor is available or owned twice, unrevealed, or the module is off",
    46: "a sponsor-effect field is out of range, or a sponsor is kept (then one removed "
        "from the market) or takes effect for a player who owns none",
}
assert not set(SEASON_MESSAGES) & set(RACE_MESSAGES), "season and race codes overlap"
MESSAGES = {**RACE_MESSAGES, **SEASON_MESSAGES}


@nb.njit(cache=True)
def _is_order(s, start, n, where):
    """``s[start:start + n]`` is an ordering of 0..n-1."""
    seen = np.zeros(MAX_SPONSORS + MP, dtype=np.int64)
    for i in range(n):
        if outside(s, start + i, 0, n - 1, where):
            return False
        if seen[s[start + i]] != 0:
            where[0] = start + i
            where[1] = -1
            where[2] = -1
            return False
        seen[s[start + i]] = 1
    return True


@nb.njit(cache=True)
def _season(s, p, where):
    n = p[Q_NUM_PLAYERS]
    races = p[Q_NUM_RACES]
    if (outside(s, RACE_NO, 0, races - 1, where)
            or outside(s, SEASON_PHASE, 0, S_OVER, where)
            or any_outside(s, TRACK_ORDER, races, 0, p[Q_POOL] - 1, where)
            or any_outside(s, TRACK_ORDER + races, MAX_RACES - races, 0, 0, where)
            or outside(s, NEWS, 0, 3, where)):
        return 40
    if not (_is_order(s, PLAYER_OF, n, where) and _is_order(s, FINISH, n, where)
            and not any_outside(s, PLAYER_OF + n, MP - n, 0, 0, where)
            and not any_outside(s, FINISH + n, MP - n, 0, 0, where)):
        return 42
    phase = s[SEASON_PHASE]
    awarding = S_PICK <= phase < S_OVER
    if (any_outside(s, POINTS, MP, 0, MAX_COUNTER, where)
            or any_outside(s, PLACES, MAX_RACES * MP, 0, n, where)
            or outside(s, AWARD_K, 0, n - 1 if awarding else n, where)):
        return 43
    ns = p[Q_NUM_SPONSORS]
    if not _is_order(s, DECK, ns, where):
        return 44
    for i in range(ns, MAX_SPONSORS):
        if outside(s, DECK + i, i, i, where):
            return 44
    if outside(s, DECK_TOP, 0, ns if p[Q_SPONSORS] != 0 else 0, where):
        return 45
    held = np.zeros(MAX_SPONSORS, dtype=np.int64)
    for base in (MARKET, OWNED):
        for i in range(MP):
            v = s[base + i]
            if i >= n or p[Q_SPONSORS] == 0:
                if outside(s, base + i, -1, -1, where):
                    return 45
                continue
            if outside(s, base + i, -1, ns - 1, where):
                return 45
            if v < 0:
                continue
            revealed = False
            for k in range(s[DECK_TOP]):
                if s[DECK + k] == v:
                    revealed = True
            if held[v] != 0 or not revealed:
                where[0] = base + i
                where[1] = -1
                where[2] = -1
                return 45
            held[v] = 1
    if (outside(s, EFF_PLACE, 0, 2, where) or outside(s, EFF_LEFT, 0, MAX_COUNTER, where)
            or outside(s, EFF_NONWEAR, 0, MAX_COUNTER, where)
            or outside(s, EFF_EXTRA, 0, MAX_COUNTER, where)
            or outside(s, EFF_MONEY, 0, MAX_COUNTER, where)
            or any_outside(s, SP_LOG, MAX_RACES * MP * 4, 0, MAX_COUNTER, where)):
        return 46
    # keeping the sponsor (then removing one from the market) and its effect's steps
    # need a sponsor owned by the player being awarded
    if ((phase == S_DROP or S_STANDARD <= phase < S_OVER)
            and s[OWNED + s[FINISH + s[AWARD_K]]] < 0):
        where[0] = OWNED + s[FINISH + s[AWARD_K]]
        where[1] = 0
        where[2] = ns - 1
        return 46
    return 0


@nb.njit(cache=True)
def violation(s, p, where):
    """0 when the season kernels may run on ``s``; else a code of ``MESSAGES``."""
    code = _season(s, p, where)
    if code:
        return code
    code = race_violation(s, race_params(s, p), where)
    if code:
        return code
    over = s[PHASE] == PH_OVER
    if over != (s[SEASON_PHASE] != S_RACE):
        where[0] = SEASON_PHASE
        where[1] = -1
        where[2] = -1
        return 41
    if over:
        for seat in range(p[Q_NUM_PLAYERS]):
            for base in (ACTIVE, USED, DISCARD):
                for c in range(NUM_COLOURS):
                    if s[pile(seat, base) + c] != 0:
                        relation_broken(where)
                        return 41
    return 0
