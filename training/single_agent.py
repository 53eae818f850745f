"""A single-agent Gymnasium view of any transit-gym game, for MaskablePPO.

The learner holds one seat; every other seat is played inside the env by agents
(random, rule-based, or frozen snapshots of the learner drawn from a pool). A
trajectory therefore contains only the learner's own decisions, with the reward
of the game's end from its seat. (PettingZoo's SB3 tutorial instead interleaves
both seats' turns into one trajectory, and its agent loses to random.)

An illegal action of the learner is handled by ``illegal_action``: ``"raise"`` (the
default: ``IllegalActionError``, a ``ValueError`` naming the action and the legal ones),
``"lose"`` (PettingZoo's classic convention: the episode ends and the learner gets
``ILLEGAL_LOSS_REWARD``) or ``"random_legal"`` (a uniformly random legal action from the
episode's seeded stream is played instead). Unmasked algorithms need one of the last two.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

from transit_gym.agents.base import Agent
from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.errors import (
    ConfigError,
    IllegalActionError,
    illegal_action_message,
    unknown_keywords_message,
)
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.options import check_reward_shaping
from transit_gym.envs.core.rng import fresh_seed
from transit_gym.envs.core.shaping import Shaping


class OpponentPool:
    """Agents the other seats are drawn from at every reset (grows with snapshots)."""

    def __init__(self, agents: Sequence[Agent], max_size: int = 8):
        if not agents:
            raise ConfigError("the opponent pool needs at least one agent")
        self.agents: list[Agent] = list(agents)
        self.max_size = max_size
        self._fixed = len(self.agents)

    def add(self, agent: Agent) -> None:
        """Add a snapshot; the oldest snapshot leaves once the pool is full."""
        self.agents.append(agent)
        if len(self.agents) > max(self.max_size, self._fixed + 1):
            del self.agents[self._fixed]

    def sample(self, rng: np.random.Generator) -> Agent:
        return self.agents[int(rng.integers(len(self.agents)))]


def build_pool(game: Game, kinds: Sequence[str], seed: int = 0) -> OpponentPool:
    """Pool of built-in agents by name (``random``, ``rule_based``)."""
    return OpponentPool([make_agent(kind, game, seed=seed + i) for i, kind in enumerate(kinds)])


class LegalDiscrete(gymnasium.spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws a legal action of the
    current decision (``legal()`` gives the int8 mask), so generic tools that step an env
    with ``action_space.sample()`` (Gymnasium's and SB3's checkers, smoke tests) play legal
    games; with an explicit ``mask`` it behaves like ``Discrete``."""

    def __init__(self, n: int, legal: Callable[[], np.ndarray]):
        super().__init__(n)
        self._legal = legal

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None):
        if mask is None and probability is None:
            legal = self._legal()
            if legal.any():
                mask = legal.astype(np.int8)
        return super().sample(mask=mask, probability=probability)

    def __reduce__(self):
        return (gymnasium.spaces.Discrete, (int(self.n),))


#: what ``step`` does with an illegal action of the learner
ILLEGAL_ACTION_MODES = ("raise", "lose", "random_legal")
#: the learner's reward when ``illegal_action="lose"`` ends the episode: what a lone loser
#: gets under the games' default win/loss rewards (PettingZoo's classic games give -1 too)
ILLEGAL_LOSS_REWARD = -1.0
#: stream tag of the substitutes drawn by ``illegal_action="random_legal"``
SUBSTITUTE_STREAM = 0x5B57


