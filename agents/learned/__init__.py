"""Learned agents: the MaskablePPO checkpoint agent (agent spec ``ppo``) and its shipped
checkpoints (``checkpoints/``); the flat-weight policy-value network (``network``, its torch
twin ``torch_net``) behind the specs ``net`` / ``net_mcts`` (``specs``, ``net_agent``)."""
