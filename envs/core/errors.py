"""Error types. All are ``ValueError`` subclasses, so callers may catch either."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class IllegalActionError(ValueError):
    """An action that is out of range or not legal in the current decision."""


class ConfigError(ValueError):
    """A bad constructor option (player count, rule option, card set...)."""


class DataFileError(ValueError):
    """A data file (track, deck, card table) that is missing, malformed or inconsistent."""


class StateDictError(ValueError):
    """A state dictionary that cannot be restored (wrong game, fields or values)."""


def illegal_action_message(action: object, legal: list[int], describe=None) -> str:
    """Message naming the bad action and the legal ones (with names when given)."""
    if describe is not None and len(legal) <= 40:
        shown = ", ".join(f"{a} ({describe(a)})" for a in legal)
    else:
        shown = ", ".join(str(a) for a in legal[:60]) + (" ..." if len(legal) > 60 else "")
    return f"illegal action {action!r}; legal actions now: [{shown}]"


def require(condition: bool, message: str, error: type[ValueError] = ConfigError) -> None:
    """Raise ``error(message)`` unless ``condition`` holds."""
    if not condition:
        raise error(message)


def unknown_keywords_message(unknown: Iterable[str], accepted: Iterable[str], where: str) -> str:
    """Message naming the unknown keywords, every accepted one, and the closest accepted
    name to each unknown one (difflib) where there is one."""
    unknown, accepted = sorted(unknown), sorted(set(accepted))
    hints = []
    for name in unknown:
        close = difflib.get_close_matches(name, accepted, n=1, cutoff=0.6)
        if close:
            hints.append(f"{name!r}: did you mean {close[0]!r}?")
    hint = f" ({'; '.join(hints)})" if hints else ""
    return f"unknown option(s) {unknown} for {where}{hint}; accepted: {accepted}"


def forced_steps_message(game: str, limit: str, fields: str) -> str:
    """The one message of a kernel's bound on forced steps (raised as ``StateDictError``):
    legal play never reaches the bound, so a state that does contradicts the rules."""
    return (f"{game} state cannot be played: {limit} without a decision, more than legal "
            f"play ever takes; a state no legal play reaches (check the fields {fields})")
