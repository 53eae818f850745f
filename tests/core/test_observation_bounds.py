"""Observation fields stay in their declared slices and bounds: for every game and player
count, over random games, every seat's observation
lies within ``Game.obs_low_high()`` (the env's ``observation_space``), and every one-hot
group of ``Game.obs_one_hot_groups()`` holds at most one 1."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.random_play import random_states
from transit_gym.envs.registry import available_games, env_module

CASES = []
for _name in available_games():
    _cls = env_module(_name).Game
    CASES += [(_name, n) for n in range(_cls.min_players, _cls.max_players + 1)]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_every_observation_field_stays_inside_its_bounds(name, players):
    module = env_module(name)
    game = module.Game(num_players=players)
    low, high = game.obs_low_high()
    assert low.shape == high.shape == (game.obs_size,)
    assert (low < high).all(), f"empty ranges at {np.flatnonzero(low >= high)[:10]}"
    assert np.isfinite(low).all() and np.isfinite(high).all(), "bounds must be finite"
    groups = game.obs_one_hot_groups()
    assert groups, f"{name} declares no one-hot groups"
    env = module.env(num_players=players)
    space = env.observation_space(env.possible_agents[0])["observation"]
    np.testing.assert_array_equal(space.low, low)
    np.testing.assert_array_equal(space.high, high)
    rng = np.random.default_rng(players)
    for state in random_states(game, range(3), every=3, rng=rng, copy=False, final=True):
        for seat in range(players):
            obs = game.observe(state, seat)
            bad = np.flatnonzero((obs < low) | (obs > high))
            assert bad.size == 0, [
                (game.obs_layout().locate(int(i)), float(obs[i]), float(low[i]),
                 float(high[i])) for i in bad[:5]]
            for group in groups:
                assert obs[group].sum() <= 1.0, (group, obs[group])
