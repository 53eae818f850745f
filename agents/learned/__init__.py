"""Learned agents: networks, their checkpoints and the MaskablePPO adapter."""
