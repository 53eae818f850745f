"""The designer's data files: ``driver_data``, ``track_data``, ``sponsor_data`` and
``card_data`` as patches over the shipped tables (only the entries and keys a file gives
change), and ``envs/automobiles/patches.py`` writing them from proposed changes (DESIGN.md:
Data files, Errors)."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.patches import shipped_value, write_patch
from transit_gym.envs.automobiles.racing_season.driver_data import DRIVERS_FILE, load_drivers
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.automobiles_season.data import load_sponsors
from transit_gym.envs.automobiles_season.rules import AutomobilesSeasonGame
from transit_gym.envs.core.errors import ConfigError, DataFileError

SHIPPED_AMOUNTS = [1, 1, 3, 3, 0, 1, 1, 3, 2, 0]   # drivers.toml (R-YUC Drivers appendix)


def _file(tmp_path, text: str, name: str = "patch.toml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _driver_amounts(game: AutomobilesGame) -> list[int]:
    return game.params[st.P_DRIVER_AMOUNT:st.P_DRIVER_AMOUNT + 10].tolist()


def _change(file: str, entry: str, field: str, old, new) -> dict:
    return {"file": file, "entry": entry, "field": field, "from": old, "to": new}


# ----- card_data: cards, [cubes] and [setup] key by key -------------------------------------
def test_a_card_patch_changes_setup_and_cube_numbers_key_by_key(tmp_path):
    """R-BASE Setup 6 and 9 (5 white, 2 light gray, 5 yellow per bag; a hand of 7): a patch
    of the hand size and of the white cubes in the bag keeps every other number."""
    shipped = auto_data.load_cards()
    path = _file(tmp_path, "[setup]\nhand_size = 8\n\n[cubes]\nstarting_bag = { white = 6 }\n")
    cards = auto_data.load_cards(path)
    assert cards.hand_size == 8 and shipped.hand_size == 7
    assert cards.default_laps == shipped.default_laps == 3
    assert cards.wear_chart.tolist() == shipped.wear_chart.tolist() == [1, 2, 3, 4]
    assert cards.starting_bag.tolist() == [6, 2, 0, 0, 0, 5, 0, 0, 0, 0]
    assert cards.supply.tolist() == shipped.supply.tolist()
    with pytest.raises(DataFileError, match=r"setup: unknown keys \['hand'\]") as err:
        auto_data.load_cards(_file(tmp_path, "[setup]\nhand = 8\n", "bad.toml"))
    assert "bad.toml" in str(err.value)


# ----- driver_data ----------------------------------------------------------------------------
def test_a_driver_patch_changes_only_the_keys_it_gives(tmp_path):
    """Driver 01 (R-YUC Drivers appendix: one light gray space per wear gained) with a
    patched amount of 2: the parameter row the kernels read holds 2, every other driver
    and key the shipped value."""
    path = _file(tmp_path, "[[drivers]]\nnumber = 1\namount = 2\n")
    game = AutomobilesGame(num_players=2, drivers=True, driver_data=path)
    assert _driver_amounts(game) == [2, *SHIPPED_AMOUNTS[1:]]
    assert game.params[st.P_DRIVER_PRICE + 4] == 1                 # Driver 05's $1 kept
    assert game.drivers.names[0] == "Driver 01" and game.drivers.source == path
    assert _driver_amounts(AutomobilesGame(num_players=2, drivers=True)) == SHIPPED_AMOUNTS


def test_a_full_copy_of_the_driver_table_is_accepted_unchanged():
    """A whole drivers.toml is a patch that changes nothing."""
    shipped, copy = load_drivers(), load_drivers(DRIVERS_FILE)
    assert shipped.amounts.tolist() == copy.amounts.tolist() == SHIPPED_AMOUNTS
    assert shipped.prices.tolist() == copy.prices.tolist() and shipped.extra == copy.extra


#: (option, bad patch, what the error says besides the file)
BAD_PATCHES = [
    ("driver_data", "[[drivers]]\nnumber = 1\nspeed = 2\n",
     r"drivers\[0\]: unknown keys \['speed'\]"),
    ("driver_data", "[[drivers]]\nnumber = 11\namount = 2\n",
     "'number' must be between 1 and 10, got 11"),
    ("driver_data", "[[drivers]]\namount = 2\n", "missing key 'number'"),
    ("driver_data", "[[drivers]]\nnumber = 3\namount = 13\n",
     "'amount' must be between 0 and 12, got 13"),
    ("driver_data", "[[drivers]]\nnumber = 6\nphase = 'end'\n",
     "phase of driver 6 must be 'car'"),
    ("driver_data", "[[drivers]]\nnumber = 2\namount = 2\n[[drivers]]\nnumber = 2\n",
     "listed twice"),
    ("driver_data", "[draft]\nextra = 11\n", "'extra' must be between 0 and 10"),
    ("driver_data", "[drivers]\nnumber = 1\n", "'drivers' must be list"),
    ("driver_data", "[[driver]]\nnumber = 1\n", "unknown keys"),
    ("track_data", "[[dayton.grid]]\nslot = 1\nallowance = 12\n", r"unknown keys \['dayton'\]"),
    ("track_data", "[[daytona.grid]]\nslot = 6\nallowance = 12\n",
     "'slot' must be between 1 and 5"),
    ("track_data", "[[daytona.grid]]\nslot = 1\nmoney = 12\n", r"unknown keys \['money'\]"),
    ("track_data", "[[daytona.grid]]\nslot = 1\nallowance = -1\n",
     "'allowance' must be between 0"),
    ("track_data", "[[daytona.spaces]]\nlane = 1\n", r"unknown keys \['spaces'\]"),
]


@pytest.mark.parametrize(("option", "text", "expected"), BAD_PATCHES)
def test_a_bad_patch_names_the_file_entry_and_key(tmp_path, option, text, expected):
    path = _file(tmp_path, text)
    with pytest.raises(DataFileError, match=expected) as err:
        AutomobilesGame(num_players=2, drivers=True, **{option: path})
    assert path in str(err.value)


def test_driver_data_that_is_not_a_path_is_a_config_error():
    with pytest.raises(ConfigError, match="driver_data must be a path"):
        AutomobilesGame(num_players=2, driver_data=3)


# ----- boards: a copied file, or track_data ---------------------------------------------------
def test_a_patched_copy_of_a_shipped_board_is_a_track(tmp_path):
    """track=PATH: Daytona copied with P1's allowance $10 -> $12 (R-BASE Setup 7: the grid
    slot's allowance is the start money)."""
    text = auto_data.TRACKS["daytona"].read_text()
    assert text.count("allowance = 10\n") == 1
    path = _file(tmp_path, text.replace("allowance = 10\n", "allowance = 12\n"), "d.toml")
    game = AutomobilesGame(num_players=2, track=path, start_player=0)
    assert game.params[st.P_ALLOWANCE:st.P_ALLOWANCE + 5].tolist() == [12, 11, 12, 13, 14]
    assert int(game.new_state(0).data[st.MONEY]) == 12


