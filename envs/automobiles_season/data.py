"""Racing Season data: the season points chart (``data.toml``) and the sponsor table
(``sponsors.toml``, replaceable with the ``sponsor_data=`` option), loaded and checked
into numpy arrays. Errors name the file, the entry and what was expected."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from transit_gym.envs.automobiles.data import COLOURS
from transit_gym.envs.automobiles.racing_season import DATA_DIR as EXPANSION_DIR
from transit_gym.envs.core.datafile import Entry, open_data
from transit_gym.envs.core.embedded import UserFile, open_source
from transit_gym.envs.core.errors import DataFileError

HERE = Path(__file__).parent
SEASON_FILE = HERE / "data.toml"
SPONSOR_FILE = EXPANSION_DIR / "sponsors.toml"

MAX_RACES = 8          # tracks in one season (the chart covers 1-5; later ones score as 5)
MIN_RACES = 3          # "a season should have at least 3 tracks"
MAX_SPONSORS = 18      # A1-F3
PLACES = ("first", "middle", "last")
FAMILIES = "ABCDEF"
MAX_AMOUNT = 60        # bound of any per-place amount (cubes or $)

# columns of the sponsor table, one row per (sponsor, place)
(SP_MONEY, SP_EXTRA, SP_WEAR, SP_PER_NONWEAR, SP_PER_EXTRA, SP_GAIN, SP_GAIN_MASK) = range(7)
SP_COLUMNS = 7
KEY_COLUMN = {"money": SP_MONEY, "extra_remove": SP_EXTRA, "wear_remove": SP_WEAR,
              "wear_per_nonwear": SP_PER_NONWEAR, "money_per_extra": SP_PER_EXTRA,
              "gain": SP_GAIN}
FAMILY_KEYS = {
    "A": {"money"}, "B": {"extra_remove"}, "C": {"wear_remove"},
    "D": {"gain", "gain_colours"}, "E": {"wear_per_nonwear"},
    "F": {"extra_remove", "money_per_extra"},
}


@dataclass(frozen=True)
class SponsorData:
    """Names (deck order of the file), the standard removal per place, and the table
    ``table[sponsor, place, column]`` (columns ``SP_*``)."""

    names: tuple[str, ...]
    standard: np.ndarray      # (3,) cubes removed by the standard removal per place
    table: np.ndarray         # (n, 3, SP_COLUMNS)
    source: str


@dataclass(frozen=True)
class PointsData:
    """Season points per track number (index 0 = track 1) and place."""

    first: np.ndarray
    middle: np.ndarray
    last: np.ndarray

    def row(self, race: int) -> tuple[int, int, int]:
        """Points of (first, middle, last) on track ``race`` (0-based); tracks past the
        chart score like its last column."""
        k = min(race, len(self.first) - 1)
        return int(self.first[k]), int(self.middle[k]), int(self.last[k])


def load_points() -> PointsData:
    """The points chart of ``data.toml``."""
    points = open_data(SEASON_FILE).sub("points")
    points.unknown_keys(set(PLACES))
    first, middle, last = (np.array(points.int_list(k, 5, 0, MAX_AMOUNT), dtype=np.int64)
                           for k in PLACES)
    return PointsData(first=first, middle=middle, last=last)


def _place_list(entry: Entry, key: str) -> list[int]:
    return entry.int_list(key, 3, 0, MAX_AMOUNT)


def _gain_mask(entry: Entry) -> list[int]:
    lists = entry.get("gain_colours", list)
    if len(lists) != 3:
        entry.fail(f"'gain_colours' must have 3 lists of colour names (first, middle, last), "
                   f"got {len(lists)}")
    masks = []
    for place, names in enumerate(lists):
        if not isinstance(names, list) or not names:
            entry.fail(f"'gain_colours'[{place}] must be a non-empty list of colour names")
        mask = 0
        for name in names:
            if name not in COLOURS:
                entry.fail(f"'gain_colours'[{place}] names {name!r}; colours: {list(COLOURS)}")
            mask |= 1 << COLOURS.index(name)
        masks.append(mask)
    return masks


def _sponsor_row(entry: Entry, base: dict[str, list[int]] | None) -> dict[str, list[int]]:
    """One checked sponsor: its family's keys (3 values each: first, middle, last; the
    gain colours as masks). ``base`` is the shipped row a patch entry lays its keys over
    (None: every key of the family is required)."""
    name = entry.get("name", str)
    if len(name) < 2 or name[0] not in FAMILIES:
        entry.fail(f"'name' must start with its family letter {list(FAMILIES)}, got {name!r}")
    allowed = FAMILY_KEYS[name[0]]
    entry.unknown_keys({"name"} | allowed)
    row = dict(base or {})
    for key in sorted(allowed):
        if entry.has(key):
            row[key] = _gain_mask(entry) if key == "gain_colours" else _place_list(entry, key)
        elif key not in row:
            entry.fail(f"family {name[0]} needs {key!r} (3 values: first, middle, last)")
    return row


def _sponsor_rows(entries: list[Entry], source: str,
                  base: dict[str, dict[str, list[int]]] | None) -> dict[str, dict]:
    """The ``[[sponsor]]`` entries by name, in file order; with ``base`` (a patch) each is
    laid over the shipped sponsor of its name and the rest of ``base`` is kept."""
    rows = dict(base or {})
    seen: set[str] = set()
    for entry in entries:
        name = entry.get("name", str)
        if name in seen:
            entry.fail(f"sponsor {name!r} appears twice")
        seen.add(name)
        rows[name] = _sponsor_row(entry, rows.get(name))
    if not 1 <= len(rows) <= MAX_SPONSORS:
        raise DataFileError(f"{source}: needs 1-{MAX_SPONSORS} [[sponsor]] entries, "
                            f"got {len(rows)}")
    return rows


def _standard(entry: Entry, base: np.ndarray | None) -> np.ndarray:
    """``[standard_removal]``: cubes per place (a patch keeps the places it omits)."""
    entry.unknown_keys(set(PLACES))
    return np.array([entry.int_in(k, 0, MAX_AMOUNT, ... if base is None else int(base[i]))
                     for i, k in enumerate(PLACES)], dtype=np.int64)


def is_whole_table(top: Entry) -> bool:
    """A sponsor file is a whole table (its sponsors are the deck) when its
    ``[standard_removal]`` gives all three places; otherwise it is a patch."""
    return top.has("standard_removal") and all(
        k in top.sub("standard_removal").table for k in PLACES)


def load_sponsors(path: str | Path | UserFile | None = None) -> SponsorData:
    """The shipped sponsor table, with ``path`` (the ``sponsor_data`` file) laid over it:
    its sponsors matched by name, only the keys given changing, new names added to the
    deck; a whole table (``is_whole_table``) replaces the shipped one."""
    shipped = open_data(SPONSOR_FILE)
    shipped.unknown_keys({"standard_removal", "sponsor"})
    standard = _standard(shipped.sub("standard_removal"), None)
    rows = _sponsor_rows(shipped.subs("sponsor"), str(SPONSOR_FILE), None)
    source = str(SPONSOR_FILE)
    if path is not None:
        source = str(path)
        top = open_source(path, "sponsor_data")
        top.unknown_keys({"standard_removal", "sponsor"})
        whole = is_whole_table(top)
        if top.has("standard_removal"):
            standard = _standard(top.sub("standard_removal"), None if whole else standard)
        entries = top.subs("sponsor") if top.has("sponsor") or whole else []
        rows = _sponsor_rows(entries, source, None if whole else rows)
    table = np.zeros((len(rows), 3, SP_COLUMNS), dtype=np.int64)
    for i, row in enumerate(rows.values()):
        for key, values in row.items():
            column = SP_GAIN_MASK if key == "gain_colours" else KEY_COLUMN[key]
            table[i, :, column] = values
    return SponsorData(names=tuple(rows), standard=standard, table=table, source=source)
