"""Generic tools on the single-agent views: illegal actions, pictures, SB3's vector envs,
Gymnasium's video recorder and an unmasked PPO."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import transit_gym.training  # noqa: F401  (registers the ids)
from transit_gym.envs.core.errors import IllegalActionError
from transit_gym.training.single_agent import ILLEGAL_LOSS_REWARD, make_single_agent_env

ENV_ID = "transit_gym/LooseCaboose-v0"


def _illegal(env) -> int:
    return int(np.flatnonzero(~env.action_masks())[0])


def test_raise_is_the_class_default_and_names_the_action_and_the_legal_ones():
    env = make_single_agent_env("loose_caboose", seed=4)
    env.reset(seed=4)
    bad = _illegal(env)
    legal = [int(a) for a in np.flatnonzero(env.action_masks())]
    with pytest.raises(ValueError, match=rf"illegal action {bad}\b") as caught:
        env.step(np.int64(bad))
    assert isinstance(caught.value, IllegalActionError)
    assert str(legal[0]) in str(caught.value).split("legal actions now")[1]
    with pytest.raises(IllegalActionError, match="illegal action 'x'"):
        env.step("x")


def test_lose_ends_the_episode_with_the_loss_reward():
    """PettingZoo's classic convention: the offender loses at once and the episode ends."""
    env = make_single_agent_env("loose_caboose", seed=5, illegal_action="lose")
    env.reset(seed=5)
    bad = _illegal(env)
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated) == (ILLEGAL_LOSS_REWARD, True, False)
    assert info["illegal_action"] == bad and env.observation_space.contains(obs)
    assert not env.action_masks().any()
    with pytest.raises(IllegalActionError, match="episode is over"):
        env.step(0)


def test_random_legal_plays_a_seeded_legal_substitute_and_says_so():
    """The substitute comes from the episode's seeded stream: same seed, same substitute;
    the learner's legal actions are played as given."""
    def first_steps(seed: int):
        env = make_single_agent_env("loose_caboose", seed=seed, illegal_action="random_legal")
        env.reset(seed=seed)
        legal_before = set(np.flatnonzero(env.action_masks()).tolist())
        bad = _illegal(env)
        _, reward, terminated, _, info = env.step(bad)
        assert info["illegal_action"] == bad and info["played_action"] in legal_before
        good = int(np.flatnonzero(env.action_masks())[0]) if not terminated else None
        if good is not None:
            _, _, _, _, info_good = env.step(good)
            assert "played_action" not in info_good and "illegal_action" not in info_good
        return info["played_action"]

    assert first_steps(6) == first_steps(6)
    played = {first_steps(s) for s in range(8)}
    assert len(played) > 1   # a draw, not always the first legal action


@pytest.mark.parametrize("mode", ["lose", "random_legal"])
def test_unmasked_actions_play_whole_episodes(mode):
    """Uniform actions over the whole action space (what an unmasked learner starts with)
    never raise: every episode ends, and an illegal choice is recorded in ``info``."""
    env = make_single_agent_env("loose_caboose", num_players=3, seed=7, illegal_action=mode)
    rng = np.random.default_rng(7)
    illegal = 0
    for _ in range(3):
        env.reset()
        for _ in range(10_000):
            _, _, terminated, _, info = env.step(int(rng.integers(env.action_space.n)))
            illegal += "illegal_action" in info
            if terminated:
                break
        else:
            raise AssertionError("episode did not end")
    assert illegal > 0


def test_rgb_array_and_ansi_render():
    env = gymnasium.make(ENV_ID, render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.any()
    text = gymnasium.make(ENV_ID, render_mode="ansi")
    text.reset(seed=1)
    assert "\n" in text.render()


def test_sb3_make_vec_env_with_default_arguments():
    """``make_vec_env`` passes ``render_mode="rgb_array"`` to ``gymnasium.make``."""
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(ENV_ID, n_envs=2, seed=3)
    obs = venv.reset()
    assert obs.shape == (2, *venv.observation_space.shape)
    frames = venv.get_images()
    assert len(frames) == 2 and all(f.ndim == 3 for f in frames)
    masks = np.stack(venv.env_method("action_masks"))
    actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    obs, rewards, dones, infos = venv.step(actions)
    assert obs.shape[0] == 2 and len(infos) == 2
    venv.close()


def test_record_video_writes_an_episode(tmp_path):
    """Gymnasium's ``RecordVideo`` (moviepy, in the ``render`` extra) records an episode."""
    pytest.importorskip("moviepy", reason="moviepy (the render extra) is not installed")
    from gymnasium.wrappers import RecordVideo

    folder = tmp_path / "videos"
    env = RecordVideo(gymnasium.make(ENV_ID, render_mode="rgb_array"), str(folder),
                      episode_trigger=lambda episode: True, disable_logger=True)
    env.reset(seed=2)
    for _ in range(10_000):
        mask = env.get_wrapper_attr("action_masks")()
        *_, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
        if terminated or truncated:
            break
    env.close()
    videos = list(folder.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


@pytest.mark.parametrize("mode", ["lose", "random_legal"])
def test_unmasked_sb3_ppo_trains_on_a_registered_id(mode):
    """Plain PPO (no action masks) runs a few hundred steps; its illegal actions are
    handled as ``mode`` says and counted from the infos."""
    from stable_baselines3 import PPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env

    class CountIllegal(BaseCallback):
        def __init__(self):
            super().__init__()
            self.illegal = self.substituted = self.episodes = 0

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                self.illegal += "illegal_action" in info
                self.substituted += "played_action" in info
                self.episodes += "episode" in info
            return True

    venv = make_vec_env(ENV_ID, n_envs=2, seed=0, env_kwargs={"illegal_action": mode})
    model = PPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                device="cpu")
    counter = CountIllegal()
    model.learn(total_timesteps=256, callback=counter)
    assert model.num_timesteps >= 256
    assert counter.illegal > 0 and counter.episodes > 0
    assert counter.substituted == (counter.illegal if mode == "random_legal" else 0)
