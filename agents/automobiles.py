"""Built-in Automobiles agents as one jitted kernel (code 0 random, 1 rule-based).

The rule-based agent reads only its observation and mask. It races greedily: every
cube that moves the car is used (multi-space movers first, then gears from the highest
colour down), each step goes to the legal space whose front edge is farthest ahead, and
"up to" moves go as far as they can. Wear is cleaned: removal effects take wear first,
then white cubes; a hand with four or more wear cubes takes a pit stop. Money buys the
best affordable colour by a fixed preference (fast gears and movers, then pit cards),
one cube at a time while something worth buying is affordable.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.envs.automobiles.data import (
    BLACK,
    DARK,
    E_AIR_JACKS,
    E_ENGINEER,
    E_FACTORY_SUPPORT,
    E_GEAR,
    E_IMPACT_WRENCH,
    E_INTERNAL_COMBUSTION,
    E_MAINTENANCE_STAFF,
    E_MECHANIC,
    E_PERFORMANCE_TESTING,
    E_PIT_CAPTAIN,
    E_PIT_CREW,
    E_PIT_MECHANIC,
    E_PIT_TEAM,
    LIGHT,
    NUM_COLOURS,
    NUM_EFFECTS,
    WEAR,
    WHITE,
)
from transit_gym.envs.automobiles.encode import (
    O_COST,
    O_DECISION,
    O_DRAWN,
    O_MARKET,
    O_PICKS,
    O_PLAYERS,
    O_SPACES,
    PB_ACTIVE,
    PB_DISCARD,
    PB_USED,
    SB_AHEAD,
    SB_COLOURS,
    SPACE_BLOCK,
)
from transit_gym.envs.automobiles.expansion_piles import (  # Racing Season pile cards
    is_pile_effect,
    is_pile_phase,
)
from transit_gym.envs.automobiles.kernels import (
    A_ACTIVE,
    A_ALL_WEAR,
    A_DISCARD,
    A_DRAW,
    A_PIT_STOP,
    A_SPACE,
    A_STOCK,
    A_STOP,
)
from transit_gym.envs.automobiles.state import (
    NUM_PHASES,
    PH_ACTION,
    PH_BOOST,
    PH_BOOST_OTHER,
    PH_BUY,
    PH_CAR_CHIEF,
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

PIT_STOP_WEAR = 4     # wear cubes in hand that make a pit stop worth a turn

# how much the agent values keeping a cube of each effect; gears by colour in GEAR_KEEP
EFFECT_KEEP = np.array([
    0,   # gear (by colour)
    -5,  # wear
    2,   # car chief
    2,   # engineer
    1,   # manager
    2,   # mechanic
    4,   # crew chief
    4,   # pit captain
    4,   # pit crew
    3,   # pit team
    3,   # aerodynamics
    3,   # steering
    3,   # suspension
    2,   # tires
    1,   # boost
    4,   # gearbox
    2,   # nitro
    5,   # turbo
    4,   # diesel
    4,   # hybrid
    4,   # rotary
    2,   # supercharged
], dtype=np.int64)
GEAR_KEEP = np.array([1, 2, 4, 5], dtype=np.int64)
# how much the agent wants to buy one (0: never); whites are never bought
EFFECT_BUY = np.array([
    0, 0, 2, 1, 0, 1, 4, 4, 4, 3, 3, 3, 3, 2, 1, 4, 1, 5, 4, 4, 4, 1,
], dtype=np.int64)
GEAR_BUY = np.array([0, 2, 4, 5], dtype=np.int64)

# activation order: lower goes first (99: kept as money, never activated)
EFFECT_ORDER = np.array([
    50,  # gear (by colour: GEAR_ORDER)
    99,  # wear
    10,  # car chief
    12,  # engineer
    99,  # manager
    11,  # mechanic
    5,   # crew chief
    6,   # pit captain
    7,   # pit crew
    8,   # pit team
    20,  # aerodynamics
    30,  # steering
    32,  # suspension
    33,  # tires
    99,  # boost
    31,  # gearbox
    15,  # nitro
    29,  # turbo
    28,  # diesel
    27,  # hybrid
    26,  # rotary
    14,  # supercharged
], dtype=np.int64)
GEAR_ORDER = np.array([58, 56, 54, 52], dtype=np.int64)


@nb.njit(cache=True)
def _effects(obs):
    """Effect id of each colour's card in play."""
    eff = np.zeros(NUM_COLOURS, dtype=np.int64)
    for c in range(NUM_COLOURS):
        base = O_MARKET + c * NUM_EFFECTS
        for e in range(NUM_EFFECTS):
            if obs[base + e] > 0.5:
                eff[c] = e
                break
    return eff


