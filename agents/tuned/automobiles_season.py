"""The Automobiles Racing Season campaign's decision procedure: races by the race procedure
(:mod:`transit_gym.agents.tuned.automobiles`) with the seat's vector, sponsor decisions
with the constants of the vector's sponsor block (``SPONSOR_PARAMS``): take the sponsor
whose effect for this place is worth most (keep the current one when it is worth at least
as much, then remove the available sponsor worth most to the others); remove wear first,
then the cube least worth keeping while the bag stays big enough; gain and buy the cubes
the race procedure would buy.

The rule-based season agent (:mod:`transit_gym.agents.rule_based.automobiles_season`) is
this procedure at ``RULE_BASED`` (whose sponsor block says: the race's rule-based tables);
version-1 files are migrated to the rule-based sponsor entries. Codes as in
:mod:`transit_gym.agents.tuned.automobiles` (0 random, 1 rule-based, ``2 + k`` tuned with
the ``k``-th vector appended to the season parameters).
"""

from __future__ import annotations

import numba as nb
import numpy as np

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.agents.tuned.automobiles import (  # noqa: F401  (re-exported)
    RULE_BASED,
    TUNED_CODE,
    params_with_vectors,
    read_vector,
    tuned,
)
from transit_gym.agents.tuned.automobiles import _buy as vector_buy
from transit_gym.agents.tuned.automobiles import _keeps as vector_keeps
from transit_gym.agents.tuned.automobiles_fixed import effects, legal_or_first
from transit_gym.agents.tuned.automobiles_layout import (
    P_DROP_PLACE,
    P_EXTRA,
    P_GAIN,
    P_KEEP_BIAS,
    P_MIN_BAG,
    P_MONEY,
    P_OWN_TABLES,
    P_PER_EXTRA,
    P_PER_NONWEAR,
    P_WEAK_CUBE,
    P_WEAR,
    SPONSOR_BASE,
)
from transit_gym.envs.automobiles.data import NUM_COLOURS, WEAR
from transit_gym.envs.automobiles.encode import O_PLAYERS, PB_BAG
from transit_gym.envs.automobiles.encode import OBS_SIZE as RACE_OBS_SIZE
from transit_gym.envs.automobiles.kernels import A_DISCARD, A_STOP
from transit_gym.envs.automobiles.kernels import NUM_ACTIONS as RACE_ACTIONS
from transit_gym.envs.automobiles_season.data import (
    MAX_SPONSORS,
    SP_EXTRA,
    SP_GAIN,
    SP_MONEY,
    SP_PER_EXTRA,
    SP_PER_NONWEAR,
    SP_WEAR,
)
from transit_gym.envs.automobiles_season.kernels import SO_DECISION, SO_EFFECT, SO_OWNED
from transit_gym.envs.automobiles_season.state import (
    A_DROP,
    A_KEEP,
    A_SPONSOR,
    NUM_SEASON_PHASES,
    S_DROP,
    S_EXTRA,
    S_GAIN,
    S_PICK,
    S_SPEND,
    S_STANDARD,
    S_WEAR,
    sponsor_value,
)
from transit_gym.envs.core.draw import uniform_legal


@nb.njit(cache=True)
def _place(obs):
    """The observer's place judging the sponsor effects (0 first .. 2 last)."""
    for k in range(3):
        if obs[SO_EFFECT + k] > 0.5:
            return k
    return 1


@nb.njit(cache=True)
def _own_sponsor(obs):
    for i in range(MAX_SPONSORS):
        if obs[SO_OWNED + i] > 0.5:
            return i
    return -1


@nb.njit(cache=True)
def _sp(v, k):
    return v[SPONSOR_BASE + k]


@nb.njit(cache=True)
def sponsor_worth(v, p, sponsor, place):
    """The vector's worth of ``sponsor``'s effect for ``place`` (0 first .. 2 last): a
    weighted sum of the effect's terms (the rule-based ``sponsor_worth`` at its weights)."""
    extra = sponsor_value(p, sponsor, place, SP_EXTRA)
    return (_sp(v, P_MONEY) * sponsor_value(p, sponsor, place, SP_MONEY)
            + _sp(v, P_EXTRA) * extra
            + _sp(v, P_WEAR) * sponsor_value(p, sponsor, place, SP_WEAR)
            + _sp(v, P_GAIN) * sponsor_value(p, sponsor, place, SP_GAIN)
            + _sp(v, P_PER_EXTRA) * sponsor_value(p, sponsor, place, SP_PER_EXTRA) * extra
            + _sp(v, P_PER_NONWEAR) * sponsor_value(p, sponsor, place, SP_PER_NONWEAR))


