"""The samples a teacher's games give the expert-iteration trainer are the teacher's own
choices at the positions it saw: the deciding seat's observation, the legal mask of that
step and the action it chose there. Checked on Planes, whose moves are several steps
(start, route, drops, boarding) decided one at a time by the ``tuned`` procedure."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.agents.tuned import TunedAgent, spec_vector
from transit_gym.agents.tuned import planes as tuned_planes
from transit_gym.agents.tuned.packing import read_vector
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.encode import O_DECISION
from transit_gym.envs.registry import cached_game
from transit_gym.training import exit as exit_training

pytest.importorskip("torch")


def test_planes_tuned_labels_are_its_choice_from_the_recorded_observation_and_mask():
    """Every label of a ``tuned`` teacher game is what the procedure decides from the
    recorded observation and mask alone (``decide``, never its random fallback), so the
    labels are consistent: the same position always gets the same label, whatever seed
    the agent has. The observation is the deciding seat's (its decision slot, not the
    "not deciding" one) and only decisions with a choice are recorded."""
    game = cached_game("planes", 2, ())
    row = tuned_planes.params_with_vectors(game.param_table, [spec_vector("tuned", "planes")])[0]
    vector = read_vector(row, 0)   # as the seat reads it (within the fixed-point step)
    other_seed = TunedAgent(game, "tuned", seed=12345)
    for seed in (3, 4):
        data = exit_training.teacher_game(exit_training.TeacherTask("planes", 2, (), "tuned",
                                                                    seed))
        obs, mask, policy = data["obs"], data["mask"], data["policy"]
        assert len(obs) > 50
        assert np.all(policy.max(axis=1) == 1.0) and np.all(mask.sum(axis=1) > 1)
        assert not np.any(obs[:, O_DECISION + st.NUM_PHASES])   # the seat that decides
        labels = policy.argmax(axis=1)
        for i in range(len(obs)):
            o = np.ascontiguousarray(obs[i])
            m = np.ascontiguousarray(mask[i])
            assert tuned_planes.decide(vector, row, o, m) == labels[i], i
            assert other_seed.act(o, m) == labels[i], i
