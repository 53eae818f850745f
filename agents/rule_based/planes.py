"""Built-in Planes agents as one jitted kernel (code 0 random, 1 rule-based).

The rule-based agent is the tuned decision procedure
(:mod:`transit_gym.agents.tuned.planes`, where its plan search and board valuation are
described) at the rule-based vector: own cubes boarded (5), cubes of no player boarded
(2 cards), opponents' cubes boarded (-4), the best goal in hand the board shows plus a
quarter of the others, own spaces ready to board (2.5), opponents' (-1), and 0.08 per own
cube and space from the own gate; it plays a card as an action when the better move it
allows outweighs 0.8 of the card's goal VP. Where the procedure has no choice of its own
it plays uniformly at random.
"""

from __future__ import annotations

import numba as nb

from transit_gym.agents.tuned.planes import RULE_BASED, play
from transit_gym.envs.core.draw import uniform_legal

__all__ = ["policy", "rule_based"]


@nb.njit(cache=True)
def rule_based(p, obs, mask, words):
    """The rule-based agent's action."""
    return play(RULE_BASED, p, obs, mask, words)


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Built-in agent ``code``: 0 uniformly random, 1 rule-based."""
    if code == 1:
        return rule_based(p, obs, mask, words)
    return uniform_legal(words, mask)
