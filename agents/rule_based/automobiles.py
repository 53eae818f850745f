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
    E_ADRENALINE,  # Racing Season delayed cards
    E_AIR_JACKS,
    E_BUMP_RUN,
    E_BURNOUT,
    E_CAMBER_TOE,
    E_CRATE_MOTOR,
    E_ENGINEER,
    E_FACTORY_SUPPORT,
    E_FUEL_INJECTION,
    E_GEAR,
    E_IMPACT_WRENCH,
    E_INTERNAL_COMBUSTION,
    E_MAINTENANCE_STAFF,
    E_MECHANIC,
    E_OVERDRIVE,
    E_PERFORMANCE_TESTING,
    E_PIT_CAPTAIN,
    E_PIT_CREW,
    E_PIT_MECHANIC,
    E_PIT_TEAM,
    E_REDLINE,
    LIGHT,
    MAX_SPACES,  # Racing Season delayed cards
    NUM_COLOURS,
    NUM_EFFECTS,
    NUM_GEARS,
    WEAR,
    WHITE,
)
from transit_gym.envs.automobiles.encode import (
    O_COST,
    O_DECISION,
    O_DRAWN,
    O_DRIVER_HELD,
    O_DRIVERS,
    O_MARKET,
    O_MOVE_CARDS,
    O_PICKS,
    O_PLAYERS,
    O_SPACES,
    O_TURN,
    PB_ACTIVE,
    PB_DISCARD,
    PB_SEGMENT,  # Racing Season delayed cards
    PB_USED,
    SB_AHEAD,
    SB_CARS,  # Racing Season delayed cards
    SB_COLOURS,
    SB_OWN_CAR,  # Racing Season delayed cards
    SB_TURN_CUBE,  # Racing Season delayed cards
    SPACE_BLOCK,
)
from transit_gym.envs.automobiles.kernels import (
    A_ACTIVE,
    A_ALL_WEAR,
    A_DISCARD,
    A_DRAW,
    A_DRIVER,
    A_PIT_STOP,
    A_SPACE,
    A_STOCK,
    A_STOP,
    A_USE_DRIVER,
)
from transit_gym.envs.automobiles.racing_season.cards_piles import (  # Racing Season pile cards
    is_pile_effect,
    is_pile_phase,
)
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.automobiles.state import (
    NUM_PHASES,
    PH_ACTION,
    PH_ADRENALINE,  # Racing Season delayed cards
    PH_ADRENALINE_MOVE,
    PH_BOOST,
    PH_BOOST_OTHER,
    PH_BURNOUT,
    PH_BUY,
    PH_CAMBER_TOE,
    PH_CAR_CHIEF,
    PH_CRATE_MOVE,  # Racing Season delayed cards
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


# ----- Racing Season delayed cards: Adrenaline, Crate Motor --------------------------------------
# keep, buy, activation order (Adrenaline after every gear: its choice then knows the
# cubes placed; Crate Motor with the multi-space movers)
ADRENALINE_VALUES = np.array([3, 4, 59], dtype=np.int64)
CRATE_MOTOR_VALUES = np.array([4, 5, 25], dtype=np.int64)
DRAFT_BONUS = 0.05   # key bonus of a space that already holds a car (the car ends behind it)


@nb.njit(cache=True)
def _delayed_value(e, table):
    """Keep (0), buy (1) or order (2) value of an Adrenaline or Crate Motor cube."""
    if e == E_ADRENALINE:
        return ADRENALINE_VALUES[table]
    return CRATE_MOTOR_VALUES[table]


@nb.njit(cache=True)
def _cars_to_pass(obs):
    """Opponents' cars the car passes when it goes to the farthest cube placed this turn:
    those ahead of it in its own space, and those in spaces whose front edge lies
    strictly between the car's space and that cube's space."""
    reach = 0.0
    for sp in range(MAX_SPACES):
        b = O_SPACES + sp * SPACE_BLOCK
        if obs[b + SB_TURN_CUBE] > 0.5 and obs[b + SB_AHEAD] > reach:
            reach = obs[b + SB_AHEAD]
    if reach <= 0.0:
        return 0
    passed = int(obs[O_PLAYERS + PB_SEGMENT])
    for sp in range(MAX_SPACES):
        b = O_SPACES + sp * SPACE_BLOCK
        if obs[b + SB_OWN_CAR] < 0.5 and 0.0 < obs[b + SB_AHEAD] < reach:
            passed += int(obs[b + SB_CARS])
    return passed


@nb.njit(cache=True)
def _adrenaline(obs, mask):
    """Option 2 when the Car Phase will pass a car (2 spaces per car, not 1 now), else
    option 1's farthest light gray space."""
    if _cars_to_pass(obs) > 0:
        return A_STOP
    action = _farthest_space(obs, mask)
    return A_STOP if action < 0 else action


@nb.njit(cache=True)
def _crate_move(obs, mask):
    """An awarded free space: the farthest, ending behind a car (drafting) on a near tie."""
    best = A_STOP
    best_key = -1.0
    for a in range(A_SPACE, mask.shape[0]):
        if mask[a]:
            b = O_SPACES + (a - A_SPACE) * SPACE_BLOCK
            key = obs[b + SB_AHEAD] * 8.0
            if obs[b + SB_CARS] > 0.5:
                key += DRAFT_BONUS
            if key > best_key:
                best_key = key
                best = a
    return best
# ----- Racing Season: cards that move (Burnout, Camber & Toe, Redline, Fuel Injection Engine,
# Bump & Run, Overdrive; docs/racing_season/cards_moves.md), called from dispatch lines below.
# - Worth (keeping, buying) and activation order: the movers go before the gear cubes like
#   the base movers; Redline and Fuel Injection first of all, since they only change the
#   gear cubes activated after them.
# - Redline is used with a white gear cube in hand, Fuel Injection with at least
#   ``FUEL_MIN_GEARS`` gear cubes (it costs wear), neither when already active; Bump & Run
#   only when not leading (in first place it only gains wear); Camber & Toe only with a
#   white or light gray gear to give up.
# - Burnout names the highest gear of the discard pile (the fastest colour below it);
#   Camber & Toe gives up the lowest gear of the active pile.
#: effects without a value here (other expansion cards) are neither bought nor activated
NOT_KNOWN_KEEP = 1
NOT_KNOWN_ORDER = 99
#: gear cubes in hand that make Fuel Injection's 2 wear worth it
FUEL_MIN_GEARS = 3


@nb.njit(cache=True)
def move_card_keep(e):
    """How much a cube of effect ``e`` is worth keeping (scale of ``EFFECT_KEEP``)."""
    if e in (E_OVERDRIVE, E_BURNOUT, E_REDLINE, E_FUEL_INJECTION, E_BUMP_RUN):
        return 4
    if e == E_CAMBER_TOE:
        return 3
    return NOT_KNOWN_KEEP


@nb.njit(cache=True)
def move_card_buy(e):
    """How much the agent wants to buy a cube of effect ``e`` (0: never)."""
    if e == E_OVERDRIVE:     # like Turbo: up to 3 spaces for 1 wear
        return 5
    if e in (E_BURNOUT, E_REDLINE, E_FUEL_INJECTION, E_BUMP_RUN):   # like Gearbox, Diesel
        return 4
    if e == E_CAMBER_TOE:    # 1 space for a gear given up: kept, rarely bought
        return 3
    return 0


@nb.njit(cache=True)
def move_card_order(e):
    """Activation order of effect ``e`` (lower first; 99 never)."""
    if e == E_REDLINE:
        return 3
    if e == E_FUEL_INJECTION:
        return 4
    if e == E_OVERDRIVE:
        return 28
    if e == E_BUMP_RUN:
        return 29
    if e == E_BURNOUT:
        return 30
    if e == E_CAMBER_TOE:
        return 34
    return NOT_KNOWN_ORDER


@nb.njit(cache=True)
def move_card_useful(obs, e):
    """Whether activating a legal cube of effect ``e`` helps now."""
    own = O_PLAYERS + PB_ACTIVE
    if e == E_REDLINE:
        return obs[O_MOVE_CARDS] == 0 and obs[own + WHITE] > 0
    if e == E_FUEL_INJECTION:
        gears = 0.0
        for g in range(WHITE, BLACK + 1):
            gears += obs[own + g]
        return obs[O_MOVE_CARDS + 1] == 0 and gears >= FUEL_MIN_GEARS
    if e == E_BUMP_RUN:
        return obs[O_TURN + 2] > 1
    if e == E_CAMBER_TOE:
        return obs[own + WHITE] > 0 or obs[own + LIGHT] > 0
    return True


@nb.njit(cache=True)
def burnout_choice(mask, a_discard):
    """The highest discarded gear offered (its lower colour is the fastest)."""
    for g in range(BLACK, LIGHT - 1, -1):
        if mask[a_discard + g]:
            return a_discard + g
    return -1


@nb.njit(cache=True)
def camber_toe_choice(mask, a_active):
    """The lowest active gear offered (the cheapest to give up)."""
    for g in range(WHITE, BLACK + 1):
        if mask[a_active + g]:
            return a_active + g
    return -1


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
    if eff[c] == E_ADRENALINE or eff[c] == E_CRATE_MOTOR:   # Racing Season delayed cards
        return _delayed_value(eff[c], 0)
    if eff[c] == E_GEAR:
        return GEAR_KEEP[c]
    if is_pile_effect(eff[c]):   # Racing Season pile cards
        return pile_keep(eff[c])
    if eff[c] >= EFFECT_KEEP.shape[0]:   # Racing Season: cards that move
        return move_card_keep(eff[c])
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
    if eff[c] == E_ADRENALINE or eff[c] == E_CRATE_MOTOR:   # Racing Season delayed cards
        return _delayed_value(eff[c], 1)
    if eff[c] == E_GEAR:
        return GEAR_BUY[c]
    if is_pile_effect(eff[c]):   # Racing Season pile cards
        return pile_buy(eff[c])
    if eff[c] >= EFFECT_BUY.shape[0]:    # Racing Season: cards that move
        return move_card_buy(eff[c])
    return EFFECT_BUY[eff[c]]


@nb.njit(cache=True)
def _order(eff, c):
    if eff[c] == E_ADRENALINE or eff[c] == E_CRATE_MOTOR:   # Racing Season delayed cards
        return _delayed_value(eff[c], 2)
    if eff[c] == E_GEAR:
        return GEAR_ORDER[c]
    if is_pile_effect(eff[c]):   # Racing Season pile cards
        return pile_order(eff[c])
    if eff[c] >= EFFECT_ORDER.shape[0]:  # Racing Season: cards that move
        return move_card_order(eff[c])
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
    if e >= EFFECT_ORDER.shape[0]:   # Racing Season: cards that move
        return move_card_useful(obs, e)
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
def legal_or_first(mask, action):
    """``action`` if it is legal, else the lowest legal action (a safety net for the rules)."""
    if action < 0 or not mask[action]:
        for a in range(mask.shape[0]):
            if mask[a]:
                return a
    return action


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
    elif phase == PH_ADRENALINE:       # Racing Season delayed cards
        action = _adrenaline(obs, mask)
    elif phase == PH_ADRENALINE_MOVE:
        action = _farthest_space(obs, mask)
        if action < 0:
            action = A_STOP
    elif phase == PH_CRATE_MOVE:
        action = _crate_move(obs, mask)
    elif phase == PH_BURNOUT:        # Racing Season: cards that move
        action = burnout_choice(mask, A_DISCARD)
    elif phase == PH_CAMBER_TOE:
        action = camber_toe_choice(mask, A_ACTIVE)
    elif is_pile_phase(phase):   # Racing Season pile cards
        action = pile_decision(obs, mask, _keeps(eff), phase, A_STOP, A_DRAW, A_ACTIVE,
                               A_DISCARD)
    action = _drivers(obs, mask, eff, phase, action)   # Racing Season drivers
    return legal_or_first(mask, action)


@nb.njit(cache=True)
def _drivers(obs, mask, eff, phase, action):
    """Racing Season drivers: the draft, the abilities' decisions, and whether to use an
    Action/Buy Phase ability instead of the planned ``action``."""
    keep = np.zeros(NUM_COLOURS, dtype=np.int64)
    for c in range(NUM_COLOURS):
        keep[c] = _keep(eff, c)
    if phase in (PH_ACTION, PH_BUY):
        return _driver_use_now(obs, mask, keep, phase, action)
    choice = _driver_decide(obs, mask, keep, phase)
    return action if choice < 0 else choice


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Built-in agent ``code``: 0 uniformly random, 1 rule-based."""
    if code == 1:
        return rule_based(p, obs, mask)
    return uniform_legal(words, mask)

# ----- Racing Season drivers ----------------------------------------------------------------------
# Draft: the first legal driver in DRIVER_PREFERENCE (ordered by measured win share).
# Abilities: Driver 02 takes the most wanted discard cube into the hand; 03 returns up to
# three wanted cubes to the bag; 04 draws three, removes wear, spends weak cubes as money
# and bags the rest; 05 spends money left over after buying on removing wear; 01 moves the
# car as far as it can; 06 moves one more space only where it adds no Decline wear; 07 and
# 09 always draw; 08 removes wear; 10 redraws wear cubes.
#: draft order of preference (driver numbers), by the win share each driver had with this
#: agent in 4-player mirror games (docs/racing_season/drivers.md, Measurements)
DRIVER_PREFERENCE = np.array([8, 1, 10, 9, 4, 2, 7, 6, 3, 5], dtype=np.int64)
DRIVER_WANTED = 2        # a cube this wanted (the agent's keep value) is worth fetching
DRIVER_BAG_WANTED = 3    # ... worth putting back into the bag (Driver 03)
DRIVER_WEAK = 1          # a drawn cube this weak is spent as money (Driver 04)


@nb.njit(cache=True)
def _driver_own(obs):
    """The observer's driver number (0 = none)."""
    for d in range(NUM_DRIVERS):
        if obs[O_DRIVERS + d] > 0.5:
            return d + 1
    return 0


@nb.njit(cache=True)
def _driver_best(mask, bank, keep, least):
    """The legal colour of ``bank`` with the highest keep value >= ``least`` (-1: none)."""
    best = -1
    for c in range(NUM_COLOURS):
        if mask[bank + c] and keep[c] >= least and (best < 0 or keep[c] > keep[best]):
            best = c
    return -1 if best < 0 else bank + best


@nb.njit(cache=True)
def _driver_discard_has(obs, keep, least):
    for c in range(NUM_COLOURS):  # noqa: SIM110 - numba has no generators
        if obs[O_PLAYERS + PB_DISCARD + c] > 0 and keep[c] >= least:
            return True
    return False


@nb.njit(cache=True)
def _driver_car_space(obs, mask, avoid_top):
    """The legal space farthest ahead; with ``avoid_top`` >= 0 only spaces whose highest
    colour is at most ``avoid_top`` (no extra Decline wear); ``A_STOP`` when none."""
    best = -1
    best_key = -1e9
    for a in range(A_SPACE, A_USE_DRIVER):
        if mask[a]:
            b = O_SPACES + (a - A_SPACE) * SPACE_BLOCK
            top = 0
            for g in range(NUM_GEARS):
                if obs[b + SB_COLOURS + g] > 0.5:
                    top = g
            key = obs[b + SB_AHEAD] * 8.0 - top * 0.01
            if avoid_top >= 0 and top > avoid_top:
                continue
            if key > best_key:
                best_key = key
                best = a
    return best if best >= 0 else A_STOP


@nb.njit(cache=True)
def _driver_use_now(obs, mask, keep, phase, planned):
    """In the Action or Buy Phase: ``A_USE_DRIVER`` when the agent wants its ability now,
    else ``planned`` (the base agent's choice)."""
    if not mask[A_USE_DRIVER]:
        return planned
    d = _driver_own(obs)
    if phase == PH_ACTION:
        if planned == A_PIT_STOP:   # a pit stop turn keeps its plan
            return planned
        if d == 2 and _driver_discard_has(obs, keep, DRIVER_WANTED):
            return A_USE_DRIVER
        if d == 3 and _driver_discard_has(obs, keep, DRIVER_BAG_WANTED):
            return A_USE_DRIVER
    elif phase == PH_BUY:
        if d == 4:
            return A_USE_DRIVER
        if d == 5 and planned == A_STOP and obs[O_PLAYERS + PB_DISCARD + WEAR] > 0:
            return A_USE_DRIVER
    return planned


@nb.njit(cache=True)
def _driver_decide(obs, mask, keep, phase):
    """The answer to a driver decision (-1 when ``phase`` is not one)."""
    if phase == PH_DRIVER_DRAFT:
        for d in DRIVER_PREFERENCE:
            if mask[A_DRIVER + d - 1]:
                return A_DRIVER + d - 1
        return -1
    if phase == PH_DRIVER_TO_ACTIVE:
        return _driver_best(mask, A_DISCARD, keep, -99)
    if phase == PH_DRIVER_TO_BAG:
        a = _driver_best(mask, A_DISCARD, keep, DRIVER_BAG_WANTED)
        return A_STOP if a < 0 else a
    if phase == PH_DRIVER_DECLARE:
        return A_DRAW if mask[A_DRAW] else A_STOP
    if phase == PH_DRIVER_SORT:
        if obs[O_DRIVER_HELD + WEAR] > 0 and mask[A_STOCK + WEAR]:
            return A_STOCK + WEAR
        for c in range(NUM_COLOURS):
            if mask[A_ACTIVE + c] and keep[c] <= DRIVER_WEAK:
                return A_ACTIVE + c
        return A_STOP
    if phase == PH_DRIVER_PAY:
        return A_DISCARD + WEAR if mask[A_DISCARD + WEAR] else A_STOP
    if phase == PH_DRIVER_CAR:
        return _driver_car_space(obs, mask, int(obs[O_TURN + 3]) - 1)
    if phase == PH_DRIVER_DECLINE:
        return _driver_car_space(obs, mask, -1)
    if phase == PH_DRIVER_WEAR:
        return A_DISCARD + WEAR if mask[A_DISCARD + WEAR] else A_STOP
    if phase == PH_DRIVER_EXTRA:
        return A_DRAW if mask[A_DRAW] else A_STOP
    if phase == PH_DRIVER_REDRAW:
        return A_ACTIVE + WEAR if mask[A_ACTIVE + WEAR] else A_STOP
    return -1
