"""Determinization, the search agents' view of hidden information and
the no-leak property, for every game.

``Game.determinize(state, seat, seed)`` re-samples everything ``seat`` cannot see. So:
the seat's observation must not change (else the observation showed something hidden:
a leak, or determinize changed something visible), the result must be a valid state with
every conserved quantity intact, and two states that differ only in what the seat cannot
see must determinize to the same state for the same seed.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from tests.core.random_play import random_states
from transit_gym.envs.registry import available_games, env_module

GAMES = available_games()


def option_variants(cls) -> list[dict]:
    """The defaults, and each boolean option of the constructor flipped."""
    variants = [{}]
    for name, param in inspect.signature(cls._build).parameters.items():
        if isinstance(param.default, bool):
            variants.append({name: not param.default})
    return variants


@pytest.mark.parametrize("name", GAMES)
def test_determinize_keeps_the_seats_view_under_every_option(name):
    cls = env_module(name).Game
    assert cls.kernels.determinize is not None, f"{name} has no determinize kernel"
    rng = np.random.default_rng(1)
    for options in option_variants(cls):
        for players in (cls.min_players, cls.max_players):
            game = cls(num_players=players, **options)
            for state in random_states(game, range(2), every=15, rng=rng):
                for seat in range(players):
                    other = game.determinize(state, seat, seed=int(rng.integers(1 << 30)))
                    np.testing.assert_array_equal(
                        game.observe(state, seat), game.observe(other, seat),
                        err_msg=f"{name} {options}: seat {seat}'s view changed")
                    game.validate(other)          # conserved quantities, ranges, a move
                    assert game.current_player(other) == game.current_player(state)


@pytest.mark.parametrize("name", GAMES)
def test_determinize_depends_only_on_what_the_seat_has_seen(name):
    cls = env_module(name).Game
    game = cls(num_players=cls.min_players)
    rng = np.random.default_rng(2)
    for state in list(random_states(game, range(1), every=7, rng=rng))[:6]:
        seat = game.current_player(state)
        a = game.determinize(state, seat, seed=11)
        b = game.determinize(state, seat, seed=12)
        assert not np.array_equal(a.data, b.data), "the seed must change the hidden part"
        np.testing.assert_array_equal(game.determinize(a, seat, seed=5).data,
                                      game.determinize(b, seat, seed=5).data)
