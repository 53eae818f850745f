"""The numbers a fix search may change, the candidates made of them, and their patch files.

A *change* is ``{"file", "entry", "field", "from", "to"}``: one number of a shipped data
file (``data.toml`` for a card, the entry its name; ``drivers.toml`` for a driver, the
entry its number; ``sponsors.toml`` for a sponsor, one place of one of its lists of three,
so ``from`` and ``to`` are lists; ``track_<board>.toml`` for a board, a grid slot's
``allowance``), written by ``transit_gym.envs.automobiles.patches``. A *candidate* is
a tuple of changes to different fields. Each field moves by a documented step (``STEPS``)
from today's value, within the loaders' bounds; a candidate whose patch a loader refuses is
never made.

Candidates are ordered as the designer asked: fewest numbers first, then the smallest
steps (the sum of the changes' sizes), then by file, entry and field.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import tempfile
from collections.abc import Collection
from pathlib import Path
from typing import Any

from transit_gym.envs.core.errors import ConfigError, DataFileError

CARD_FILE = "data.toml"
DRIVER_FILE = "drivers.toml"
#: the changes each field of a card may take from today's value (the designer's step):
#: cost and value in money, the effect numbers (count, bonus, wear) in cubes or spaces
STEPS: dict[str, tuple[int, ...]] = {
    "cost": (-3, -2, -1, 1, 2, 3),
    "value": (-2, -1, 1, 2),
    "count": (-2, -1, 1, 2),
    "bonus": (-2, -1, 1, 2),
    "wear": (-2, -1, 1, 2),
    "amount": (-2, -1, 1, 2),
    "price": (-2, -1, 1, 2),
    "allowance": (-2, -1, 1, 2),
    # the market's cubes of the card's colour (cubes.supply): how many can be bought
    "supply": (-12, -10, -8, -6, -4, -3, -2, -1, 1, 2, 4),
    "sponsor": (-2, -1, 1, 2),
}
SPONSOR_FILE = "sponsors.toml"
#: the item name of a change to the supply of cubes (every market uses it)
SUPPLY = "supply"
#: every value the loader accepts for a driver's own numbers (``racing_season.driver_data``:
#: 0..12); an amount of 0 reads "any number", another card text, so it is left out
DRIVER_MAX = 12
DRIVER_RANGES: dict[str, tuple[int, ...]] = {"amount": tuple(range(1, DRIVER_MAX + 1)),
                                             "price": tuple(range(0, DRIVER_MAX + 1))}
#: fields every card has; the effect numbers are searched only where today's value is
#: not 0 (a 0 there is a number the card's effect does not read)
PRICE_FIELDS = ("cost", "value")
EFFECT_FIELDS = ("count", "bonus", "wear")

Change = dict[str, Any]
Candidate = tuple[Change, ...]


# ----- patches (the shared writer of transit_gym.envs.automobiles.patches) --------------------
def shipped_value(file: str, entry: str, field: str) -> int:
    """Today's value of ``field`` of ``entry`` in the shipped ``file``."""
    from transit_gym.envs.automobiles import patches

    return int(patches.shipped_value(file, entry, field))


def write_patch(changes: list[Change], folder: str | Path) -> dict[str, str]:
    """Write the patch files of ``changes`` into ``folder``; the env options that load
    them (paths as text)."""
    from transit_gym.envs.automobiles import patches

    return {k: str(v) for k, v in patches.write_patch(list(changes), folder).items()}


def data_hash(options: dict[str, Any]) -> str:
    """SHA-256 of the contents of the data files ``options`` name (the shipped data: "")."""
    digest = hashlib.sha256()
    for key in sorted(options):
        if key.endswith("_data") and options[key]:
            digest.update(key.encode() + b"\0" + Path(options[key]).read_bytes() + b"\0")
    return digest.hexdigest()


