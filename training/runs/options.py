"""The one ``--option KEY=VALUE`` parser, and the flags every run tool shares."""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

from transit_gym.envs.core.errors import ConfigError


def parse_options(items: list[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` pairs as env options (VALUE parsed as JSON when it is JSON:
    ``true``, ``5``, ``["a", "b"]``; otherwise kept as text). A pair without ``=`` or with
    a KEY that is not a name is a ``ConfigError`` naming it."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.isidentifier():
            raise ConfigError(f"--option takes key=value pairs (KEY=VALUE with a KEY such as "
                              f"drivers), got {item!r}")
        try:
            options[key] = json.loads(text)
        except json.JSONDecodeError:
            options[key] = text
    return options


def add_run_arguments(parser: argparse.ArgumentParser, out_help: str | None = None,
                      options: bool = False) -> None:
    """The flags of every tool that plays games on the backends: ``--seed``, ``--workers``,
    ``--ray [ADDRESS]``, ``--out``, ``--quiet`` and, with ``options``, ``--option``."""
    parser.add_argument("--seed", type=int, default=0)
    if options:
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                            help="an env option, e.g. drivers=true, laps=5 (VALUE read as "
                                 "JSON, else text); repeatable")
    parser.add_argument("--workers", type=int, default=None, help="default: all cores")
    parser.add_argument("--ray", nargs="?", const="", default=False, metavar="ADDRESS",
                        help="run on Ray (local Ray when no ADDRESS)")
    parser.add_argument("--out", type=Path, default=None, help=out_help)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def check_counts(seed: int, **positive: int) -> None:
    """``ConfigError`` unless every count of ``positive`` (``games=...``: flag ``--games``)
    is at least 1 and ``seed`` is not negative."""
    for name, value in positive.items():
        if value < 1:
            raise ConfigError(f"--{name.replace('_', '-')} must be positive, got {value}")
    if seed < 0:
        raise ConfigError(f"--seed must be non-negative, got {seed}")


#: the designer's data files, each a TOML patch over a shipped table of Automobiles (flag
#: ``--card-data`` sets the env option ``card_data``; ``sponsor_data`` is the season's)
DATA_OPTIONS = ("card_data", "driver_data", "sponsor_data", "track_data")
DATA_HELP = {"card_data": "cards over data.toml (matched by name)",
             "driver_data": "drivers over drivers.toml (matched by number)",
             "sponsor_data": "sponsors over sponsors.toml (matched by name; the season)",
             "track_data": "grid slots of the shipped boards ([[daytona.grid]] slot = 1)"}


def add_data_arguments(parser: argparse.ArgumentParser,
                       names: tuple[str, ...] = DATA_OPTIONS) -> None:
    """``--card-data``, ``--driver-data``, ``--sponsor-data``, ``--track-data FILE``: the
    designer's data patches (``envs/automobiles/patches.py`` writes them), passed to the
    env as the options of the same names."""
    for name in names:
        parser.add_argument(f"--{name.replace('_', '-')}", default=None, metavar="FILE",
                            help=f"data patch: {DATA_HELP[name]}")


def data_options(args: argparse.Namespace, *games: Any) -> dict[str, str]:
    """The env options of the data flags given. With game classes ``games``, a flag none of
    them takes is a ``ConfigError`` naming the flag and the games."""
    options = {name: str(getattr(args, name)) for name in DATA_OPTIONS
               if getattr(args, name, None) is not None}
    for name in options:
        if games and not any(name in game.option_names() for game in games):
            taken = [g.name for g in games]
            raise ConfigError(f"--{name.replace('_', '-')}: {' and '.join(taken)} "
                              f"take{'s' if len(taken) == 1 else ''} no {name} option")
    return options


def options_for(options: dict[str, Any], game: Any) -> dict[str, Any]:
    """``options`` without the data files ``game`` has no option for (a sponsor patch
    leaves a single race alone); every other option is kept, so a wrong one still fails."""
    names = set(game.option_names())
    return {k: v for k, v in options.items() if k not in DATA_OPTIONS or k in names}


def data_tag(options: dict[str, Any]) -> str:
    """``""`` without data files, else ``-data-`` and 8 hex digits of their contents'
    SHA-256: a suffix keeping results made on patched data apart from the shipped ones."""
    files = [(k, Path(options[k]).read_bytes()) for k in DATA_OPTIONS if options.get(k)]
    if not files:
        return ""
    digest = hashlib.sha256()
    for name, content in files:
        digest.update(name.encode() + b"\0" + content + b"\0")
    return f"-data-{digest.hexdigest()[:8]}"
