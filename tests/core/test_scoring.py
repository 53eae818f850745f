"""Shared zero-sum reward kernels (DESIGN.md, Observations and rewards)."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.envs.core.scoring import score_difference_rewards, win_share_rewards


@pytest.mark.parametrize(
    ("won", "expected"),
    [
        ([1, 0], [1.0, -1.0]),
        ([0, 1, 0], [-0.5, 1.0, -0.5]),
        ([1, 1, 0, 0], [0.5, 0.5, -0.5, -0.5]),
        ([1, 1, 1, 0], [1 / 3, 1 / 3, 1 / 3, -1.0]),
        ([1, 1, 1], [0.0, 0.0, 0.0]),
    ],
)
def test_winners_share_plus_one_and_the_others_share_minus_one(won, expected):
    out = np.full(len(won), 9.0, dtype=np.float32)
    win_share_rewards(np.array(won, dtype=np.int64), len(won), out)
    assert out.tolist() == pytest.approx(expected)
    assert abs(float(out.sum())) < 1e-6


def test_score_difference_is_own_minus_mean_of_others_and_zero_sum():
    out = np.zeros(3, dtype=np.float32)
    score_difference_rewards(np.array([10.0, 4.0, 1.0]), 3, out, 0.5)
    assert out.tolist() == pytest.approx([0.5 * (10 - 2.5), 0.5 * (4 - 5.5), 0.5 * (1 - 7)])
    assert abs(float(out.sum())) < 1e-6
