"""Built-in agents of the Automobiles Racing Season (code 0 random, 1 rule-based).

Race decisions go to the race agent (``agents.rule_based.automobiles.rule_based``) on the race part
of the observation and mask. Sponsor decisions, from the observation, the mask and the
sponsor table in the parameters: take the sponsor whose effect for this place is worth
most (keep the current one when it is worth at least as much, then remove the available
sponsor worth most to the others); remove wear first, then the cube least worth keeping
while the bag stays big enough; gain and buy the cubes the race agent would buy.
"""

from __future__ import annotations

import numba as nb

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.agents.rule_based.automobiles import (
    _buy,
    _effects,
    _keep,
    legal_or_first,
    rule_based,
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

MIN_BAG = 14          # thin the bag of weak cubes only while it keeps this many
WEAK_CUBE = 1         # keep value (race agent's scale) at or below which a cube is weak


@nb.njit(cache=True)
def sponsor_worth(p, sponsor, place):
    """A rough dollar worth of ``sponsor``'s effect for ``place`` (0 first .. 2 last)."""
    extra = sponsor_value(p, sponsor, place, SP_EXTRA)
    return (sponsor_value(p, sponsor, place, SP_MONEY) + 2 * extra
            + sponsor_value(p, sponsor, place, SP_WEAR)
            + 4 * sponsor_value(p, sponsor, place, SP_GAIN)
            + sponsor_value(p, sponsor, place, SP_PER_EXTRA) * extra
            + sponsor_value(p, sponsor, place, SP_PER_NONWEAR))


@nb.njit(cache=True)
def _place(obs):
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
def _best_in(mask, base, p, place):
    best = -1
    worth = -1
    for i in range(MAX_SPONSORS):
        if mask[base + i]:
            w = sponsor_worth(p, i, place)
            if w > worth:
                worth = w
                best = i
    return best, worth


@nb.njit(cache=True)
def _remove(obs, mask, eff):
    """Wear first; then the weakest cube while the bag stays at ``MIN_BAG``; else stop."""
    if mask[A_DISCARD + WEAR]:
        return A_DISCARD + WEAR
    bag = 0.0
    for c in range(NUM_COLOURS):
        bag += obs[O_PLAYERS + PB_BAG + c]
    if bag <= MIN_BAG:
        return A_STOP
    best = -1
    lowest = WEAK_CUBE + 1
    for c in range(NUM_COLOURS):
        if mask[A_DISCARD + c] and _keep(eff, c) < lowest:
            lowest = _keep(eff, c)
            best = c
    return A_STOP if best < 0 else A_DISCARD + best


@nb.njit(cache=True)
def season_rule_based(p, obs, mask):
    """Rule-based answer to a sponsor decision."""
    phase = -1
    for k in range(1, NUM_SEASON_PHASES):
        if obs[SO_DECISION + k] > 0.5:
            phase = k
    eff = _effects(obs)
    place = _place(obs)
    action = -1
    if phase == S_PICK:
        best, worth = _best_in(mask, A_SPONSOR, p, place)
        own = _own_sponsor(obs)
        if mask[A_KEEP] and own >= 0 and sponsor_worth(p, own, place) >= worth:
            action = A_KEEP
        elif best >= 0:
            action = A_SPONSOR + best
    elif phase == S_DROP:
        best, _ = _best_in(mask, A_DROP, p, 1)
        action = A_DROP + best
    elif phase in (S_STANDARD, S_EXTRA, S_WEAR):
        action = _remove(obs, mask, eff)
    elif phase in (S_GAIN, S_SPEND):
        action = _buy(obs, mask, eff)
    return legal_or_first(mask, action)


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Built-in agent ``code``: 0 uniformly random, 1 rule-based."""
    if code != 1:
        return uniform_legal(words, mask)
    for k in range(1, NUM_SEASON_PHASES):
        if obs[SO_DECISION + k] > 0.5:
            return season_rule_based(p, obs, mask)
    return rule_based(p, obs[:RACE_OBS_SIZE], mask[:RACE_ACTIONS])
