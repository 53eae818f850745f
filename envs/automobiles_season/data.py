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


def load_sponsors(path: str | Path | UserFile | None = None) -> SponsorData:
    """The sponsor table of ``path`` (a whole file in the format of ``sponsors.toml``), or
    the shipped one."""
    top = open_source(path if path is not None else SPONSOR_FILE, "sponsor_data")
    source = str(path) if path is not None else str(SPONSOR_FILE)
    top.unknown_keys({"standard_removal", "sponsor"})
    std = top.sub("standard_removal")
    std.unknown_keys(set(PLACES))
    standard = np.array([std.int_in(k, 0, MAX_AMOUNT) for k in PLACES], dtype=np.int64)
    rows = top.subs("sponsor")
    if not 1 <= len(rows) <= MAX_SPONSORS:
        raise DataFileError(f"{source}: needs 1-{MAX_SPONSORS} [[sponsor]] entries, "
                            f"got {len(rows)}")
    names: list[str] = []
    table = np.zeros((len(rows), 3, SP_COLUMNS), dtype=np.int64)
    for i, row in enumerate(rows):
        name = row.get("name", str)
        if len(name) < 2 or name[0] not in FAMILIES:
            row.fail(f"'name' must start with its family letter {list(FAMILIES)}, got {name!r}")
        if name in names:
            row.fail(f"sponsor {name!r} appears twice")
        names.append(name)
        allowed = FAMILY_KEYS[name[0]]
        row.unknown_keys({"name"} | allowed)
        for key in sorted(allowed - {"gain_colours"}):
            if not row.has(key):
                row.fail(f"family {name[0]} needs {key!r} (3 values: first, middle, last)")
            table[i, :, KEY_COLUMN[key]] = _place_list(row, key)
        if "gain" in allowed:
            table[i, :, SP_GAIN_MASK] = _gain_mask(row)
    return SponsorData(names=tuple(names), standard=standard, table=table, source=source)
