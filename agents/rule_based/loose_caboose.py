"""Built-in Loose Caboose! agents as one jitted kernel (code 0 random, 1 rule-based).

The rule-based agent reads only its observation and mask. On its first decision it
scores passing against laying all its cards of each value: laying removes those
points from the hand (hands count at the end) and lengthens the track ahead, while
the dice may derail the caboose (expected derail steps from the exact wheel
distribution) or pass Broken Tracks. It then lays every card of the chosen value,
ordinary tracks before Broken Tracks, straight before curves, and rolls.

It is the tuned decision procedure (:mod:`transit_gym.agents.tuned.loose_caboose`) at
the rule-based vector ``RULE_BASED``.
"""

from __future__ import annotations

import numba as nb

from transit_gym.agents.tuned.loose_caboose import RULE_BASED, decide, wheel_distribution
from transit_gym.envs.core.draw import uniform_legal

__all__ = ["policy", "rule_based", "wheel_distribution"]


@nb.njit(cache=True)
def rule_based(p, obs, mask):
    """The rule-based agent's action."""
    return decide(RULE_BASED, p, obs, mask)


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Built-in agent ``code``: 0 uniformly random, 1 rule-based."""
    if code == 1:
        return rule_based(p, obs, mask)
    return uniform_legal(words, mask)
