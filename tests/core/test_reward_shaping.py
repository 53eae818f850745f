"""The AEC env's ``reward_shaping`` option (``envs/core/shaping.py``), in every game.

Potential-based shaping (Ng, Harada and Russell, 1999): each step every seat gets
``Phi_i(s') - Phi_i(s)``, ``Phi`` of a finished game is 0, so with discount 1 a seat's
rewards over a game sum to its terminal reward minus ``Phi_i(s_0)`` and the terminal reward
itself is the game's, unchanged.
"""

from __future__ import annotations

import importlib
import pickle

import numpy as np
import pytest

from tests.core.conformance import check_api_and_seed
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import available_games, env_module

GAMES = available_games()
SEEDS = (1, 2)


def _raw(name: str, **options):
    module = env_module(name)
    return module.raw_env(num_players=module.Game.min_players, **options)


def _potentials(game, state, coefficient: float = 1.0) -> np.ndarray:
    """``Phi`` from the game's strengths, written out here: strength minus the others'
    mean, over the game's scale."""
    module = importlib.import_module(game.potential_module)
    strength = np.zeros(game.num_players, dtype=np.float64)
    module.strengths(state.data, game.params_of(state), strength)
    others = (strength.sum() - strength) / (game.num_players - 1)
    return coefficient * (strength - others) / module.SCALE


def _play(env, seed: int, rng: np.random.Generator, steps: int | None = None) -> list[dict]:
    """Random legal moves from the env's current position (all of the game, or ``steps``);
    the ``rewards`` dict after each move."""
    after = []
    while env.agents and not any(env.terminations.values()) and (
            steps is None or len(after) < steps):
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
        after.append(dict(env.rewards))
    return after


@pytest.mark.parametrize("name", GAMES)
def test_off_by_default_rewards_are_terminal_only(name):
    """Without the option the env's rewards are the game's terminal rewards, nothing before."""
    env = _raw(name)
    assert env.reward_shaping is None
    env.reset(seed=3)
    after = _play(env, 3, np.random.default_rng(3))
    assert all(r == 0.0 for step in after[:-1] for r in step.values())
    terminal = env.game.rewards(env.game_state)
    assert [after[-1][a] for a in env.possible_agents] == [float(r) for r in terminal]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", GAMES)
def test_shaped_rewards_telescope_to_terminal_minus_start_potential(name, seed):
    """Shaped and plain envs play the same random game: each shaped step is the change in
    ``Phi``; the last adds the terminal reward (the plain env's) minus ``Phi`` before it,
    so each seat's sum is its terminal reward minus ``Phi(s_0)``."""
    shaped, plain = _raw(name, reward_shaping="score"), _raw(name)
    shaped.reset(seed=seed)
    plain.reset(seed=seed)
    game = shaped.game
    start = _potentials(game, shaped.game_state)
    total = np.zeros(game.num_players)
    rng = np.random.default_rng(seed)
    nonzero = False
    while shaped.agents and not any(shaped.terminations.values()):
        before = _potentials(game, shaped.game_state)
        action = int(rng.choice(np.flatnonzero(shaped.action_mask())))
        shaped.step(action)
        plain.step(action)
        step = np.array([shaped.rewards[a] for a in shaped.possible_agents])
        total += step
        if any(plain.terminations.values()):
            terminal = np.array([plain.rewards[a] for a in plain.possible_agents])
            np.testing.assert_allclose(step, terminal - before, atol=1e-6)
            np.testing.assert_array_equal(terminal, game.rewards(shaped.game_state))
        else:
            np.testing.assert_allclose(step, _potentials(game, shaped.game_state) - before,
                                       atol=1e-9)
            nonzero |= bool(np.any(step != 0.0))
    assert nonzero, "no step of a whole game changed a seat's potential"
    np.testing.assert_allclose(total, terminal - start, atol=1e-5)


@pytest.mark.parametrize("name", GAMES)
def test_collected_rewards_with_last_sum_to_the_same(name):
    """What a PettingZoo loop collects with ``last()`` (``_cumulative_rewards``) adds up to
    each seat's terminal reward minus ``Phi(s_0)``, scaled by a numeric coefficient."""
    env = env_module(name).env(num_players=env_module(name).Game.min_players,
                               reward_shaping=0.5)
    env.reset(seed=4)
    raw = env.unwrapped
    start = _potentials(raw.game, raw.game_state, 0.5)
    collected = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(4)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        collected[agent] += reward
        env.step(None if term or trunc else
                 int(rng.choice(np.flatnonzero(raw.action_mask()))))
    terminal = raw.game.rewards(raw.game_state)
    np.testing.assert_allclose([collected[a] for a in env.possible_agents],
                               terminal - start, atol=1e-5)


@pytest.mark.parametrize("name", GAMES)
def test_set_state_and_pickle_keep_shaping(name):
    """A shaped env continuing a saved state (``set_state``), or unpickled mid-game, shapes
    from that state on: the rest of the game sums to terminal minus ``Phi`` there."""
    env = _raw(name, reward_shaping="score")
    env.reset(seed=5)
    _play(env, 5, np.random.default_rng(5), steps=20)
    saved = env.game_state.copy()
    for other in (_raw(name, reward_shaping="score"), pickle.loads(pickle.dumps(env))):
        if other.game_state is None:
            other.reset(seed=0)
            other.set_state(saved)
        assert other.reward_shaping == "score"
        here = _potentials(other.game, other.game_state)
        after = _play(other, 6, np.random.default_rng(6))
        total = np.array([sum(step[a] for step in after) for a in other.possible_agents])
        terminal = other.game.rewards(other.game_state)
        np.testing.assert_allclose(total, terminal - here, atol=1e-5)


@pytest.mark.parametrize("value", ["bogus", "", 0, -1.5, float("nan"), float("inf"), True,
                                   [1], {"score": 1}, 10**400])
@pytest.mark.parametrize("name", GAMES)
def test_bad_reward_shaping_is_a_config_error(name, value):
    """A bad value names the option, the value and what is allowed."""
    with pytest.raises(ConfigError, match=r"reward_shaping must be None, one of \['score'\]"):
        _raw(name, reward_shaping=value)


@pytest.mark.parametrize("name", GAMES)
def test_single_agent_view_shapes_the_learners_seat(name):
    """The single-agent view with ``reward_shaping`` plays the same seeded episode as
    without; the learner's rewards sum to its terminal reward minus ``Phi`` at its first
    decision."""
    from transit_gym.training.single_agent import make_single_agent_env

    shaped = make_single_agent_env(name, seed=7, reward_shaping="score")
    plain = make_single_agent_env(name, seed=7)
    shaped.reset(seed=7)
    plain.reset(seed=7)
    start = _potentials(shaped.game, shaped.state)[shaped.seat]
    rng = np.random.default_rng(7)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(shaped.action_masks())))
        _, reward, done, _, _ = shaped.step(action)
        _, plain_reward, plain_done, _, _ = plain.step(action)
        total += reward
        assert plain_done == done
    assert np.array_equal(shaped.state.data, plain.state.data)
    assert total == pytest.approx(plain_reward - start, abs=1e-5)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_with_shaping(name):
    """PettingZoo's api and seed tests pass on the shaped env (rewards every step)."""
    module = env_module(name)
    check_api_and_seed(lambda **kw: module.env(num_players=module.Game.min_players,
                                               reward_shaping="score", **kw), cycles=100)
