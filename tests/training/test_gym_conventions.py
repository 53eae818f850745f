"""Gymnasium and SB3 conventions of the single-agent training views."""

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


@pytest.mark.parametrize("env_id", sorted(GYM_IDS))
def test_gymnasium_and_sb3_check_env_pass_unmodified(env_id):
    """Gymnasium's ``check_env`` (every check, its render modes and close included) and
    Stable-Baselines3's checker accept every registered id as registered. Gymnasium's
    step-determinism check steps an action drawn before its seeded reset, which may be
    illegal in the new game: the ids' default ``illegal_action="lose"`` ends that episode
    (deterministically) instead of raising."""
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = gymnasium.make(env_id)
    assert env.unwrapped.illegal_action == "lose"
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a checker warning is a failure here
        gymnasium.utils.env_checker.check_env(env.unwrapped)
    sb3_check_env(gymnasium.make(env_id).unwrapped, warn=True)


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
    with pytest.raises(ConfigError, match="illegal_action must be one of"):
        make_single_agent_env("planes", illegal_action="ignore")
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
