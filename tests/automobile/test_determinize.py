"""``determinize`` re-samples only what a seat cannot see:
the other players' demand tiles (RB P1, drawn "secretly") and future chance."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.random_play import random_states
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.rules import AutomobileGame
from transit_gym.envs.core.rng import seeded_words

#: every option that could change what a seat sees or what is hidden
OPTION_SETS = [
    {},
    {"shortfall": "forgive", "frontier": "open", "sloan": "taken", "markers_on_closed": False,
     "durant_borrow": True, "parts_with_new_factory": True, "reward": "cash"},
    {"first_player": 1, "shortfall": "debt"},
]


def _tile_counts(game: AutomobileGame, state) -> np.ndarray:
    values = game.data.tile_values
    held = np.concatenate([state["tiles"], state["bag_tiles"]])
    return np.array([int(state["bag"][k]) + int((held == v).sum())
                     for k, v in enumerate(values)])


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_determinize_keeps_the_tiles_and_the_seats_view(players, options):
    """(a) the 16 demand tiles stay conserved, every hand keeps its size (1 in turn 1, 2
    later, RB P1) and the state passes ``violation``; (b) ``observe(s, seat)`` is the same
    before and after, under every option (no hidden-information leak)."""
    game = AutomobileGame(players, **options)
    where = np.full(3, -1, dtype=np.int64)
    for i, state in enumerate(random_states(game, range(3), every=7, final=True)):
        seat = i % players
        out = game.determinize(state, seat, seed=i)
        assert game.kernels.violation(out.data, game.params, where) == 0
        assert (_tile_counts(game, out) == game.data.tile_counts).all()
        assert ((out["tiles"] > 0) == (state["tiles"] > 0)).all()
        assert np.array_equal(game.observe(out, seat), game.observe(state, seat))
        visible = np.ones(st.LAYOUT.size, dtype=bool)
        visible[:4] = False
        visible[st.LAYOUT.slice("bag")] = False
        for other in range(players):
            if other != seat:
                visible[st.TILES + 2 * other:st.TILES + 2 * other + 2] = False
        assert np.array_equal(out.data[visible], state.data[visible])


def test_determinize_depends_only_on_what_the_seat_has_seen():
    """(c) two states that differ only in the other hands (tiles swapped with the bag) and
    the generator give the same determinized state for the same searcher seed."""
    game = AutomobileGame(4)
    values = game.data.tile_values
    checked = 0
    for i, state in enumerate(random_states(game, range(2), every=11, final=True)):
        if game.current_player(state) < 0:
            continue
        seat = i % 4
        other = (seat + 1) % 4
        twin = state.copy()
        twin.data[:4] = seeded_words(1000 + i, 3)
        v = int(twin["tiles"][2 * other])
        swap = [k for k, w in enumerate(values) if w != v and twin["bag"][k] > 0]
        if not swap:
            continue
        k_old = int(np.flatnonzero(values == v)[0])
        twin["bag"][k_old] += 1
        twin["bag"][swap[0]] -= 1
        twin["tiles"][2 * other] = int(values[swap[0]])
        pair = twin["tiles"][2 * other:2 * other + 2]
        pair[:] = sorted(pair.tolist(), reverse=True) if pair[1] else pair
        game.validate(twin)                       # a position the seat cannot tell apart
        assert np.array_equal(game.observe(twin, seat), game.observe(state, seat))
        a = game.determinize(state, seat, seed=5)
        b = game.determinize(twin, seat, seed=5)
        assert np.array_equal(a.data, b.data)
        assert not np.array_equal(game.determinize(state, seat, seed=6).data[:4], a.data[:4])
        checked += 1
    assert checked >= 5


def test_determinized_futures_differ_but_play_on_legally():
    """Different searcher seeds give different hidden hands (sometimes) and different
    futures, and a random game from each determinized state runs to the end."""
    game = AutomobileGame(3)
    state = next(s for s in random_states(game, range(3), every=3, final=True)
                 if s["turn"][0] == 1 and game.current_player(s) >= 0)
    seat = int(state["current"][0])
    hands = set()
    for seed in range(20):
        out = game.determinize(state, seat, seed=seed)
        hands.add(tuple(out["tiles"].tolist()))
        rng = np.random.default_rng(seed)
        while game.current_player(out) >= 0:
            game.apply(out, int(rng.choice(game.legal_actions(out))))
            game.check_invariants(out)
    assert len(hands) > 1
