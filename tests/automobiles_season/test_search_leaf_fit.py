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


def test_the_seasons_are_the_run_layers_games_of_the_seed():
    """Season ``i`` is the run layer's game ``i`` of the seed (``training.runs.seeds``:
    ``play_seated`` from ``new_state(seed, stream=i)``): its positions count its decisions
    and its winner labels them, whatever chunk plays it; the same seed gives the same
    positions, another seed other ones."""
    from transit_gym.benchmarks.strength.season_leaf_fit import (
        AGENTS,
        PAIRS,
        SeasonChunk,
        collect,
        collect_chunk,
    )
    from transit_gym.envs.registry import cached_game
    from transit_gym.training.runs.seating import play_seated
    from transit_gym.training.runs.specs import load_agent

    every = 40
    diff, stage, label = collect(3, seed=5, every=every)
    again = collect(3, seed=5, every=every)
    assert all(np.array_equal(a, b) for a, b in zip((diff, stage, label), again, strict=True))
    other = collect(3, seed=6, every=every)
    assert not all(np.array_equal(a, b) for a, b in zip((diff, stage, label), other,
                                                         strict=True))

    game = cached_game("automobiles_season", 2, ())
    agents = [load_agent(spec, game) for spec in AGENTS]
    alone = [collect_chunk(SeasonChunk("automobiles_season", 2, (), 5, every, i, 1))
             for i in range(3)]
    assert np.array_equal(np.concatenate([part.diff for part in alone]), diff)
    for i, part in enumerate(alone):
        played = play_seated(game, agents, PAIRS[i], 5, stream=i)
        assert part.label.size == -(-played.decisions // every)
        won = played.rewards[0] > played.rewards[1]
        assert np.all(part.label == (1.0 if won else 0.0))