def loader_accepts(changes: list[Change]) -> bool:
    """Whether the game's loaders take the patch of ``changes`` (bounds and rules)."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            write_patch(changes, tmp)
        except (ConfigError, DataFileError):
            return False
    return True


# ----- candidates ------------------------------------------------------------------------------
def card_fields(card: str, every: bool = False) -> list[tuple[str, str, str, int]]:
    """``(file, entry, field, today)`` of the numbers of ``card`` a fix may change (its
    effect numbers where today's is not 0; ``every``: all of them, the loader decides)."""
    out = []
    for field in (*PRICE_FIELDS, *EFFECT_FIELDS):
        today = shipped_value(CARD_FILE, card, field)
        if field in PRICE_FIELDS or today != 0 or every:
            out.append((CARD_FILE, card, field, today))
    return out


def supply_field(card: str) -> tuple[str, str, str, int]:
    """The supply of cubes of ``card``'s colour (``cubes.supply``): one card a colour in a
    market, so it is how many cubes of the card there are to buy."""
    from transit_gym.envs.automobiles import patches

    colour = patches._row(CARD_FILE, card)["color"]
    return (CARD_FILE, "cubes.supply", colour,
            shipped_value(CARD_FILE, "cubes.supply", colour))


def driver_entry(driver: str) -> str:
    """The drivers.toml entry of ``Driver 01`` (or ``1``): ``"1"``."""
    return str(int(driver.split()[-1])) if driver.split()[-1].isdigit() else driver


def driver_fields(driver: str) -> list[tuple[str, str, str, int]]:
    """``(file, entry, field, today)`` of a driver's numbers (``Driver 01`` or ``1``): its
    amount, and its price where it has one."""
    entry = driver_entry(driver)
    out = [(DRIVER_FILE, entry, "amount", shipped_value(DRIVER_FILE, entry, "amount"))]
    price = shipped_value(DRIVER_FILE, entry, "price")
    if price:
        out.append((DRIVER_FILE, entry, "price", price))
    return out


def rival_fields(driver: str) -> list[tuple[str, str, str, int]]:
    """The numbers of every other driver: the seat that may not take ``driver`` takes one
    of them, so making them stronger can also mend ``driver``'s power."""
    own = driver_entry(driver)
    return [f for number in range(1, 11) if str(number) != own
            for f in driver_fields(str(number))]


def steps_of(file: str, entry: str, field: str, today: int,
             wide: Collection[tuple[str, str]] = ()) -> list[int]:
    """The values ``field`` may take: every value the loader accepts for an entry in
    ``wide`` (a driver's own numbers), else today's value plus each of its ``STEPS``."""
    if (file, entry) in wide and file == DRIVER_FILE:
        return [v for v in DRIVER_RANGES[field] if v != today]
    return [today + step for step in STEPS["supply" if entry == "cubes.supply" else field]]


def board_file(board: str) -> str:
    """``track_<board>.toml`` of a shipped board (a clear error naming them otherwise)."""
    from transit_gym.envs.automobiles.data import TRACKS

    if board not in TRACKS:
        raise ConfigError(f"no board {board!r}; boards: {sorted(TRACKS)}")
    return f"track_{board}.toml"


def board_fields(board: str, players: int) -> list[tuple[str, str, str, int]]:
    """The allowances of the grid slots ``players`` seats start on (P1..P<players>): what
    a board adds to a seat's money."""
    file = board_file(board)
    return [(file, f"grid.{slot}", "allowance", shipped_value(file, f"grid.{slot}", "allowance"))
            for slot in range(1, players + 1)]


def sponsor_fields(sponsor: str) -> list[tuple[str, str, str, list[int]]]:
    """Every list of numbers (one a place: first, middle, last) of ``sponsor``'s row in
    sponsors.toml (its colour lists are names, not numbers)."""
    from transit_gym.envs.automobiles import patches

    row = patches._row(SPONSOR_FILE, sponsor)
    return [(SPONSOR_FILE, sponsor, key, list(value)) for key, value in row.items()
            if isinstance(value, list) and all(isinstance(v, int) for v in value)]


def single_changes(fields: list[tuple[str, str, str, int]],
                   wide: Collection[tuple[str, str]] = ()) -> list[Change]:
    """Every one-number change of ``fields`` that the loader accepts: within its step, or
    over the loader's whole range for the entries in ``wide``."""
    out = []
    for file, entry, field, today in fields:
        if isinstance(today, list):   # a sponsor's list: one place a change
            out += [c for c in place_changes(file, entry, field, today) if loader_accepts([c])]
            continue
        for to in steps_of(file, entry, field, today, wide):
            change = {"file": file, "entry": entry, "field": field, "from": today,
                      "to": to}
            # an amount of 0 means "any number" (drivers.toml): not a step from a number
            zero_means_any = field == "amount" and change["to"] == 0
            if change["to"] >= 0 and not zero_means_any and loader_accepts([change]):
                out.append(change)
    return out


def place_changes(file: str, entry: str, field: str, today: list[int]) -> list[Change]:
    """One place of a list of three moved by a step (``STEPS["sponsor"]``), never below 0."""
    out = []
    for place, value in enumerate(today):
        for step in STEPS["sponsor"]:
            if value + step >= 0:
                to = [*today[:place], value + step, *today[place + 1:]]
                out.append({"file": file, "entry": entry, "field": field, "from": list(today),
                            "to": to})
    return out


def change_size(change: Change) -> int:
    """How far a change moves its number (a list: the sum over its places)."""
    if isinstance(change["to"], list):
        return sum(abs(a - b) for a, b in zip(change["to"], change["from"], strict=True))
    return abs(change["to"] - change["from"])


def size(candidate: Candidate) -> int:
    """The steps of a candidate: the sum of its changes' sizes."""
    return sum(map(change_size, candidate))


def order_key(candidate: Candidate) -> tuple:
    """Fewest numbers first, then the smallest steps, then by name."""
    return (len(candidate), size(candidate),
            [(c["file"], c["entry"], c["field"], c["to"]) for c in candidate])


def combine(singles: list[Change], numbers: int) -> list[Candidate]:
    """Candidates of ``numbers`` changes, each to another field, drawn from ``singles``,
    that the loader accepts, in :func:`order_key` order."""
    out = []
    for combo in itertools.combinations(singles, numbers):
        fields = {(c["file"], c["entry"], c["field"]) for c in combo}
        if len(fields) == numbers and (numbers == 1 or loader_accepts(list(combo))):
            out.append(tuple(combo))
    return sorted(out, key=order_key)


def item_name(change: Change) -> str:
    """The card, driver, sponsor or board a change is to (``Driver 01`` for drivers.toml
    entry ``1``, ``daytona`` for track_daytona.toml)."""
    if change["file"] == DRIVER_FILE:
        return f"Driver {int(change['entry']):02d}"
    if change["file"].startswith("track_"):
        return change["file"].removeprefix("track_").removesuffix(".toml")
    if change["entry"] == "cubes.supply":
        return SUPPLY
    return change["entry"]


def describe(candidate: Candidate) -> str:
    """``Crate Motor cost 5->6, count 3->2`` (or ``no change``)."""
    if not candidate:
        return "no change"
    parts = []
    for entry, group in itertools.groupby(candidate, key=item_name):
        parts.append(f"{entry} " + ", ".join(f"{_field(c)} {c['from']}->{c['to']}"
                                             for c in group))
    return "; ".join(parts)


def _field(change: Change) -> str:
    """A change's field as a designer reads it (a grid slot's: ``P1 allowance``)."""
    if change["entry"].startswith("grid."):
        return f"P{change['entry'].split('.')[1]} {change['field']}"
    return change["field"]


def candidate_key(candidate: Candidate) -> str:
    """A stable name of a candidate (its changes, sorted)."""
    items = sorted((c["file"], c["entry"], c["field"],
                    c["to"] if isinstance(c["to"], int) else json.dumps(c["to"]))
                   for c in candidate)
    return hashlib.sha256(json.dumps(items).encode()).hexdigest()[:16]
