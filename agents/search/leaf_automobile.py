"""Leaf evaluation of Automobile for the search agent: net worth.

A seat's strength is what it would hold if the game ended now (Winning the game): cash, plus
the full building cost of its open factories and the parts factory value, minus the loans at
their repayment price, in thousands of dollars (``envs.automobile.potential.strengths``,
also the reward-shaping measure). Win probability per seat: ``softmax(strength /
temperature)``, the temperature (in $1000) shrinking linearly from ``TEMPERATURE_START`` in
the first turn to ``TEMPERATURE_END`` after the last. The two numbers were fitted to rule-
based self-play (docs/search.md).
"""

from __future__ import annotations

import numba as nb

from transit_gym.agents.search.leaf import leaf_evaluation
from transit_gym.envs.automobile.data import NUM_TURNS
from transit_gym.envs.automobile.potential import strengths as net_worth
from transit_gym.envs.automobile.state import TURN

#: win-probability temperature in $1000 at the start and at the end of the game
TEMPERATURE_START = 1.1
TEMPERATURE_END = 0.05


@nb.njit(cache=True)
def strengths(s, p, out):
    """Net worth per seat in $1000; returns the fraction of the game still to go (0..1)."""
    net_worth(s, p, out)
    left = 1.0 - s[TURN] / NUM_TURNS
    return min(max(left, 0.0), 1.0)


@nb.njit(cache=True)
def temperature(left):
    """The win-probability temperature with ``left`` (0..1) of the game to go."""
    return TEMPERATURE_END + (TEMPERATURE_START - TEMPERATURE_END) * left


#: expected reward per seat of a running game (see the module docstring)
evaluate = leaf_evaluation(strengths, temperature)
