"""The tuned agent of the Automobiles Racing Season campaign: races played by the tuned
race policy with the seat's vector, sponsor decisions by the rule-based season agent.

Codes as in :mod:`transit_gym.agents.tuned.automobiles` (0 random, 1 rule-based, ``2 + k``
tuned with the ``k``-th vector appended to the season parameters).
"""

from __future__ import annotations

import numba as nb

import transit_gym.envs  # noqa: F401  (kernel cache set-up)
from transit_gym.agents.rule_based.automobiles_season import policy as season_policy
from transit_gym.agents.rule_based.automobiles_season import season_rule_based
from transit_gym.agents.tuned.automobiles import (  # noqa: F401  (re-exported)
    TUNED_CODE,
    params_with_vectors,
    read_vector,
    tuned,
)
from transit_gym.envs.automobiles.encode import OBS_SIZE as RACE_OBS_SIZE
from transit_gym.envs.automobiles.kernels import NUM_ACTIONS as RACE_ACTIONS
from transit_gym.envs.automobiles_season.kernels import SO_DECISION
from transit_gym.envs.automobiles_season.state import NUM_SEASON_PHASES


@nb.njit(cache=True)
def policy(code, p, obs, mask, words):
    """Agent ``code``: 0 random, 1 rule-based, ``2 + k`` tuned (vector ``k`` of ``p``)."""
    if code < TUNED_CODE:
        return season_policy(code, p, obs, mask, words)
    for k in range(1, NUM_SEASON_PHASES):
        if obs[SO_DECISION + k] > 0.5:
            return season_rule_based(p, obs, mask)
    return tuned(read_vector(p, code - TUNED_CODE), obs[:RACE_OBS_SIZE], mask[:RACE_ACTIONS])
