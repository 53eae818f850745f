"""The balance sweep tool: determinism across backends, resuming, reports,
clear errors. Run on Loose Caboose (``--sets none``); card-set tests are with Automobiles."""

from __future__ import annotations

import csv
import json

import pytest

from transit_gym.benchmarks.balance import sweep as balance
from transit_gym.benchmarks.balance.sweep import Sweep, run_sweep

SWEEP = Sweep(game="loose_caboose", players=3, sets=[("default", {})],
              agents=["rule_based", "random", "rule_based"], games=260, seed=4)


def _rows(path):
    with (path / "games.csv").open() as handle:
        return sorted(csv.DictReader(handle), key=lambda r: (r["set"], int(r["game"])))


def test_results_are_identical_whatever_the_number_of_workers(tmp_path):
    """Each game is seeded from its index: one worker or two give the same games."""
    one = run_sweep(SWEEP, tmp_path / "one", workers=1, plots=False, progress=False)
    two = run_sweep(SWEEP, tmp_path / "two", workers=2, plots=False, progress=False)
    assert _rows(tmp_path / "one") == _rows(tmp_path / "two")
    assert one["sets"] == two["sets"]
    assert len(_rows(tmp_path / "one")) == 260


def test_an_interrupted_run_resumes_from_the_csv(tmp_path):
    full = tmp_path / "full"
    run_sweep(SWEEP, full, workers=1, plots=False, progress=False)
    cut = tmp_path / "cut"
    cut.mkdir()
    lines = (full / "games.csv").read_text().splitlines(keepends=True)
    (cut / "games.csv").write_text("".join(lines[:151]))  # header + 150 games
    (cut / "settings.json").write_text((full / "settings.json").read_text())
    summary = run_sweep(SWEEP, cut, workers=1, plots=False, progress=False)
    assert summary["run"]["games_played"] == 110   # only the missing games were played
    assert _rows(cut) == _rows(full)


def test_report_summary_and_plots_are_written(tmp_path):
    summary = run_sweep(SWEEP, tmp_path, workers=1, plots=True, progress=False)
    stats = summary["sets"]["default"]
    assert stats["games"] == 260
    assert sum(stats["seat_win_rate"]) == pytest.approx(1.0)
    assert 0.0 <= stats["balance"] <= 1.0
    low, high = stats["balance_interval"]
    assert low <= stats["balance"] <= high
    for seat, (lo, hi) in enumerate(stats["seat_win_interval"]):
        assert lo <= stats["seat_win_rate"][seat] <= hi
    report = (tmp_path / "report.md").read_text()
    assert "Seat win rates" in report and "default" in report
    assert json.loads((tmp_path / "summary.json").read_text())["ranking"] == ["default"]
    for name in ("seat_win_rates.png", "race_length.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chess"], "unknown game"),
        (["loose_caboose", "--players", "7"], "--players"),
        (["loose_caboose", "--games", "0"], "--games"),
        (["loose_caboose", "--sets", "suggested"], "no card sets"),
        (["loose_caboose", "--agents", "rule_based,random,random"], "--agents"),
        (["loose_caboose", "--agents", "genius"], "unknown agent"),
        (["loose_caboose", "--workers", "0", "--games", "1"], "--workers"),
    ],
)
def test_bad_arguments_give_clear_errors(argv, message, capsys, tmp_path):
    with pytest.raises((SystemExit, ValueError)) as err:
        balance.main([*argv, "--out", str(tmp_path), "--quiet", "--no-plots"])
    text = capsys.readouterr().err + str(err.value)
    assert message in text
