"""Observations stay within the declared per-slot bounds (issue 15 item 4, issue 14 item 3).

Every game declares ``obs_low_high()`` (true, tight bounds per slot of its ``obs`` layout)
and ``obs_one_hot_groups()`` (slices that are one-hot codes). Over random games of every
player count (and each boolean option flipped), every seat's observation at every step
must lie within the bounds, and every one-hot group must sum to at most 1. The env's
``observation_space`` must use these bounds.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.option_variants import variant_id, variants
from transit_gym.envs.core.game import Game
from transit_gym.envs.registry import available_games, env_module, game_class

GAMES = available_games()
GAMES_PER_COUNT = 5
STEP_CAP = 3000


def _cases():
    for name in GAMES:
        cls = game_class(name)
        for options in variants(cls):
            yield pytest.param(name, options, id=f"{name}-{variant_id(options)}")


def _observations(game, seed: int) -> np.ndarray:
    """Every seat's observation at every decision of one random game (and at its end)."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    rows = []
    for _ in range(STEP_CAP):
        rows += [game.observe(state, seat) for seat in range(game.num_players)]
        if game.is_over(state):
            break
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    return np.array(rows)


def _where(game, slot: int) -> str:
    name, pos = game.obs_layout().locate(slot)
    return f"{name}[{pos}]"


@pytest.mark.parametrize("name", GAMES)
def test_game_declares_tight_bounds(name):
    """Each game overrides ``obs_low_high`` with finite per-slot bounds, low <= high,
    and its one-hot groups lie inside the observation."""
    cls = game_class(name)
    assert cls.obs_low_high is not Game.obs_low_high, (
        f"{name} does not declare per-slot observation bounds (override obs_low_high)")
    for players in range(cls.min_players, cls.max_players + 1):
        game = cls(num_players=players)
        low, high = game.obs_low_high()
        assert low.shape == high.shape == (game.obs_size,)
        assert low.dtype == high.dtype == np.float32
        infinite = np.flatnonzero(~(np.isfinite(low) & np.isfinite(high)))
        assert infinite.size == 0, (
            f"{name}: observation slot {_where(game, int(infinite[0]))} has no finite bound")
        assert (low <= high).all()
        for group in game.obs_one_hot_groups():
            assert 0 <= group.start < group.stop <= game.obs_size


@pytest.mark.parametrize(("name", "options"), list(_cases()))
def test_observations_within_bounds_and_one_hots(name, options):
    """Random games (every player count for the defaults, one count per flipped option):
    each observation slot within ``obs_low_high``, each one-hot group sums to <= 1."""
    cls = game_class(name)
    counts = range(cls.min_players, cls.max_players + 1)
    if options:
        counts = [cls.max_players]
    for players in counts:
        game = cls(num_players=players, **options)
        low, high = game.obs_low_high()
        groups = game.obs_one_hot_groups()
        for seed in range(GAMES_PER_COUNT):
            obs = _observations(game, 100 * players + seed)
            below = obs < low
            above = obs > high
            if below.any() or above.any():
                row, slot = np.argwhere(below | above)[0]
                pytest.fail(f"{name} {players}p {options} seed {seed}: observation slot "
                            f"{_where(game, int(slot))} = {obs[row, slot]} outside "
                            f"[{low[slot]}, {high[slot]}]")
            for group in groups:
                sums = obs[:, group].sum(axis=1)
                assert (sums <= 1.0 + 1e-6).all(), (
                    f"{name} {players}p: one-hot group {group} "
                    f"({_where(game, group.start)}) sums to {sums.max()}")


@pytest.mark.parametrize("name", GAMES)
def test_observation_space_uses_the_declared_bounds(name):
    """``env.observation_space(agent)["observation"]`` has exactly ``obs_low_high()``."""
    cls = game_class(name)
    env = env_module(name).raw_env(num_players=cls.max_players)
    low, high = env.unwrapped.game.obs_low_high()
    for agent in env.possible_agents:
        box = env.observation_space(agent)["observation"]
        assert np.array_equal(box.low, low) and np.array_equal(box.high, high)
