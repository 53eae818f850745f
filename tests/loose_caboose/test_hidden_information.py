"""Hidden information of Loose Caboose!: what a seat's observation may and may not show."""

from __future__ import annotations

import numpy as np
import pytest

from tests.loose_caboose.table import Table
from transit_gym.envs.loose_caboose import kernels as k

PASS, ROLL = k.A_PASS, k.A_ROLL


def lay(value, broken=False, turn=k.TURN_STRAIGHT):
    return k.play_action(value, int(broken), turn)


def _derail_then_bank(hidden_value: int) -> Table:
    """bank_first=False: a 3 laid and 6 wheels rolled with one card behind the caboose's
    path: the derailment penalties use up the back of the railway and two draw-pile cards
    (face up), then the Broken Track passed over banks the next draw-pile card face down."""
    t = Table(dice_faces=[2], geometry=False, bank_first=False)
    t.railway([t.card(4), t.card(1, True)], caboose=0)
    t.hand(0, [t.card(3)])
    hidden = t.card(hidden_value)
    t.deck(t.filler(3) + [hidden, t.card(2), t.card(3)])
    t.play(lay(3), ROLL)
    assert t.hidden_bank_of(0) == [hidden]
    return t


@pytest.mark.parametrize("seat", [0, 1])
def test_a_card_banked_from_the_draw_pile_is_seen_only_by_its_owner(seat):
    """Broken Tracks: the banked card goes face down; taken from the draw pile (Taking
    Penalty Cards, note) nobody saw it, so the other seats' observations do not depend on
    its value; its owner may view their own pile (Cancelling Out Penalty Cards, notes)."""
    low, high = _derail_then_bank(1), _derail_then_bank(4)
    obs_low = low.game.observe(low.state, seat)
    obs_high = high.game.observe(high.state, seat)
    if seat == 1:   # the opponent: identical observations (points, unseen counts, all)
        np.testing.assert_array_equal(obs_low, obs_high)
    else:           # the owner knows the value it banked
        assert not np.array_equal(obs_low, obs_high)
    assert low.game.scores(low.state)[0][0] + 3 == high.game.scores(high.state)[0][0]


def test_a_pass_that_banks_from_the_draw_pile_hides_the_card_too():
    """Pass onto a Broken Track with nothing left behind the caboose after the pass's own
    penalty (bank_first=False): the banked card comes face down from the draw pile."""
    def table(hidden_value):
        t = Table(geometry=False, bank_first=False, pass_banks=True)
        t.railway([t.card(2), t.card(1, True)], caboose=0)
        hidden = t.card(hidden_value)
        t.deck(t.filler(2) + [hidden])
        t.play(PASS)
        assert t.hidden_bank_of(0) == [hidden]
        return t
    a, b = table(1), table(4)
    np.testing.assert_array_equal(a.game.observe(a.state, 1), b.game.observe(b.state, 1))


def test_a_card_banked_from_the_railway_is_public():
    """A card taken from the back of the railway was face up on the table for everyone:
    banking it face down hides nothing (the opponent's point total includes it)."""
    def table(value):
        t = Table(dice_faces=[1], geometry=False, bank_first=True)
        back = t.card(value)
        t.railway([back, t.card(2), t.card(1), t.card(3, True)], caboose=2)
        t.deal([t.card(3)])
        t.play(lay(3), ROLL)
        assert back in t.bank_of(0) and t.hidden_bank_of(0) == []
        return t
    a, b = table(1), table(4)
    assert not np.array_equal(a.game.observe(a.state, 1), b.game.observe(b.state, 1))
