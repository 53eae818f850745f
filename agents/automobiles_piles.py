"""The rule-based Automobiles agent's play of the Racing Season cards that change piles
(Factory Support, Maintenance Staff, Performance Testing, Air Jacks, Impact Wrench, Pit
Mechanic, Internal Combustion); ``agents.automobiles`` dispatches to these functions.

What it does: removal effects take wear first, then the least wanted cube; draws are
always taken (Performance Testing costs no wear); Internal Combustion discards the least
wanted active cube and takes back only strongly wanted cubes (each costs a wear cube).
Like the rest of the agent it reads only its observation and mask.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles.data import (
    E_AIR_JACKS,
    E_FACTORY_SUPPORT,
    E_IMPACT_WRENCH,
    E_INTERNAL_COMBUSTION,
    E_MAINTENANCE_STAFF,
    E_PERFORMANCE_TESTING,
    E_PIT_MECHANIC,
    NUM_COLOURS,
    WEAR,
)
from transit_gym.envs.automobiles.encode import (
    O_PICKS,
    O_PLAYERS,
    PB_ACTIVE,
    PB_DISCARD,
    PB_USED,
)
from transit_gym.envs.automobiles.expansion_piles import is_pile_effect, is_pile_phase
from transit_gym.envs.automobiles.state import (
    PH_FACTORY_SUPPORT,
    PH_IC_TAKE,
    PH_IMPACT_WRENCH,
    PH_INTERNAL_COMBUSTION,
    PH_MAINTENANCE_STAFF,
    PH_PERFORMANCE_TESTING,
    PH_PIT_MECHANIC,
)

#: a cube worth a wear cube to take back with Internal Combustion (scale of ``keep``)
TAKE_BACK_KEEP = 4

# per pile effect: how much the agent wants to keep / to buy a cube, activation order
# (lower first; the base agent's scale: gears 52-58 go last, 99 never)
_WISHES = {
    E_FACTORY_SUPPORT: (4, 3, 5),
    E_MAINTENANCE_STAFF: (3, 2, 12),
    E_PERFORMANCE_TESTING: (3, 2, 4),
    E_AIR_JACKS: (3, 3, 7),
    E_IMPACT_WRENCH: (4, 4, 45),     # after the movers that gain wear
    E_PIT_MECHANIC: (4, 4, 8),
    E_INTERNAL_COMBUSTION: (4, 3, 13),
}
_FIRST = min(_WISHES)
_SIZE = max(_WISHES) - _FIRST + 1
PILE_KEEP = np.zeros(_SIZE, dtype=np.int64)
PILE_BUY = np.zeros(_SIZE, dtype=np.int64)
PILE_ORDER = np.full(_SIZE, 99, dtype=np.int64)
for _e, (_k, _b, _o) in _WISHES.items():
    PILE_KEEP[_e - _FIRST], PILE_BUY[_e - _FIRST], PILE_ORDER[_e - _FIRST] = _k, _b, _o


@nb.njit(cache=True)
def pile_keep(e):
    return PILE_KEEP[e - _FIRST]


@nb.njit(cache=True)
def pile_buy(e):
    return PILE_BUY[e - _FIRST]


@nb.njit(cache=True)
def pile_order(e):
    return PILE_ORDER[e - _FIRST]


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
    return is_pile_effect(e)   # Factory Support, Performance Testing: always


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
