"""The designer's data patches: proposed changes to the shipped Automobiles numbers, written
as the small TOML files the env options lay over the shipped tables.

A change is ``{"file", "entry", "field", "from", "to"}``:

- ``data.toml`` (option ``card_data``): a card's name (fields ``cost``, ``value``,
  ``wear``, ``count``, ``bonus``), or ``setup``, ``setup.wear_chart``, ``cubes.supply``,
  ``cubes.starting_bag`` (a key; a colour for the last three);
- ``drivers.toml`` (``driver_data``): a driver's number ``"1"``..``"10"`` (``amount``,
  ``price``) or ``draft`` (``extra``);
- ``sponsors.toml`` (``sponsor_data``): a sponsor's name (its keys, lists of three) or
  ``standard_removal`` (``first``, ``middle``, ``last``);
- ``track_<name>.toml`` (``track_data``): ``grid.<slot>`` (1 = P1; ``allowance``,
  ``lane``, ``at``, ``own_space``).

``shipped_value(file, entry, field)`` reads today's value; ``write_patch(changes, folder)``
checks every ``from`` against it, writes one file per option and returns the options
(``{"card_data": path, ...}``) that load them. ``sponsor_data`` is an option of the season
only; the others are options of the race and the season.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles.racing_season.driver_data import DRIVERS_FILE, load_drivers
from transit_gym.envs.automobiles_season.data import PLACES, SPONSOR_FILE, load_sponsors
from transit_gym.envs.core.datafile import load_toml
from transit_gym.envs.core.errors import ConfigError

#: the option that loads a patch of each shipped file (``track_<name>.toml``: track_data)
OPTIONS = {"data.toml": "card_data", "drivers.toml": "driver_data",
           "sponsors.toml": "sponsor_data"}
#: the sections of ``data.toml`` a card patch replaces whole (written in full)
DATA_SECTIONS = ("cubes", "setup")
#: keys a shipped row may leave out, with the value the loaders give them, by file kind
DEFAULTS = {"data.toml": {"wear": 0, "count": 0, "bonus": 0, "expansion": False},
            "drivers.toml": {"price": 0}, "track": {"own_space": False}}
#: the count tables of ``data.toml`` (a colour they leave out is 0)
COUNT_TABLES = ("setup.wear_chart", "cubes.supply", "cubes.starting_bag")
CHANGE_KEYS = ("file", "entry", "field", "from", "to")


def _shipped_path(file: str) -> Path:
    """The shipped file named ``file`` (``data.toml``, ``drivers.toml``, ``sponsors.toml``
    or ``track_<name>.toml``)."""
    if file == "data.toml":
        return auto_data.DEFAULT_FILE
    if file == "drivers.toml":
        return DRIVERS_FILE
    if file == "sponsors.toml":
        return SPONSOR_FILE
    board = _board(file)
    if board is None:
        raise ConfigError(f"file {file!r} is not a shipped data file; use data.toml, "
                          f"drivers.toml, sponsors.toml or one of "
                          f"{[f'track_{n}.toml' for n in auto_data.TRACKS]}")
    return auto_data.TRACKS[board]


def _board(file: str) -> str | None:
    """The board name of ``track_<name>.toml`` (a shipped board), else None."""
    name = file.removeprefix("track_").removesuffix(".toml")
    if file == f"track_{name}.toml" and name in auto_data.TRACKS:
        return name
    return None


def _option(file: str) -> str:
    _shipped_path(file)
    return OPTIONS.get(file, "track_data")


def _row(file: str, entry: str) -> dict[str, Any]:
    """The shipped table of ``entry`` in ``file`` (a card, driver, sponsor, grid slot or
    section); a ``ConfigError`` naming the entries there are when there is none."""
    top = load_toml(_shipped_path(file))
    if file == "data.toml":
        rows = {c["name"]: c for c in top["cards"]}
        rows.update({".".join(p): t for p, t in _sections(top)})
    elif file == "drivers.toml":
        rows = {str(d["number"]): d for d in top["drivers"]}
        rows["draft"] = top["draft"]
    elif file == "sponsors.toml":
        rows = {s["name"]: s for s in top["sponsor"]}
        rows["standard_removal"] = top["standard_removal"]
    else:
        rows = {f"grid.{k + 1}": g for k, g in enumerate(top["grid"])}
    if not isinstance(entry, str) or entry not in rows:
        raise ConfigError(f"{file} has no entry {entry!r}; entries: {sorted(rows)}")
    return rows[entry]


def _sections(top: dict[str, Any]) -> Iterable[tuple[tuple[str, ...], dict[str, Any]]]:
    """``data.toml``'s sections and their tables of numbers (``setup.wear_chart``...)."""
    for name in DATA_SECTIONS:
        yield (name,), top[name]
        for key, value in top[name].items():
            if isinstance(value, dict):
                yield (name, key), value


