"""The one ``--option KEY=VALUE`` parser, and the flags every run tool shares."""

from __future__ import annotations

import argparse
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
