"""Automobiles determinization: every pile is a count of cubes per colour
whose contents are public or follow from public events (Setup; Buy Phase; Action Phase:
drawing into the open active pile), so the only thing hidden from a seat is which cubes
come out of a bag next, i.e. chance. ``determinize`` may change the state's generator and
nothing else: every cube, every pile, money, cars and the turn stay exactly as they are."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.random_play import random_states
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.rng import RNG_WORDS

PILES = ("bag", "active", "used", "discard")

OPTIONS = [{}, {"card_set": "Rev'd Up", "track": "monza", "open_bags": True},
           {"card_set": "Broken Down", "accelerated_play": True, "buy_wear": False}]


def _cubes_per_colour(game: AutomobilesGame, state) -> np.ndarray:
    """Stock + every seat's piles + track + Nitro's drawn cubes, per colour."""
    total = state["stock"] + state["on_track"] + state["drawn"]
    for pile in PILES:
        total = total + state[pile].reshape(st.MP, st.NC).sum(axis=0)
    return total


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", [2, 5])
def test_determinize_reseeds_chance_and_keeps_every_cube_and_the_money(players, options):
    game = AutomobilesGame(num_players=players, max_rounds=60, **options)
    supply = _cubes_per_colour(game, game.new_state(0))
    rng = np.random.default_rng(players)
    checked = 0
    for state in random_states(game, range(2), every=9):
        for seat in range(players):
            out = game.determinize(state, seat, seed=int(rng.integers(1 << 30)))
            game.validate(out)
            np.testing.assert_array_equal(out.data[RNG_WORDS:], state.data[RNG_WORDS:])
            np.testing.assert_array_equal(_cubes_per_colour(game, out), supply)
            for pile in PILES:
                np.testing.assert_array_equal(out[pile], state[pile])
            assert int(out["money"][0]) == int(state["money"][0])
            np.testing.assert_array_equal(game.observe(out, seat), game.observe(state, seat))
            checked += int(not np.array_equal(out.data[:RNG_WORDS], state.data[:RNG_WORDS]))
    assert checked > 0, "the future draws must be re-sampled"


def test_determinized_futures_differ_and_play_on_legally():
    """Different searcher seeds give different draws from the same bags, and a random
    game from each determinized state runs to its end through valid states."""
    game = AutomobilesGame(num_players=3)
    state = list(random_states(game, range(1), every=25))[2]
    seat = game.current_player(state)
    futures = set()
    for seed in range(6):
        out = game.determinize(state, seat, seed=seed)
        rng = np.random.default_rng(0)          # the same choices: only chance differs
        while game.current_player(out) >= 0:
            legal = game.legal_actions(out)
            game.apply(out, int(legal[rng.integers(len(legal))]))
        game.validate(out)
        futures.add(tuple(out.data[RNG_WORDS:].tolist()))
    assert len(futures) > 1
