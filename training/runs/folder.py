"""The ``--out`` folder of a resumable run: the one settings guard, and the games CSV.

A run writes ``settings.json`` before its first game. A later run into the same folder
compares its own settings with the stored ones before it plays anything: any difference
in a setting that decides the games (game, players, agents, seed, options, sets, the
SHA-256 of every data file or checkpoint) is a :class:`SettingsMismatchError` naming each
setting with its stored and its new value, so a report only ever describes its own games.
Every tool with an ``--out`` folder (tournaments, ladders, balance sweeps, card power,
driver sensitivity, the market search, the tuner, expert iteration) checks it here. By
default the games count may differ (``GROWABLE``): a larger one plays the missing games, a
smaller one reports the first games of the CSV. The CSV (``games.csv``, one row per game)
is appended as games finish, so a stopped run resumes from it.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from transit_gym.envs.core.errors import ConfigError

SETTINGS_FILE = "settings.json"
SETTINGS_FORMAT = 1
#: settings that may differ on resume: the number of games (per set, per pair)
GROWABLE = ("games",)
#: stored for the reader, never compared: where the data files were (their content is
#: compared through ``data_files``, the SHA-256 of each)
INFORMATIONAL = ("data_file_paths", "format")


class SettingsMismatchError(ConfigError):
    """``--out`` holds the games of a run with other settings."""


def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def data_file_settings(game) -> dict[str, Any]:
    """The settings that pin a game's user data files (card tables, tracks, decks): their
    SHA-256 (compared) and paths (kept for the reader only)."""
    files = game.data_files
    return {"data_files": {k: f.sha256 for k, f in sorted(files.items())},
            "data_file_paths": {k: game.options[k] for k in sorted(files)}}


def _normal(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 120 else text[:117] + "..."


def differences(stored: dict[str, Any], new: dict[str, Any],
                ignore: Sequence[str] = (*GROWABLE, *INFORMATIONAL),
                defaults: dict[str, Any] | None = None, nested: bool = True
                ) -> list[tuple[str, Any, Any]]:
    """``(setting, stored value, new value)`` for every setting that differs, except the
    ``ignore``d ones (by default the ``GROWABLE`` and ``INFORMATIONAL`` ones). A setting
    missing from ``stored`` (a folder made before it existed) counts as its value in
    ``defaults``. A table (dict) setting is compared key by key (``options.laps``), or
    whole when not ``nested``."""
    found = []
    defaults = defaults or {}
    for key in sorted(set(stored) | set(new)):
        if key in ignore:
            continue
        old, now = stored.get(key, defaults.get(key)), new.get(key)
        if nested and isinstance(old, dict) and isinstance(now, dict):
            found += [(f"{key}.{sub}", a, b) for sub, a, b in differences(old, now)]
        elif _normal(old) != _normal(now):
            found.append((key, old, now))
    return found


def refuse(out: Path, found: list[tuple[str, Any, Any]], what: str = "the games of a run",
           remedy: str = "Use another --out, or the stored settings.") -> None:
    """A :class:`SettingsMismatchError` naming every difference ``found`` (none: nothing)."""
    if not found:
        return
    lines = "\n".join(f"  {name}: stored {_short(old)}, now {_short(now)}"
                      for name, old, now in found)
    raise SettingsMismatchError(
        f"--out {out} holds {what} with other settings; nothing was played. "
        f"Differences (setting: stored value, new value):\n{lines}\n{remedy}")


def read_settings(path: Path, what: str = "settings file of this tool") -> dict[str, Any]:
    """The stored settings at ``path`` (``ConfigError`` when damaged or not a table)."""
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path} is damaged ({exc}); delete the folder or choose another "
                          f"--out") from None
    if not isinstance(stored, dict):
        raise ConfigError(f"{path} is not a {what}; choose another --out")
    return stored


def check_settings(out: Path, settings: dict[str, Any], tool: str | None,
                   games_file: str = "games.csv", growable: Sequence[str] = GROWABLE,
                   may_gain: Sequence[str] = (), what: str = "the games of a run",
                   nested: bool = True) -> None:
    """Store ``settings`` in ``out`` (first run) or check them against the stored ones.

    Raises :class:`SettingsMismatchError` naming each difference, and ``ConfigError`` when
    ``out`` holds a ``games_file`` but no settings (made by hand or by an older version:
    its games cannot be attributed). ``tool`` (None: not stored) and ``format`` are kept
    in the file. On a match, a ``growable`` setting stored becomes the larger of the two
    (what the CSV may hold); settings of ``may_gain`` that the stored file lacks are added
    to it (settings that change none of the stored games). ``nested``: as for
    :func:`differences`."""
    new = _normal(settings if tool is None
                  else {"format": SETTINGS_FORMAT, "tool": tool, **settings})
    path = out / SETTINGS_FILE
    if not path.exists():
        if (out / games_file).exists():
            raise ConfigError(
                f"{out / games_file} has no {SETTINGS_FILE} beside it (written by hand or by "
                f"an older version), so the settings of its games are unknown; delete it or "
                f"choose another --out")
        path.write_text(json.dumps(new, indent=2) + "\n")
        return
    stored = read_settings(path)
    gained = [k for k in may_gain if k not in stored and k in new]
    refuse(out, differences(stored, new, ignore=(*growable, *INFORMATIONAL, *gained),
                            nested=nested), what,
           "Use another --out, or the stored settings"
           + (f" (only {', '.join('--' + k for k in growable)} may change: a larger number "
              f"plays the missing games)." if growable else "."))
    merged = {**stored, **{k: new[k] for k in gained},
              **{k: max(stored.get(k, 0), new[k]) for k in growable if k in new}}
    if merged != stored:
        path.write_text(json.dumps(merged, indent=2) + "\n")


# ----- the games CSV ----------------------------------------------------------------------------
def open_rows(path: Path, required: Sequence[str], what: str) -> csv.DictReader | None:
    """A reader over the rows of a resumable CSV (None when there is none yet).

    A last row cut short (the run stopped while writing it: no line end) is removed from
    the file, so its work is done again and the next row starts on a line of its own. A
    file that is not UTF-8 or lacks the ``required`` columns is a ``ConfigError`` naming
    ``what`` it should be."""
    if not path.exists():
        return None
    if not path.is_file():
        raise ConfigError(f"{path} is not a file; choose another --out")
    raw = path.read_bytes()
    complete = raw.rfind(b"\n") + 1
    if complete < len(raw):
        print(f"{path}: removing the incomplete last row (the run was stopped while "
              f"writing it); its work is done again", file=sys.stderr)
        with path.open("r+b") as handle:
            handle.truncate(complete)
        raw = raw[:complete]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not a {what} written by this tool (not UTF-8); "
                          f"choose another --out or delete the file") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if text and not set(required) <= set(reader.fieldnames or ()):
        names = " and ".join(f"'{k}'" for k in required)
        raise ConfigError(f"{path} is not a {what} written by this tool (no {names} "
                          f"columns); choose another --out or delete the file")
    return reader


def load_csv(path: Path, key: Sequence[str] = ("set", "game")) -> list[dict[str, Any]]:
    """Rows of an earlier (possibly interrupted) run, numbers parsed, duplicates (same
    ``key`` columns) dropped.

    A last row cut short (the run stopped while writing it: no line end) is removed from
    the file, so its game is played again and the next row starts on a line of its own.
    Any other damage is a ``ConfigError`` naming the line."""
    reader = open_rows(path, key, "games.csv")
    if reader is None:
        return []
    rows, seen = [], set()
    for row in reader:
        game = row.get("game") or ""
        if None in row or None in row.values() or not game.isdigit():
            raise ConfigError(f"{path} line {reader.line_num} is damaged (wrong number of "
                              f"fields or no game number); delete that line to resume")
        parsed = {k: _number(v) for k, v in row.items()}
        ident = tuple(parsed[k] for k in key)
        if ident in seen:
            continue
        seen.add(ident)
        rows.append(parsed)
    return rows


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


class CsvSink:
    """Appends records to the CSV as chunks finish (so a stopped run can resume)."""

    def __init__(self, path: Path, existing: list[dict[str, Any]]):
        self.path = path
        self.fields: list[str] | None = list(existing[0]) if existing else None
        self.fresh = not path.exists() or not existing

    def write(self, records: list[dict[str, Any]]) -> None:
        """Append ``records`` (the header first in a fresh file)."""
        if not records:
            return
        if self.fields is None:
            self.fields = list(records[0])
        missing = set(records[0]) ^ set(self.fields)
        if missing:
            raise ConfigError(
                f"{self.path} was written by a different run (columns differ: "
                f"{sorted(missing)[:6]}); choose another --out or delete the file"
            )
        mode = "w" if self.fresh else "a"
        with self.path.open(mode, newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=self.fields)
            if self.fresh:
                writer.writeheader()
                self.fresh = False
            writer.writerows(records)
