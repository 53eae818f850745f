"""Learned agents: the MaskablePPO checkpoint agent (``ppo``, agent spec ``ppo``) and the
shipped checkpoints (``checkpoints/``)."""