@nb.njit(cache=True)
def drop_place(v):
    """The place judging which sponsor to remove: the entry rounded to 0, 1 or 2."""
    place = int(np.round(_sp(v, P_DROP_PLACE)))
    return min(2, max(0, place))


@nb.njit(cache=True)
def _best_in(v, p, mask, base, place):
    """The legal sponsor of bank ``base`` worth most (the first on a tie) and its worth."""
    best = -1
    worth = 0.0
    for i in range(MAX_SPONSORS):
        if mask[base + i]:
            w = sponsor_worth(v, p, i, place)
            if best < 0 or w > worth:
                worth = w
                best = i
    return best, worth


@nb.njit(cache=True)
def _cube_keeps(v, eff):
    """Keep value per colour: the vector's ``keep`` entries, or the rule-based race
    agent's when ``sponsor.own_tables`` is off."""
    if _sp(v, P_OWN_TABLES) >= 0.5:
        return vector_keeps(v, eff)
    return vector_keeps(RULE_BASED, eff)


@nb.njit(cache=True)
def _remove(v, obs, mask, eff):
    """Wear first; then the least kept cube worth at most ``sponsor.weak_cube`` while the
    bag holds more than ``sponsor.min_bag``; else stop."""
    if mask[A_DISCARD + WEAR]:
        return A_DISCARD + WEAR
    bag = 0.0
    for c in range(NUM_COLOURS):
        bag += obs[O_PLAYERS + PB_BAG + c]
    if bag <= _sp(v, P_MIN_BAG):
        return A_STOP
    keep = _cube_keeps(v, eff)
    weak = _sp(v, P_WEAK_CUBE)
    best = -1
    for c in range(NUM_COLOURS):
        if mask[A_DISCARD + c] and keep[c] <= weak and (best < 0 or keep[c] < keep[best]):
            best = c
    return A_STOP if best < 0 else A_DISCARD + best


@nb.njit(cache=True)
def season_tuned(v, p, obs, mask):
    """The vector's answer to a sponsor decision of the season."""
    phase = -1
    for k in range(1, NUM_SEASON_PHASES):
        if obs[SO_DECISION + k] > 0.5:
            phase = k
    eff = effects(obs)
    place = _place(obs)
    action = -1
    if phase == S_PICK:
        best, worth = _best_in(v, p, mask, A_SPONSOR, place)
        own = _own_sponsor(obs)
        if mask[A_KEEP] and own >= 0 and (
                best < 0 or sponsor_worth(v, p, own, place) + _sp(v, P_KEEP_BIAS) >= worth):
            action = A_KEEP
        elif best >= 0:
            action = A_SPONSOR + best
    elif phase == S_DROP:
        best, _ = _best_in(v, p, mask, A_DROP, drop_place(v))
        action = A_DROP + best
    elif phase in (S_STANDARD, S_EXTRA, S_WEAR):
        action = _remove(v, obs, mask, eff)
    elif phase in (S_GAIN, S_SPEND):
        if _sp(v, P_OWN_TABLES) >= 0.5:
            action = vector_buy(v, obs, mask, eff, vector_keeps(v, eff))
        else:
            action = vector_buy(RULE_BASED, obs, mask, eff, vector_keeps(RULE_BASED, eff))
    return legal_or_first(mask, action)


@nb.njit(cache=True)
def season_decision(v, p, obs, mask):
    """The answer of the procedure at vector ``v``: a sponsor decision or a race's."""
    for k in range(1, NUM_SEASON_PHASES):
        if obs[SO_DECISION + k] > 0.5:
            return season_tuned(v, p, obs, mask)
    return tuned(v, obs[:RACE_OBS_SIZE], mask[:RACE_ACTIONS])


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Agent ``code``: 0 random, 1 rule-based, ``2 + k`` tuned (vector ``k`` of ``p``)."""
    if code == 1:
        return season_decision(RULE_BASED, p, obs, mask)
    if code >= TUNED_CODE:
        return season_decision(read_vector(p, code - TUNED_CODE), p, obs, mask)
    return uniform_legal(words, mask)
