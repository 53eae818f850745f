"""Determinization hides nothing and leaks nothing (issue 12 item 2, issue 15 item 5).

``Game.determinize(state, seat, seed)`` re-samples everything ``seat`` cannot see (the
game's ``determinize`` kernel). Over random mid-game states of every game, every seat and
the defaults plus each boolean option flipped (every rule switch that may change what is
seen): the seat's observation is unchanged (no hidden-information leak under any option),
the result is a valid state (``Game.validate``: the ``violation`` check, invariants, a legal
action), the mover's legal actions are unchanged when the mover is the seat, the same seed
gives the same result, different seeds give different hidden parts, and the result depends
only on what the seat has seen: re-determinizing a determinized state with a seed gives the
same state as determinizing the original with that seed. A game without a determinize
kernel fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.option_variants import variant_id, variants
from transit_gym.envs.core.rng import RNG_WORDS
from transit_gym.envs.registry import available_games, game_class

GAMES = available_games()
STATES_PER_COUNT = 4


def _cases():
    for name in GAMES:
        for options in variants(game_class(name)):
            yield pytest.param(name, options, id=f"{name}-{variant_id(options)}")


def _mid_game_states(game, count: int, seed: int) -> list:
    """``count`` running states, each a random number of random moves into a game."""
    rng = np.random.default_rng(seed)
    states = []
    attempt = 0
    while len(states) < count and attempt < 20 * count:
        state = game.new_state(seed * 1000 + attempt)
        attempt += 1
        for _ in range(int(rng.integers(0, 80))):
            if game.is_over(state):
                break
            game.apply(state, int(rng.choice(game.legal_actions(state))))
        if not game.is_over(state):
            states.append(state)
    return states


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_determinize_kernel(name):
    """Search (ISMCTS) needs ``Kernels.determinize``; a game without one fails."""
    cls = game_class(name)
    assert cls.kernels.determinize is not None, (
        f"{name} has no determinize kernel: pass determinize=... to Kernels.of "
        f"(see envs/core/game.py, Kernels.determinize)")


@pytest.mark.parametrize(("name", "options"), list(_cases()))
def test_determinize_keeps_what_the_seat_sees(name, options):
    cls = game_class(name)
    assert cls.kernels.determinize is not None, f"{name} has no determinize kernel"
    counts = range(cls.min_players, cls.max_players + 1) if not options else [cls.max_players]
    hidden_changed = False
    for players in counts:
        game = cls(num_players=players, **options)
        for state in _mid_game_states(game, STATES_PER_COUNT, players):
            before = state.data.copy()
            mover = game.current_player(state)
            for seat in range(players):
                where = f"{name} {players}p {options} seat {seat}"
                first = game.determinize(state, seat, 1)
                assert np.array_equal(state.data, before), f"{where}: input state changed"
                assert np.array_equal(game.observe(first, seat), game.observe(state, seat)), (
                    f"{where}: the seat's observation changed (a hidden-information leak)")
                game.validate(first)
                assert game.current_player(first) == mover, f"{where}: mover changed"
                if seat == mover:
                    assert np.array_equal(game.legal_mask(first), game.legal_mask(state)), (
                        f"{where}: the mover's legal actions changed")
                again = game.determinize(state, seat, 1)
                assert again == first, f"{where}: same seed, different result"
                other = game.determinize(state, seat, 2)
                assert not np.array_equal(other.data[:RNG_WORDS], first.data[:RNG_WORDS]), (
                    f"{where}: future chance (the state's generator) not re-sampled")
                hidden_changed |= not np.array_equal(other.data[RNG_WORDS:],
                                                     first.data[RNG_WORDS:])
                redone = game.determinize(first, seat, 2)
                diff = np.flatnonzero(redone.data != other.data)
                assert diff.size == 0, (
                    f"{where}: the result depends on what the seat cannot see "
                    f"(field {game.layout.locate(int(diff[0]))})")
    assert hidden_changed, f"{name} {options}: two seeds never gave different hidden parts"


@pytest.mark.parametrize("name", GAMES)
def test_determinized_states_play_to_the_end(name):
    """A determinized state is a real game: random play from it ends within a step cap,
    keeping the invariants."""
    cls = game_class(name)
    assert cls.kernels.determinize is not None, f"{name} has no determinize kernel"
    game = cls(num_players=cls.max_players)
    rng = np.random.default_rng(5)
    for state in _mid_game_states(game, 3, 9):
        out = game.determinize(state, game.current_player(state), 3)
        for _ in range(20_000):
            if game.is_over(out):
                break
            game.apply(out, int(rng.choice(game.legal_actions(out))))
            game.check_invariants(out)
        assert game.is_over(out), f"{name}: determinized game did not end"
