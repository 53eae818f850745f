"""Leaf evaluation of Planes for the search agent: the victory points so far.

A seat's strength is its score as the game would count it now (goal VP plus VP per own cube
boarded on its plane: ``envs.planes.potential.strengths``, also the reward-shaping measure).
Win probability per seat: ``softmax(strength / temperature)``, the temperature (in VP)
shrinking linearly from ``TEMPERATURE_START`` at the start to ``TEMPERATURE_END`` as the
boarding track nears its end space. The two numbers were fitted to rule-based self-play
(docs/search.md).
"""

from __future__ import annotations

import numba as nb

from transit_gym.agents.search.leaf import leaf_evaluation
from transit_gym.envs.planes.potential import strengths as victory_points
from transit_gym.envs.planes.state import P_END_AT, TRACK

#: win-probability temperature in VP at the start and at the end of the game
TEMPERATURE_START = 8.0
TEMPERATURE_END = 1.0


@nb.njit(cache=True)
def strengths(s, p, out):
    """VP per seat; returns the fraction of the boarding track still to go (0..1)."""
    victory_points(s, p, out)
    left = 1.0 - s[TRACK] / p[P_END_AT]
    return min(max(left, 0.0), 1.0)


@nb.njit(cache=True)
def temperature(left):
    """The win-probability temperature with ``left`` (0..1) of the game to go."""
    return TEMPERATURE_END + (TEMPERATURE_START - TEMPERATURE_END) * left


#: expected reward per seat of a running game (see the module docstring)
evaluate = leaf_evaluation(strengths, temperature)
