"""Built-in Automobile agents as one jitted kernel (code 0 random, 1 rule-based).

The rule-based agent is the tuned decision procedure
(:mod:`transit_gym.agents.tuned.automobile`) at its rule-based vector. It reads only its
observation and mask. It never borrows and never closes. Each turn it builds on the most
advanced space it can reach in the segment with demand (middle class, mass market from
turn 3), adds factories there, keeps two salesmen in the middle-class showroom, produces
on its last action about what its salesmen, Howard and its share of the demand can absorb
(its own demand tiles tell it part of the demand), sells the dearest cars first and passes
in P6 unless an advertisement fits a space with many cars.
"""

from __future__ import annotations

import numba as nb

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.agents.tuned.automobile import RULE_BASED, decide
from transit_gym.envs.core.draw import uniform_legal


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
