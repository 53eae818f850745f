"""Leaf evaluation of Automobiles for the search agent: the race position.

A seat's strength is how far its car is past the start line in laps, counting the farthest
cube placed this turn for the seat on turn (where its car goes in the Car Phase):
``envs.automobiles.potential.laps_driven`` (the reward-shaping strength is it less a share
of wear). The leader wins with a probability that grows with its lead and with how little
of the race is left: ``softmax(strength / temperature)``, the temperature shrinking linearly from
``TEMPERATURE_START`` (laps, at the start) to ``TEMPERATURE_END`` (at the finish). The two
numbers were fitted to rule-based self-play (docs/search.md).
"""

from __future__ import annotations

import numba as nb

from transit_gym.agents.search.leaf import leaf_evaluation
from transit_gym.envs.automobiles.potential import laps_driven
from transit_gym.envs.automobiles.state import P_LAPS, P_NUM_PLAYERS

#: win-probability temperature in laps at the start and at the end of the race
TEMPERATURE_START = 0.8
TEMPERATURE_END = 0.05


@nb.njit(cache=True)
def strengths(s, p, out):
    """Laps driven per seat (the seat on turn counted at its farthest placed cube);
    returns the fraction of the race still to go for the leader (0..1)."""
    laps_driven(s, p, out)
    best = -1e9
    for seat in range(p[P_NUM_PLAYERS]):
        best = max(best, out[seat])
    left = 1.0 - best / p[P_LAPS]
    return min(max(left, 0.0), 1.0)


@nb.njit(cache=True)
def temperature(left):
    """The win-probability temperature with ``left`` (0..1) of the game to go."""
    return TEMPERATURE_END + (TEMPERATURE_START - TEMPERATURE_END) * left


#: expected reward per seat of a running game (see the module docstring)
evaluate = leaf_evaluation(strengths, temperature)
