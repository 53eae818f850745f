"""The agent interface and the agents every game shares."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.restrict import check_forbidden, restrict_mask
from transit_gym.envs.core.rng import RNG_WORDS, fresh_seed, seeded_words


class Agent(ABC):
    """Chooses an action from what its seat sees: the observation and the legal mask."""

    name = "agent"
    #: True for agents that search from the game state (``act_state``) rather than act on
    #: the observation alone; they may read only what the game's ``determinize`` leaves
    needs_state: bool = False
    #: restricted play: the match's ``(num_players, num_actions)`` forbidden actions
    #: (None: unrestricted); set by :meth:`restrict`
    forbidden: np.ndarray | None = None

    def restrict(self, forbidden, game: Game) -> None:
        """Play under the match's forbidden actions (``forbidden[seat]`` may not be taken by
        ``seat``; None lifts it): :meth:`act_state` masks them, a search agent respects
        them for every seat it simulates."""
        self.forbidden = check_forbidden(forbidden, game.num_players, game.num_actions)

    def legal_mask(self, state: State, seat: int) -> np.ndarray:
        """``seat``'s legal mask in ``state`` without its forbidden actions
        (``ForbiddenError`` when none would be left)."""
        game = state.game
        return restrict_mask(game.legal_mask(state), self.forbidden, seat,
                             lambda a: game.describe_action(state, a))

    @abstractmethod
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action (``action_mask[action] == 1``)."""

    def reset(self, seed: int | None = None) -> None:  # noqa: B027 - optional hook
        """Start a new game; agents with a random stream reseed it."""

    def act_state(self, state: State, seat: int) -> int:
        """The action of ``seat``, to move in ``state``. Every game runner calls this; an
        observation agent sees ``seat``'s observation and mask, a search agent
        (``needs_state``) overrides it."""
        game = state.game
        return self.act(game.observe(state, seat), self.legal_mask(state, seat))


class RandomAgent(Agent):
    """Uniformly random legal actions from its own seeded stream."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self._rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RandomAgent.act: the mask has no legal action")
        return int(legal[self._rng.integers(legal.size)])


class JitPolicyAgent(Agent):
    """A built-in agent whose policy is a jitted kernel ``policy(code, p, obs, mask, words)``.

    The same kernel plays inside jitted games (``transit_gym.envs.core.rollout.play_games``), so an
    agent behaves identically in the AEC env, in tournaments and in balance sweeps.
    """

    def __init__(self, game: Game, policy, code: int, name: str, seed: int | None = None):
        self.game = game
        self.policy = policy
        self.code = code
        self.name = name
        self._words = np.zeros(RNG_WORDS, dtype=np.int64)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._words[:] = seeded_words(fresh_seed() if seed is None else seed, 0x5EED)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        obs = np.ascontiguousarray(observation, dtype=np.float32)
        mask = np.ascontiguousarray(action_mask, dtype=np.int8)
        if not mask.any():
            raise ValueError(f"{self.name}.act: the mask has no legal action")
        return int(self.policy(self.code, self.game.observation_params, obs, mask,
                               self._words))

    def act_state(self, state: State, seat: int) -> int:
        """``act`` on ``seat``'s observation and mask, with the parameter row of ``state``
        (a game whose options draw per reset plays one row per game), without the seat's
        forbidden actions under restricted play."""
        game = state.game
        obs = game.observe(state, seat)
        mask = np.ascontiguousarray(self.legal_mask(state, seat), dtype=np.int8)
        if not mask.any():
            raise ValueError(f"{self.name}.act_state: the mask has no legal action")
        return int(self.policy(self.code, game.params_of(state), obs, mask, self._words))