def test_a_track_patch_changes_the_grid_slot_it_names(tmp_path):
    """track_data: slots matched by number (1 = P1); boards the game does not play are
    left alone, so one file serves every board."""
    path = _file(tmp_path, "[[daytona.grid]]\nslot = 1\nallowance = 12\n\n"
                           "[[monza.grid]]\nslot = 2\nallowance = 9\n")
    daytona = AutomobilesGame(num_players=2, track_data=path, start_player=0)
    assert daytona.params[st.P_ALLOWANCE:st.P_ALLOWANCE + 5].tolist() == [12, 11, 12, 13, 14]
    assert int(daytona.new_state(0).data[st.MONEY]) == 12
    monza = AutomobilesGame(num_players=2, track="monza", track_data=path)
    assert monza.params[st.P_ALLOWANCE:st.P_ALLOWANCE + 5].tolist() == [10, 9, 12, 13, 14]
    tucson = AutomobilesGame(num_players=2, track="tucson", track_data=path)
    plain = AutomobilesGame(num_players=2, track="tucson")
    assert np.array_equal(tucson.params, plain.params)


# ----- sponsor_data ---------------------------------------------------------------------------
def test_a_sponsor_patch_changes_one_sponsor_and_keeps_the_deck(tmp_path):
    """R-YUC Sponsors: eighteen sponsors A1-F3 with first/middle/last effects; a patch of
    A1's money leaves the deck and every other number as shipped."""
    shipped = load_sponsors()
    patched = load_sponsors(_file(tmp_path, "[[sponsor]]\nname = 'A1'\nmoney = [4, 6, 9]\n"))
    assert patched.names == shipped.names
    assert patched.table[0, :, 0].tolist() == [4, 6, 9]
    assert np.array_equal(patched.table[1:len(shipped.names)], shipped.table[1:])
    assert patched.standard.tolist() == shipped.standard.tolist() == [3, 6, 12]
    one = load_sponsors(_file(tmp_path, "[standard_removal]\nlast = 10\n", "s.toml"))
    assert one.standard.tolist() == [3, 6, 10] and one.names == shipped.names


def test_a_sponsor_patch_entry_with_a_wrong_key_is_named(tmp_path):
    path = _file(tmp_path, "[[sponsor]]\nname = 'A1'\nextra_remove = [1, 2, 3]\n")
    with pytest.raises(DataFileError, match=r"sponsor\[0\]: unknown keys \['extra_remove'\]"):
        load_sponsors(path)
    new = _file(tmp_path, "[[sponsor]]\nname = 'C4'\nwear_remove = [1, 2, 3]\n", "new.toml")
    with pytest.raises(DataFileError, match="'C4' is none of"):
        load_sponsors(new)


