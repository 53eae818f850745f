"""Sponsors (R-YUC "Awarding Sponsors", "Sponsor Clarifications", appendix Sponsors A1-F3;
DATA 5.3): the standard removal per place, every family's ability, keep-or-swap, the
last player's remaining sponsor, the deck. Amounts not printed in the rulebook come from
the RECONSTRUCTED rows of ``sponsors.toml`` and are read from the loaded table here."""

from __future__ import annotations

import numpy as np
import pytest

from tests.automobiles_season.helpers import (
    COLOUR,
    STOP,
    all_cubes,
    award_state,
    drop,
    from_stock,
    give,
    owner_bag,
    remove,
    season,
    set_award,
    stock,
    take,
)
from transit_gym.envs.automobiles.kernels import A_STOCK
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.automobiles_season.data import (
    SP_EXTRA,
    SP_GAIN,
    SP_MONEY,
    SP_WEAR,
)

STANDARD = {0: 3, 1: 6, 2: 12}    # Sponsor Clarifications: first 3, middle 6, last 12
PLACE_K = {0: 0, 1: 1, 2: 2}      # finishing position giving each place with 3 players


def _phase(state):
    return int(state.data[ss.SEASON_PHASE])


def _left(state):
    return int(state.data[ss.EFF_LEFT])


def _value(game, name, place, column):
    return int(game.sponsor_data.table[game.sponsor_data.names.index(name), place, column])


def _setup(place, sponsor, players=3, seed=0, **cubes):
    game = season(players)
    state = award_state(game, seed)
    player = set_award(game, state, PLACE_K[place] if players == 3 else place,
                       [sponsor, "B1" if sponsor != "B1" else "B2"])
    for colour, n in cubes.items():
        give(game, state, player, colour, n)
    return game, state, player


@pytest.mark.parametrize("place", [0, 1, 2])
def test_standard_removal_removes_up_to_3_6_12_cubes_of_any_kind(place):
    """Sponsor Clarifications: first place removes 3 cubes, middle 6, last 12, any mix of
    cubes (wear included), from the bag and/or sheet; back to the stock."""
    game, state, player = _setup(place, "C1", wear=3)
    game.apply(state, take(game, "C1"))
    assert _phase(state) == ss.S_STANDARD
    assert _left(state) == STANDARD[place]
    bag = owner_bag(game, state, player)
    total = int(bag.sum())
    wear_stock = int(stock(state)[COLOUR["wear"]])
    game.apply(state, remove("wear"))
    assert int(stock(state)[COLOUR["wear"]]) == wear_stock + 1
    removed = 1
    while _phase(state) == ss.S_STANDARD:
        legal = np.flatnonzero(game.legal_mask(state))
        game.apply(state, int(next(a for a in legal if a != STOP)))
        removed += 1
    assert removed == STANDARD[place]
    assert int(owner_bag(game, state, player).sum()) == total - STANDARD[place]


def test_a_spends_its_money_on_stock_cubes_and_loses_the_rest():
    """Sponsors A1-A3: spend the amount on new cubes of the stock; unspent money is lost;
    the stock is not refilled."""
    game, state, player = _setup(0, "A1")
    money = _value(game, "A1", 0, SP_MONEY)
    game.apply(state, take(game, "A1"))
    game.apply(state, STOP)                       # no standard removal
    assert _phase(state) == ss.S_SPEND
    assert int(state.data[ss.EFF_MONEY]) == money
    mask = game.legal_mask(state)
    assert not mask[from_stock("wear")], "wear cubes are not bought with sponsor money"
    cost = state["cost"]
    cheapest = min((c for c in range(len(cost)) if mask[A_STOCK + (c)]),
                   key=lambda c: cost[c])
    before = int(owner_bag(game, state, player)[cheapest])
    in_stock = int(stock(state)[cheapest])
    game.apply(state, A_STOCK + (cheapest))
    assert int(owner_bag(game, state, player)[cheapest]) == before + 1
    assert int(stock(state)[cheapest]) == in_stock - 1
    if _phase(state) == ss.S_SPEND:
        assert int(state.data[ss.EFF_MONEY]) == money - int(cost[cheapest])
        game.apply(state, STOP)
    assert int(state.data[ss.AWARD_K]) == 1 and int(state.data[ss.EFF_MONEY]) == 0


