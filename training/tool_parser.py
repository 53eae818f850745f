"""The argument parser of every ``transit-gym`` command.

``ToolParser`` is ``argparse.ArgumentParser`` with the project's conventions: the help ends
with a worked example (``example=``, kept line by line), abbreviated flags are refused, and
a misspelt flag is reported as such, with the closest real flag, before argparse would
report a required flag as missing (``--gmae planes`` says ``unrecognized argument --gmae
(did you mean --game?)``, not ``the following arguments are required: --game``). The
program name comes from ``sys.argv[0]``, which the ``transit-gym`` dispatcher sets to the
command (``transit-gym balance power``).
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import sys
from collections.abc import Sequence
from typing import Any


def closest(word: str, choices: Sequence[str]) -> str | None:
    """The choice most like ``word`` (a misspelling or an abbreviation of one), or None."""
    prefixed = [choice for choice in choices if choice.startswith(word)]
    if len(prefixed) == 1:
        return prefixed[0]
    found = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return found[0] if found else None


#: the widest a help line may be, whatever the terminal's width (narrower terminals get
#: narrower help, as argparse does by default)
HELP_COLUMNS = 100


class NarrowHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter (description and example kept line by line) with its width capped
    at :data:`HELP_COLUMNS`."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 28,
                 width: int | None = None):
        if width is None:
            width = shutil.get_terminal_size().columns - 2
        super().__init__(prog, indent_increment, max_help_position,
                         min(width, HELP_COLUMNS - 2))


class ToolParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose help ends with ``Example:`` and the command ``example``."""

    def __init__(self, *args: Any, example: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", NarrowHelpFormatter)
        kwargs.setdefault("allow_abbrev", False)
        if example is not None:
            lines = "\n".join(f"  {line}" for line in example.strip().splitlines())
            kwargs["epilog"] = "\n\n".join(filter(None, [kwargs.get("epilog"),
                                                          f"Example:\n{lines}"]))
        super().__init__(*args, **kwargs)

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        args = sys.argv[1:] if args is None else list(args)
        unknown = self.unknown_flags(args)
        if unknown:
            self.error("; ".join(self._unknown_message(flag) for flag in unknown))
        return super().parse_args(args, namespace)

    def add_games(self, what: str = "") -> None:
        """``--games [GAME ...]``: the games a tool works on (``what``: what it does with
        them, for the help), every installed game by default (:meth:`installed_games`)."""
        default = "default: every installed game"
        self.add_argument("--games", nargs="*", default=None,
                          help=f"{what} ({default})" if what else default)

    def installed_games(self, names: Sequence[str] | None) -> list[str]:
        """``--games``' ``names`` (every installed game when none); a usage error naming
        those not installed."""
        from transit_gym.envs.registry import available_games

        known = available_games()
        games = list(names) if names else known
        unknown = [g for g in games if g not in known]
        if unknown:
            self.error(f"unknown or uninstalled games {unknown}; available: {known}")
        return games

    def unknown_flags(self, args: Sequence[str]) -> list[str]:
        """The flags of ``args`` (before a ``--``) that name no option of this parser."""
        unknown = []
        for arg in args:
            if arg == "--":
                break
            if len(arg) < 2 or arg[0] not in self.prefix_chars or self._is_number(arg):
                continue
            flag = arg.split("=", 1)[0] if arg.startswith("--") else arg
            known = self._option_string_actions
            if flag in known or (not arg.startswith("--") and arg[:2] in known):
                continue  # ``-n5``: a short option with its value attached
            unknown.append(flag)
        return unknown

    def _is_number(self, arg: str) -> bool:
        """A negative number is a value, unless one of the flags looks like a number."""
        return (not self._has_negative_number_optionals
                and self._negative_number_matcher.match(arg) is not None)

    def _unknown_message(self, flag: str) -> str:
        flags = [f for f in self._option_string_actions if f.startswith("--")
                 or not flag.startswith("--")]
        guess = closest(flag, flags)
        hint = f" (did you mean {guess}?)" if guess else ""
        return f"unrecognized argument {flag}{hint}"
