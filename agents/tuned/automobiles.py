"""The Automobiles decision procedure: every decision of the race (market, Action Phase,
card decisions, Racing Season cards and drivers) with every constant read from a
parameter vector (layout in :mod:`transit_gym.agents.tuned.automobiles_layout`).

The rule-based agent is this procedure at ``RULE_BASED``
(:func:`~transit_gym.agents.tuned.automobiles_layout.rule_based_vector`, a constant of the
kernels); a tuned agent is it at its own vector. ``policy(code, p, obs, mask, words)`` is
the kernel for the jitted whole-game loops (``play_games``): code 0 plays uniformly at
random, 1 is the rule-based agent, and code ``2 + k`` plays with the ``k``-th vector
appended to the game parameters ``p`` by :func:`params_with_vectors`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.agents.tuned.automobiles_fixed import (
    burnout_choice,
    camber_toe_choice,
    cars_to_pass,
    crate_move,
    driver_car_space,
    driver_own,
    effects,
    farthest_space,
    least_wanted,
    legal_or_first,
    pick,
)
from transit_gym.agents.tuned.automobiles_layout import (
    C_CAR_CHIEF,
    C_DIESEL_MIN_DARK,
    C_PIT_TEAM_REMOVE_KEEP,
    C_SUSPENSION,
    CARD_BLOCK,
    CHOICE_BASE,
    DRIVER_BASE,
    FIRST_EFFECT_CARD,
    K_BUY,
    K_BUY_WEAR,
    K_GATE,
    K_KEEP,
    K_ORDER,
    K_WANT,
    NUM_CARD_PARAMS,
    S_ADRENALINE_MIN_PASS,
    S_BOOST_MIN_PICKS,
    S_BUMP_MIN_RANK,
    S_CAMBER_MAX_GEAR,
    S_COST_WEIGHT,
    S_DRIVER_BAG_WANTED,
    S_DRIVER_WANTED,
    S_DRIVER_WEAK,
    S_FS_REMOVE_KEEP,
    S_FUEL_MIN_GEARS,
    S_PIT_STOP_WEAR,
    S_SUPERCHARGED_MIN_KEEP,
    S_TAKE_BACK_KEEP,
    VECTOR_SIZE,
    rule_based_vector,
)
from transit_gym.agents.tuned.packing import TUNED_CODE, append_vectors, read_vector
from transit_gym.envs.automobiles.data import (
    BLACK,
    DARK,
    E_AIR_JACKS,
    E_BUMP_RUN,
    E_CAMBER_TOE,
    E_DIESEL,
    E_ENGINEER,
    E_FACTORY_SUPPORT,
    E_FUEL_INJECTION,
    E_GEAR,
    E_IMPACT_WRENCH,
    E_INTERNAL_COMBUSTION,
    E_MAINTENANCE_STAFF,
    E_MECHANIC,
    E_PIT_CAPTAIN,
    E_PIT_CREW,
    E_PIT_MECHANIC,
    E_PIT_TEAM,
    E_REDLINE,
    LIGHT,
    NUM_COLOURS,
    WEAR,
    WHITE,
)
from transit_gym.envs.automobiles.encode import (
    O_COST,
    O_DECISION,
    O_DRAWN,
    O_DRIVER_HELD,
    O_MOVE_CARDS,
    O_PICKS,
    O_PLAYERS,
    O_TURN,
    PB_ACTIVE,
    PB_BAG,
    PB_DISCARD,
    PB_USED,
)
from transit_gym.envs.automobiles.kernels import (
    A_ACTIVE,
    A_ALL_WEAR,
    A_DISCARD,
    A_DRAW,
    A_DRIVER,
    A_PIT_STOP,
    A_STOCK,
    A_STOP,
    A_USE_DRIVER,
)
from transit_gym.envs.automobiles.racing_season.cards_piles import is_pile_effect, is_pile_phase
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.automobiles.state import (
    NUM_PHASES,
    PH_ACTION,
    PH_ADRENALINE,
    PH_ADRENALINE_MOVE,
    PH_BOOST,
    PH_BOOST_OTHER,
    PH_BURNOUT,
    PH_BUY,
    PH_CAMBER_TOE,
    PH_CAR_CHIEF,
    PH_CRATE_MOVE,
    PH_DRIVER_CAR,
    PH_DRIVER_DECLARE,
    PH_DRIVER_DECLINE,
    PH_DRIVER_DRAFT,
    PH_DRIVER_EXTRA,
    PH_DRIVER_PAY,
    PH_DRIVER_REDRAW,
    PH_DRIVER_SORT,
    PH_DRIVER_TO_ACTIVE,
    PH_DRIVER_TO_BAG,
    PH_DRIVER_WEAR,
    PH_ENGINEER,
    PH_FACTORY_SUPPORT,
    PH_IC_TAKE,
    PH_IMPACT_WRENCH,
    PH_INTERNAL_COMBUSTION,
    PH_MAINTENANCE_STAFF,
    PH_MANAGER_BAG,
    PH_MANAGER_REMOVE,
    PH_MECHANIC,
    PH_MOVE,
    PH_NITRO,
    PH_PERFORMANCE_TESTING,
    PH_PIT_CREW,
    PH_PIT_MECHANIC,
    PH_PIT_TEAM,
    PH_PIT_TEAM_BUY,
    PH_REMOVE,
    PH_SETUP_BUY,
    PH_STEERING,
    PH_SUPERCHARGED,
    PH_SUSPENSION,
    PH_TIRES,
)
from transit_gym.envs.core.draw import uniform_legal

NEVER = 99.0   # an activation order this high: never activated
#: the rule-based agent's vector, frozen into the kernels that read it
RULE_BASED = rule_based_vector()
#: the decisions that read the keep values (the others skip computing them: a move,
#: the most frequent decision, is a tenth faster)
READS_KEEP = np.zeros(NUM_PHASES, dtype=np.bool_)
for _phase in (PH_SETUP_BUY, PH_BUY, PH_PIT_TEAM_BUY, PH_ACTION, PH_REMOVE, PH_PIT_TEAM,
               PH_MECHANIC, PH_NITRO, PH_SUPERCHARGED, PH_DRIVER_TO_ACTIVE, PH_DRIVER_TO_BAG,
               PH_DRIVER_SORT, *(ph for ph in range(NUM_PHASES) if is_pile_phase(ph))):
    READS_KEEP[_phase] = True


def params_with_vectors(params: np.ndarray, vectors: list[np.ndarray]) -> np.ndarray:
    """The game parameters followed by ``vectors``: what ``policy`` reads for codes >= 2
    (:func:`~transit_gym.agents.tuned.packing.append_vectors`)."""
    return append_vectors(params, vectors, VECTOR_SIZE)


# ----- the card of a colour and its parameters -----------------------------------------------
@nb.njit(cache=True)
def _card(eff, c):
    if c == WEAR:
        return WEAR
    if eff[c] == E_GEAR:
        return c
    return eff[c] + FIRST_EFFECT_CARD


@nb.njit(cache=True)
def _cp(v, eff, c, k):
    return v[_card(eff, c) * NUM_CARD_PARAMS + k]


@nb.njit(cache=True)
def _s(v, name_index):
    return v[CARD_BLOCK + name_index]


@nb.njit(cache=True)
def _c(v, name_index):
    return v[CHOICE_BASE + name_index]


@nb.njit(cache=True)
def _gear_choice(v, mask, bank, first):
    """The legal gear (``bank + g``) with the highest positive score ``first + g`` of the
    choices block (ties: the higher gear); -1 when none."""
    best = -1
    best_score = 0.0
    for g in range(BLACK, WHITE - 1, -1):
        score = _c(v, first + g)
        if mask[bank + g] and score > 0.0 and (best < 0 or score > best_score):
            best = bank + g
            best_score = score
    return best


@nb.njit(cache=True)
def _keeps(v, eff):
    out = np.zeros(NUM_COLOURS, dtype=np.float64)
    for c in range(NUM_COLOURS):
        out[c] = _cp(v, eff, c, K_KEEP)
    return out


@nb.njit(cache=True)
def _owned(obs, c):
    own = O_PLAYERS
    return (obs[own + PB_ACTIVE + c] + obs[own + PB_USED + c] + obs[own + PB_DISCARD + c]
            + obs[own + PB_BAG + c])


# ----- buying, activating, picking -----------------------------------------------------------
@nb.njit(cache=True)
def _buy(v, obs, mask, eff, keep):
    """The most wanted affordable colour below its wanted count (cost breaks ties)."""
    best = -1
    best_key = 0.0
    wear = _owned(obs, WEAR)
    cost_weight = _s(v, S_COST_WEIGHT)
    for c in range(NUM_COLOURS):
        if mask[A_STOCK + c]:
            want = _cp(v, eff, c, K_BUY) + _cp(v, eff, c, K_BUY_WEAR) * wear
            if want <= 0.0 or _owned(obs, c) >= _cp(v, eff, c, K_WANT):
                continue
            key = want + cost_weight * obs[O_COST + c]
            if key > best_key:
                best = c
                best_key = key
    if best >= 0:
        return A_STOCK + best
    if mask[A_STOP]:
        return A_STOP
    return pick(mask, A_STOCK, keep, False)


@nb.njit(cache=True)
def _pile_useful(v, obs, keep, e):
    active_wear = obs[O_PLAYERS + PB_ACTIVE + WEAR]
    discard_wear = obs[O_PLAYERS + PB_DISCARD + WEAR]
    if e == E_MAINTENANCE_STAFF:
        return active_wear > 0
    if e in (E_AIR_JACKS, E_PIT_MECHANIC):
        return discard_wear > 0
    if e == E_IMPACT_WRENCH:
        return discard_wear > 0 or obs[O_PLAYERS + PB_USED + WEAR] > 0
    if e == E_INTERNAL_COMBUSTION:
        for c in range(NUM_COLOURS):
            if obs[O_PLAYERS + PB_DISCARD + c] > 0 and keep[c] >= _s(v, S_TAKE_BACK_KEEP):
                return True
        return False
    if e == E_FACTORY_SUPPORT:
        for c in range(NUM_COLOURS):
            if (obs[O_PLAYERS + PB_ACTIVE + c] + obs[O_PLAYERS + PB_DISCARD + c] > 0
                    and keep[c] <= _s(v, S_FS_REMOVE_KEEP)):
                return True
        return False
    return is_pile_effect(e)


@nb.njit(cache=True)
def _move_card_useful(v, obs, e):
    own = O_PLAYERS + PB_ACTIVE
    if e == E_REDLINE:
        return obs[O_MOVE_CARDS] == 0 and obs[own + WHITE] > 0
    if e == E_FUEL_INJECTION:
        gears = 0.0
        for g in range(WHITE, BLACK + 1):
            gears += obs[own + g]
        return obs[O_MOVE_CARDS + 1] == 0 and gears >= _s(v, S_FUEL_MIN_GEARS)
    if e == E_BUMP_RUN:
        return obs[O_TURN + 2] > _s(v, S_BUMP_MIN_RANK)
    if e == E_CAMBER_TOE:
        top = _s(v, S_CAMBER_MAX_GEAR)
        for g in range(WHITE, BLACK + 1):  # noqa: SIM110 - numba has no generators
            if g <= top and obs[own + g] > 0:
                return True
        return False
    return True


@nb.njit(cache=True)
def _useful(v, obs, eff, keep, c):
    """The rule-based check that activating colour ``c`` helps now (skipped when the
    card's ``gate`` is off)."""
    if _cp(v, eff, c, K_GATE) < 0.5:
        return True
    active_wear = obs[O_PLAYERS + PB_ACTIVE + WEAR]
    discard_wear = obs[O_PLAYERS + PB_DISCARD + WEAR]
    e = eff[c]
    if e == E_ENGINEER:
        return active_wear > 0
    if e == E_MECHANIC:
        return active_wear > 0 or discard_wear > 0
    if e in (E_PIT_CAPTAIN, E_PIT_CREW, E_PIT_TEAM):
        return discard_wear > 0
    if e == E_DIESEL:
        return obs[O_PLAYERS + PB_DISCARD + DARK] >= _c(v, C_DIESEL_MIN_DARK)
    if is_pile_effect(e):
        return _pile_useful(v, obs, keep, e)
    if e >= E_FACTORY_SUPPORT:
        return _move_card_useful(v, obs, e)
    return True


@nb.njit(cache=True)
def _action(v, obs, mask, eff, keep):
    if mask[A_PIT_STOP] and obs[O_PLAYERS + PB_ACTIVE + WEAR] >= _s(v, S_PIT_STOP_WEAR):
        return A_PIT_STOP
    best = -1
    best_order = NEVER
    for c in range(NUM_COLOURS):
        if mask[A_ACTIVE + c] and _useful(v, obs, eff, keep, c):
            order = _cp(v, eff, c, K_ORDER)
            if order < best_order:
                best_order = order
                best = A_ACTIVE + c
    return best if best >= 0 else A_STOP


@nb.njit(cache=True)
def _pile_decision(v, obs, mask, keep, phase):
    if phase == PH_FACTORY_SUPPORT:
        return least_wanted(mask, keep, A_ACTIVE, A_DISCARD, True)
    if phase == PH_MAINTENANCE_STAFF:
        return A_ACTIVE + WEAR if mask[A_ACTIVE + WEAR] else A_STOP
    if phase == PH_PERFORMANCE_TESTING:
        return A_DRAW if mask[A_DRAW] else A_STOP
    if phase in (PH_IMPACT_WRENCH, PH_PIT_MECHANIC):
        return A_DISCARD + WEAR if mask[A_DISCARD + WEAR] else A_STOP
    if phase == PH_INTERNAL_COMBUSTION:
        return least_wanted(mask, keep, A_ACTIVE, -1, False)
    if phase == PH_IC_TAKE:
        if obs[O_PICKS] <= 0:
            return A_STOP
        best = A_STOP
        threshold = _s(v, S_TAKE_BACK_KEEP)
        best_key = 0.0
        for c in range(NUM_COLOURS):
            if mask[A_DISCARD + c] and keep[c] >= threshold and (best == A_STOP
                                                                  or keep[c] > best_key):
                best = A_DISCARD + c
                best_key = keep[c]
        return best
    return -1


# ----- drivers -------------------------------------------------------------------------------
@nb.njit(cache=True)
def _driver_use(v, d):
    return d > 0 and v[DRIVER_BASE + (d - 1) * 2 + 1] >= 0.5


@nb.njit(cache=True)
def _discard_has(obs, keep, least):
    for c in range(NUM_COLOURS):  # noqa: SIM110 - numba has no generators
        if obs[O_PLAYERS + PB_DISCARD + c] > 0 and keep[c] >= least:
            return True
    return False


@nb.njit(cache=True)
def _best_at_least(mask, bank, keep, least):
    best = -1
    for c in range(NUM_COLOURS):
        if mask[bank + c] and keep[c] >= least and (best < 0 or keep[c] > keep[best]):
            best = c
    return -1 if best < 0 else bank + best


@nb.njit(cache=True)
def _driver_use_now(v, obs, mask, keep, phase, planned):
    if not mask[A_USE_DRIVER]:
        return planned
    d = driver_own(obs)
    if not _driver_use(v, d):
        return planned
    if phase == PH_ACTION:
        if planned == A_PIT_STOP:
            return planned
        if d == 2 and _discard_has(obs, keep, _s(v, S_DRIVER_WANTED)):
            return A_USE_DRIVER
        if d == 3 and _discard_has(obs, keep, _s(v, S_DRIVER_BAG_WANTED)):
            return A_USE_DRIVER
    elif phase == PH_BUY:
        if d == 4:
            return A_USE_DRIVER
        if d == 5 and planned == A_STOP and obs[O_PLAYERS + PB_DISCARD + WEAR] > 0:
            return A_USE_DRIVER
    return planned


@nb.njit(cache=True)
def _driver_decide(v, obs, mask, keep, phase):
    if phase == PH_DRIVER_DRAFT:
        best = -1
        best_key = 0.0
        for k in range(NUM_DRIVERS):
            if mask[A_DRIVER + k]:
                key = v[DRIVER_BASE + k * 2]
                if best < 0 or key > best_key:
                    best = k
                    best_key = key
        return -1 if best < 0 else A_DRIVER + best
    if phase in (PH_DRIVER_CAR, PH_DRIVER_DECLINE, PH_DRIVER_WEAR, PH_DRIVER_EXTRA,
                 PH_DRIVER_REDRAW) and not _driver_use(v, driver_own(obs)):
        return A_STOP   # the ability declined (legal in all these decisions)
    if phase == PH_DRIVER_TO_ACTIVE:
        return _best_at_least(mask, A_DISCARD, keep, -1e9)
    if phase == PH_DRIVER_TO_BAG:
        a = _best_at_least(mask, A_DISCARD, keep, _s(v, S_DRIVER_BAG_WANTED))
        return A_STOP if a < 0 else a
    if phase == PH_DRIVER_DECLARE:
        return A_DRAW if mask[A_DRAW] else A_STOP
    if phase == PH_DRIVER_SORT:
        if obs[O_DRIVER_HELD + WEAR] > 0 and mask[A_STOCK + WEAR]:
            return A_STOCK + WEAR
        for c in range(NUM_COLOURS):
            if mask[A_ACTIVE + c] and keep[c] <= _s(v, S_DRIVER_WEAK):
                return A_ACTIVE + c
        return A_STOP
    if phase == PH_DRIVER_PAY:
        return A_DISCARD + WEAR if mask[A_DISCARD + WEAR] else A_STOP
    if phase == PH_DRIVER_CAR:
        return driver_car_space(obs, mask, int(obs[O_TURN + 3]) - 1)
    if phase == PH_DRIVER_DECLINE:
        return driver_car_space(obs, mask, -1)
    if phase == PH_DRIVER_WEAR:
        return A_DISCARD + WEAR if mask[A_DISCARD + WEAR] else A_STOP
    if phase == PH_DRIVER_EXTRA:
        return A_DRAW if mask[A_DRAW] else A_STOP
    if phase == PH_DRIVER_REDRAW:
        return A_ACTIVE + WEAR if mask[A_ACTIVE + WEAR] else A_STOP
    return -1


# ----- the policy ----------------------------------------------------------------------------
@nb.njit(cache=True)
def tuned(v, obs, mask):
    """The procedure's action at vector ``v`` (the rule-based agent at ``RULE_BASED``)."""
    phase = -1
    for k in range(NUM_PHASES):
        if obs[O_DECISION + k] > 0.5:
            phase = k
            break
    eff = effects(obs)
    if phase >= 0 and READS_KEEP[phase]:
        keep = _keeps(v, eff)
    else:
        keep = np.zeros(NUM_COLOURS, dtype=np.float64)
    action = -1
    if phase in (PH_SETUP_BUY, PH_BUY, PH_PIT_TEAM_BUY):
        action = _buy(v, obs, mask, eff, keep)
    elif phase == PH_ACTION:
        action = _action(v, obs, mask, eff, keep)
    elif phase in (PH_MOVE, PH_ADRENALINE_MOVE):
        action = farthest_space(obs, mask)
        if action < 0:
            action = A_STOP
    elif phase == PH_CAR_CHIEF:
        action = _gear_choice(v, mask, A_DISCARD, C_CAR_CHIEF)
    elif phase == PH_ENGINEER:
        action = A_ACTIVE + WEAR if mask[A_ACTIVE + WEAR] else A_STOP
    elif phase in (PH_REMOVE, PH_PIT_TEAM):
        if mask[A_DISCARD + WEAR]:
            action = A_DISCARD + WEAR
        else:
            if phase == PH_PIT_TEAM:   # cubes worth little removed too, money for the buy
                action = pick(mask, A_DISCARD, keep, True)
                if action >= 0 and keep[action - A_DISCARD] > _c(v, C_PIT_TEAM_REMOVE_KEEP):
                    action = -1
            if action < 0:
                action = A_STOP if mask[A_STOP] else pick(mask, A_DISCARD, keep, True)
    elif phase == PH_MANAGER_REMOVE:
        action = A_ACTIVE + WEAR if mask[A_ACTIVE + WEAR] else A_STOP
    elif phase == PH_MANAGER_BAG:
        action = A_STOP
    elif phase == PH_MECHANIC:
        action = A_ACTIVE + WEAR if mask[A_ACTIVE + WEAR] else pick(mask, A_ACTIVE, keep, True)
    elif phase == PH_PIT_CREW:
        action = A_ALL_WEAR
    elif phase in (PH_STEERING, PH_TIRES):
        for g in range(BLACK, LIGHT - 1, -1):
            if mask[A_ACTIVE + g]:
                action = A_ACTIVE + g
                break
    elif phase == PH_SUSPENSION:
        action = _gear_choice(v, mask, A_DISCARD, C_SUSPENSION)
    elif phase == PH_BOOST:
        action = A_DRAW if (mask[A_DRAW]
                            and obs[O_PICKS] > _s(v, S_BOOST_MIN_PICKS)) else A_STOP
    elif phase == PH_BOOST_OTHER:
        action = A_DRAW if mask[A_DRAW] else A_STOP
    elif phase == PH_NITRO:
        best_key = -1e9
        for c in range(NUM_COLOURS):
            if mask[A_ACTIVE + c] and obs[O_DRAWN + c] > 0 and keep[c] > best_key:
                best_key = keep[c]
                action = A_ACTIVE + c
    elif phase == PH_SUPERCHARGED:
        action = pick(mask, A_DISCARD, keep, False)
        if action < 0 or keep[action - A_DISCARD] < _s(v, S_SUPERCHARGED_MIN_KEEP):
            action = A_STOP
    elif phase == PH_ADRENALINE:
        if cars_to_pass(obs) >= _s(v, S_ADRENALINE_MIN_PASS):
            action = A_STOP
        else:
            action = farthest_space(obs, mask)
            if action < 0:
                action = A_STOP
    elif phase == PH_CRATE_MOVE:
        action = crate_move(obs, mask)
    elif phase == PH_BURNOUT:
        action = burnout_choice(mask, A_DISCARD)
    elif phase == PH_CAMBER_TOE:
        action = camber_toe_choice(mask, A_ACTIVE)
    elif is_pile_phase(phase):
        action = _pile_decision(v, obs, mask, keep, phase)
    if phase in (PH_ACTION, PH_BUY):
        action = _driver_use_now(v, obs, mask, keep, phase, action)
    else:
        choice = _driver_decide(v, obs, mask, keep, phase)
        if choice >= 0:
            action = choice
    return legal_or_first(mask, action)


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Agent ``code``: 0 uniformly random, 1 rule-based, ``2 + k`` tuned with vector ``k``
    of ``p`` (see ``params_with_vectors``)."""
    if code >= TUNED_CODE:
        return tuned(read_vector(p, code - TUNED_CODE), obs, mask)
    if code == 1:
        return tuned(RULE_BASED, obs, mask)
    return uniform_legal(words, mask)
