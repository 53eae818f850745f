"""Option sets for the cross-game property tests: the defaults, and each boolean option
of a game flipped on its own (every rule switch that may change what is seen)."""

from __future__ import annotations

import inspect
from typing import Any


def boolean_options(cls: type) -> dict[str, bool]:
    """The options of ``cls._build`` whose default is a bool, with that default."""
    return {name: p.default for name, p in inspect.signature(cls._build).parameters.items()
            if isinstance(p.default, bool)}


def variants(cls: type) -> list[dict[str, Any]]:
    """``{}`` (the defaults), then one dict per boolean option with it flipped."""
    return [{}] + [{name: not default} for name, default in boolean_options(cls).items()]


def variant_id(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"
