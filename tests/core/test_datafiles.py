"""Data files given to a game: every kind of bad file is a
``DataFileError`` naming the file, and a value that is not a path is a ``ConfigError``
naming the value. Checked for every constructor option that takes a file."""

from __future__ import annotations

import os

import pytest

from transit_gym.envs.core import datafile
from transit_gym.envs.core.errors import ConfigError, DataFileError
from transit_gym.envs.registry import game_class

# (game, players, constructor option naming a data file)
FILE_OPTIONS = [
    ("loose_caboose", 2, "deck"),
    ("automobiles", 2, "card_data"),
    ("automobiles", 2, "track"),
    ("automobile", 3, "data"),
    ("planes", 2, "cards"),
    ("planes", 2, "airport"),
    ("automobiles_season", 2, "sponsor_data"),   # Racing Season sponsors
    ("automobiles", 2, "driver_data"),           # Racing Season drivers
    ("automobiles", 2, "track_data"),            # grid slots of the shipped boards
    ("automobiles_season", 2, "card_data"),      # handed on to every race
    ("automobiles_season", 2, "driver_data"),
    ("automobiles_season", 2, "track_data"),
]


def _write(path, content: bytes):
    path.write_bytes(content)
    return path


BAD_FILES = {
    # a Latin-1 byte inside a string: not UTF-8
    "not_utf8": (lambda d: _write(d / "latin1.toml", b'[x]\nname = "caf\xe9"\n'), "UTF-8"),
    # deep enough to exhaust the TOML parser's recursion
    "very_deep": (lambda d: _write(d / "deep.toml",
                                   b"x = " + b"[" * 50_000 + b"]" * 50_000 + b"\n"),
                  "nested too deeply"),
    # parses, but deeper than any data file needs
    "deep": (lambda d: _write(d / "deep20.toml", b"x = " + b"[" * 20 + b"]" * 20 + b"\n"),
             "nested too deeply"),
    "oversized": (lambda d: _write(d / "big.toml",
                                   b"# " + b"a" * (datafile.MAX_BYTES + 10) + b"\n"),
                  "larger than"),
    "directory": (lambda d: (d / "folder.toml").mkdir() or d / "folder.toml", "directory"),
    "missing": (lambda d: d / "nowhere.toml", "does not exist"),
    "huge_int": (lambda d: _write(d / "huge.toml", b"[x]\ncount = 99999999999999999999999\n"),
                 "out of range"),
    "int64_edge": (lambda d: _write(d / "edge.toml", b"[x]\ncount = 9223372036854775807\n"),
                   "out of range"),
    "infinite": (lambda d: _write(d / "inf.toml", b"[x]\nfaces = [1, inf]\n"), "finite"),
    "not_toml": (lambda d: _write(d / "bad.toml", b"[x\n"), "not valid TOML"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
@pytest.mark.parametrize(("game", "players", "option"), FILE_OPTIONS)
def test_a_bad_data_file_is_a_data_file_error_naming_the_file(game, players, option, case,
                                                             tmp_path):
    """Non-UTF-8, deeply nested, oversized, a directory, huge numbers."""
    make, expected = BAD_FILES[case]
    path = make(tmp_path)
    with pytest.raises(DataFileError) as err:
        game_class(game)(num_players=players, **{option: str(path)})
    assert str(path) in str(err.value)
    assert expected in str(err.value)


NOT_PATHS = [123, 2**70, True, 1.5, b"deck.toml", ["a.toml"]]
#: every file option with every value that is not a path; ``track`` takes a list of boards
#: (a pool drawn per reset, tested below), so the list is not among its bad values
NOT_PATH_CASES = [(game, players, option, value) for game, players, option in FILE_OPTIONS
                  for value in NOT_PATHS
                  if not (option == "track" and isinstance(value, list))]


@pytest.mark.parametrize(("game", "players", "option", "value"), NOT_PATH_CASES)
def test_a_file_option_that_is_not_a_path_is_a_config_error(game, players, option, value):
    """``deck=123`` and the like: a ``ConfigError`` naming the option and the value."""
    with pytest.raises(ConfigError) as err:
        game_class(game)(num_players=players, **{option: value})
    assert option in str(err.value) and repr(value) in str(err.value)


def test_a_track_list_naming_a_missing_file_is_a_data_file_error(tmp_path):
    """``track=[...]`` is a pool of boards: each path in it is read like ``track=PATH``,
    and a missing one is a ``DataFileError`` naming that file."""
    missing = tmp_path / "no_such_board.toml"
    with pytest.raises(DataFileError) as err:
        game_class("automobiles")(num_players=2, track=["daytona", str(missing)])
    assert str(missing) in str(err.value)


def test_a_device_is_not_read():
    """A character device (endless input) is refused before anything is read."""
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    with pytest.raises(DataFileError, match="not a regular file"):
        datafile.load_toml("/dev/zero")


def test_the_error_names_the_line_of_the_bad_byte(tmp_path):
    path = _write(tmp_path / "latin1.toml", b'a = 1\nb = 2\nc = "\xff"\n')
    with pytest.raises(DataFileError, match="line 3"):
        datafile.load_toml(path)


def test_an_empty_path_is_a_config_error():
    with pytest.raises(ConfigError, match="empty"):
        datafile.open_data("", "deck")


def test_values_within_the_limits_still_load(tmp_path):
    """The checks refuse only what no data file needs: 12 levels, +-10**9, 1 MiB."""
    nested = "[" * datafile.MAX_DEPTH + "]" * datafile.MAX_DEPTH
    path = _write(tmp_path / "ok.toml",
                  f"n = {datafile.MAX_INT}\nm = -{datafile.MAX_INT}\nx = {nested}\n"
                  f"f = 2.5\n".encode())
    table = datafile.load_toml(path)
    assert table["n"] == datafile.MAX_INT and table["f"] == 2.5
