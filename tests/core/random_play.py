"""Seeded random play for tests: the states a game passes through, and a state some random
moves in. Every action is drawn uniformly from the legal ones."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from transit_gym.envs.core.game import Game, State


def random_states(game: Game, seeds: Iterable[int], every: int = 1,
                  rng: np.random.Generator | None = None, copy: bool = True,
                  final: bool = False, max_steps: int | None = None) -> Iterator[State]:
    """Every ``every``-th decision state of one random game per seed. The actions come
    from ``rng``, or, when it is None, from a generator seeded with the game's seed.
    ``copy=False`` yields the live state (read it before the next one is asked for);
    ``final`` also yields each finished game; ``max_steps`` cuts each game short."""
    for seed in seeds:
        draw = np.random.default_rng(seed) if rng is None else rng
        state = game.new_state(seed)
        step = 0
        while game.current_player(state) >= 0 and (max_steps is None or step < max_steps):
            if step % every == 0:
                yield state.copy() if copy else state
            game.apply(state, int(draw.choice(game.legal_actions(state))))
            step += 1
        if final:
            yield state.copy() if copy else state


def mid_game(game: Game, seed: int, moves: int) -> State:
    """The state ``moves`` random moves into the game seeded with ``seed`` (the moves are
    drawn with the same seed); the game must still be running."""
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    assert game.current_player(state) >= 0
    return state


def random_env_decisions(env: Any, rng: np.random.Generator,
                         max_iter: int = 2**63) -> Iterator[tuple[str, np.ndarray]]:
    """Play a reset AEC env with random legal actions: each live decision is first yielded
    as the agent and its action mask (finished agents are stepped with None)."""
    for agent in env.agent_iter(max_iter):
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = env.observe(agent)["action_mask"]
        yield agent, mask
        env.step(int(rng.choice(np.flatnonzero(mask))))


def reach(game: Game, wanted: Callable[[State], bool], seeds: Iterable[int] = range(40),
          moves: int = 1500) -> State:
    """The first state of the seeded random games (at most ``moves`` moves each) for which
    ``wanted(state)`` holds; fails the test when none does."""
    for seed in seeds:
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        for _ in range(moves):
            if game.current_player(state) < 0:
                break
            if wanted(state):
                return state
            game.apply(state, int(rng.choice(game.legal_actions(state))))
    raise AssertionError("no random game reached the wanted decision")


def at_phase(*phases: int) -> Callable[[State], bool]:
    """``reach``'s test for a state whose ``phase`` field is one of ``phases``."""
    return lambda state: int(state["phase"][0]) in phases
