"""Gymnasium ids of the single-agent training views.

``gymnasium.make("transit_gym/LooseCaboose-v0", opponents=["rule_based"], num_players=3)``
returns a :class:`~transit_gym.training.single_agent.SingleAgentEnv` (the learner's seat,
other seats played by built-in agents, ``action_masks()`` for MaskablePPO). Importing
``transit_gym.training`` registers them; ``gymnasium.make("transit_gym.training:Planes-v0")``
imports and makes in one call.
"""

from __future__ import annotations

import gymnasium

#: Gymnasium id -> game name
GYM_IDS: dict[str, str] = {
    "transit_gym/LooseCaboose-v0": "loose_caboose",
    "transit_gym/Automobiles-v0": "automobiles",
    "transit_gym/Automobile-v0": "automobile",
    "transit_gym/Planes-v0": "planes",
}

ENTRY_POINT = "transit_gym.training.single_agent:make_single_agent_env"


def register_all() -> None:
    """Register every id (idempotent: ids already registered are left alone)."""
    for env_id, game in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs={"game": game},
                               disable_env_checker=False)
