"""Kernels of the Automobiles decision procedure that no vector entry changes: the market
read off the observation, the farthest space (of a move, of a driver's car move, of a Crate
Motor space), the cars Adrenaline would pass, Burnout's and Camber & Toe's gear, the cube
least or most wanted, and the legal fallback. Called by :mod:`.automobiles` (the rule-based
and tuned agents) and the season's procedure.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.envs.automobiles.data import (
    BLACK,
    LIGHT,
    MAX_SPACES,
    NUM_COLOURS,
    NUM_EFFECTS,
    NUM_GEARS,
    WHITE,
)
from transit_gym.envs.automobiles.encode import (
    O_DRIVERS,
    O_MARKET,
    O_PLAYERS,
    O_SPACES,
    PB_SEGMENT,
    SB_AHEAD,
    SB_CARS,
    SB_COLOURS,
    SB_OWN_CAR,
    SB_TURN_CUBE,
    SPACE_BLOCK,
)
from transit_gym.envs.automobiles.kernels import A_SPACE, A_STOP, A_USE_DRIVER
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS

DRAFT_BONUS = 0.05   # key bonus of a space that already holds a car (the car ends behind it)


@nb.njit(cache=True)
def effects(obs):
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
def legal_or_first(mask, action):
    """``action`` if it is legal, else the lowest legal action (a safety net for the rules)."""
    if action < 0 or not mask[action]:
        for a in range(mask.shape[0]):
            if mask[a]:
                return a
    return action


@nb.njit(cache=True)
def _space_key(obs, a):
    """(how far ahead legal space action ``a`` lies, slower colour a little ahead on a tie;
    the highest colour of the space)."""
    b = O_SPACES + (a - A_SPACE) * SPACE_BLOCK
    top = 0
    for g in range(NUM_GEARS):
        if obs[b + SB_COLOURS + g] > 0.5:
            top = g
    return obs[b + SB_AHEAD] * 8.0 - top * 0.01, top


@nb.njit(cache=True)
def farthest_space(obs, mask):
    """Legal space whose front edge is farthest ahead of the car (slower colour on a tie);
    -1 when none."""
    best = -1
    best_key = -1.0
    for a in range(A_SPACE, mask.shape[0]):
        if mask[a]:
            key, _ = _space_key(obs, a)
            if key > best_key:
                best_key = key
                best = a
    return best


@nb.njit(cache=True)
def driver_car_space(obs, mask, avoid_top):
    """The legal space farthest ahead; with ``avoid_top`` >= 0 only spaces whose highest
    colour is at most ``avoid_top`` (no extra Decline wear); ``A_STOP`` when none."""
    best = -1
    best_key = -1e9
    for a in range(A_SPACE, A_USE_DRIVER):
        if mask[a]:
            key, top = _space_key(obs, a)
            if avoid_top >= 0 and top > avoid_top:
                continue
            if key > best_key:
                best_key = key
                best = a
    return best if best >= 0 else A_STOP


@nb.njit(cache=True)
def cars_to_pass(obs):
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
def crate_move(obs, mask):
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
def pick(mask, bank, keep, worst_first):
    """A legal cube of ``bank``: the least wanted (``worst_first``) or the most wanted by
    ``keep`` (the first colour on a tie); -1 when none."""
    best = -1
    best_key = 0.0
    for c in range(NUM_COLOURS):
        if mask[bank + c]:
            key = -keep[c] if worst_first else keep[c]
            if best < 0 or key > best_key:
                best = c
                best_key = key
    return -1 if best < 0 else bank + best


@nb.njit(cache=True)
def least_wanted(mask, keep, a_active, a_discard, prefer_discard):
    """Legal cube with the lowest ``keep`` (wear first); ties go to the preferred pile."""
    best = -1
    best_key = 0.0
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
def driver_own(obs):
    """The observer's driver number (0 = none)."""
    for d in range(NUM_DRIVERS):
        if obs[O_DRIVERS + d] > 0.5:
            return d + 1
    return 0
