"""The numbers a fix search may change, the candidates made of them, and their patch files.

A *change* is ``{"file", "entry", "field", "from", "to"}``: one number of a shipped data
file (``data.toml`` for a card, the entry its name). A *candidate* is a tuple of changes to
different fields. Each field moves by a documented step (``STEPS``) from today's value,
within the data loader's bounds; a candidate whose patch the loader refuses is never made.

Candidates are ordered as the designer asked: fewest numbers first, then the smallest
steps (the sum of the changes' sizes), then by file, entry and field.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import tempfile
from pathlib import Path
from typing import Any

from transit_gym.envs.core.errors import ConfigError, DataFileError

CARD_FILE = "data.toml"
#: the changes each field of a card may take from today's value (the designer's step):
#: cost and value in money, the effect numbers (count, bonus, wear) in cubes or spaces
STEPS: dict[str, tuple[int, ...]] = {
    "cost": (-3, -2, -1, 1, 2, 3),
    "value": (-2, -1, 1, 2),
    "count": (-2, -1, 1, 2),
    "bonus": (-2, -1, 1, 2),
    "wear": (-2, -1, 1, 2),
}
#: fields every card has; the effect numbers are searched only where today's value is
#: not 0 (a 0 there is a number the card's effect does not read)
PRICE_FIELDS = ("cost", "value")
EFFECT_FIELDS = ("count", "bonus", "wear")

Change = dict[str, Any]
Candidate = tuple[Change, ...]


# ----- patches (a card-only writer until the shared patches module lands) ----------------------
def shipped_value(file: str, entry: str, field: str) -> int:
    """Today's value of ``field`` of ``entry`` in the shipped ``file`` (cards only here)."""
    if file != CARD_FILE:
        raise ConfigError(f"this fix search changes cards ({CARD_FILE}) only; got file {file!r}")
    from transit_gym.envs.automobiles.data import load_cards

    cards = load_cards()
    if entry not in cards.names:
        raise ConfigError(f"{file}: no card {entry!r}; cards: {sorted(cards.names)}")
    columns = {"cost": cards.costs, "value": cards.values, "count": cards.count,
               "bonus": cards.bonus, "wear": cards.wear}
    if field not in columns:
        raise ConfigError(f"{file}: a card has no number {field!r}; numbers: {sorted(columns)}")
    return int(columns[field][cards.card_id(entry)])


def patch_text(changes: list[Change]) -> str:
    """The ``card_data`` TOML of ``changes`` (cards matched by name, only changed keys)."""
    by_card: dict[str, dict[str, int]] = {}
    for change in changes:
        if change["file"] != CARD_FILE:
            raise ConfigError(f"this fix search writes card patches only; got {change!r}")
        by_card.setdefault(change["entry"], {})[change["field"]] = int(change["to"])
    lines = ["# A fix proposed by transit-gym balance fix: card_data=THIS_FILE", ""]
    for name in sorted(by_card):
        lines += ["[[cards]]", f"name = {json.dumps(name)}"]
        lines += [f"{k} = {v}" for k, v in sorted(by_card[name].items())]
        lines.append("")
    return "\n".join(lines)


def write_patch(changes: list[Change], folder: str | Path) -> dict[str, str]:
    """Write the patch of ``changes`` into ``folder`` (named by its contents' hash, so a
    file never changes under its name); the env options that load it."""
    text = patch_text(changes)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"cards-{hashlib.sha256(text.encode()).hexdigest()[:12]}.toml"
    if not path.is_file():
        path.write_text(text)
    return {"card_data": str(path)}


def data_hash(options: dict[str, Any]) -> str:
    """SHA-256 of the contents of the data files ``options`` name (the shipped data: "")."""
    digest = hashlib.sha256()
    for key in sorted(options):
        if key.endswith("_data") and options[key]:
            digest.update(key.encode() + b"\0" + Path(options[key]).read_bytes() + b"\0")
    return digest.hexdigest()


def loader_accepts(changes: list[Change]) -> bool:
    """Whether the data loader takes the patch of ``changes`` (its bounds and rules)."""
    from transit_gym.envs.automobiles.data import load_cards

    with tempfile.TemporaryDirectory() as tmp:
        try:
            load_cards(write_patch(changes, tmp)["card_data"])
        except DataFileError:
            return False
    return True


# ----- candidates ------------------------------------------------------------------------------
def card_fields(card: str) -> list[tuple[str, str, str, int]]:
    """``(file, entry, field, today)`` of the numbers of ``card`` a fix may change."""
    out = []
    for field in (*PRICE_FIELDS, *EFFECT_FIELDS):
        today = shipped_value(CARD_FILE, card, field)
        if field in PRICE_FIELDS or today != 0:
            out.append((CARD_FILE, card, field, today))
    return out


def single_changes(fields: list[tuple[str, str, str, int]]) -> list[Change]:
    """Every one-number change of ``fields`` within its step that the loader accepts."""
    out = []
    for file, entry, field, today in fields:
        for step in STEPS[field]:
            change = {"file": file, "entry": entry, "field": field, "from": today,
                      "to": today + step}
            if change["to"] >= 0 and loader_accepts([change]):
                out.append(change)
    return out


def size(candidate: Candidate) -> int:
    """The steps of a candidate: the sum of its changes' sizes."""
    return sum(abs(c["to"] - c["from"]) for c in candidate)


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


def describe(candidate: Candidate) -> str:
    """``Crate Motor cost 5->6, count 3->2`` (or ``no change``)."""
    if not candidate:
        return "no change"
    parts = []
    for entry, group in itertools.groupby(candidate, key=lambda c: c["entry"]):
        parts.append(f"{entry} " + ", ".join(f"{c['field']} {c['from']}->{c['to']}"
                                             for c in group))
    return "; ".join(parts)


def candidate_key(candidate: Candidate) -> str:
    """A stable name of a candidate (its changes, sorted)."""
    items = sorted((c["file"], c["entry"], c["field"], int(c["to"])) for c in candidate)
    return hashlib.sha256(json.dumps(items).encode()).hexdigest()[:16]
