"""Gymnasium ids of the single-agent training views.

``gymnasium.make("transit_gym/LooseCaboose-v0", opponents=["rule_based"], num_players=3)``
returns a :class:`~transit_gym.training.single_agent.SingleAgentEnv` (the learner's seat,
other seats played by built-in agents, ``action_masks()`` for MaskablePPO). Importing
``transit_gym.training`` registers them; prefixing the id with the module,
``gymnasium.make("transit_gym.training:transit_gym/Planes-v0")``, imports and makes in one
call. (Each example here runs as a test: ``tests/training/test_gym_registration_doc.py``.)

>>> import gymnasium
>>> import transit_gym.training
>>> env = gymnasium.make("transit_gym/LooseCaboose-v0", opponents=["rule_based"], num_players=3)
>>> env.unwrapped.game.num_players
3
>>> gymnasium.make("transit_gym.training:transit_gym/Planes-v0").unwrapped.game.name
'planes'

The registered ids default to ``illegal_action="lose"`` (the learner's illegal action ends
the episode with ``ILLEGAL_LOSS_REWARD``, PettingZoo's classic convention), where the
classes and ``make_single_agent_env`` default to ``"raise"``. Why: Gymnasium's
``check_env`` steps an action drawn *before* a seeded reset, which may be illegal in the
new game, and generic tools (SB3's ``make_vec_env`` with an unmasked PPO) must not crash on
their first illegal action. A masked learner (MaskablePPO) never plays an illegal action,
so it sees no difference. ``gymnasium.make(id, illegal_action="raise")`` restores the error:

>>> gymnasium.make("transit_gym/Automobile-v0").unwrapped.illegal_action
'lose'
>>> gymnasium.make("transit_gym/Automobile-v0", illegal_action="raise").unwrapped.illegal_action
'raise'
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

#: ``illegal_action`` of the registered ids (see the module docstring)
REGISTERED_ILLEGAL_ACTION = "lose"

ENTRY_POINT = "transit_gym.training.single_agent:make_single_agent_env"


def register_all() -> None:
    """Register every id (idempotent: ids already registered are left alone)."""
    for env_id, game in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            kwargs = {"game": game, "illegal_action": REGISTERED_ILLEGAL_ACTION}
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs=kwargs,
                               disable_env_checker=False)
