"""Built-in Loose Caboose! agents as one jitted kernel (code 0 random, 1 rule-based).

The rule-based agent reads only its observation and mask. On its first decision it
scores passing against laying all its cards of each value: laying removes those
points from the hand (hands count at the end) and lengthens the track ahead, while
the dice may derail the caboose (expected derail steps from the exact wheel
distribution) or pass Broken Tracks. It then lays every card of the chosen value,
ordinary tracks before Broken Tracks, straight before curves, and rolls.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.envs.core.draw import uniform_legal
from transit_gym.envs.loose_caboose.data import MAX_VALUE
from transit_gym.envs.loose_caboose.encode import (
    AHEAD_WINDOW,
    O_BACK,
    O_BROKEN_AHEAD,
    O_DECISION,
    O_HAND,
    O_RAILWAY,
)
from transit_gym.envs.loose_caboose.kernels import A_PASS, A_ROLL, play_action
from transit_gym.envs.loose_caboose.state import P_FACES, P_NUM_FACES

MEAN_CARD = 2.5       # average value of a penalty card when the back of the railway is unknown
MAX_WHEELS = 6 * MAX_VALUE + 1


@nb.njit(cache=True)
def wheel_distribution(p, dice):
    """Probability of each wheel total when rolling ``dice`` dice."""
    n_faces = p[P_NUM_FACES]
    dist = np.zeros(MAX_WHEELS, dtype=np.float64)
    dist[0] = 1.0
    for _ in range(dice):
        new = np.zeros(MAX_WHEELS, dtype=np.float64)
        for total in range(MAX_WHEELS):
            if dist[total] == 0.0:
                continue
            for f in range(n_faces):
                w = total + p[P_FACES + f]
                if w < MAX_WHEELS:
                    new[w] += dist[total] / n_faces
        dist = new
    return dist


@nb.njit(cache=True)
def _next_penalty_value(obs, k):
    v = obs[O_BACK + k] * 4.0 if k < 8 else 0.0
    return v if v > 0.0 else MEAN_CARD


@nb.njit(cache=True)
def play_score(p, obs, value, count):
    """Expected gain of laying ``count`` cards of ``value`` and rolling."""
    ahead = int(obs[O_RAILWAY + 1]) + count
    dist = wheel_distribution(p, value)
    expected_derail = 0.0
    broken_hits = 0.0
    for w in range(MAX_WHEELS):
        if dist[w] == 0.0:
            continue
        if w > ahead:
            expected_derail += dist[w] * (w - ahead)
        for k in range(min(w, ahead, AHEAD_WINDOW)):
            broken_hits += dist[w] * obs[O_BROKEN_AHEAD + k]
    cost = 0.0
    for k in range(int(expected_derail + broken_hits + 0.999)):
        cost += _next_penalty_value(obs, k)
    per_card = cost / max(1.0, float(int(expected_derail + broken_hits + 0.999)))
    return value * count - per_card * (expected_derail + broken_hits)


@nb.njit(cache=True)
def _lay_preference(mask, value):
    """Ordinary before Broken Track, straight before curves; -1 if none is legal."""
    for broken in range(2):
        for turn in range(3):
            a = play_action(value, broken, turn)
            if mask[a]:
                return a
    return -1


@nb.njit(cache=True)
def rule_based(p, obs, mask):
    if obs[O_DECISION + 1] > 0.0:          # continuing: lay every card of the value
        for a in range(mask.shape[0]):
            if a != A_ROLL and mask[a]:
                return _lay_preference(mask, (a - 2) // 6 + 1)
        return A_ROLL
    best = -_next_penalty_value(obs, 0)   # passing costs one penalty card
    best_action = A_PASS
    for value in range(1, MAX_VALUE + 1):
        first = _lay_preference(mask, value)
        if first < 0:
            continue
        count = 0
        for kind in range(4):
            count += int(obs[O_HAND + (value - 1) * 4 + kind])
        score = play_score(p, obs, value, count)
        if score > best:
            best = score
            best_action = first
    return best_action


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Built-in agent ``code``: 0 uniformly random, 1 rule-based."""
    if code == 1:
        return rule_based(p, obs, mask)
    return uniform_legal(words, mask)

