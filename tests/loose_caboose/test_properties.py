"""Property tests: thousands of random games end without error and every card is
in exactly one place at every step, for every player count and both railway modes."""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hyp

from transit_gym.envs.core.draw import uniform_legal
from transit_gym.envs.core.rng import seed_into
from transit_gym.envs.loose_caboose import kernels as k
from transit_gym.envs.loose_caboose.kernels import NUM_ACTIONS
from transit_gym.envs.loose_caboose.rules import LooseCabooseGame
from transit_gym.envs.loose_caboose.state import STATE_SIZE


@nb.njit
def _checked_random_games(p, seed, n_games, max_steps):
    """Play random games; return (games finished, first error code, steps)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    words = np.zeros(4, dtype=np.int64)
    seed_into(words, seed, 0, 99)
    steps = 0
    for g in range(n_games):
        s[:] = 0
        seed_into(s[0:4], seed, 0, g)
        k.init(s, p)
        code = k.conservation_error(s, p)
        if code != 0:
            return g, code, steps
        for _ in range(max_steps):
            if k.current_player(s, p) < 0:
                break
            mask[:] = 0
            k.legal_mask(s, p, mask)
            action = uniform_legal(words, mask)
            if action < 0:
                return g, 100, steps
            k.apply(s, p, action)
            steps += 1
            code = k.conservation_error(s, p)
            if code != 0:
                return g, code, steps
        if k.current_player(s, p) >= 0:
            return g, 101, steps
    return n_games, 0, steps


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("geometry", [True, False])
def test_thousands_of_random_games_conserve_every_card(players, geometry):
    game = LooseCabooseGame(num_players=players, geometry=geometry)
    finished, code, steps = _checked_random_games(game.params, 1234 + players, 2500, 5000)
    assert code == 0, f"game {finished} broke conservation (code {code}) after {steps} steps"
    assert finished == 2500


@settings(max_examples=40, deadline=None)
@given(players=hyp.integers(2, 4), geometry=hyp.booleans(), pass_banks=hyp.booleans(),
       bank_first=hyp.booleans(), faces=hyp.lists(hyp.integers(0, 6), min_size=1, max_size=12),
       seed=hyp.integers(0, 2**32 - 1))
def test_any_options_and_dice_keep_the_invariants(players, geometry, pass_banks, bank_first,
                                                  faces, seed):
    """Whatever the options and dice, games end, conserve cards, and pay zero-sum rewards."""
    game = LooseCabooseGame(num_players=players, geometry=geometry, pass_banks=pass_banks,
                            bank_first=bank_first, dice_faces=faces)
    finished, code, _ = _checked_random_games(game.params, seed, 30, 5000)
    assert code == 0 and finished == 30
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    while not game.is_over(state):
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    game.check_invariants(state)
    assert abs(float(game.rewards(state).sum())) < 1e-6