def shipped_value(file: str, entry: str, field: str) -> Any:
    """Today's value of ``field`` of ``entry`` in the shipped ``file`` (a key a row leaves
    out has the value the loader gives it; a colour a count table leaves out is 0)."""
    row = _row(file, entry)
    if field in row and not isinstance(row[field], dict):
        return row[field]
    if file == "data.toml" and entry in COUNT_TABLES:
        if field in auto_data.COLOURS:
            return 0
    elif entry not in DATA_SECTIONS and entry != "draft":
        defaults = DEFAULTS.get("track" if _board(file) else file, {})
        if field in defaults:
            return defaults[field]
    keys = sorted(k for k, v in row.items() if not isinstance(v, dict))
    raise ConfigError(f"{file}: entry {entry!r} has no field {field!r}; fields: {keys}")


def _checked(change: Any) -> dict[str, Any]:
    """A change with its five keys, ``from`` equal to the shipped value."""
    if not isinstance(change, dict) or sorted(change) != sorted(CHANGE_KEYS):
        raise ConfigError(f"a change must be a dict with keys {list(CHANGE_KEYS)}, "
                          f"got {change!r}")
    now = shipped_value(change["file"], change["entry"], change["field"])
    if change["from"] != now:
        raise ConfigError(f"{change['file']}: {change['entry']}.{change['field']} is "
                          f"{now!r} in the shipped file, but the change says from "
                          f"{change['from']!r}")
    return change


def _toml(value: Any) -> str:
    """A TOML value (integers, strings, booleans and lists of them)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    raise ConfigError(f"a data value must be an integer, string, boolean or list, "
                      f"got {value!r}")


def _table(header: str, row: dict[str, Any]) -> str:
    return "\n".join([header, *(f"{k} = {_toml(v)}" for k, v in row.items())]) + "\n"


def _patch_text(file: str, changes: list[dict[str, Any]]) -> str:
    """The patch of one option: every changed entry with only its changed keys (the
    sections of ``data.toml`` and a complete ``standard_removal`` written whole)."""
    entries: dict[str, dict[str, Any]] = {}
    for change in changes:
        fields = entries.setdefault(change["entry"], {})
        if change["field"] in fields:
            raise ConfigError(f"{file}: {change['entry']}.{change['field']} is changed "
                              f"twice")
        fields[change["field"]] = change["to"]
    if file == "data.toml":
        return _card_patch(entries)
    if file == "drivers.toml":
        return "\n".join(_table("[draft]" if e == "draft" else "[[drivers]]",
                                f if e == "draft" else {"number": int(e), **f})
                         for e, f in entries.items())
    if file == "sponsors.toml":
        return _sponsor_patch(entries)
    return "\n".join(_table(f"[[{_board(file)}.grid]]", {"slot": int(e.split(".")[1]), **f})
                     for e, f in entries.items())


def _card_patch(entries: dict[str, dict[str, Any]]) -> str:
    top = load_toml(auto_data.DEFAULT_FILE)
    sections = {name: dict(top[name]) for name in DATA_SECTIONS}
    parts = []
    for entry, fields in entries.items():
        section, _, sub = entry.partition(".")
        if section in sections:
            target = sections[section]
            if sub:
                target[sub] = {**target[sub], **fields}
            else:
                target.update(fields)
        else:
            parts.append(_table("[[cards]]", {"name": entry, **fields}))
    touched = {e.partition(".")[0] for e in entries}
    heads = [_table(f"[{name}]", sections[name]) for name in DATA_SECTIONS if name in touched]
    return "\n".join(heads + parts)


def _sponsor_patch(entries: dict[str, dict[str, Any]]) -> str:
    standard = entries.pop("standard_removal", None)
    parts = [_table("[[sponsor]]", {"name": e, **f}) for e, f in entries.items()]
    if standard is None:
        return "\n".join(parts)
    if len(standard) == len(PLACES):   # a whole table: every shipped sponsor written out
        top = load_toml(SPONSOR_FILE)
        parts = [_table("[[sponsor]]", {**s, **entries.get(s["name"], {})})
                 for s in top["sponsor"]]
    return "\n".join([_table("[standard_removal]", standard), *parts])


def write_patch(changes: list[dict[str, Any]], folder: str | Path) -> dict[str, Path]:
    """Write ``changes`` as patch files in ``folder`` (made if missing), one per option
    (``<option>.toml``), and return the env options that load them. Every file is loaded
    once here, so a value the game refuses is a ``ConfigError``/``DataFileError`` now."""
    by_file: dict[str, list[dict[str, Any]]] = {}
    for change in map(_checked, changes):
        by_file.setdefault(change["file"], []).append(change)
    texts: dict[str, list[str]] = {}
    for file, items in by_file.items():
        texts.setdefault(_option(file), []).append(_patch_text(file, items))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, Path] = {}
    for option, parts in texts.items():
        out[option] = folder / f"{option}.toml"
        out[option].write_text("\n".join(parts))
    _load(out)
    return out


def _load(options: dict[str, Path]) -> None:
    """Load every written patch with the game's own loaders."""
    loaders = {"card_data": auto_data.load_cards, "driver_data": load_drivers,
               "sponsor_data": load_sponsors}
    for option, path in options.items():
        if option == "track_data":
            for board in auto_data.TRACKS:
                auto_data.load_track(board, path)
        else:
            loaders[option](path)
