"""The cross-game conformance checks ("build it once") as plain functions.

``test_every_game.py`` runs them on every game's default options; game-specific files
(e.g. ``tests/automobiles/test_expansion_conformance.py``) run the same checks on other
option sets. ``make_env(**kw)`` builds an AEC env with the options under test; ``game``
is a configured ``Game``.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from transit_gym.envs.core.batch import BatchEnv
from transit_gym.envs.core.errors import IllegalActionError
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.rollout import play_games, random_rollouts

EnvFactory = Callable[..., Any]


def random_walk(game: Game, state: State, rng: np.random.Generator, steps: int) -> list[int]:
    """Play up to ``steps`` random legal actions; return the actions played."""
    played = []
    for _ in range(steps):
        if game.is_over(state):
            break
        action = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
        game.apply(state, action)
        played.append(action)
    return played


def rule_based_win_share(game: Game, policy: Any, games_per_seating: int, seed: int) -> float:
    """Share of two-player jitted games (games 0..n-1 of ``seed``) the rule-based agent
    wins against random, playing first in one set and second in the other."""
    wins = 0
    for seats in (["rule_based", "random"], ["random", "rule_based"]):
        result = play_games(game, policy, seats, games_per_seating, seed=seed)
        wins += int((result.rewards[:, seats.index("rule_based")] > 0).sum())
    return wins / (2 * games_per_seating)


def rendered(module: Any, mode: str, seed: int, **options: Any) -> Any:
    """What a game's env (``module.env``) renders in ``mode`` right after ``reset(seed)``."""
    env = module.env(render_mode=mode, **options)
    env.reset(seed=seed)
    return env.render()


def check_picture(image: np.ndarray, colours: int) -> None:
    """An RGB picture (height x width x 3 bytes) drawn in more than ``colours`` colours."""
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > colours


def check_api_and_seed(make_env: EnvFactory, cycles: int = 200) -> None:
    """PettingZoo's ``api_test`` and ``seed_test``."""
    api_test(make_env(), num_cycles=cycles)
    seed_test(make_env, num_cycles=cycles)


def check_options_drawn_per_reset(make_env: EnvFactory, seeds: range = range(8),
                                  cycles: int = 100) -> None:
    """An option that draws at random draws from ``reset(seed)``:
    PettingZoo's ``seed_test`` passes, and two envs built apart with the same options
    start the same game (state vector and parameter row) for each seed."""
    seed_test(make_env, num_cycles=cycles)
    for seed in seeds:
        one, two = make_env(), make_env()
        one.reset(seed=seed)
        two.reset(seed=seed)
        a, b = one.unwrapped, two.unwrapped
        assert np.array_equal(a.game_state.data, b.game_state.data), f"seed {seed}"
        assert np.array_equal(a.game.params_of(a.game_state), b.game.params_of(b.game_state))


def check_copy_and_pickle_mid_game(env: Any, seed: int = 11, before: int = 25,
                                   after: int = 60) -> None:
    """deepcopy and pickle mid-game keep the state, and the same actions give the same
    future (chance included)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    for _ in range(before):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    clones = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for clone in clones:
        assert clone.agent_selection == env.agent_selection
        assert np.array_equal(clone.unwrapped.game_state.data, env.unwrapped.game_state.data)
    for _ in range(after):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        for clone in [env, *clones]:
            clone.step(action)
        for clone in clones:
            assert np.array_equal(clone.last()[0]["observation"], env.last()[0]["observation"])


def check_state_dict_json_round_trip(game: Game, seed: int = 5, before: int = 30,
                                     after: int = 40) -> None:
    """``to_dict`` through JSON restores an equal state and game, which plays on alike."""
    state = game.new_state(seed)
    random_walk(game, state, np.random.default_rng(1), before)
    restored = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored == state
    assert restored.game == game
    a, b = state.copy(), restored
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    assert random_walk(game, a, rng_a, after) == random_walk(game, b, rng_b, after)
    assert a == b


def check_illegal_actions(env: Any, seed: int = 3) -> None:
    """An illegal action is a ``ValueError`` naming it and the legal ones; a malformed one
    an ``IllegalActionError``."""
    env.reset(seed=seed)
    mask = env.last()[0]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0]) if (mask == 0).any() else None
    legal = [int(a) for a in np.flatnonzero(mask)]
    if illegal is not None:
        with pytest.raises(ValueError, match=rf"illegal action {illegal}\b") as err:
            env.step(illegal)
        assert str(legal[0]) in str(err.value)
    for bad in (-1, len(mask), 1.5, "pass", None, True):
        with pytest.raises(IllegalActionError):
            env.step(bad)


def check_batch_api(game: Game, slots: int = 4, finished_games: int = 3,
                    max_steps: int = 20000) -> None:
    """``BatchEnv`` matches single games step by step, rewards finished games and resets."""
    batch = BatchEnv(game, slots, seed=99)
    singles = [game.new_state(99, stream=b) for b in range(slots)]
    for b in range(slots):
        assert np.array_equal(batch.states[b], singles[b].data)
        assert batch.players[b] == game.current_player(singles[b])
        assert np.array_equal(batch.masks[b], game.legal_mask(singles[b]))
    rng = np.random.default_rng(4)
    finished = 0
    for _ in range(max_steps):
        actions = batch.sample_actions(rng)
        prev = [batch.state(b) for b in range(slots)]
        batch.step(actions)
        for b in range(slots):
            expected = prev[b]
            game.apply(expected, int(actions[b]))
            if batch.dones[b]:
                finished += 1
                assert game.is_over(expected)
                assert np.allclose(batch.rewards[b], game.rewards(expected))
                assert game.current_player(batch.state(b)) >= 0
            else:
                assert np.array_equal(batch.states[b], expected.data)
                assert np.all(batch.rewards[b] == 0)
                obs = game.observe(expected, int(batch.players[b]))
                assert np.array_equal(batch.obs[b], obs)
        if finished >= finished_games:
            break
    assert finished >= finished_games, \
        f"fewer than {finished_games} games finished in the batch within {max_steps} steps"
    with pytest.raises(IllegalActionError, match="batch slot"):
        bad = batch.sample_actions(rng)
        bad[1] = -1
        batch.step(bad)


def check_jitted_rollouts(game: Game, games: int = 20, seed: int = 123) -> None:
    """Jitted random rollouts run and are reproducible from the seed."""
    first = random_rollouts(game, games, seed=seed)
    assert first > games
    assert random_rollouts(game, games, seed=seed) == first


def check_random_game_keeps_invariants(game: Game, seed: int, max_steps: int = 20000) -> None:
    """A random game checks its invariants after every step, always offers a legal action
    while running, ends, and pays zero-sum rewards."""
    state = game.new_state(seed)
    rng = np.random.default_rng(seed % (2**32))
    game.check_invariants(state)
    for _ in range(max_steps):
        if game.is_over(state):
            break
        mask = game.legal_mask(state)
        assert mask.any(), "a running game must offer a legal action"
        game.apply(state, int(rng.choice(np.flatnonzero(mask))))
        game.check_invariants(state)
    assert game.is_over(state), f"game did not end within {max_steps} decisions"
    assert not game.legal_mask(state).any()
    assert abs(float(game.rewards(state).sum())) < 1e-5
