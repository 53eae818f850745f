"""``transit-gym COMMAND [ARGS...]``: find the command, then run its tool's ``main(ARGS)``.

The help is printed from the table in :mod:`transit_gym.cli.commands` without importing any
tool (nor numba or torch). Running a command imports its module, names the program after
the command (``sys.argv[0]``, which the tool's parser takes as its ``prog``) and turns what
would be a traceback for the user into one line on stderr: the project's errors (a bad
option, data file or saved state) exit with status 2, a missing optional extra names the
``pip install`` that brings it, and Ctrl-C exits with status 130.
"""

from __future__ import annotations

import difflib
import importlib
import os
import sys
from collections.abc import Sequence

from transit_gym.cli.commands import BY_NAME, COMMANDS, FAMILIES, GROUPS, Command

PROG = "transit-gym"
USAGE = f"usage: {PROG} COMMAND [ARGS...]"
HELP_FLAGS = ("-h", "--help")
#: top-level module of an optional dependency -> the extra of pyproject.toml that installs it
EXTRAS = {"torch": "train", "stable_baselines3": "train", "sb3_contrib": "train",
          "tensorboard": "train", "ray": "dist", "cma": "tune", "pygame": "render",
          "PIL": "render", "moviepy": "render", "rich": "play"}


def _rows(commands: Sequence[Command], skip: int = 0) -> list[str]:
    """One line per command: its name (less ``skip`` leading words) and its help, the helps
    aligned across every command."""
    names = [" ".join(c.words[skip:]) for c in commands]
    width = max(len(" ".join(c.words[skip:])) for c in COMMANDS) + 2
    return [f"  {name:<{width}}{c.help}" for name, c in zip(names, commands, strict=True)]


def overview() -> str:
    """``transit-gym --help``: every command, one line each, by group."""
    lines = [USAGE, "",
             f"Every transit-gym tool as one command. '{PROG} COMMAND --help' shows the "
             "command's flags",
             "and ends with a worked example."]
    for group in GROUPS:
        lines += ["", f"{group}:"] + _rows([c for c in COMMANDS if c.group == group])
    lines += ["", "options:", "  -h, --help  show this help and exit",
              "  --version   show the version and exit"]
    return "\n".join(lines)


def family_help(family: str) -> str:
    """``transit-gym balance --help``: the commands of one family."""
    commands = [c for c in COMMANDS if c.words[0] == family]
    return "\n".join([f"usage: {PROG} {family} COMMAND [ARGS...]", "", FAMILIES[family][1],
                      "", "commands:", *_rows(commands, skip=1), "",
                      f"'{PROG} {family} COMMAND --help' shows a command's flags and example."])


def closest_command(typed: Sequence[str]) -> str | None:
    """The command (or family) most like the words typed, or None."""
    known = {c.words[-1]: c.name for c in COMMANDS if len(c.words) > 1}
    known.update({family: family for family in FAMILIES})
    known.update({c.name: c.name for c in COMMANDS})
    found = difflib.get_close_matches(" ".join(typed), list(known), n=1, cutoff=0.6)
    return known[found[0]] if found else None


def usage_error(message: str) -> int:
    """Print the usage and ``message`` on stderr; exit status 2 (as argparse does)."""
    print(f"{USAGE}\n{PROG}: error: {message}", file=sys.stderr)
    return 2


def unknown_command(typed: Sequence[str]) -> int:
    guess = closest_command(typed)
    hint = f" (did you mean '{guess}'?)" if guess else ""
    return usage_error(f"unknown command '{' '.join(typed)}'{hint}; "
                       f"'{PROG} --help' lists the commands")


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version("transit-gym")
    except PackageNotFoundError:
        return "unknown (not installed)"


def find(argv: Sequence[str]) -> tuple[Command | None, list[str], int | None]:
    """(command, its arguments, None) or (None, [], exit status once help or an error is
    printed) for the command line after ``transit-gym``."""
    if not argv or argv[0] in HELP_FLAGS:
        print(overview())
        return None, [], 0
    first = argv[0]
    if first == "--version":
        print(f"{PROG} {version()}")
        return None, [], 0
    if first.startswith("-"):
        guess = difflib.get_close_matches(first, ["--help", "--version"], n=1)
        hint = f" (did you mean {guess[0]}?)" if guess else ""
        return None, [], usage_error(f"unrecognized argument {first}{hint}; "
                                     "give a command first")
    if first in FAMILIES:
        if len(argv) == 1 or argv[1] in HELP_FLAGS:
            print(family_help(first))
            return None, [], 0
        name, rest = f"{first} {argv[1]}", list(argv[2:])
        typed = argv[:2]
    else:
        name, rest, typed = first, list(argv[1:]), argv[:1]
    if name not in BY_NAME:
        return None, [], unknown_command(typed)
    return BY_NAME[name], rest, None


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split("\n"))


def run(command: Command, argv: list[str]) -> int:
    """Run ``command``'s ``main(argv)`` under the command's name; its exit status."""
    prog = f"{PROG} {command.name}"
    saved = sys.argv
    sys.argv = [prog, *argv]
    try:
        tool = importlib.import_module(command.module)
        from transit_gym.envs.core.errors import ConfigError, DataFileError, StateDictError

        try:
            code = tool.main(argv)
        except (ConfigError, DataFileError, StateDictError, FileNotFoundError,
                PermissionError) as exc:
            print(f"{prog}: error: {one_line(exc)}", file=sys.stderr)
            return 2
    except ModuleNotFoundError as exc:
        extra = EXTRAS.get((exc.name or "").split(".")[0])
        if extra is None:
            raise
        print(f"{prog}: error: this command needs {exc.name}: "
              f"pip install 'transit-gym[{extra}]'", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:   # ``transit-gym ... | head``: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        sys.argv = saved
    return code if isinstance(code, int) and not isinstance(code, bool) else 0


def main(argv: Sequence[str] | None = None) -> int:
    """The ``transit-gym`` console script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command, rest, status = find(argv)
    if command is None:
        return status if status is not None else 2
    return run(command, rest)
