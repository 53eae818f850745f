"""Typed checkers for constructor options, shared by every game's option parsing.

Each checker returns the value in the form the game packs into its parameter vector, or
raises a ``ConfigError`` naming the option, the bad value and what is allowed. They accept
any value at all (lists, dicts, floats, huge integers) without another exception type, so
a game that parses every option through them reports every bad option the same way.
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from transit_gym.envs.core.errors import ConfigError


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def is_int(value: Any) -> bool:
    """A Python or numpy integer, not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_flag(name: str, value: Any) -> int:
    """``True`` or ``False`` (numpy bools too), as 1 or 0."""
    if not isinstance(value, (bool, np.bool_)):
        raise ConfigError(f"{name} must be True or False, got {_shown(value)}")
    return int(value)


def check_int(name: str, value: Any, low: int, high: int, what: str = "an integer") -> int:
    """An integer in ``low .. high`` (bools, floats and strings are refused)."""
    if not is_int(value) or not low <= int(value) <= high:
        raise ConfigError(f"{name} must be {what} in {low}..{high}, got {_shown(value)}")
    return int(value)


def check_choice(name: str, value: Any, choices: Collection[str] | Mapping[str, Any]) -> Any:
    """One of the strings ``choices``; returns ``choices[value]`` for a mapping, else the
    value. Unhashable values (lists, dicts) are refused like any other."""
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{name} must be one of {sorted(choices)}, got {_shown(value)}")
    return choices[value] if isinstance(choices, Mapping) else value


def check_seat_or_random(name: str, value: Any, num_players: int) -> int:
    """A seat ``0 .. num_players - 1``, or ``"random"`` (returned as -1)."""
    if isinstance(value, str) and value == "random":
        return -1
    if not is_int(value) or not 0 <= int(value) < num_players:
        raise ConfigError(f"{name} must be a seat 0..{num_players - 1} or 'random', "
                          f"got {_shown(value)}")
    return int(value)


def check_optional_path(name: str, value: Any) -> Any:
    """``None`` or a path (a string or ``os.PathLike``); the file itself is read later."""
    if value is None or (isinstance(value, (str, os.PathLike)) and not isinstance(value, bool)):
        return value
    raise ConfigError(f"{name} must be the path of a TOML file (a string) or None, "
                      f"got {_shown(value)}")


#: the named forms of the reward-shaping option and their coefficients
SHAPING_CHOICES = {"score": 1.0}


def check_reward_shaping(name: str, value: Any) -> float | None:
    """The coefficient of the ``reward_shaping`` option: ``None`` (off), ``"score"`` (1.0)
    or a positive finite number; anything else is a ``ConfigError``."""
    if value is None:
        return None
    if isinstance(value, str) and value in SHAPING_CHOICES:
        return SHAPING_CHOICES[value]
    if is_int(value) or isinstance(value, (float, np.floating)):
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
        if math.isfinite(number) and number > 0:
            return number
    raise ConfigError(f"{name} must be None, one of {sorted(SHAPING_CHOICES)} or a "
                      f"positive number (the coefficient of 'score'), got {_shown(value)}")
