"""The Racing Season driver table (``drivers.toml``): number, name, phase and numbers of
each of the ten driver cards (R-YUC "Drivers" appendix). The kernels in ``drivers.py``
dispatch on the driver number; every amount they use comes from this table through the
parameter vector.

The ``driver_data=`` option lays a user file over the shipped table: its ``[[drivers]]``
are matched by ``number`` and only the keys they give change (``[draft]`` likewise), so
``[[drivers]] number = 1  amount = 2`` is a whole file; a full copy of ``drivers.toml``
is accepted too."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.core.datafile import Entry, open_data
from transit_gym.envs.core.embedded import UserFile, open_source

DRIVERS_FILE = Path(__file__).resolve().parent / "drivers.toml"
NUM_DRIVERS = 10
PHASES = ("action", "buy", "car", "decline", "end")
#: the phase printed on each card (driver number - 1), which the kernels are written for
EXPECTED_PHASES = ("decline", "action", "action", "buy", "buy", "car", "decline", "end",
                   "end", "end")
MAX_AMOUNT = 12
#: the keys of one ``[[drivers]]`` row
DRIVER_KEYS = {"number", "name", "phase", "amount", "price", "status"}


@dataclass(frozen=True)
class DriverData:
    names: tuple[str, ...]
    phases: tuple[str, ...]
    amounts: np.ndarray      # per driver (number - 1); 0 = "any number"
    prices: np.ndarray       # $ per cube (0 where the card names no price)
    extra: int               # drivers revealed = players + extra
    source: str


def _driver_row(entry: Entry, base: dict[str, Any] | None) -> dict[str, Any]:
    """One checked driver row; ``base`` is the shipped row a user entry lays its keys over
    (None: the shipped row itself, every key but ``price`` and ``status`` required)."""
    entry.unknown_keys(DRIVER_KEYS)
    number = entry.int_in("number", 1, NUM_DRIVERS)
    row = dict(base or {})
    phase = entry.get("phase", str, row.get("phase", ...))
    if phase != EXPECTED_PHASES[number - 1]:
        entry.fail(f"phase of driver {number} must be {EXPECTED_PHASES[number - 1]!r} (the "
                   f"card's phase), got {phase!r}")
    row.update(number=number, phase=phase,
               name=entry.get("name", str, row.get("name", ...)),
               amount=entry.int_in("amount", 0, MAX_AMOUNT, row.get("amount", ...)),
               price=entry.int_in("price", 0, MAX_AMOUNT, row.get("price", 0)),
               status=entry.get("status", str, row.get("status", "")))
    return row


def _shipped_rows() -> tuple[list[dict[str, Any]], int]:
    """The shipped rows (in number order, checked) and the draft's ``extra``."""
    top = open_data(DRIVERS_FILE)
    top.unknown_keys({"draft", "drivers"})
    draft = top.sub("draft")
    draft.unknown_keys({"extra"})
    rows = top.subs("drivers")
    if len(rows) != NUM_DRIVERS:
        top.fail(f"[[drivers]] must list {NUM_DRIVERS} drivers, got {len(rows)}")
    out = []
    for k, entry in enumerate(rows):
        row = _driver_row(entry, None)
        if row["number"] != k + 1:
            entry.fail(f"drivers must be listed in order: expected number {k + 1}, "
                       f"got {row['number']}")
        out.append(row)
    return out, draft.int_in("extra", 0, NUM_DRIVERS)


def load_drivers(path: str | Path | UserFile | None = None) -> DriverData:
    """The shipped driver table (one row per driver 1..10), with the drivers and keys of
    ``path`` (the ``driver_data`` file) laid over it; errors name the file, the entry and
    the key."""
    rows, extra = _shipped_rows()
    source = str(DRIVERS_FILE)
    if path is not None:
        source = str(path)
        user = open_source(path, "driver_data")
        user.unknown_keys({"draft", "drivers"})
        if user.has("draft"):
            draft = user.sub("draft")
            draft.unknown_keys({"extra"})
            extra = draft.int_in("extra", 0, NUM_DRIVERS, extra)
        seen: set[int] = set()
        for entry in user.subs("drivers") if user.has("drivers") else []:
            number = entry.int_in("number", 1, NUM_DRIVERS)
            if number in seen:
                entry.fail(f"driver {number} is listed twice")
            seen.add(number)
            rows[number - 1] = _driver_row(entry, rows[number - 1])
    amounts = np.array([r["amount"] for r in rows], dtype=np.int64)
    prices = np.array([r["price"] for r in rows], dtype=np.int64)
    return DriverData(names=tuple(r["name"] for r in rows),
                      phases=tuple(r["phase"] for r in rows), amounts=amounts,
                      prices=prices, extra=extra, source=source)
