"""How a run tool's ``main`` reports what stops it: bad input as its usage error (exit
status 2), a task whose worker died on every try as status 1, either as one line."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from transit_gym.training.runs.backends import WorkerDiedError


@contextmanager
def tool_errors(parser: argparse.ArgumentParser,
                bad: type[Exception] = ValueError) -> Iterator[None]:
    """Inside, a ``bad`` error (default ``ValueError``: ``ConfigError``, ``DataFileError``,
    a settings mismatch) is ``parser.error`` and a ``WorkerDiedError`` exits with status 1."""
    try:
        yield
    except bad as exc:
        parser.error(str(exc))
    except WorkerDiedError as exc:
        parser.exit(1, f"{parser.prog}: error: {exc}\n")
