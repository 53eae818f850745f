"""The season leaf's weights are rebuilt from a seed (benchmarks/strength/season_leaf_fit.py):
the same seed and size give the same weights and module, and the module reads back."""

from __future__ import annotations

import numpy as np

from transit_gym.agents.search.leaf_automobiles_season import NUM_FEATURES
from transit_gym.agents.search.leaf_automobiles_season_weights import WEIGHTS
from transit_gym.benchmarks.strength.season_leaf_fit import DECIDED, build, logistic


def test_a_small_fit_is_reproduced_from_its_seed_and_reads_back():
    first, source = build(seasons=3, seed=5, every=40)
    again, source_again = build(seasons=3, seed=5, every=40)
    assert source == source_again
    assert np.array_equal(first, again)
    assert first.shape == WEIGHTS.shape == (WEIGHTS.shape[0], NUM_FEATURES)
    namespace: dict = {}
    exec(compile(source, "weights", "exec"), namespace)
    assert np.allclose(namespace["WEIGHTS"], first, rtol=1e-5)
    assert first[0, 0] == DECIDED


def test_the_logistic_fit_finds_the_side_that_predicts_the_winner():
    """Labels that follow the first feature's sign give it a positive weight, the noise
    feature a small one."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] + 0.3 * rng.normal(size=400) > 0).astype(float)
    w = logistic(x, y)
    assert w[0] > 1.0 and abs(w[1]) < 0.5 * w[0]
