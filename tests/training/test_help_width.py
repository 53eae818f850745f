"""``play --help`` and ``replay --help`` fit 100 columns even on a wide terminal
(docs/pictures.md: every line fits in 100 columns)."""

from __future__ import annotations

import pytest

from transit_gym.training import play, replay


@pytest.mark.parametrize("tool", [play, replay], ids=["play", "replay"])
@pytest.mark.parametrize("columns", ["60", "100", "300"])
def test_help_lines_fit_100_columns(tool, columns, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", columns)
    with pytest.raises(SystemExit) as done:
        tool.main(["--help"])
    assert done.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 10
    too_long = [line for line in lines if len(line) > min(100, int(columns))]
    assert not too_long, too_long
