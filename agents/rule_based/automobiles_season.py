"""Built-in agents of the Automobiles Racing Season (code 0 random, 1 rule-based).

Race decisions are the race's rule-based agent's (``agents.rule_based.automobiles``) on the
race part of the observation and mask. Sponsor decisions, from the observation, the mask
and the sponsor table in the parameters: take the sponsor whose effect for this place is
worth most (keep the current one when it is worth at least as much, then remove the
available sponsor worth most to the others); remove wear first, then the cube least worth
keeping while the bag stays big enough (``MIN_BAG``, ``WEAK_CUBE`` of
``agents.rule_based.automobiles_tables``); gain and buy the cubes the race agent would buy.

It is the season's decision procedure (``agents.tuned.automobiles_season``) at the
rule-based vector.
"""

from __future__ import annotations

import numba as nb

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.agents.tuned.automobiles import RULE_BASED
from transit_gym.agents.tuned.automobiles_season import season_decision, season_tuned
from transit_gym.agents.tuned.automobiles_season import sponsor_worth as vector_worth
from transit_gym.envs.core.draw import uniform_legal


@nb.njit(cache=True)
def sponsor_worth(p, sponsor, place):
    """A rough dollar worth of ``sponsor``'s effect for ``place`` (0 first .. 2 last):
    money + 2 per extra cube + wear + 4 per cube gained + $ per extra cube x extra cubes +
    wear per non-wear cube."""
    return vector_worth(RULE_BASED, p, sponsor, place)


@nb.njit(cache=True)
def season_rule_based(p, obs, mask):
    """Rule-based answer to a sponsor decision."""
    return season_tuned(RULE_BASED, p, obs, mask)


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Built-in agent ``code``: 0 uniformly random, 1 rule-based."""
    if code != 1:
        return uniform_legal(words, mask)
    return season_decision(RULE_BASED, p, obs, mask)
