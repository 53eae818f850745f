"""The rule-based vs random measurement on Racing Season content (numbers go to the docs)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.benchmarks.strength import expansion_strength


def test_win_share_counts_a_shared_first_place_by_its_share():
    rewards = np.array([[1.0, -1.0], [-1.0, 1.0], [0.0, 0.0], [1.0, -1.0]], dtype=np.float32)
    assert expansion_strength.win_share(rewards, 0) == 2.5
    assert expansion_strength.win_share(rewards, 1) == 1.5


def test_a_small_run_writes_one_row_per_set_and_track(tmp_path, capsys):
    rows = expansion_strength.main(["--sets", "First Game", "--tracks", "daytona", "monza",
                                    "--games", "6", "--out", str(tmp_path)])
    assert [(r["set"], r["track"], r["games"]) for r in rows] == [
        ("First Game", "daytona", 6), ("First Game", "monza", 6)]
    assert all(0.0 <= r["low"] <= r["rate"] <= r["high"] <= 1.0 for r in rows)
    assert json.loads((tmp_path / "rows.json").read_text()) == rows
    assert "| First Game | monza | 6 |" in (tmp_path / "table.md").read_text()


def test_bad_arguments_are_named(capsys):
    with pytest.raises(SystemExit):
        expansion_strength.main(["--sets", "First Game", "--tracks", "nowhere", "--games", "4"])
    assert "nowhere" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        expansion_strength.main(["--games", "1"])
    assert "--games" in capsys.readouterr().err
