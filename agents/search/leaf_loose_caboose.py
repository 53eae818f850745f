"""Leaf evaluation of Loose Caboose! for the search agent: penalty points so far.

Only used when a rollout is cut short (the default plays Loose Caboose! games to the end:
they are short). A seat's strength is minus its penalty points so far (fewest points wins:
``envs.loose_caboose.potential.strengths``, also the reward-shaping measure); win
probability per seat ``softmax(strength / TEMPERATURE)``.
"""

from __future__ import annotations

import numba as nb

from transit_gym.agents.search.leaf import leaf_evaluation
from transit_gym.envs.loose_caboose.potential import strengths as minus_penalties

#: win-probability temperature in penalty points
TEMPERATURE = 4.0


@nb.njit(cache=True)
def strengths(s, p, out):
    """Minus the penalty points per seat; the temperature does not change (returns 0)."""
    minus_penalties(s, p, out)
    return 0.0


@nb.njit(cache=True)
def temperature(left):
    """The win-probability temperature: ``TEMPERATURE`` all game long."""
    return TEMPERATURE


#: expected reward per seat of a running game (see the module docstring)
evaluate = leaf_evaluation(strengths, temperature)
