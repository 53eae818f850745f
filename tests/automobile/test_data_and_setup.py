"""Data file and setup: Components, Starting the game, P1 (demand tiles), hidden tiles."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.automobile.table import Table
from transit_gym.envs.automobile import data as auto_data
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import MASS, MIDDLE, PREMIUM
from transit_gym.envs.automobile.encode import B_TILES, O_PLAYERS, O_TILES, PLAYER_BLOCK
from transit_gym.envs.automobile.rules import AutomobileGame
from transit_gym.envs.core.errors import ConfigError, DataFileError

DATA = auto_data.load()


def test_board_has_26_spaces_with_the_confirmed_anchors():
    """Game board: 26 production spaces from the Duryea to the Cord 810; the worked
    examples fix spaces 1-6 and 8 (DATA 1a)."""
    assert len(DATA.names) == 26
    assert DATA.names[0] == "Duryea" and DATA.names[-1] == "Cord 810"
    anchors = {0: ("Duryea", MIDDLE, 200), 1: ("Buick Model B", MIDDLE, 250),
               2: ("Jackson Model 40", MIDDLE, 300), 3: ("Buick Model 10", MIDDLE, 350),
               4: ("Maxwell Model EA", MASS, 300), 5: ("Overland Model 40", MIDDLE, 400),
               7: ("Pathfinder 40", PREMIUM, 400)}
    for i, (name, seg, cost) in anchors.items():
        assert (DATA.names[i], DATA.segment[i], DATA.cost[i]) == (name, seg, cost)


def test_production_table_prices_and_costs():
    """IV. Produce cars (table) and the General Market prices."""
    assert DATA.prod_cost.tolist() == [50, 70, 100]
    assert DATA.prod_min.tolist() == [[1, 5, 10], [1, 4, 8], [1, 3, 5]]
    assert DATA.prod_max.tolist() == [[4, 9, 14], [3, 7, 11], [2, 4, 6]]
    assert DATA.price_top.tolist() == [100, 150, 200]
    assert DATA.price_low.tolist() == [70, 100, 200]
    assert DATA.setup["parts_discount"] == 20


def test_demand_tiles_turn_track_and_characters():
    """Components: 16 demand tiles, 4 each of 2-5; P1 turn track; character R&D."""
    assert DATA.tile_values.tolist() == [2, 3, 4, 5] and DATA.tile_counts.tolist() == [4] * 4
    assert DATA.tiles_per_player.tolist() == [1, 2, 2, 2]
    assert DATA.higher_seg.tolist() == [MIDDLE, MIDDLE, MASS, MASS]
    assert DATA.lower_seg.tolist() == [-1, MASS, MIDDLE, MIDDLE]
    assert DATA.premium_bag.tolist() == [0, 0, 1, 1] and DATA.mass_bag.tolist() == [0, 0, 0, 1]
    assert DATA.char_rd.tolist() == [1, 3, 1, 0, 1, 2]
    assert DATA.ad_costs.tolist() == [2, 1, 1] and DATA.discount_stacks.tolist() == [2, 1, 1]
    assert DATA.loss_price.tolist() == [10, 20, 30, 40]


@pytest.mark.parametrize(("players", "rd"), [(3, 5), (4, 4), (5, 3)])
def test_setup_money_rd_and_stocks(players, rd):
    """Starting the game: $2,000 and 5/4/3 R&D cubes by player count; the characters get
    their cubes; the rest of the 40 cubes form the stock; 16 tiles in the bag."""
    t = Table(num_players=players)
    for seat in range(players):
        assert t.cash(seat) == 2000
        assert t.get("rd", seat) == rd
        assert t.get("loans", seat) == 0 and t.get("loss", seat) == 0
    assert t.state["char_rd"].tolist() == [1, 3, 1, 0, 1, 2]
    assert t.get("rd_stock") == 40 - players * rd - 8
    assert t.get("frontier") == -1 and (t.state["owner"] == -1).all()
    assert t.state["disc_avail"][:3].tolist() == [2, 1, 1] and t.get("ads_bought") == 0
    t.check()


def test_first_player_option_and_clockwise_selection_order():
    """Starting the game: a starting player (random by default, from the seed), then
    clockwise; ``first_player`` fixes the seat."""
    assert Table(num_players=4, first_player=2).state["sel_order"][:4].tolist() == [2, 3, 0, 1]
    game = AutomobileGame(num_players=5)
    firsts = {int(game.new_state(seed).data[st.SEL_ORDER]) for seed in range(40)}
    assert firsts == set(range(5))
    one = game.new_state(7).data[st.SEL_ORDER:st.SEL_ORDER + 5].tolist()
    assert one == game.new_state(7).data[st.SEL_ORDER:st.SEL_ORDER + 5].tolist()
    assert one == [(one[0] + i) % 5 for i in range(5)]


@pytest.mark.parametrize("players", [3, 5])
def test_p1_each_player_draws_one_tile_in_turn_1_and_two_later(players):
    """P1: one tile per player in turn 1, two (higher first) in turns 2-4, from the bag."""
    t = Table(num_players=players)
    tiles = t.state["tiles"].reshape(5, 2)
    assert (tiles[:players, 0] > 0).all() and (tiles[:, 1] == 0).all()
    assert t.state["bag"][:4].sum() == 16 - players
    t.s[st.TURN] = 1
    for seat in range(players):
        t.set_tiles(seat, [])
    k._start_turn(t.s, t.p)
    tiles = t.state["tiles"].reshape(5, 2)
    assert (tiles[:players] > 0).all() and (tiles[:players, 0] >= tiles[:players, 1]).all()
    assert t.state["bag"][:4].sum() == 16 - 2 * players
    t.check()


def test_seat_sees_only_its_own_demand_tiles():
    """P1: you may look at your tiles but keep them secret: the observation of a seat
    changes with its own tiles only; others' tiles show as a count."""
    t = Table(num_players=3)
    t.set_tiles(0, [5])
    t.set_tiles(1, [2])
    obs0 = t.game.observe(t.state, 0)
    assert obs0[O_TILES] == pytest.approx(1.0)
    t.set_tiles(1, [4])
    assert np.array_equal(obs0, t.game.observe(t.state, 0))
    obs1 = t.game.observe(t.state, 1)
    assert obs1[O_TILES] == pytest.approx(0.8)
    assert obs0[O_PLAYERS + PLAYER_BLOCK + B_TILES] == 1.0