@nb.njit(cache=True)
def _keep(eff, c):
    """How much the agent wants to keep a cube of colour ``c``."""
    if c == WEAR:
        return -5
    if eff[c] == E_GEAR:
        return GEAR_KEEP[c]
    if is_pile_effect(eff[c]):   # Racing Season pile cards
        return pile_keep(eff[c])
    return EFFECT_KEEP[eff[c]]


@nb.njit(cache=True)
def _keeps(eff):
    """``_keep`` of every colour."""
    out = np.zeros(NUM_COLOURS, dtype=np.int64)
    for c in range(NUM_COLOURS):
        out[c] = _keep(eff, c)
    return out


@nb.njit(cache=True)
def _buy_want(eff, c):
    if c == WEAR:
        return 0
    if eff[c] == E_GEAR:
        return GEAR_BUY[c]
    if is_pile_effect(eff[c]):   # Racing Season pile cards
        return pile_buy(eff[c])
    return EFFECT_BUY[eff[c]]


@nb.njit(cache=True)
def _order(eff, c):
    if eff[c] == E_GEAR:
        return GEAR_ORDER[c]
    if is_pile_effect(eff[c]):   # Racing Season pile cards
        return pile_order(eff[c])
    return EFFECT_ORDER[eff[c]]


@nb.njit(cache=True)
def _farthest_space(obs, mask):
    """Legal space whose front edge is farthest ahead of the car (slower colour on a tie)."""
    best = -1
    best_key = -1.0
    for a in range(A_SPACE, mask.shape[0]):
        if mask[a]:
            b = O_SPACES + (a - A_SPACE) * SPACE_BLOCK
            top = 0
            for g in range(4):
                if obs[b + SB_COLOURS + g] > 0.5:
                    top = g
            key = obs[b + SB_AHEAD] * 8.0 - top * 0.01
            if key > best_key:
                best_key = key
                best = a
    return best


@nb.njit(cache=True)
def _pick(mask, bank, eff, worst_first):
    """A legal cube of ``bank``: the least wanted (``worst_first``) or the most wanted."""
    best = -1
    best_key = 0
    for c in range(NUM_COLOURS):
        if mask[bank + c]:
            key = _keep(eff, c)
            if worst_first:
                key = -key
            if best < 0 or key > best_key:
                best = c
                best_key = key
    return -1 if best < 0 else bank + best


@nb.njit(cache=True)
def _wear(mask, bank):
    """A legal wear cube of ``bank``, else -1."""
    return bank + WEAR if mask[bank + WEAR] else -1


@nb.njit(cache=True)
def _buy(obs, mask, eff):
    """The most wanted affordable colour (ties: the dearer one); stop when none is wanted."""
    best = -1
    best_key = 0
    for c in range(NUM_COLOURS):
        if mask[A_STOCK + c]:
            key = _buy_want(eff, c) * 100 + obs[O_COST + c]
            if _buy_want(eff, c) > 0 and key > best_key:
                best = c
                best_key = key
    if best >= 0:
        return A_STOCK + best
    if mask[A_STOP]:
        return A_STOP
    return _pick(mask, A_STOCK, eff, False)


@nb.njit(cache=True)
def _useful(obs, eff, c):
    """Cleaning effects are used only when there is wear for them to clean."""
    own = O_PLAYERS
    active_wear = obs[own + PB_ACTIVE + WEAR]
    discard_wear = obs[own + PB_DISCARD + WEAR]
    e = eff[c]
    if e == E_ENGINEER:
        return active_wear > 0
    if e == E_MECHANIC:
        return active_wear > 0 or discard_wear > 0
    if e in (E_PIT_CAPTAIN, E_PIT_CREW, E_PIT_TEAM):
        return discard_wear > 0
    if is_pile_effect(e):   # Racing Season pile cards
        return pile_useful(obs, _keeps(eff), e)
    return True


