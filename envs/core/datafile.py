"""Loading TOML data files with validation errors that name file, entry and expectation."""

from __future__ import annotations

import math
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from transit_gym.envs.core.errors import ConfigError, DataFileError

MAX_BYTES = 1 << 20        # 1 MiB; the shipped data files are under 10 KiB
MAX_DEPTH = 12             # nested tables/arrays; the shipped files need at most 5
MAX_INT = 10**9            # no printed number comes near; keeps int64 sums far from overflow


def check_path(path: Any, option: str = "data file") -> Path:
    """``path`` as a ``Path``; anything but a string or path-like object is a ``ConfigError``
    naming ``option`` and the value."""
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise ConfigError(f"{option} must be the path of a TOML file (a string), got {path!r}")
    if not os.fspath(path).strip():
        raise ConfigError(f"{option} must be the path of a TOML file, got an empty string")
    return Path(path)


def read_text(path: str | Path, what: str = "data file", max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes``; anything else (missing,
    a directory or device, too large, unreadable, not UTF-8) is a ``DataFileError``
    naming the file."""
    path = Path(path)
    name = f"{what} {str(path)!r}"
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        raise DataFileError(f"{name} does not exist") from None
    except (OSError, ValueError) as exc:   # permissions, a NUL byte in the name, ...
        raise DataFileError(f"{name} cannot be read: {exc}") from exc
    if stat.S_ISDIR(mode):
        raise DataFileError(f"{name} is a directory, expected a file")
    if not stat.S_ISREG(mode):
        raise DataFileError(f"{name} is not a regular file")
    try:
        with path.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise DataFileError(f"{name} cannot be read: {exc.strerror or exc}") from exc
    if len(raw) > max_bytes:
        raise DataFileError(f"{name} is larger than {max_bytes} bytes; "
                            f"is it the right file?")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise DataFileError(f"{name} is not UTF-8 text (byte {raw[exc.start]:#04x} "
                            f"on line {line})") from exc


def load_toml(path: str | Path, option: str = "data file") -> dict[str, Any]:
    """Read a TOML file. A value that is not a path is a ``ConfigError``; a file that is
    missing, not a regular file, over ``MAX_BYTES``, not UTF-8, not TOML, nested deeper
    than ``MAX_DEPTH`` or holding an integer beyond ``MAX_INT`` (or a float that is not
    finite) is a ``DataFileError`` naming the file."""
    path = check_path(path, option)
    text = read_text(path)
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"data file {str(path)!r} is not valid TOML: {exc}") from exc
    except RecursionError as exc:
        raise DataFileError(f"data file {str(path)!r} is nested too deeply "
                            f"(at most {MAX_DEPTH} levels)") from exc
    _check_values(str(path), "<top>", table, 0)
    return table


def _check_values(source: str, where: str, value: Any, depth: int) -> None:
    """Reject nesting deeper than ``MAX_DEPTH``, integers beyond ``MAX_INT``, nan/inf."""
    if depth > MAX_DEPTH:
        raise DataFileError(f"data file {source!r}: {where} is nested too deeply "
                            f"(at most {MAX_DEPTH} levels)")
    if isinstance(value, dict):
        for key, item in value.items():
            _check_values(source, f"{where}.{key}", item, depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_values(source, f"{where}[{i}]", item, depth + 1)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        raise DataFileError(f"data file {source!r}: {where} = {value} is out of range "
                            f"(data-file integers must be within +-{MAX_INT})")
    elif isinstance(value, float) and not math.isfinite(value):
        raise DataFileError(f"data file {source!r}: {where} = {value} is not a finite number")


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


def open_data(path: str | Path, option: str = "data file") -> Entry:
    """Load a TOML file and return its top-level table as an ``Entry`` (``option``: the
    constructor option that named the file, for the error when it is not a path)."""
    return Entry(str(path), "<top>", load_toml(path, option))
