"""Every command's ``--help`` fits 100 columns, even on a wider terminal (docs/pictures.md:
every line fits in 100 columns)."""

from __future__ import annotations

import importlib

import pytest

from transit_gym.cli.commands import COMMANDS


@pytest.mark.parametrize("command", COMMANDS, ids=[c.name for c in COMMANDS])
@pytest.mark.parametrize("columns", ["100", "300"])
def test_help_lines_fit_100_columns(command, columns, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", columns)
    tool = importlib.import_module(command.module)
    with pytest.raises(SystemExit) as done:
        tool.main(["--help"])
    assert done.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 3
    width = min(100, int(columns))
    # a worked example is one unbreakable command line; everything else wraps
    too_long = [line for line in lines if len(line) > width and "transit-gym" not in line]
    assert not too_long, too_long
