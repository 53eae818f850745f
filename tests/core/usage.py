"""A tool's bad command line: its ``main`` stops with exit status 2 (a usage error)."""

from __future__ import annotations

from collections.abc import Callable

import pytest


def usage_error(main: Callable[[list[str]], object], argv: list[str], capsys) -> str:
    """Run ``main(argv)``, which must stop as a usage error (exit status 2); returns what it
    wrote to stderr (``capsys`` is pytest's fixture)."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    return capsys.readouterr().err
