"""Shipped MaskablePPO checkpoints (``<game>_ppo.zip``), loaded by the agent spec ``ppo``."""
