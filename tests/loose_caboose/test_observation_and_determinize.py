"""Observation bounds and determinization of Loose Caboose!."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.core.random_play import random_states
from transit_gym.envs.loose_caboose import state as st
from transit_gym.envs.loose_caboose.rules import LooseCabooseGame

OPTIONS = [dict(zip(("geometry", "bank_first", "pass_banks"), flags, strict=True))
           for flags in itertools.product((True, False), repeat=3)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_stay_inside_their_declared_bounds(players):
    """Every field of every seat's observation lies within ``obs_low_high``; one-hot
    groups hold at most one 1."""
    rng = np.random.default_rng(players)
    for options in OPTIONS[::3]:
        game = LooseCabooseGame(num_players=players, **options)
        low, high = game.obs_low_high()
        groups = game.obs_one_hot_groups()
        for state in random_states(game, range(6), rng=rng, copy=False, final=True):
            for seat in range(players):
                obs = game.observe(state, seat)
                bad = np.flatnonzero((obs < low) | (obs > high))
                assert bad.size == 0, [(game.obs.locate(int(i)), obs[i], low[i], high[i])
                                       for i in bad[:5]]
                for group in groups:
                    assert obs[group].sum() <= 1.0


def _unseen_places(game, state, seat):
    """Where every card sits, as ``seat`` may know it: unseen places merged into one."""
    s = state.data
    n = game.data.num_cards
    out = []
    for card in range(n):
        where = int(s[st.LOC + card])
        hidden = (where in (st.Z_DECK, st.Z_REMOVED)
                  or (st.Z_HAND <= where < st.Z_HAND + 4 and where - st.Z_HAND != seat)
                  or (st.Z_BANK_HIDDEN <= where < st.Z_BANK_HIDDEN + 4
                      and where - st.Z_BANK_HIDDEN != seat))
        out.append(-99 if hidden else where)
    return out


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(
    f"{k}={int(v)}" for k, v in o.items()))
def test_determinize_keeps_what_the_seat_sees_under_every_option(options):
    """No hidden-information leak under any option: re-dealing every unseen card (other
    hands, removed cards, draw pile, others' face-down banks, future dice) leaves the seat's
    observation unchanged; the cards stay each in one place, the counts per place stay,
    and the state passes validation."""
    rng = np.random.default_rng(11)
    for players in (2, 4):
        game = LooseCabooseGame(num_players=players, **options)
        states = list(random_states(game, range(3), rng=rng, final=True))
        for state in states[::4]:
            for seat in range(players):
                other = game.determinize(state, seat, seed=int(rng.integers(1 << 30)))
                np.testing.assert_array_equal(game.observe(state, seat),
                                              game.observe(other, seat))
                game.validate(other)
                places = [p for p in _unseen_places(game, state, seat)]
                assert sorted(places) == sorted(_unseen_places(game, other, seat))
                assert np.bincount(state["loc"] + 1).tolist() == \
                    np.bincount(other["loc"] + 1).tolist()


def test_determinize_depends_only_on_what_the_seat_saw():
    """Two states that differ only in what seat 0 cannot see determinize to the same state
    for the same generator; different generators give different hidden deals."""
    game = LooseCabooseGame(num_players=3)
    rng = np.random.default_rng(3)
    state = next(itertools.islice(random_states(game, [4], rng=rng, final=True), 12, None))
    a = game.determinize(state, 0, seed=1)
    b = game.determinize(state, 0, seed=2)
    assert not np.array_equal(a.data, b.data)
    np.testing.assert_array_equal(game.determinize(a, 0, seed=9).data,
                                  game.determinize(b, 0, seed=9).data)
