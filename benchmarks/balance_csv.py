"""Reading a balance sweep's ``games.csv`` back (to resume a run, or to compare two
finished sweeps with ``balance_report``)."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path
from typing import Any

from transit_gym.envs.core.errors import ConfigError


def load_csv(path: Path) -> list[dict[str, Any]]:
    """Rows of an earlier (possibly interrupted) run, numbers parsed, duplicates dropped.

    A last row cut short (the run stopped while writing it: no line end) is removed from
    the file, so its game is played again and the next row starts on a line of its own.
    Any other damage is a ``ConfigError`` naming the line."""
    if not path.exists():
        return []
    if not path.is_file():
        raise ConfigError(f"{path} is not a file; choose another --out")
    raw = path.read_bytes()
    complete = raw.rfind(b"\n") + 1
    if complete < len(raw):
        print(f"{path}: removing the incomplete last row (the run was stopped while "
              f"writing it); its game is played again", file=sys.stderr)
        with path.open("r+b") as handle:
            handle.truncate(complete)
        raw = raw[:complete]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not a games.csv written by this tool (not UTF-8); "
                          f"choose another --out or delete the file") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if text and not {"set", "game"} <= set(reader.fieldnames or ()):
        raise ConfigError(f"{path} is not a games.csv written by this tool (no 'set' and "
                          f"'game' columns); choose another --out or delete the file")
    rows, seen = [], set()
    for row in reader:
        game = row.get("game") or ""
        if None in row or None in row.values() or not game.isdigit():
            raise ConfigError(f"{path} line {reader.line_num} is damaged (wrong number of "
                              f"fields or no game number); delete that line to resume")
        key = (row["set"], int(game))
        if key in seen:
            continue
        seen.add(key)
        rows.append({k: _number(v) for k, v in row.items()})
    return rows


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text
