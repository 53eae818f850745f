"""Every number of Loose Caboose!: the deck, the dice and the setup counts.

The defaults come from ``data.toml`` beside this module (each value marked
CONFIRMED or RECONSTRUCTED there). Users who own the game pass their own file
with ``deck=path``; sections they leave out keep the defaults.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from transit_gym.envs.core.datafile import Entry, open_data
from transit_gym.envs.core.embedded import UserFile, open_source
from transit_gym.envs.core.errors import DataFileError

DEFAULT_FILE = Path(__file__).with_name("data.toml")

MAX_CARDS = 64      # capacity of every card array in the state vector
MAX_FACES = 12      # capacity of the dice-face table
MAX_VALUE = 4       # card values are 1..4 (the rulebook's cards; at most one die per point)
SHAPES = ("straight", "curve")
STRAIGHT, CURVE = 0, 1

#: values marked RECONSTRUCTED in the default file (for the docs and reports)
RECONSTRUCTED = (
    "regular cards per value (12/12/11/11)",
    "straight/curve split of the cards",
    "dice faces [0, 0, 1, 1, 2, 2]",
)


@dataclass(frozen=True)
class CabooseData:
    """The deck (one row per physical card), the dice and the setup counts."""

    values: np.ndarray      # (n,) int64, 1..4
    broken: np.ndarray      # (n,) int64, 0/1
    shapes: np.ndarray      # (n,) int64, STRAIGHT/CURVE
    faces: np.ndarray       # (f,) int64, wheels per die face
    dice: int
    initial_railway: int
    hand_size: int
    cards_removed: dict[int, int]
    source: str

    @property
    def num_cards(self) -> int:
        return int(self.values.shape[0])


def _load_deck(entry: Entry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    values, broken, shapes = [], [], []
    for card in entry.subs("cards"):
        card.unknown_keys({"value", "broken", "shape", "count"})
        value = card.int_in("value", 1, MAX_VALUE)
        is_broken = card.get("broken", bool)
        shape = card.get("shape", str)
        if shape not in SHAPES:
            card.fail(f"'shape' must be one of {list(SHAPES)}, got {shape!r}")
        count = card.int_in("count", 0, MAX_CARDS)
        values += [value] * count
        broken += [int(is_broken)] * count
        shapes += [SHAPES.index(shape)] * count
    if not 1 <= len(values) <= MAX_CARDS:
        entry.fail(f"the deck must hold 1..{MAX_CARDS} cards, got {len(values)}")
    as_array = lambda xs: np.array(xs, dtype=np.int64)  # noqa: E731
    return as_array(values), as_array(broken), as_array(shapes)


def _load_setup(entry: Entry) -> tuple[int, int, dict[int, int]]:
    entry.unknown_keys({"initial_railway", "cards_removed", "hand_size"})
    initial = entry.int_in("initial_railway", 1, MAX_CARDS)
    hand = entry.int_in("hand_size", 0, MAX_CARDS)
    removed_table = entry.sub("cards_removed")
    removed = {}
    for players in (2, 3, 4):
        removed[players] = removed_table.int_in(str(players), 0, MAX_CARDS)
    return initial, hand, removed


def _load_dice(entry: Entry) -> tuple[int, np.ndarray]:
    entry.unknown_keys({"count", "faces"})
    count = entry.int_in("count", 1, MAX_VALUE)
    faces = entry.int_list("faces", low=0, high=6)
    if not 1 <= len(faces) <= MAX_FACES:
        entry.fail(f"'faces' must list 1..{MAX_FACES} faces, got {len(faces)}")
    return count, np.array(faces, dtype=np.int64)


def load(path: str | Path | UserFile | None = None) -> CabooseData:
    """Load the default data, overlaid with the sections of ``path`` when given."""
    default = open_data(DEFAULT_FILE)
    user = open_source(path, "deck") if path is not None else None
    if user is not None:
        user.unknown_keys({"setup", "deck", "dice"})

    def section(name: str) -> Entry:
        if user is not None and user.has(name):
            return user.sub(name)
        return default.sub(name)

    values, broken, shapes = _load_deck(section("deck"))
    initial, hand, removed = _load_setup(section("setup"))
    dice, faces = _load_dice(section("dice"))
    source = str(path) if path is not None else str(DEFAULT_FILE)
    if values.max() > dice:
        raise DataFileError(
            f"{source}: a card of value {values.max()} needs {values.max()} dice, "
            f"but [dice] count is {dice}"
        )
    for players, gone in removed.items():
        needed = initial + gone + players * hand + 1
        if needed > len(values):
            raise DataFileError(
                f"{source}: {players} players need at least {needed} cards "
                f"(railway {initial}, removed {gone}, hands {players}x{hand}, one to draw), "
                f"the deck has {len(values)}"
            )
    return CabooseData(values, broken, shapes, faces, dice, initial, hand, removed, source)
