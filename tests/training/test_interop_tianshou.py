"""Tianshou trains on the PettingZoo AEC env: the ``tianshou`` extra.

Tianshou's ``PettingZooEnv`` turns our ``{"observation", "action_mask"}`` observations into
``obs.obs`` / ``obs.mask``, and its DQN policy never picks a masked action: one DQN learner
per seat, trained against each other. (Tianshou compiles its own numba helpers, without a
disk cache, in every process: most of this test's time.)"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tianshou", reason="Tianshou is not installed: pip install -e '.[tianshou]'")

import torch  # noqa: E402
from tianshou.algorithm import DQN  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402
from tianshou.env.pettingzoo_env import PettingZooEnv  # noqa: E402
from tianshou.trainer import OffPolicyTrainerParams  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402

from transit_gym.envs import loose_caboose_v0  # noqa: E402


def _make_env() -> PettingZooEnv:
    return PettingZooEnv(loose_caboose_v0.env(num_players=2))


def test_tianshou_dqn_self_play_trains_and_respects_the_masks():
    torch.manual_seed(0)
    np.random.seed(0)   # Tianshou draws its exploration from numpy's global generator
    env = _make_env()
    obs_shape = env.observation_space["observation"].shape
    learners = []
    for _ in env.agents:
        net = Net(state_shape=obs_shape, action_shape=env.action_space.n, hidden_sizes=[64])
        policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                         eps_training=0.2, eps_inference=0.0)
        learners.append(DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.99,
                            n_step_return_horizon=1, target_update_freq=50))
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=learners, env=env)
    before = [p.detach().clone() for p in learners[0].policy.parameters()]
    train_envs = DummyVectorEnv([_make_env for _ in range(2)])
    train_envs.seed(0)
    buffer = VectorReplayBuffer(2000, len(train_envs))
    train_collector = Collector[CollectStats](algorithm, train_envs, buffer,
                                              exploration_noise=True)
    result = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=train_collector, max_epochs=1, epoch_num_steps=200,
        collection_step_num_env_steps=20, batch_size=32,
        update_step_num_gradient_steps_per_sample=0.5,
        multi_agent_return_reduction=lambda returns: returns[:, 0],
        show_progress=False, verbose=False))
    assert result.train_step >= 200 and result.update_step > 0 and result.train_episode > 0
    after = list(learners[0].policy.parameters())
    assert any(not torch.equal(a, b) for a, b in zip(before, after, strict=True))
    played = buffer[buffer.sample_indices(0)]   # every stored transition
    assert len(played) >= 200
    masks = np.asarray(played.obs.mask, dtype=bool)
    actions = np.asarray(played.act, dtype=np.int64)
    assert masks[np.arange(len(actions)), actions].all()   # exploration included
