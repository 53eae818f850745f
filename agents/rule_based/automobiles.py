"""Built-in Automobiles agents as one jitted kernel (code 0 random, 1 rule-based).

The rule-based agent reads only its observation and mask. It races greedily: every
cube that moves the car is used (multi-space movers first, then gears from the highest
colour down), each step goes to the legal space whose front edge is farthest ahead, and
"up to" moves go as far as they can. Wear is cleaned: removal effects take wear first,
then white cubes; a hand with four or more wear cubes takes a pit stop. Money buys the
best affordable colour by a fixed preference (fast gears and movers, then pit cards),
one cube at a time while something worth buying is affordable. Racing Season: drivers
are drafted by measured win share and their abilities used when they help; the
expansion's cards are bought, activated and answered by their values.

It is the one Automobiles decision procedure (``agents.tuned.automobiles.tuned``) at the
rule-based vector, whose values are ``agents.rule_based.automobiles_tables``.
"""

from __future__ import annotations

import numba as nb

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.agents.tuned.automobiles import RULE_BASED, tuned
from transit_gym.envs.core.draw import uniform_legal


@nb.njit(cache=True)
def rule_based(p, obs, mask):
    """The rule-based agent's action (``p``, the game parameters, is not read)."""
    return tuned(RULE_BASED, obs, mask)


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Built-in agent ``code``: 0 uniformly random, 1 rule-based."""
    if code == 1:
        return rule_based(p, obs, mask)
    return uniform_legal(words, mask)
