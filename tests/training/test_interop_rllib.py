"""RLlib trains on a single-agent view: the ``rllib`` extra.

RLlib's new API stack has no built-in action masking for a plain Box observation, so the
learner is unmasked and the view plays a random legal action in place of an illegal one
(``illegal_action="random_legal"``)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="RLlib is not installed: pip install -e '.[rllib]'")

import ray  # noqa: E402
import torch  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.tune.registry import register_env  # noqa: E402

from transit_gym.training.single_agent import make_single_agent_env  # noqa: E402

ENV_NAME = "transit_gym_loose_caboose_random_legal"


def _make(config):
    return make_single_agent_env("loose_caboose", illegal_action="random_legal", **config)


@pytest.fixture
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def test_rllib_ppo_trains_two_iterations_on_loose_caboose(local_ray):
    register_env(ENV_NAME, _make)
    config = (PPOConfig()
              .environment(ENV_NAME, env_config={"seed": 0})
              .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
              .learners(num_learners=0)
              .training(train_batch_size_per_learner=128, minibatch_size=64, num_epochs=1)
              .debugging(seed=0))
    algo = config.build_algo()
    try:
        for _ in range(2):
            result = algo.train()
        runners = result["env_runners"]
        assert runners["num_env_steps_sampled_lifetime"] >= 256
        assert runners["num_episodes_lifetime"] > 0
        assert np.isfinite(result["learners"]["default_policy"]["policy_loss"])
        env = _make({"seed": 1})
        obs, _ = env.reset(seed=1)
        out = algo.get_module().forward_inference({"obs": torch.as_tensor(obs[None])})
        assert out["action_dist_inputs"].shape == (1, env.action_space.n)
    finally:
        algo.stop()
