"""User data files carried inside saved states (issue 15 item 2).

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

from transit_gym.envs.core.datafile import Entry, open_data
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
    def read(cls, path: str | Path) -> UserFile:
        """Read ``path`` (UTF-8 TOML text); a missing or unreadable file is a
        ``DataFileError``."""
        name = str(path)
        try:
            raw = Path(path).read_bytes()
        except FileNotFoundError as exc:
            raise DataFileError(f"data file {name!r} does not exist") from exc
        except OSError as exc:
            raise DataFileError(f"data file {name!r} cannot be read: {exc}") from exc
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataFileError(f"data file {name!r} is not UTF-8 text: {exc}") from exc
        return cls(name, text, digest(text))

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
        """The parsed top-level table (``DataFileError`` when the text is not TOML)."""
        try:
            table = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise DataFileError(f"data file {self.path!r} is not valid TOML: {exc}") from exc
        return Entry(self.path, "<top>", table)


def open_source(source: str | Path | UserFile) -> Entry:
    """The top-level table of a data file: parsed from a :class:`UserFile`'s text, or
    read from ``source`` (the game's own shipped files)."""
    if isinstance(source, UserFile):
        return source.entry()
    return open_data(source)