@nb.njit(cache=True)
def _action(obs, mask, eff):
    own = O_PLAYERS
    if mask[A_PIT_STOP] and obs[own + PB_ACTIVE + WEAR] >= PIT_STOP_WEAR:
        return A_PIT_STOP
    best = -1
    best_order = 99
    for c in range(NUM_COLOURS):
        if mask[A_ACTIVE + c] and _useful(obs, eff, c):
            order = _order(eff, c)
            if order < best_order:
                best_order = order
                best = A_ACTIVE + c
    if best >= 0:
        return best
    return A_STOP


# ----- Racing Season cards that change piles ---------------------------------------------------
# Removal effects take wear first, then the least wanted cube; Performance Testing always
# draws (no wear); Internal Combustion discards the least wanted active cube and takes back
# only cubes worth a wear cube. Cleaning cards are used only when there is wear to clean.

#: a cube worth a wear cube to take back with Internal Combustion (scale of ``keep``)
TAKE_BACK_KEEP = 4
#: Factory Support is used only when a cube this little wanted (wear, white) can go
FS_REMOVE_KEEP = 1

# per pile effect: how much the agent wants to keep / to buy a cube, activation order
# (lower first; the base agent's scale: gears 52-58 go last, 99 never)
_PILE_WISHES = {
    E_FACTORY_SUPPORT: (4, 3, 5),
    E_MAINTENANCE_STAFF: (3, 2, 12),
    E_PERFORMANCE_TESTING: (3, 2, 4),
    E_AIR_JACKS: (3, 3, 7),
    E_IMPACT_WRENCH: (4, 4, 45),     # after the movers that gain wear
    E_PIT_MECHANIC: (4, 4, 8),
    E_INTERNAL_COMBUSTION: (4, 3, 13),
}
_PILE_FIRST = min(_PILE_WISHES)
_PILE_SIZE = max(_PILE_WISHES) - _PILE_FIRST + 1
PILE_KEEP = np.zeros(_PILE_SIZE, dtype=np.int64)
PILE_BUY = np.zeros(_PILE_SIZE, dtype=np.int64)
PILE_ORDER = np.full(_PILE_SIZE, 99, dtype=np.int64)
for _e, (_k, _b, _o) in _PILE_WISHES.items():
    PILE_KEEP[_e - _PILE_FIRST] = _k
    PILE_BUY[_e - _PILE_FIRST] = _b
    PILE_ORDER[_e - _PILE_FIRST] = _o


@nb.njit(cache=True)
def pile_keep(e):
    return PILE_KEEP[e - _PILE_FIRST]


@nb.njit(cache=True)
def pile_buy(e):
    return PILE_BUY[e - _PILE_FIRST]


@nb.njit(cache=True)
def pile_order(e):
    return PILE_ORDER[e - _PILE_FIRST]


@nb.njit(cache=True)
def pile_useful(obs, keep, e):
    """Activate a pile card only when it has something to clean (or to draw)."""
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
            if obs[O_PLAYERS + PB_DISCARD + c] > 0 and keep[c] >= TAKE_BACK_KEEP:
                return True
        return False
    if e == E_FACTORY_SUPPORT:   # the removal must find a cube not worth keeping
        for c in range(NUM_COLOURS):
            if (obs[O_PLAYERS + PB_ACTIVE + c] + obs[O_PLAYERS + PB_DISCARD + c] > 0
                    and keep[c] <= FS_REMOVE_KEEP):
                return True
        return False
    return is_pile_effect(e)   # Performance Testing: always


@nb.njit(cache=True)
def _least_wanted(mask, keep, a_active, a_discard, prefer_discard):
    """Legal cube with the lowest ``keep`` (wear first); ties go to the preferred pile."""
    best = -1
    best_key = 0
    for c in range(NUM_COLOURS):
        for a, bias in ((a_discard, 0 if prefer_discard else 1),
                        (a_active, 1 if prefer_discard else 0)):
            if a >= 0 and mask[a + c]:
                key = keep[c] * 2 + bias
                if best < 0 or key < best_key:
                    best = a + c
                    best_key = key
    return best


