"""Batched stepping: one call advances B independent games of one configuration.

A configuration whose options draw at random per reset (a random board, a random
market) mixes them in one batch: each slot plays its own parameter row
(``Game.param_table``, recorded in the state; see ``envs.core.variants``).

Every array is preallocated and overwritten in place by a single numba call:
``obs[B, O]`` (observation of the player to move), ``masks[B, A]``,
``rewards[B, P]`` (terminal rewards of the game that just ended in that slot, else 0),
``players[B]`` (seat to move) and ``dones[B]``. A finished game is replaced at once by
a new one (auto-reset) whose chance is fixed by the batch seed, the slot and the
slot's episode count, so a batch run is reproducible from its seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from transit_gym.envs.core.draw import uniform_legal_rows
from transit_gym.envs.core.errors import ConfigError, IllegalActionError, illegal_action_message
from transit_gym.envs.core.fused import SLOT_STRIDE, fused_kernels, split64
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.restrict import ForbiddenError, check_forbidden, no_action_left_message
from transit_gym.envs.core.rng import fresh_seed, split_seed


class BatchEnv:
    """B games of ``game`` stepped together. Attributes are the output arrays.

    ``forbidden``: restricted play, a ``(num_players, num_actions)`` boolean array of the
    actions each seat may not take; they are cleared from ``masks`` (see
    :mod:`envs.core.restrict`)."""

    def __init__(self, game: Game, batch_size: int, seed: int | None = None,
                 forbidden: Any = None):
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ConfigError(f"batch_size must be a positive integer, got {batch_size!r}")
        self.game = game
        self.batch_size = batch_size
        self.forbidden = check_forbidden(forbidden, game.num_players, game.num_actions)
        self._fused = fused_kernels(game.kernels)
        n = batch_size
        self.states = np.zeros((n, game.layout.size), dtype=np.int64)
        self.obs = np.zeros((n, game.obs_size), dtype=np.float32)
        self.masks = np.zeros((n, game.num_actions), dtype=np.int8)
        self.rewards = np.zeros((n, game.num_players), dtype=np.float32)
        self.players = np.zeros(n, dtype=np.int64)
        self.dones = np.zeros(n, dtype=np.bool_)
        self.episodes = np.zeros(n, dtype=np.int64)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start B new games from ``seed`` (fresh entropy when None)."""
        if seed is None:
            seed = fresh_seed()
        split_seed(seed)
        self.seed = int(seed)
        self._lo, self._hi = split64(self.seed)
        self.episodes[:] = 0
        self._fused.batch_reset(self.states, self.game.param_table, self.game.variant_slot,
                                self._lo, self._hi, self.episodes, self.obs, self.masks,
                                self.rewards, self.players, self.dones)
        self._restrict()

    def step(self, actions: np.ndarray) -> None:
        """Apply ``actions[b]`` in game ``b`` for every b; outputs are updated in place."""
        actions = np.asarray(actions)
        if actions.shape != (self.batch_size,) or actions.dtype.kind not in "iu":
            raise IllegalActionError(
                f"actions must be an integer array of shape ({self.batch_size},), "
                f"got {actions.dtype} {actions.shape}"
            )
        if actions.dtype != np.int64:
            actions = actions.astype(np.int64)
        bad = self._fused.batch_step(self.states, self.game.param_table,
                                     self.game.variant_slot, actions, self._lo, self._hi,
                                     self.episodes, self.obs, self.masks, self.rewards,
                                     self.players, self.dones)
        if bad >= 0:
            state = self.state(bad)
            legal = [int(a) for a in np.flatnonzero(self.masks[bad])]
            describe = lambda a: self.game.describe_action(state, a)  # noqa: E731
            raise IllegalActionError(
                f"batch slot {bad}: " + illegal_action_message(int(actions[bad]), legal, describe)
            )
        self._restrict()

    def _restrict(self) -> None:
        """Clear each slot's forbidden actions (of its seat to move) from ``masks``;
        ``ForbiddenError`` naming the slot when one would have no legal action left."""
        if self.forbidden is None:
            return
        live = self.players >= 0
        rows = self.forbidden[np.where(live, self.players, 0)].astype(np.bool_)
        allowed = (self.masks != 0) & ~rows & live[:, None]
        stuck = np.flatnonzero(live & ~allowed.any(axis=1) & (self.masks != 0).any(axis=1))
        if stuck.size:
            slot = int(stuck[0])
            state = self.state(slot)
            describe = lambda a: self.game.describe_action(state, a)  # noqa: E731
            raise ForbiddenError(f"batch slot {slot}: " + no_action_left_message(
                self.masks[slot], self.forbidden, int(self.players[slot]), describe))
        self.masks[live] = allowed[live]

    def state(self, slot: int) -> State:
        """A copy of the game in ``slot`` as a ``State``."""
        return State(self.game, self.states[slot].copy())

    def load(self, slot: int, state: State) -> None:
        """Continue game ``slot`` from ``state`` (validated like a loaded file; the game
        options must match); the slot's outputs are refreshed, its reward and done cleared.

        A finished game is handled like one that ends in ``step``: the slot reports done
        with that game's terminal rewards, and the auto-reset starts the slot's next game
        at once (so the slot has legal actions for the next ``step``)."""
        if isinstance(slot, bool) or not isinstance(slot, (int, np.integer)) or not (
                0 <= slot < self.batch_size):
            raise ConfigError(f"slot must be 0..{self.batch_size - 1}, got {slot!r}")
        candidate = self.game.adopt(state)
        self.game.validate(candidate)
        self.states[slot] = candidate.data
        self.rewards[slot] = 0.0
        self.dones[slot] = False
        p = self.game.params_of(candidate)
        if self.game.kernels.current_player(self.states[slot], p) < 0:
            self._fused.final_rewards(self.states[slot], p, self.rewards[slot])
            self.dones[slot] = True
            self.episodes[slot] += 1
            p = self._fused.new_game(self.states[slot], self.game.param_table,
                                     self.game.variant_slot, self._lo, self._hi,
                                     int(self.episodes[slot]) * SLOT_STRIDE + int(slot))
        self._fused.refresh(self.states[slot], p, int(slot), self.obs, self.masks,
                            self.players)
        self._restrict()

    def sample_actions(self, rng: np.random.Generator) -> np.ndarray:
        """Uniformly random legal actions for every slot, from a numpy generator."""
        noise = rng.random(self.masks.shape)
        noise[self.masks == 0] = -1.0
        return noise.argmax(axis=1)

    def random_actions(self, words: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Uniformly random legal actions from our generator ``words`` (jitted, fast)."""
        if out is None:
            out = np.zeros(self.batch_size, dtype=np.int64)
        uniform_legal_rows(words, self.masks, out)
        return out

    def __repr__(self) -> str:
        return f"BatchEnv({self.game!r}, batch_size={self.batch_size})"


def make_batch(game_class: type[Game], batch_size: int, seed: int | None = None,
               forbidden: Any = None, **options: Any) -> BatchEnv:
    """``BatchEnv`` of ``batch_size`` games of ``game_class(**options)`` (``forbidden``:
    restricted play, as in :class:`BatchEnv`)."""
    return BatchEnv(game_class(**options), batch_size, seed, forbidden)
