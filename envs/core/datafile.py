"""Loading TOML data files with validation errors that name file, entry and expectation."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from transit_gym.envs.core.errors import DataFileError


def load_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML file; a missing or malformed file raises ``DataFileError``."""
    path = Path(path)
    if not path.is_file():
        raise DataFileError(f"data file {str(path)!r} does not exist")
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"data file {str(path)!r} is not valid TOML: {exc}") from exc


class Entry:
    """A view on one table of a data file that reports errors with its location."""

    def __init__(self, source: str, where: str, table: Any):
        if not isinstance(table, dict):
            raise DataFileError(f"{source}: {where} must be a table, got {type(table).__name__}")
        self.source = source
        self.where = where
        self.table = table

    def fail(self, message: str) -> None:
        """Raise a ``DataFileError`` located at this entry."""
        raise DataFileError(f"{self.source}: {self.where}: {message}")

    def has(self, key: str) -> bool:
        return key in self.table

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        """Value of ``key`` checked against ``kind``; missing keys need a default."""
        if key not in self.table:
            if default is ...:
                self.fail(f"missing key {key!r}")
            return default
        value = self.table[key]
        if kind is int and isinstance(value, bool):
            self.fail(f"{key!r} must be an integer, got {value!r}")
        if not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            self.fail(f"{key!r} must be {names}, got {value!r}")
        return value

    def int_in(self, key: str, low: int, high: int, default: Any = ...) -> int:
        """Integer value of ``key`` within ``[low, high]``."""
        value = self.get(key, int, default)
        if not low <= value <= high:
            self.fail(f"{key!r} must be between {low} and {high}, got {value}")
        return value

    def int_list(self, key: str, length: int | None = None, low: int | None = None,
                 high: int | None = None, default: Any = ...) -> list[int]:
        """List of integers, optionally of fixed length and bounded."""
        value = self.get(key, list, default)
        if length is not None and len(value) != length:
            self.fail(f"{key!r} must have {length} entries, got {len(value)}")
        for i, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, int):
                self.fail(f"{key!r}[{i}] must be an integer, got {item!r}")
            if low is not None and item < low:
                self.fail(f"{key!r}[{i}] must be at least {low}, got {item}")
            if high is not None and item > high:
                self.fail(f"{key!r}[{i}] must be at most {high}, got {item}")
        return value

    def sub(self, key: str) -> Entry:
        """The nested table ``key``."""
        return Entry(self.source, f"{self.where}.{key}", self.get(key, dict))

    def subs(self, key: str) -> list[Entry]:
        """The array of tables ``key``."""
        items = self.get(key, list)
        return [Entry(self.source, f"{self.where}.{key}[{i}]", item)
                for i, item in enumerate(items)]

    def unknown_keys(self, allowed: set[str]) -> None:
        """Fail on keys outside ``allowed`` (typos in user files)."""
        extra = sorted(set(self.table) - allowed)
        if extra:
            self.fail(f"unknown keys {extra}; expected only {sorted(allowed)}")


def open_data(path: str | Path) -> Entry:
    """Load a TOML file and return its top-level table as an ``Entry``."""
    return Entry(str(path), "<top>", load_toml(path))
