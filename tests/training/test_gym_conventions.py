"""Gymnasium and SB3 conventions of the single-agent training views (issue 14, item 3)."""

from __future__ import annotations

import warnings

import gymnasium
import gymnasium.utils.env_checker
import numpy as np
import pytest

import transit_gym.training  # noqa: F401  (registers the ids)
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.gym_registration import GYM_IDS
from transit_gym.training.single_agent import make_single_agent_env


@pytest.mark.parametrize("env_id", sorted(GYM_IDS))
def test_registered_ids_make_a_maskable_view_with_tight_bounds(env_id):
    """Each id builds the view of its game; the Box bounds are the game's per-slot bounds."""
    env = gymnasium.make(env_id, opponents=["rule_based"])
    view = env.unwrapped
    assert view.game.name == GYM_IDS[env_id]
    low, high = view.game.obs_low_high()
    np.testing.assert_array_equal(env.observation_space.low, low)
    np.testing.assert_array_equal(env.observation_space.high, high)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    mask = env.get_wrapper_attr("action_masks")()
    assert mask.dtype == bool and mask.shape == (view.game.num_actions,) and mask.any()


@pytest.mark.parametrize("game", sorted(GYM_IDS.values()))
def test_gymnasium_and_sb3_check_env_pass(game):
    """Gymnasium's and Stable-Baselines3's environment checkers accept every view (the
    seeded reset goes through ``gymnasium.Env.reset``, so ``np_random`` is seeded too)."""
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = make_single_agent_env(game, opponents=["random"], seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a checker warning is a failure here
        run_gymnasium_checks(env)
    sb3_check_env(make_single_agent_env(game, opponents=["random"], seed=0), warn=True)


def run_gymnasium_checks(env) -> None:
    """Every check of ``gymnasium.utils.env_checker.check_env`` but one, which is replaced:
    its step-determinism check draws an action *before* ``reset(seed)`` and steps it after,
    which presumes every action is always legal. With an action mask that action may be
    illegal in the fresh game (and raises, as it must), so the same property is checked
    below with an action drawn after the seeded reset."""
    ec = gymnasium.utils.env_checker
    ec.check_action_space(env.action_space)
    ec.check_space_limit(env.action_space, "action")
    ec.check_observation_space(env.observation_space)
    ec.check_space_limit(env.observation_space, "observation")
    ec.check_seed_deprecation(env)
    ec.check_reset_return_info_deprecation(env)
    ec.check_reset_return_type(env)
    ec.check_reset_seed_determinism(env)
    ec.check_reset_options(env)
    ec.env_reset_passive_checker(env)
    ec.env_step_passive_checker(env, env.action_space.sample())
    ec.check_returned_data_not_reused(env)
    env.reset(seed=123)
    action = env.action_space.sample()
    first = env.step(action)
    env.reset(seed=123)
    second = env.step(action)
    for a, b in zip(first, second, strict=True):
        assert gymnasium.utils.env_checker.data_equivalence(a, b)


def test_seeded_reset_seeds_np_random_and_replays_the_same_game():
    """``reset(seed=s)`` calls ``super().reset(seed=s)``: same seed, same start and seat."""
    env = make_single_agent_env("loose_caboose", opponents=["random"])
    obs_a, info_a = env.reset(seed=11)
    draw_a = env.np_random.integers(1 << 30)
    obs_b, info_b = env.reset(seed=11)
    draw_b = env.np_random.integers(1 << 30)
    np.testing.assert_array_equal(obs_a, obs_b)
    assert info_a == info_b and draw_a == draw_b


def test_ansi_render_and_bad_options():
    env = make_single_agent_env("planes", render_mode="ansi", seed=1)
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    assert make_single_agent_env("planes", seed=1).render() is None
    with pytest.raises(ConfigError, match="render_mode"):
        make_single_agent_env("planes", render_mode="human")
    with pytest.raises(ConfigError, match="unknown game"):
        make_single_agent_env("chess")
    with pytest.raises(ConfigError, match="unknown agent"):
        make_single_agent_env("planes", opponents=["grandmaster"])


def test_same_seed_same_whole_episode_opponents_included():
    """The opponents' random choices are reseeded from the episode's seed: two seeded
    episodes with the same learner actions are identical to the end."""
    def episode():
        env = make_single_agent_env("loose_caboose", num_players=3, opponents=["random"])
        obs, _ = env.reset(seed=21)
        trace = [obs.tobytes()]
        while True:
            action = int(np.flatnonzero(env.action_masks())[0])
            obs, reward, terminated, _, _ = env.step(action)
            trace.append((obs.tobytes(), reward))
            if terminated:
                return trace
    assert episode() == episode()
