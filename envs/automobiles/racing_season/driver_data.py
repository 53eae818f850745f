"""The Racing Season driver table (``drivers.toml``): number, name, phase and numbers of
each of the ten driver cards (R-YUC "Drivers" appendix). The kernels in ``drivers.py``
dispatch on the driver number; every amount they use comes from this table through the
parameter vector."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from transit_gym.envs.core.datafile import open_data

DRIVERS_FILE = Path(__file__).resolve().parent / "drivers.toml"
NUM_DRIVERS = 10
PHASES = ("action", "buy", "car", "decline", "end")
#: the phase printed on each card (driver number - 1), which the kernels are written for
EXPECTED_PHASES = ("decline", "action", "action", "buy", "buy", "car", "decline", "end",
                   "end", "end")
MAX_AMOUNT = 12


@dataclass(frozen=True)
class DriverData:
    names: tuple[str, ...]
    phases: tuple[str, ...]
    amounts: np.ndarray      # per driver (number - 1); 0 = "any number"
    prices: np.ndarray       # $ per cube (0 where the card names no price)
    extra: int               # drivers revealed = players + extra
    source: str


def load_drivers(path: str | Path = DRIVERS_FILE) -> DriverData:
    """Read and check the driver table (one row per driver 1..10, in order)."""
    top = open_data(path)
    top.unknown_keys({"draft", "drivers"})
    draft = top.sub("draft")
    draft.unknown_keys({"extra"})
    extra = draft.int_in("extra", 0, NUM_DRIVERS)
    rows = top.subs("drivers")
    if len(rows) != NUM_DRIVERS:
        top.fail(f"[[drivers]] must list {NUM_DRIVERS} drivers, got {len(rows)}")
    names, phases = [], []
    amounts = np.zeros(NUM_DRIVERS, dtype=np.int64)
    prices = np.zeros(NUM_DRIVERS, dtype=np.int64)
    for k, row in enumerate(rows):
        row.unknown_keys({"number", "name", "phase", "amount", "price", "status"})
        number = row.int_in("number", 1, NUM_DRIVERS)
        if number != k + 1:
            row.fail(f"drivers must be listed in order: expected number {k + 1}, got {number}")
        phase = row.get("phase", str)
        if phase != EXPECTED_PHASES[k]:
            row.fail(f"phase of driver {number} must be {EXPECTED_PHASES[k]!r} (the card's "
                     f"phase), got {phase!r}")
        names.append(row.get("name", str))
        phases.append(phase)
        amounts[k] = row.int_in("amount", 0, MAX_AMOUNT)
        prices[k] = row.int_in("price", 0, MAX_AMOUNT, 0)
        row.get("status", str, "")
    return DriverData(names=tuple(names), phases=tuple(phases), amounts=amounts,
                      prices=prices, extra=extra, source=str(path))
