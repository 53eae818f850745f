"""The rule-based Automobiles agent's play of the Racing Season drivers (jitted; reads only
the observation and the mask). ``agents/automobiles.py`` dispatches here.

Draft: the first legal driver in ``DRIVER_PREFERENCE`` (more cubes each turn first, then
an extra car space, wear cleaning, the rest). Abilities: Driver 02 takes the most wanted
discard cube into the hand; 03 returns up to three wanted cubes to the bag; 04 draws
three, removes wear, spends weak cubes as money and bags the rest; 05 spends money left
over after buying on removing wear; 06 and 01 move the car as far as they can (06 avoids
raising the Decline wear when it can); 07 and 09 always draw; 08 removes wear; 10
redraws wear cubes.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles.data import NUM_COLOURS, NUM_GEARS, WEAR
from transit_gym.envs.automobiles.driver_data import NUM_DRIVERS
from transit_gym.envs.automobiles.encode import (
    O_DRIVER_HELD,
    O_DRIVERS,
    O_PLAYERS,
    O_SPACES,
    O_TURN,
    PB_DISCARD,
    SB_AHEAD,
    SB_COLOURS,
    SPACE_BLOCK,
)
from transit_gym.envs.automobiles.kernels import (
    A_ACTIVE,
    A_DISCARD,
    A_DRAW,
    A_DRIVER,
    A_PIT_STOP,
    A_SPACE,
    A_STOCK,
    A_STOP,
    A_USE_DRIVER,
)
from transit_gym.envs.automobiles.state import (
    PH_ACTION,
    PH_BUY,
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
)

#: draft order of preference (driver numbers)
DRIVER_PREFERENCE = np.array([9, 2, 6, 7, 8, 10, 4, 1, 5, 3], dtype=np.int64)
WANTED = 2        # a cube this wanted (the agent's keep value) is worth fetching
BAG_WANTED = 3    # ... worth putting back into the bag (Driver 03)
WEAK = 1          # a drawn cube this weak is spent as money (Driver 04)


@nb.njit(cache=True)
def own_driver(obs):
    """The observer's driver number (0 = none)."""
    for d in range(NUM_DRIVERS):
        if obs[O_DRIVERS + d] > 0.5:
            return d + 1
    return 0


@nb.njit(cache=True)
def _best(mask, bank, keep, least):
    """The legal colour of ``bank`` with the highest keep value >= ``least`` (-1: none)."""
    best = -1
    for c in range(NUM_COLOURS):
        if mask[bank + c] and keep[c] >= least and (best < 0 or keep[c] > keep[best]):
            best = c
    return -1 if best < 0 else bank + best


@nb.njit(cache=True)
def _discard_has(obs, keep, least):
    for c in range(NUM_COLOURS):  # noqa: SIM110 - numba has no generators
        if obs[O_PLAYERS + PB_DISCARD + c] > 0 and keep[c] >= least:
            return True
    return False


@nb.njit(cache=True)
def _car_space(obs, mask, avoid_top):
    """The legal space farthest ahead; with ``avoid_top`` >= 0 prefer spaces whose highest
    colour is at most ``avoid_top`` (no extra Decline wear)."""
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
                key -= 100.0
            if key > best_key:
                best_key = key
                best = a
    return best if best >= 0 else A_STOP


@nb.njit(cache=True)
def use_now(obs, mask, keep, phase, planned):
    """In the Action or Buy Phase: ``A_USE_DRIVER`` when the agent wants its ability now,
    else ``planned`` (the base agent's choice)."""
    if not mask[A_USE_DRIVER]:
        return planned
    d = own_driver(obs)
    if phase == PH_ACTION:
        if planned == A_PIT_STOP:   # a pit stop turn keeps its plan
            return planned
        if d == 2 and _discard_has(obs, keep, WANTED):
            return A_USE_DRIVER
        if d == 3 and _discard_has(obs, keep, BAG_WANTED):
            return A_USE_DRIVER
    elif phase == PH_BUY:
        if d == 4:
            return A_USE_DRIVER
        if d == 5 and planned == A_STOP and obs[O_PLAYERS + PB_DISCARD + WEAR] > 0:
            return A_USE_DRIVER
    return planned


@nb.njit(cache=True)
def decide(obs, mask, keep, phase):
    """The answer to a driver decision (-1 when ``phase`` is not one)."""
    if phase == PH_DRIVER_DRAFT:
        for d in DRIVER_PREFERENCE:
            if mask[A_DRIVER + d - 1]:
                return A_DRIVER + d - 1
        return -1
    if phase == PH_DRIVER_TO_ACTIVE:
        return _best(mask, A_DISCARD, keep, -99)
    if phase == PH_DRIVER_TO_BAG:
        a = _best(mask, A_DISCARD, keep, BAG_WANTED)
        return A_STOP if a < 0 else a
    if phase == PH_DRIVER_DECLARE:
        return A_DRAW if mask[A_DRAW] else A_STOP
    if phase == PH_DRIVER_SORT:
        if obs[O_DRIVER_HELD + WEAR] > 0 and mask[A_STOCK + WEAR]:
            return A_STOCK + WEAR
        for c in range(NUM_COLOURS):
            if mask[A_ACTIVE + c] and keep[c] <= WEAK:
                return A_ACTIVE + c
        return A_STOP
    if phase == PH_DRIVER_PAY:
        return A_DISCARD + WEAR if mask[A_DISCARD + WEAR] else A_STOP
    if phase == PH_DRIVER_CAR:
        return _car_space(obs, mask, int(obs[O_TURN + 3]) - 1)
    if phase == PH_DRIVER_DECLINE:
        return _car_space(obs, mask, -1)
    if phase == PH_DRIVER_WEAR:
        return A_DISCARD + WEAR if mask[A_DISCARD + WEAR] else A_STOP
    if phase == PH_DRIVER_EXTRA:
        return A_DRAW if mask[A_DRAW] else A_STOP
    if phase == PH_DRIVER_REDRAW:
        return A_ACTIVE + WEAR if mask[A_ACTIVE + WEAR] else A_STOP
    return -1
