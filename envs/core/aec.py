"""The PettingZoo AEC environment shared by every game.

The env holds no game logic: it keeps a :class:`~envs.core.game.State`, asks the
game's kernels for the mask and the next player, and keeps PettingZoo's
bookkeeping dictionaries. One fused numba call per step applies the action and
refreshes the mask and the player to move into preallocated buffers.
"""

from __future__ import annotations

import os
import sys
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from transit_gym.envs.core.errors import (
    ConfigError,
    IllegalActionError,
    illegal_action_message,
)
from transit_gym.envs.core.fused import fused_kernels
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.options import check_reward_shaping
from transit_gym.envs.core.restrict import (
    ForbiddenError,
    apply_forbidden,
    check_forbidden,
    no_action_left_message,
)
from transit_gym.envs.core.rng import fresh_seed, split_seed
from transit_gym.envs.core.shaping import Shaping


class TransitAECEnv(AECEnv):
    """AEC env over a :class:`Game`; subclasses set ``game_class`` (``metadata`` follows)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "transit_game",
        "render_modes": ["ansi", "rgb_array", "human"],
        "is_parallelizable": False,
        "render_fps": 2,
    }
    game_class: ClassVar[type[Game]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass naming a ``game_class`` and no ``metadata`` of its own gets the
        shared metadata under the name ``<game>_v0``."""
        super().__init_subclass__(**kwargs)
        if "game_class" in cls.__dict__ and "metadata" not in cls.__dict__:
            cls.metadata = {**TransitAECEnv.metadata, "name": f"{cls.game_class.name}_v0"}

    def __init__(self, num_players: int | None = None, render_mode: str | None = None,
                 forbidden: Any = None, reward_shaping: Any = None, **options: Any):
        """``forbidden``: restricted play, a ``(num_players, num_actions)`` boolean array
        of the actions each seat may not take (see :mod:`envs.core.restrict`).
        ``reward_shaping``: None (terminal rewards only), ``"score"`` or a positive
        coefficient of it: potential-based rewards after every step (see
        :mod:`envs.core.shaping`)."""
        super().__init__()
        if num_players is None:
            num_players = self.game_class.min_players
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"got {render_mode!r}"
            )
        self._shaping_coefficient = check_reward_shaping("reward_shaping", reward_shaping)
        self.reward_shaping = reward_shaping
        self.game: Game = self.game_class(num_players=num_players, **options)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.forbidden = check_forbidden(forbidden, self.game.num_players,
                                         self.game.num_actions)
        self._bind_kernels()
        obs_low, obs_high = self.game.obs_low_high()
        self._obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    low=obs_low, high=obs_high, shape=(self.game.obs_size,), dtype=np.float32
                ),
                "action_mask": gymnasium.spaces.Box(
                    low=0, high=1, shape=(self.game.num_actions,), dtype=np.int8
                ),
            }
        )
        self._act_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self._state_space = gymnasium.spaces.Box(
            low=np.iinfo(np.int64).min, high=np.iinfo(np.int64).max,
            shape=(self.game.layout.size,), dtype=np.int64,
        )
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._no_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._rewards_buf = np.zeros(self.game.num_players, dtype=np.float32)
        self._seed: int | None = None
        self._episode = 0
        self._player = -1
        self._window = None
        self.game_state: State | None = None  # live; copy() it to keep a snapshot

    def _bind_kernels(self) -> None:
        """Keep the hot callables and sizes as plain attributes (no lookups per step)."""
        self._step_fused = fused_kernels(self.game.kernels).step
        self._observe_kernel = self.game.kernels.observe
        # the parameter row of the live game (set with each new game_state: a game whose
        # options draw per reset plays its own row, ``Game.params_of``)
        live = getattr(self, "game_state", None)
        self._params = None if live is None else self.game.params_of(live)
        self._obs_size = self.game.obs_size
        self._num_actions = self.game.num_actions
        # mid-game infos hook (Game.step_info): None for games that publish only at the end
        self._step_info = self.game.step_info if self.game.has_step_info else None
        coefficient = self._shaping_coefficient
        self._shaping = None if coefficient is None else Shaping(self.game, coefficient)

    # ----- spaces ----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._act_space

    # ----- lifecycle ---
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` fixes every chance event; unseeded resets continue
        the stream of the last seed (fresh entropy if none was ever given)."""
        if seed is not None:
            split_seed(seed)
            self._seed = int(seed)
            self._episode = 0
        else:
            if self._seed is None:
                self._seed = fresh_seed()
            self._episode += 1
        self._begin(self.game.new_state(self._seed, stream=self._episode))
        self.agent_selection = self.possible_agents[self._player]

    def _begin(self, state: State) -> None:
        """Play on from ``state`` (a new game or an adopted one): every agent back in the
        game with no reward, info or termination yet, the mask and seat to move refreshed."""
        self.game_state = state
        self._params = self.game.params_of(state)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._mask[:] = 0
        self.game.kernels.legal_mask(self.game_state.data, self._params, self._mask)
        self._player = self.game.current_player(self.game_state)
        self._restrict()
        self._phi = self._potentials()

    def _potentials(self) -> np.ndarray | None:
        """The shaping potential of every seat now (0 once the game is over), or None
        without shaping."""
        if self._shaping is None:
            return None
        if self._player < 0:
            return np.zeros(self.game.num_players, dtype=np.float64)
        return self._shaping.potentials(self.game_state.data, self._params)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        obs = np.zeros(self._obs_size, dtype=np.float32)
        self._observe_kernel(self.game_state.data, self._params, seat, obs)
        mask = self._mask.copy() if seat == self._player else self._no_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The legal-action mask of ``agent`` (the agent to move by default)."""
        agent = self.agent_selection if agent is None else agent
        return self._mask.copy() if self._seat[agent] == self._player else self._no_mask.copy()

    def step(self, action: int | None) -> None:
        if self._player < 0:  # the game is over: only dead agents remain
            if action is not None:
                raise IllegalActionError(
                    f"{self.agent_selection} is done; step(None) is the only legal call, "
                    f"got {action!r}"
                )
            self._was_dead_step(action)
            return
        mask = self._mask
        if type(action) is not int:
            if not isinstance(action, np.integer):
                self._raise_illegal(action)
            action = int(action)
        if not (0 <= action < self._num_actions and mask[action]):
            self._raise_illegal(action)
        # without shaping rewards are terminal only: the cumulative reward of a live agent
        # stays 0
        player = self._step_fused(self.game_state.data, self._params, action, mask)
        self._player = player
        if self._shaping is not None:
            self._shape()
        if player >= 0:
            if self.forbidden is not None:
                self._restrict()
            if self._step_info is not None:
                self._publish_step_info()
            self.agent_selection = self.possible_agents[player]
            return
        self._finish()

    def _shape(self) -> None:
        """Every seat's shaping reward for this step, ``Phi(s') - Phi(s)``; the acting
        agent collected its earlier rewards with ``last()``. At the end of the game
        ``_finish`` adds the last difference (``Phi`` of a finished game is 0)."""
        self._cumulative_rewards[self.agent_selection] = 0.0
        if self._player < 0:
            return
        new = self._potentials()
        for i, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(new[i] - self._phi[i])
        self._phi = new
        self._accumulate_rewards()

    def _restrict(self) -> None:
        """Clear the forbidden actions of the seat to move from the mask (restricted play);
        ``ForbiddenError`` when none would be left."""
        if self.forbidden is None or self._player < 0:
            return
        if apply_forbidden(self._mask, self.forbidden, self._player) == 0:
            describe = lambda a: self.game.describe_action(self.game_state, a)  # noqa: E731
            raise ForbiddenError(f"{self.possible_agents[self._player]}: " + no_action_left_message(
                self._mask, self.forbidden, self._player, describe))

    def _publish_step_info(self) -> None:
        """The game's mid-game infos after this step, if it has news (Game.step_info)."""
        news = self._step_info(self.game_state)
        if news is not None:
            for i, agent in enumerate(self.possible_agents):
                self.infos[agent] = news[i]

    def _raise_illegal(self, action: Any) -> None:
        legal = [int(a) for a in np.flatnonzero(self._mask)]
        describe = lambda a: self.game.describe_action(self.game_state, a)  # noqa: E731
        raise IllegalActionError(
            f"{self.agent_selection}: " + illegal_action_message(action, legal, describe)
        )

    def _finish(self) -> None:
        state = self.game_state
        self.game.kernels.rewards(state.data, self.game.params_of(state), self._rewards_buf)
        final = self.game.final_info(state)
        for i, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(self._rewards_buf[i])
            self.terminations[agent] = True
            self.infos[agent] = final[i]
        if self._shaping is not None:   # the terminal reward plus 0 - Phi(s)
            for i, agent in enumerate(self.possible_agents):
                self.rewards[agent] -= float(self._phi[i])
            self._phi = self._potentials()
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[0]

    # ----- state access ---
    @property
    def state_space(self) -> gymnasium.spaces.Box:
        """The space of :meth:`state`: the whole int64 state vector."""
        return self._state_space

    def state(self) -> np.ndarray:
        """The full state vector, lossless (int64; for centralised critics and saving;
        includes hidden information). ``set_state(State(game, vector))`` restores it."""
        return self.game_state.data.copy()

    def set_state(self, state: State) -> None:
        """Continue from ``state`` (a copy is taken, validated like a loaded file); the
        game options must match."""
        candidate = self.game.adopt(state)
        self.game.validate(candidate)
        self._begin(candidate)
        if self._player < 0:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self._player]

    # ----- rendering ---
    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode=...")
            return None
        if self.render_mode == "ansi":
            return self.game.render_text(self.game_state)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self.game_state)
        self._render_human()
        return None

    def _render_human(self) -> None:
        has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        if not has_display:
            sys.stdout.write(self.game.render_text(self.game_state) + "\n")
            return
        import pygame

        picture = self.game.render_rgb(self.game_state)
        if self._window is None:
            pygame.init()
            self._window = pygame.display.set_mode((picture.shape[1], picture.shape[0]))
            pygame.display.set_caption(self.metadata["name"])
        surface = pygame.surfarray.make_surface(picture.swapaxes(0, 1))
        self._window.blit(surface, (0, 0))
        pygame.event.pump()
        pygame.display.flip()

    def close(self) -> None:
        if self._window is not None:
            import pygame

            pygame.display.quit()
            self._window = None

    # ----- copying ---
    def __getstate__(self) -> dict[str, Any]:
        data = self.__dict__.copy()
        data["_window"] = None
        for name in ("_step_fused", "_observe_kernel", "_step_info", "_shaping"):
            data.pop(name, None)
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name in ("_shaping_coefficient", "reward_shaping", "_phi"):  # older pickles
            data.setdefault(name, None)
        self.__dict__.update(data)
        self._bind_kernels()
        if self.game_state is not None:  # unpickled state: validated like a loaded file
            self.game.validate(self.game_state)
            self._params = self.game.params_of(self.game_state)
            self._mask[:] = 0
            self.game.kernels.legal_mask(self.game_state.data, self._params, self._mask)
            self._player = self.game.current_player(self.game_state)
            self._restrict()


class FastOrderEnforcingWrapper(OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper with direct paths for the hot calls.

    ``last()`` and ``step()`` keep the wrapper's checks (reset first, no stepping after
    the end) but call the wrapped env directly instead of through ``__getattr__``.
    Out-of-bounds actions are rejected by the env itself with a ``ValueError``
    naming the legal actions, which is why no ``AssertOutOfBoundsWrapper`` is stacked.
    """

    def last(self, observe: bool = True):
        if not self._has_reset:
            return super().last(observe)
        return self.env.last(observe)

    def step(self, action: int | None) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _FastIterable(self, max_iter)


class _FastIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _FastIterator:
        return _FastIterator(self.env, self.max_iter)


class _FastIterator(AECOrderEnforcingIterator):
    """``agent_iter`` reading the wrapped env directly (same checks as PettingZoo's)."""

    def __init__(self, env: FastOrderEnforcingWrapper, max_iter: int):
        super().__init__(env, max_iter)
        self._raw = env.env

    def __next__(self) -> str:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        env = self.env
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return raw.agent_selection


def make_env_fn(raw_env_class: type[TransitAECEnv]):
    """Build the module-level ``env()`` constructor of a version module."""

    def env(**kwargs: Any) -> FastOrderEnforcingWrapper:
        return FastOrderEnforcingWrapper(raw_env_class(**kwargs))

    env.__doc__ = f"The wrapped {raw_env_class.metadata['name']} AEC environment."
    return env
