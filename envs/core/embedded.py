"""User data files carried inside saved states.

A game built from a user's data file (a track, card table, airport or deck given by path)
reads that file exactly once, into a :class:`UserFile` holding its text and SHA-256
digest. ``State.to_dict()`` and pickles carry those texts, and a game rebuilt from a saved
state parses the carried text (after checking its digest) and never opens the path: a
state from an untrusted source cannot make the library read files on the machine.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from transit_gym.envs.core.datafile import (
    MAX_BYTES,
    MAX_DEPTH,
    Entry,
    _check_values,
    check_path,
    open_data,
    read_text,
)
from transit_gym.envs.core.errors import DataFileError, StateDictError

#: the keys of one embedded file in ``State.to_dict()["data_files"]``
EMBEDDED_KEYS = ("path", "sha256", "text")


def digest(text: str) -> str:
    """SHA-256 of the UTF-8 bytes of ``text``, as hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class UserFile:
    """The content of one user data file, read once (``str()`` gives its path)."""

    path: str
    text: str
    sha256: str

    def __str__(self) -> str:
        return self.path

    @classmethod
    def read(cls, path: Any, option: str = "data file") -> UserFile:
        """Read ``path`` once with the checks of ``datafile.read_text`` (a regular file of
        at most ``MAX_BYTES``, UTF-8); a value that is not a path is a ``ConfigError``
        naming ``option``, a bad file a ``DataFileError`` naming the file."""
        path = check_path(path, option)
        text = read_text(path)
        return cls(str(path), text, digest(text))

    @classmethod
    def from_embedded(cls, option: str, path: str, payload: Any) -> UserFile:
        """The file of option ``option`` (named ``path`` in the options) as carried by a
        state dict; ``StateDictError`` unless it is complete and its digest matches."""
        if not isinstance(payload, dict) or sorted(payload) != sorted(EMBEDDED_KEYS):
            raise StateDictError(
                f"embedded data file of option {option!r} must be a table with keys "
                f"{list(EMBEDDED_KEYS)}, got {payload!r:.120}"
            )
        if any(not isinstance(payload[k], str) for k in EMBEDDED_KEYS):
            raise StateDictError(
                f"embedded data file of option {option!r}: path, sha256 and text must be strings"
            )
        if payload["path"] != path:
            raise StateDictError(
                f"embedded data file of option {option!r} is {payload['path']!r}, but the "
                f"option names {path!r}"
            )
        if len(payload["text"].encode("utf-8")) > MAX_BYTES:
            raise StateDictError(
                f"embedded data file of option {option!r} is larger than {MAX_BYTES} bytes"
            )
        actual = digest(payload["text"])
        if actual != payload["sha256"]:
            raise StateDictError(
                f"embedded data file of option {option!r} ({path!r}) does not match its "
                f"digest: sha256 {payload['sha256']!r} expected, the text hashes to {actual!r}"
            )
        return cls(path, payload["text"], actual)

    def embedded(self) -> dict[str, str]:
        """The JSON-safe form stored in ``State.to_dict()["data_files"]``."""
        return {"path": self.path, "sha256": self.sha256, "text": self.text}

    def entry(self) -> Entry:
        """The parsed top-level table, with the checks of ``datafile.load_toml`` (valid
        TOML, nesting, integer range, finite floats): else a ``DataFileError``."""
        try:
            table = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise DataFileError(f"data file {self.path!r} is not valid TOML: {exc}") from exc
        except RecursionError as exc:
            raise DataFileError(f"data file {self.path!r} is nested too deeply "
                                f"(at most {MAX_DEPTH} levels)") from exc
        _check_values(self.path, "<top>", table, 0)
        return Entry(self.path, "<top>", table)


def open_source(source: str | Path | UserFile, option: str = "data file") -> Entry:
    """The top-level table of a data file: parsed from a :class:`UserFile`'s text, or
    read from ``source`` (the game's own shipped files; ``option`` names the constructor
    option in the error when ``source`` is not a path)."""
    if isinstance(source, UserFile):
        return source.entry()
    return open_data(source, option)