@nb.njit(cache=True)
def pile_decision(obs, mask, keep, phase, a_stop, a_draw, a_active, a_discard):
    """The agent's answer to a pile decision (-1: not one of them)."""
    if not is_pile_phase(phase):
        return -1
    if phase == PH_FACTORY_SUPPORT:
        return _least_wanted(mask, keep, a_active, a_discard, True)
    if phase == PH_MAINTENANCE_STAFF:
        if mask[a_active + WEAR]:
            return a_active + WEAR
        return a_stop
    if phase == PH_PERFORMANCE_TESTING:
        return a_draw if mask[a_draw] else a_stop
    if phase in (PH_IMPACT_WRENCH, PH_PIT_MECHANIC):
        return a_discard + WEAR if mask[a_discard + WEAR] else a_stop
    if phase == PH_INTERNAL_COMBUSTION:
        return _least_wanted(mask, keep, a_active, -1, False)
    if phase == PH_IC_TAKE:
        best = a_stop
        best_key = TAKE_BACK_KEEP - 1
        for c in range(NUM_COLOURS):
            if mask[a_discard + c] and keep[c] > best_key:
                best = a_discard + c
                best_key = keep[c]
        if obs[O_PICKS] <= 0:
            return a_stop
        return best
    return -1


@nb.njit(cache=True)
def rule_based(p, obs, mask):
    phase = -1
    for k in range(NUM_PHASES):
        if obs[O_DECISION + k] > 0.5:
            phase = k
            break
    eff = _effects(obs)
    action = -1
    if phase in (PH_SETUP_BUY, PH_BUY, PH_PIT_TEAM_BUY):
        action = _buy(obs, mask, eff)
    elif phase == PH_ACTION:
        action = _action(obs, mask, eff)
    elif phase == PH_MOVE:
        action = _farthest_space(obs, mask)
        if action < 0:
            action = A_STOP
    elif phase == PH_CAR_CHIEF:
        for g in range(DARK, WHITE - 1, -1):      # upgrade the best gear below black
            if mask[A_DISCARD + g]:
                action = A_DISCARD + g
                break
    elif phase == PH_ENGINEER:
        action = _wear(mask, A_ACTIVE)
        if action < 0:
            action = A_STOP
    elif phase == PH_REMOVE:
        action = _wear(mask, A_DISCARD)
        if action < 0:
            action = A_STOP if mask[A_STOP] else _pick(mask, A_DISCARD, eff, True)
    elif phase == PH_MANAGER_REMOVE:
        action = A_ACTIVE + WEAR if mask[A_ACTIVE + WEAR] else A_STOP
    elif phase == PH_MANAGER_BAG:
        action = A_STOP
    elif phase == PH_MECHANIC:
        action = _wear(mask, A_ACTIVE)
        if action < 0:
            action = _pick(mask, A_ACTIVE, eff, True)
    elif phase == PH_PIT_CREW:
        action = A_ALL_WEAR
    elif phase == PH_PIT_TEAM:
        action = _wear(mask, A_DISCARD)
        if action < 0:
            action = A_STOP if mask[A_STOP] else _pick(mask, A_DISCARD, eff, True)
    elif phase in (PH_STEERING, PH_TIRES):
        for g in range(BLACK, LIGHT - 1, -1):
            if mask[A_ACTIVE + g]:
                action = A_ACTIVE + g
                break
    elif phase == PH_SUSPENSION:
        for g in range(BLACK, WHITE - 1, -1):
            if mask[A_DISCARD + g]:
                action = A_DISCARD + g
                break
    elif phase == PH_BOOST:
        action = A_DRAW if (mask[A_DRAW] and obs[O_PICKS] > 1) else A_STOP
    elif phase == PH_BOOST_OTHER:
        action = A_DRAW if mask[A_DRAW] else A_STOP
    elif phase == PH_NITRO:
        best_key = -99
        for c in range(NUM_COLOURS):
            if mask[A_ACTIVE + c] and obs[O_DRAWN + c] > 0 and _keep(eff, c) > best_key:
                best_key = _keep(eff, c)
                action = A_ACTIVE + c
    elif phase == PH_SUPERCHARGED:
        action = _pick(mask, A_DISCARD, eff, False)
        if action < 0 or _keep(eff, action - A_DISCARD) < 2:
            action = A_STOP
    elif is_pile_phase(phase):   # Racing Season pile cards
        action = pile_decision(obs, mask, _keeps(eff), phase, A_STOP, A_DRAW, A_ACTIVE,
                               A_DISCARD)
    if action < 0 or not mask[action]:
        for a in range(mask.shape[0]):
            if mask[a]:
                return a
    return action


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Built-in agent ``code``: 0 uniformly random, 1 rule-based."""
    if code == 1:
        return rule_based(p, obs, mask)
    return uniform_legal(words, mask)

