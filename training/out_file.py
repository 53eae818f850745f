"""Checks of a tool's output path, made before the long work that fills it, so that a bad
path is a clear ``ConfigError`` at once rather than an ``OSError`` at the end."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from transit_gym.envs.core.errors import ConfigError


def check_out_file(path: Path, suffixes: Sequence[str], flag: str = "--out") -> None:
    """``path`` ends in one of ``suffixes``, is not a folder, and its folder exists and is
    writable (as is the file itself when it exists)."""
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        raise ConfigError(f"{flag} must end in one of {tuple(suffixes)}, got {path.name!r}")
    if path.is_dir():
        raise ConfigError(f"{flag} {path} is a folder; give a file name ending in "
                          f"one of {tuple(suffixes)}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ConfigError(f"{flag} {path}: the folder {parent} does not exist; create it "
                          "first or write elsewhere")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists()
                                                     and not os.access(path, os.W_OK)):
        raise ConfigError(f"{flag} {path}: no permission to write there")


def check_out_folder(folder: Path, flag: str = "--out") -> None:
    """``folder`` is (or is made as) a writable folder."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{flag} {folder} is a file; give a folder (it is created if missing)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"{flag} {folder}: cannot create the folder ({exc.strerror or exc})"
                          ) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"{flag} {folder}: no permission to write there")