@pytest.mark.parametrize("seed", range(6))
def test_observation_hides_other_tiles_and_the_bag_in_every_turn(seed):
    """P1 (tiles kept secret) in every turn: in random positions of a 4-player game, giving
    the other seats different tiles (same count) and reseeding the bag leaves a seat's
    observation unchanged; its own tiles change it."""
    game = AutomobileGame(num_players=4)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    turns_seen = set()
    while not game.is_over(state):
        turns_seen.add(int(state["turn"][0]))
        if rng.random() < 0.05:
            seat = int(rng.integers(4))
            obs = game.observe(state, seat)
            other = state.copy()
            o = other.data
            o[0:4] = rng.integers(1, 2**31, 4)
            tiles = other["tiles"].reshape(5, 2)
            for s in range(4):
                if s != seat:
                    tiles[s] = np.where(tiles[s] > 0, 7 - tiles[s], 0)   # 2<->5, 3<->4
            assert np.array_equal(obs, game.observe(other, seat))
            mine = other["tiles"].reshape(5, 2)
            mine[seat] = np.where(mine[seat] > 0, 7 - mine[seat], 0)
            if (mine[seat] > 0).any():                              # no value maps to itself
                assert not np.array_equal(obs, game.observe(other, seat))
        game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert turns_seen == {0, 1, 2, 3}