@pytest.mark.parametrize("place", [0, 2])
def test_b_removes_additional_cubes_of_any_kind(place):
    """Sponsors B1-B3: remove the stated number of additional cubes (any kind)."""
    game, state, player = _setup(place, "B3")
    game.apply(state, take(game, "B3"))
    game.apply(state, STOP)
    assert _phase(state) == ss.S_EXTRA
    assert _left(state) == _value(game, "B3", place, SP_EXTRA)
    mask = game.legal_mask(state)
    assert mask[remove("white")] and mask[STOP]
    game.apply(state, remove("white"))
    assert _left(state) == _value(game, "B3", place, SP_EXTRA) - 1


def test_c_removes_only_wear_cubes():
    """Sponsors C1-C3: remove the stated number of wear cubes (must be wear)."""
    game, state, player = _setup(1, "C2", wear=8)
    game.apply(state, take(game, "C2"))
    game.apply(state, STOP)
    assert _phase(state) == ss.S_WEAR
    amount = _value(game, "C2", 1, SP_WEAR)
    assert _left(state) == amount
    mask = game.legal_mask(state)
    assert np.flatnonzero(mask).tolist() == [STOP, remove("wear")]
    wear = int(owner_bag(game, state, player)[COLOUR["wear"]])
    for _ in range(amount):
        game.apply(state, remove("wear"))
    assert int(owner_bag(game, state, player)[COLOUR["wear"]]) == wear - amount
    assert int(state.data[ss.AWARD_K]) == 2, "the C step ends when its amount is used"


@pytest.mark.parametrize(("sponsor", "place", "colours"), [
    ("D1", 0, ["white"]), ("D2", 0, ["light_gray"]),
    ("D3", 2, ["yellow", "purple", "red", "green", "blue"])])
def test_d_gains_the_stated_cubes_free_as_many_as_the_stock_has(sponsor, place, colours):
    """Sponsors D1-D3: gain the stated cubes from the stock for free; if the stock runs
    short take as many as available."""
    game, state, player = _setup(place, sponsor)
    game.apply(state, take(game, sponsor))
    game.apply(state, STOP)
    assert _phase(state) == ss.S_GAIN
    amount = _value(game, sponsor, place, SP_GAIN)
    assert _left(state) == amount
    legal = [a for a in np.flatnonzero(game.legal_mask(state)) if a != STOP]
    assert sorted(legal) == sorted(from_stock(c) for c in colours
                                   if stock(state)[COLOUR[c]] > 0)
    c = colours[0]
    bag = int(owner_bag(game, state, player)[COLOUR[c]])
    game.apply(state, from_stock(c))
    assert int(owner_bag(game, state, player)[COLOUR[c]]) == bag + 1
    assert int(state.data[ss.EFF_MONEY]) == 0


def test_d_with_an_empty_stock_gains_nothing():
    """D: "if the stock does not have adequate supply, take as many as available"."""
    game, state, player = _setup(0, "D1")
    white = COLOUR["white"]
    give(game, state, player, "white", int(stock(state)[white]))
    bag = int(owner_bag(game, state, player)[white])
    game.apply(state, take(game, "D1"))
    game.apply(state, STOP)
    assert int(state.data[ss.AWARD_K]) == 1, "no gain decision without white cubes"
    assert int(owner_bag(game, state, player)[white]) == bag


def test_e_removes_up_to_4_wear_per_non_wear_cube_of_the_standard_removal():
    """Sponsors E1-E3, the rulebook's example: E1 first place, removing 2 white cubes and
    1 wear cube allows up to 8 more wear cubes."""
    game, state, player = _setup(0, "E1", wear=10)
    game.apply(state, take(game, "E1"))
    game.apply(state, remove("white"))
    game.apply(state, remove("white"))
    game.apply(state, remove("wear"))
    assert _phase(state) == ss.S_WEAR
    assert _left(state) == 8
    assert np.flatnonzero(game.legal_mask(state)).tolist() == [STOP, remove("wear")]


def test_e3_last_place_has_no_ability_beyond_the_standard_removal():
    """Sponsor E3 note: its last-place effect has no ability beyond the standard removal."""
    game, state, player = _setup(2, "E3", wear=10)
    game.apply(state, take(game, "E3"))
    for _ in range(3):
        game.apply(state, remove("white"))
    wear = int(owner_bag(game, state, player)[COLOUR["wear"]])
    game.apply(state, STOP)
    assert _phase(state) == ss.S_RACE, "no wear step: the awards are over"
    assert int(all_cubes(game, state, player)[COLOUR["wear"]]) == wear


