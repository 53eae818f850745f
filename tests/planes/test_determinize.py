"""Planes determinization and the no-leak property.

Setup 7 and Optional Rules (Player Decks): a hand is private, the deck face down; the
board, planes, track, scored goals, discards and the card in play are public. So
``determinize(s, p, seat, rng)`` may change only the other hands' contents and the
deck's contents (and future chance), keeping every size and the 60 cards.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.random_play import random_states
from transit_gym.envs import planes_v0
from transit_gym.envs.planes.data import MAX_TYPES

VISIBILITY = [{}, {"player_decks": True}]


def _rows(state, name):
    return state[name].reshape(4, MAX_TYPES)


@pytest.mark.parametrize("options", VISIBILITY)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_keeps_the_view_the_sizes_and_the_public_cards(players, options):
    """The seat's observation is unchanged (nothing hidden leaks into it, nothing visible
    is re-sampled), the state stays valid, every hand keeps its size, the own hand, scored
    goals, discards and box are untouched; only other hands and decks change."""
    game = planes_v0.Game(num_players=players, max_rounds=30, **options)
    rng = np.random.default_rng(players)
    changed = 0
    for state in random_states(game, range(2), every=6, rng=rng, max_steps=400):
        for seat in range(players):
            other = game.determinize(state, seat, seed=int(rng.integers(1 << 30)))
            np.testing.assert_array_equal(game.observe(state, seat), game.observe(other, seat))
            game.validate(other)
            assert game.current_player(other) == game.current_player(state)
            hand, hand2 = _rows(state, "hand"), _rows(other, "hand")
            assert (hand[seat] == hand2[seat]).all()
            assert (hand.sum(axis=1) == hand2.sum(axis=1)).all()
            for name in ("goals", "discard", "box_cards", "cubes", "boarded", "in_play"):
                np.testing.assert_array_equal(state[name], other[name])
            decks, decks2 = _rows(state, "deck"), _rows(other, "deck")
            assert (decks.sum(axis=1) == decks2.sum(axis=1)).all()
            if options.get("player_decks"):
                assert (decks[seat] == decks2[seat]).all()     # own deck: known cards
            changed += int(not np.array_equal(state.data, other.data))
    assert changed > 0


@pytest.mark.parametrize("options", VISIBILITY)
def test_determinize_depends_only_on_what_the_seat_has_seen(options):
    """Two states that differ only in which unseen card is where (another hand or the
    deck) determinize to the same state for the same generator."""
    game = planes_v0.Game(num_players=3, **options)
    swaps = 0
    states = random_states(game, range(1), every=9, rng=np.random.default_rng(0), max_steps=400)
    for state in list(states)[:6]:
        seat = game.current_player(state)
        other = (seat + 1) % 3
        swapped = state.copy()
        hand = _rows(swapped, "hand")
        deck = _rows(swapped, "deck")[other if options else 0]
        give = int(np.flatnonzero(hand[other])[0]) if hand[other].any() else None
        take = next((t for t in range(MAX_TYPES) if deck[t] and t != give), None)
        if give is None or take is None:
            continue
        hand[other, give] -= 1
        deck[give] += 1
        deck[take] -= 1
        hand[other, take] += 1
        game.validate(swapped)
        assert not np.array_equal(state.data[4:], swapped.data[4:])
        np.testing.assert_array_equal(game.determinize(state, seat, seed=3).data,
                                      game.determinize(swapped, seat, seed=3).data)
        swaps += 1
    assert swaps > 0


def test_determinize_samples_the_other_hands_from_the_unseen_cards():
    """Over many seeds every unseen card type shows up in another seat's hand, and never a
    card the seat can account for (its own hand, scored goals, discards)."""
    game = planes_v0.Game(num_players=2)
    state = game.new_state(4)
    seat = game.current_player(state)
    own = _rows(state, "hand")[seat]
    unseen = _rows(state, "deck")[0] + _rows(state, "hand")[1 - seat]
    seen_in_other = np.zeros(MAX_TYPES, dtype=np.int64)
    for seed in range(300):
        other = game.determinize(state, seat, seed=seed)
        seen_in_other += _rows(other, "hand")[1 - seat]
        assert (_rows(other, "hand")[1 - seat] <= unseen).all()
        assert (_rows(other, "hand")[seat] == own).all()
    assert (seen_in_other[:game.cards.num_types] > 0).all()


def test_after_choose_ones_extra_goal_the_redealt_mover_still_holds_a_met_goal():
    """Card 4, second option: the choice is public and the mover must now score a met
    goal; a re-deal seen from another seat keeps such a card in the mover's hand."""
    from transit_gym.envs.planes import state as st

    from .table import Table

    t = Table(2)
    t.clear_board()
    t.clear_hands()
    t.put("S4", red=1)
    t.put("S2", red=1)                                   # a Restroom with a red cube
    t.give(0, "Choose One", "Gather at Restroom", "Two to Fine Dining")
    t.turn(0)
    t.play(t.CARD("Choose One"), t.EXTRA_GOAL)
    assert t.phase == st.PH_EXTRA_GOAL
    for seed in range(40):
        other = t.game.determinize(t.state, 1, seed=seed)
        t.game.validate(other)                           # a legal action: a met goal
        assert t.game.legal_actions(other)