def _user_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "board.toml"
    path.write_text(text)
    return str(path)


def test_user_data_file_replaces_tables(tmp_path):
    """Data: a user file with the printed values replaces the reconstructed tables."""
    path = _user_file(tmp_path, "[salesroom]\nper_action = 3\n"
                                "boxes = { mass = [2, 2, 2], middle = [3, 3, 3], "
                                "premium = [1, 1, 1] }\n")
    game = AutomobileGame(num_players=3, data=path)
    caps = game.params[st.P_BOX_CAP:st.P_BOX_CAP + 12].reshape(3, 4)
    assert caps.tolist() == [[2, 4, 6, 6], [3, 6, 9, 9], [1, 2, 3, 3]]
    assert game.data.cost.tolist() == DATA.cost.tolist()


@pytest.mark.parametrize(("text", "match"), [
    ("[board]\nmax_factories_per_space = 3\nparts_cost = 500\nparts_refund = 400\n"
     "close_reduction = 100\nspaces = [{ name = 'A', segment = 'middle', cost = 200 }]\n",
     r"board\: 'spaces' must list the 26"),
    ("[prices]\nmass = [100, 70]\nmiddle = [100, 150]\npremium = [200, 200]\n",
     r"prices.*reduced price 150 exceeds"),
    ("[demand]\ntiles = { 2 = 1 }\n", r"need 12 demand tiles"),
    ("[turns]\nloss_price = [10, 20, 30]\n", r"turns.*'loss_price' must have 4"),
    ("[characters]\nrd = { ford = 1 }\nhoward_cars = 2\n", r"characters.rd.*missing key"),
    ("[nonsense]\n", r"unknown keys \['nonsense'\]"),
    ("[production]\ncost = { mass = 50, middle = 70, premium = 100 }\nparts_discount = 20\n"
     "mass = [[1, 4], [5, 9], [10, 40]]\nmiddle = [[1, 3], [4, 7], [8, 11]]\n"
     "premium = [[1, 2], [3, 4], [5, 6]]\n", r"'mass'\[2\] must be \[min, max\]"),
])
def test_bad_data_files_name_file_entry_and_expectation(tmp_path, text, match):
    """Data: validation errors name the file, the entry and what was expected."""
    path = _user_file(tmp_path, text)
    with pytest.raises(DataFileError, match=match) as err:
        AutomobileGame(num_players=3, data=path)
    assert "board.toml" in str(err.value)


def test_missing_data_file_and_bad_options():
    """Clear errors: a missing data file is a DataFileError; every option (each one a
    rulebook ambiguity, see docs/automobile.md) rejects bad values with a ConfigError
    naming the option."""
    with pytest.raises(DataFileError, match="does not exist"):
        AutomobileGame(num_players=3, data="/no/such/file.toml")
    for option, value in (("frontier", "nearest"), ("sloan", 1), ("shortfall", "bankrupt"),
                          ("reward", "score"), ("first_player", 3), ("markers_on_closed", 1),
                          ("parts_with_new_factory", "yes"), ("durant_borrow", None),
                          ("data", 5)):
        with pytest.raises(ConfigError, match=option):
            AutomobileGame(num_players=3, **{option: value})


def test_every_default_value_carries_a_confidence_label():
    """Data: every value line of data.toml is marked CONFIRMED, INFERRED or RECONSTRUCTED
    (on the line or in the comment block above it)."""
    labels = ("CONFIRMED", "INFERRED", "RECONSTRUCTED")
    block_labelled = False
    for line in auto_data.DEFAULT_FILE.read_text().splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("["):
            block_labelled = False
            continue
        if stripped.startswith("#"):
            block_labelled = block_labelled or any(x in stripped for x in labels)
            continue
        if "=" in stripped and not stripped.startswith("{") and not stripped.endswith("["):
            assert block_labelled or any(x in stripped for x in labels), line
        if stripped.startswith("{ name"):
            assert any(x in stripped for x in labels), line
