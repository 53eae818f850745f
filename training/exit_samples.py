"""The samples an expert-iteration game gives: each decision's observation, legal mask and
policy target, with the decider's final reward as the value target; and a teacher's target
at one decision. Shared by the trainer's self-play and teacher games
(:mod:`~transit_gym.training.exit`) and its DAgger rounds
(:mod:`~transit_gym.training.exit_dagger`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game, State

#: ``decide(state, seat, mask)``: a decision's policy target and the action played
Decide = Callable[[State, int, np.ndarray], tuple[np.ndarray, int]]


class Decisions:
    """The training samples of one game, gathered decision by decision."""

    def __init__(self, game: Game):
        self.game = game
        self.obs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.policies: list[np.ndarray] = []
        self.movers: list[int] = []

    def add(self, state, player: int, mask: np.ndarray, target: np.ndarray) -> None:
        """One decision of ``player``: its observation, legal mask and policy target."""
        self.obs.append(self.game.observe(state, player).copy())
        self.masks.append(mask.astype(np.int8))
        self.policies.append(target.astype(np.float32))
        self.movers.append(player)

    def samples(self, state) -> dict[str, np.ndarray]:
        """``obs``, ``mask``, ``policy`` and ``value`` (the decider's final reward)."""
        game = self.game
        rewards = game.rewards(state)
        return {"obs": np.asarray(self.obs, dtype=np.float32).reshape(-1, game.obs_size),
                "mask": np.asarray(self.masks, dtype=np.int8).reshape(-1, game.num_actions),
                "policy": np.asarray(self.policies,
                                     dtype=np.float32).reshape(-1, game.num_actions),
                "value": rewards[np.asarray(self.movers, dtype=np.int64)].astype(np.float32)}


def teacher_target(agent, state, player: int, mask: np.ndarray) -> tuple[np.ndarray, int]:
    """The teacher's policy target at a decision (a search agent's root visit
    distribution over the legal actions, any other agent's chosen action) and its action."""
    target = np.zeros(mask.shape[0], dtype=np.float64)
    if callable(getattr(agent, "search", None)):
        result = agent.search(state, player)
        target[:] = result.visits * mask
        action = int(result.action)
        if target.sum() <= 0:
            target[action] = 1.0
    else:
        action = agent.act_state(state, player)
        target[action] = 1.0
    return target / target.sum(), action


class Sampler(Agent):
    """A seat player of ``training.runs.seating`` that records every decision it is asked:
    ``decide`` gives the policy target and the action. It counts as a searching agent, so
    the loop plays forced moves (one legal action) without asking it: they teach nothing."""

    name = "sampler"
    needs_state = True

    def __init__(self, game: Game, decide: Decide):
        self.game, self.decide = game, decide
        self.decisions = Decisions(game)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise ConfigError("the sampler decides from the game state: call act_state")

    def act_state(self, state: State, seat: int) -> int:
        mask = self.game.legal_mask(state)
        target, action = self.decide(state, seat, mask)
        self.decisions.add(state, seat, mask, target)
        return action
