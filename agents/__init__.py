"""Agents: one interface (``Agent.act(observation, action_mask) -> int``) for random,
rule-based and trained policies of every game."""

import transit_gym.envs  # noqa: F401  (configures the kernel cache before any agent kernel is defined)
from transit_gym.agents.base import Agent, JitPolicyAgent, RandomAgent
from transit_gym.agents.registry import make_agent, policy_kernel

__all__ = ["Agent", "JitPolicyAgent", "RandomAgent", "make_agent", "policy_kernel"]