# ----- patches.py: changes -> files -> options ------------------------------------------------
def test_shipped_values_are_read_from_the_shipped_files():
    assert shipped_value("data.toml", "Gearbox", "cost") == 4
    assert shipped_value("data.toml", "Gearbox", "count") == 0         # a key left out
    assert shipped_value("data.toml", "cubes.starting_bag", "black") == 0
    assert shipped_value("data.toml", "setup", "hand_size") == 7     # R-BASE Setup 9
    assert shipped_value("drivers.toml", "5", "price") == 1
    assert shipped_value("drivers.toml", "1", "price") == 0
    assert shipped_value("drivers.toml", "draft", "extra") == 1
    assert shipped_value("sponsors.toml", "standard_removal", "last") == 12
    assert shipped_value("track_monza.toml", "grid.2", "allowance") == 11


@pytest.mark.parametrize(("args", "expected"), [
    (("cards.toml", "Gearbox", "cost"), "not a shipped data file"),
    (("data.toml", "Gearbx", "cost"), "has no entry 'Gearbx'"),
    (("drivers.toml", "11", "amount"), "has no entry '11'"),
    (("drivers.toml", "1", "colour"), "has no field 'colour'"),
    (("track_daytona.toml", "grid.6", "allowance"), "has no entry 'grid.6'"),
])
def test_shipped_value_of_a_missing_entry_or_field_is_a_config_error(args, expected):
    with pytest.raises(ConfigError, match=expected):
        shipped_value(*args)


def test_a_written_patch_is_what_the_kernels_read_and_nothing_else(tmp_path):
    """Round trip: changes -> patch files -> env options -> the parameter row."""
    changes = [_change("data.toml", "Gearbox", "cost", 4, 6),
               _change("drivers.toml", "8", "amount", 3, 2),
               _change("track_daytona.toml", "grid.1", "allowance", 10, 12)]
    options = write_patch(changes, tmp_path / "fix")
    assert sorted(options) == ["card_data", "driver_data", "track_data"]
    assert all(p.is_file() and p.parent == tmp_path / "fix" for p in options.values())
    game = AutomobilesGame(num_players=2, drivers=True, card_set="First Game",
                           **{k: str(v) for k, v in options.items()})
    plain = AutomobilesGame(num_players=2, drivers=True, card_set="First Game")
    gearbox = game.cards.card_id("Gearbox")
    changed = {st.P_CARD_COST + gearbox: 6, st.P_DRIVER_AMOUNT + 7: 2, st.P_ALLOWANCE: 12}
    for slot, value in changed.items():
        assert game.params[slot] == value and plain.params[slot] != value
    differs = np.flatnonzero(game.params != plain.params).tolist()
    assert differs == sorted(changed)


def test_a_season_patch_reaches_every_race_and_the_sponsor_table(tmp_path):
    changes = [_change("sponsors.toml", "A1", "money", [3, 6, 9], [4, 6, 9]),
               _change("drivers.toml", "1", "amount", 1, 2),
               _change("data.toml", "setup.wear_chart", "white", 1, 2)]
    options = write_patch(changes, tmp_path)
    game = AutomobilesSeasonGame(num_players=2, **{k: str(v) for k, v in options.items()})
    assert game.sponsor_data.table[0, :, 0].tolist() == [4, 6, 9]
    for race in game.races_games:
        assert _driver_amounts(race)[0] == 2
        assert race.cards.wear_chart.tolist() == [2, 2, 3, 4]
    assert sorted(game.data_files) == ["card_data", "driver_data", "sponsor_data"]


def test_changing_every_standard_removal_place_keeps_the_deck(tmp_path):
    """A patch giving all three places is a whole table: every shipped sponsor is written
    with it, so the deck stays the eighteen."""
    changes = [_change("sponsors.toml", "standard_removal", place, old, old + 1)
               for place, old in (("first", 3), ("middle", 6), ("last", 12))]
    changes.append(_change("sponsors.toml", "B2", "extra_remove", [2, 3, 5], [2, 3, 6]))
    sponsors = load_sponsors(write_patch(changes, tmp_path)["sponsor_data"])
    shipped = load_sponsors()
    assert sponsors.names == shipped.names and sponsors.standard.tolist() == [4, 7, 13]
    b2 = shipped.names.index("B2")
    assert sponsors.table[b2, :, 1].tolist() == [2, 3, 6]
    assert np.array_equal(np.delete(sponsors.table, b2, 0), np.delete(shipped.table, b2, 0))


@pytest.mark.parametrize(("change", "expected", "error"), [
    (_change("data.toml", "Gearbox", "cost", 5, 6), "is 4 in the shipped file", ConfigError),
    (_change("drivers.toml", "1", "amount", 1, 13), "between 0 and 12", DataFileError),
    (_change("drivers.toml", "1", "amount", 1, 2.5), "integer, string", ConfigError),
    ({"file": "drivers.toml", "entry": "1"}, "keys", ConfigError),
])
def test_a_stale_or_illegal_change_is_refused(tmp_path, change, expected, error):
    with pytest.raises(error, match=expected):
        write_patch([change], tmp_path)


def test_one_field_changed_twice_is_refused(tmp_path):
    twice = [_change("drivers.toml", "1", "amount", 1, 2)] * 2
    with pytest.raises(ConfigError, match="changed twice"):
        write_patch(twice, tmp_path)