def test_f2_middle_removes_3_more_cubes_then_spends_2_dollars_each():
    """Sponsors F1-F3, the rulebook's example: F2, 3rd of 4 players (middle): up to 3
    additional cubes; removing all 3 gives $6 to spend."""
    game = season(4)
    state = award_state(game, 0)
    player = set_award(game, state, 2, ["F2", "B1"])
    give(game, state, player, "wear", 3)
    game.apply(state, take(game, "F2"))
    game.apply(state, STOP)
    assert _phase(state) == ss.S_EXTRA
    assert _left(state) == 3
    for _ in range(3):
        game.apply(state, remove("wear"))
    assert _phase(state) == ss.S_SPEND
    assert int(state.data[ss.EFF_MONEY]) == 6


def test_keep_the_sponsor_then_remove_one_available_sponsor():
    """Awarding Sponsors, race 2 on: a player may keep their sponsor; they must then
    remove one available sponsor from the game and apply their kept sponsor's effect."""
    game, state, player = _setup(0, "A2")
    set_award(game, state, 0, ["A2", "B1", "D1"], owned="C1")
    mask = game.legal_mask(state)
    assert mask[ss.A_KEEP] and mask[take(game, "A2")]
    game.apply(state, ss.A_KEEP)
    assert _phase(state) == ss.S_DROP
    assert sorted(np.flatnonzero(game.legal_mask(state)).tolist()) == sorted(
        drop(game, n) for n in ("A2", "B1", "D1"))
    game.apply(state, drop(game, "A2"))
    names = game.sponsor_data.names
    market = [names[int(v)] for v in state.data[ss.MARKET:ss.MARKET + 3] if v >= 0]
    assert sorted(market) == ["B1", "D1"]
    assert int(state.data[ss.OWNED + player]) == names.index("C1")
    assert _phase(state) == ss.S_STANDARD


def test_swapping_sponsors_removes_the_old_one_from_the_game():
    """Awarding Sponsors: choosing a new sponsor removes the current one from the game."""
    game, state, player = _setup(0, "A2")
    set_award(game, state, 0, ["A2", "B1", "D1"], owned="C1")
    game.apply(state, take(game, "B1"))
    names = game.sponsor_data.names
    held = [int(v) for v in state.data[ss.MARKET:ss.MARKET + 5]] + \
        [int(v) for v in state.data[ss.OWNED:ss.OWNED + 5]]
    assert names.index("C1") not in held
    assert int(state.data[ss.OWNED + player]) == names.index("B1")


def test_the_first_race_offers_no_keep_and_the_last_player_takes_the_remaining_one():
    """Awarding Sponsors: after race 1 the first player chooses among as many sponsors as
    players; the last player takes the remaining sponsor (no choice)."""
    game = season(3)
    state = award_state(game, 1)
    assert int(state.data[ss.AWARD_K]) == 0
    mask = game.legal_mask(state)
    assert not mask[ss.A_KEEP]
    assert int(mask[ss.A_SPONSOR:ss.A_KEEP].sum()) == 3
    finish = [int(v) for v in state.data[ss.FINISH:ss.FINISH + 3]]
    while int(state.data[ss.AWARD_K]) < 2 and _phase(state) != ss.S_RACE:
        mask = game.legal_mask(state)
        game.apply(state, STOP if mask[STOP] else int(np.flatnonzero(mask)[0]))
    owned = [int(state.data[ss.OWNED + k]) for k in finish]
    assert all(o >= 0 for o in owned[:2])
    if _phase(state) != ss.S_RACE:
        assert _phase(state) != ss.S_PICK, "the last player is not asked to pick"
    assert int(state.data[ss.OWNED + finish[2]]) >= 0
    assert len(set(owned)) == 3


def test_two_players_second_place_applies_the_middle_effect():
    """Sponsor reminders: in a 2-player game second place applies the middle effect."""
    game = season(2)
    state = award_state(game, 0)
    player = set_award(game, state, 1, ["C1", "B1"], owned="A1")
    assert int(state.data[ss.EFF_PLACE]) == 1
    game.apply(state, ss.A_KEEP)
    game.apply(state, drop(game, "C1"))
    assert _left(state) == STANDARD[1]
    del player


def test_sponsors_are_revealed_from_a_seeded_deck_as_many_as_players():
    """Season setup 2: shuffle the sponsors, reveal as many as players; the order depends
    only on the seed."""
    game = season(4)
    a, b = game.new_state(9), game.new_state(9)
    market = [int(v) for v in a.data[ss.MARKET:ss.MARKET + 5]]
    assert all(v >= 0 for v in market[:4]) and market[4] == -1
    assert np.array_equal(a.data[ss.DECK:ss.DECK + 18], b.data[ss.DECK:ss.DECK + 18])
    decks = {tuple(game.new_state(s).data[ss.DECK:ss.DECK + 18]) for s in range(5)}
    assert len(decks) > 1
    assert int(a.data[ss.DECK_TOP]) == 4