class SingleAgentEnv(gymnasium.Env):
    """The learner's seat of ``game``; other seats are played by agents from ``pool``.

    ``render_mode``: ``"ansi"`` (the table as text) or ``"rgb_array"`` (the game's picture,
    ``(H, W, 3) uint8``), both of the whole table as the AEC env draws it."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, game: Game, pool: OpponentPool, learner_seat: int | str = "random",
                 seed: int | None = None, render_mode: str | None = None,
                 illegal_action: str = "raise", reward_shaping: Any = None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode must be None or one of "
                              f"{self.metadata['render_modes']}, got {render_mode!r}")
        if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL_ACTION_MODES:
            raise ConfigError(f"illegal_action must be one of {list(ILLEGAL_ACTION_MODES)}, "
                              f"got {illegal_action!r}")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        coefficient = check_reward_shaping("reward_shaping", reward_shaping)
        self.reward_shaping = reward_shaping
        self._shaping = None if coefficient is None else Shaping(game, coefficient)
        self._phi = 0.0
        if learner_seat != "random" and not (
            isinstance(learner_seat, int) and 0 <= learner_seat < game.num_players
        ):
            raise ConfigError(
                f"learner_seat must be 'random' or 0..{game.num_players - 1}, got {learner_seat!r}"
            )
        self.game = game
        self.pool = pool
        self.learner_seat_option = learner_seat
        low, high = game.obs_low_high()
        self.observation_space = gymnasium.spaces.Box(low=low, high=high, dtype=np.float32)
        self.action_space = LegalDiscrete(game.num_actions, lambda: self._mask)
        self._base_seed = fresh_seed() if seed is None else seed
        self._episode = 0
        self._rng = np.random.default_rng(self._base_seed)
        self.state: State | None = None
        self.seat = 0
        self._opponents: dict[int, Agent] = {}
        self._mask = np.zeros(game.num_actions, dtype=np.int8)
        self._substitutes = np.random.default_rng([self._base_seed, 0, SUBSTITUTE_STREAM])
        self._ended = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._base_seed = seed
            self._episode = 0
            self._rng = np.random.default_rng(seed)
        self._episode += 1
        self.state = self.game.new_state(self._base_seed, stream=self._episode)
        self._substitutes = np.random.default_rng(
            [self._base_seed, self._episode, SUBSTITUTE_STREAM])
        self._ended = False
        if self.learner_seat_option == "random":
            self.seat = int(self._rng.integers(self.game.num_players))
        else:
            self.seat = int(self.learner_seat_option)
        self._opponents = {
            s: self.pool.sample(self._rng) for s in range(self.game.num_players) if s != self.seat
        }
        for s, agent in self._opponents.items():   # the opponents' chance is the episode's too
            agent.reset(seed=self._opponent_seed(s))
        self._play_opponents()
        if self.game.is_over(self.state):  # the learner never got a turn: start again
            return self.reset()
        self._phi = self._potential()
        return self._observe(), {"seat": self.seat}

    def _potential(self) -> float:
        """The learner's shaping potential now (0 without shaping or once the game is over;
        ``envs.core.shaping``)."""
        if self._shaping is None or self.game.is_over(self.state):
            return 0.0
        data = self.state.data
        return float(self._shaping.potentials(data, self.game.params_of(data))[self.seat])

    def _shaped(self, reward: float) -> float:
        """``reward`` plus the learner's shaping reward of this step, ``Phi(s') - Phi(s)``."""
        if self._shaping is None:
            return reward
        before, self._phi = self._phi, self._potential()
        return reward + (self._phi - before)

    def _opponent_seed(self, seat: int) -> int:
        """The seed of the agent at ``seat`` this episode: fixed by the env's seed."""
        words = np.random.SeedSequence([self._base_seed, self._episode, seat]).generate_state(2)
        return int(words[0]) | (int(words[1]) << 32)

    def _play_opponents(self) -> None:
        game, state = self.game, self.state
        while True:
            player = game.current_player(state)
            if player < 0 or player == self.seat:
                break
            game.apply(state, self._opponents[player].act_state(state, player))

    def _observe(self) -> np.ndarray:
        self._mask = self.game.legal_mask(self.state)
        return self.game.observe(self.state, self.seat)

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner (MaskablePPO reads this)."""
        return self._mask.astype(bool)

    def step(self, action: int):
        if self._ended:
            raise IllegalActionError("the episode is over: call reset() before step()")
        info: dict[str, Any] = {"seat": self.seat}
        if not self._is_legal(action):
            legal = [int(a) for a in np.flatnonzero(self._mask)]
            if self.illegal_action == "raise":
                raise IllegalActionError(illegal_action_message(_plain(action), legal))
            info["illegal_action"] = _plain(action)
            if self.illegal_action == "lose":
                self._ended = True
                self._mask[:] = 0
                return (self.game.observe(self.state, self.seat), ILLEGAL_LOSS_REWARD, True,
                        False, info)
            action = legal[int(self._substitutes.integers(len(legal)))]
            info["played_action"] = action
        self.game.kernels.apply(self.state.data, self.game.params_of(self.state),
                                int(_plain(action)))
        self._play_opponents()
        if self.game.is_over(self.state):
            reward = self._shaped(float(self.game.rewards(self.state)[self.seat]))
            info["final"] = self.game.final_info(self.state)[self.seat]
            self._ended = True
            self._mask[:] = 0
            return self.game.observe(self.state, self.seat), reward, True, False, info
        return self._observe(), self._shaped(0.0), False, False, info

    def _is_legal(self, action: Any) -> bool:
        """An integer (Python or numpy, also a one-element array) naming a legal action now."""
        action = _plain(action)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            return False
        return 0 <= int(action) < self.game.num_actions and bool(self._mask[int(action)])

    def render(self) -> str | np.ndarray | None:
        """The table as text (``"ansi"``) or a picture (``"rgb_array"``); ``None`` without a
        render mode."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.state)
        return self.game.render_text(self.state)


def _plain(action: Any) -> Any:
    """``action`` as a plain Python value (numpy scalars and one-element arrays unwrapped)."""
    if isinstance(action, (np.ndarray, np.generic)) and np.size(action) == 1:
        return action.item()
    return action


def make_single_agent_env(game: str, num_players: int | None = None,
                          opponents: Sequence[str] = ("random",),
                          learner_seat: int | str = "random", seed: int | None = None,
                          render_mode: str | None = None, illegal_action: str = "raise",
                          reward_shaping: Any = None, **options: Any) -> SingleAgentEnv:
    """A single-agent view by game name: the other seats played by built-in agents
    (``opponents``: ``"random"``, ``"rule_based"``), rules as ``options``, the AEC env's
    ``reward_shaping`` for the learner's seat. This is the entry
    point of the Gymnasium registrations (``gymnasium.make("transit_gym/Planes-v0")``),
    which set ``illegal_action="lose"`` unless told otherwise (see ``gym_registration``)."""
    from transit_gym.envs.registry import game_class

    cls = game_class(game)
    unknown = set(options) - set(cls.option_names())
    if unknown:
        raise ConfigError(unknown_keywords_message(
            unknown, [*view_keywords(), *cls.option_names()], f"the single-agent view of {game}"))
    players = cls.min_players if num_players is None else num_players
    game_obj = cls(num_players=players, **options)
    pool = build_pool(game_obj, list(opponents), seed=0 if seed is None else seed)
    return SingleAgentEnv(game_obj, pool, learner_seat=learner_seat, seed=seed,
                          render_mode=render_mode, illegal_action=illegal_action,
                          reward_shaping=reward_shaping)


def view_keywords() -> list[str]:
    """The keywords of :func:`make_single_agent_env` itself (besides the game's options)."""
    params = inspect.signature(make_single_agent_env).parameters
    return [name for name, p in params.items() if name != "game" and p.kind != p.VAR_KEYWORD]
