"""A balance report could carry another run's numbers, ``--players 3``
into a 2-player folder ended in ``KeyError: 'win_s2'``, and tournaments had no resume.
Now sweeps and tournaments store their settings in ``--out``; a run whose settings differ
stops before any game with exit status 2 naming each difference, and a compatible rerun
resumes (a larger ``--games`` plays only the missing games)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transit_gym.benchmarks.balance import sweep as balance
from transit_gym.training import tournament
from transit_gym.training.runs.folder import (
    SettingsMismatchError,
    check_settings,
    differences,
)


def _sweep(out: Path, *extra: str) -> dict:
    return balance.main(["loose_caboose", "--games", "6", "--workers", "1", "--no-plots",
                         "--quiet", "--out", str(out), *extra])


def _files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def test_the_issue_reproduction_stops_before_any_game_naming_each_difference(tmp_path,
                                                                              capsys):
    """rule_based seed 1, then random seed 2, then --players 3, into one folder: the second
    and third runs exit 2 with (setting, stored value, new value) and leave the folder as
    the first run wrote it; its report still describes the rule-based seed-1 games."""
    out = tmp_path / "R"
    _sweep(out, "--players", "2", "--agents", "rule_based", "--seed", "1")
    before = _files(out)
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        _sweep(out, "--players", "2", "--agents", "random", "--seed", "2")
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "agents: stored [\"rule_based\", \"rule_based\"], now [\"random\", \"random\"]" in err
    assert "seed: stored 1, now 2" in err and "nothing was played" in err
    with pytest.raises(SystemExit) as stop:
        _sweep(out, "--players", "3", "--agents", "rule_based", "--seed", "1")
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "players: stored 2, now 3" in err and "KeyError" not in err
    assert _files(out) == before
    assert "agents rule_based, rule_based" in (out / "report.md").read_text()
    assert "seed 1" in (out / "report.md").read_text()


def test_a_compatible_rerun_replays_nothing_and_more_games_play_only_the_missing(tmp_path):
    out = tmp_path / "R"
    first = _sweep(out, "--players", "2", "--seed", "1")
    again = _sweep(out, "--players", "2", "--seed", "1")
    assert first["run"]["games_played"] == 6 and again["run"]["games_played"] == 0
    assert again["sets"] == first["sets"]
    assert "Played 0 games" in (out / "report.md").read_text()
    assert "6 more from earlier runs with the same settings" in (out / "report.md").read_text()
    more = _sweep(out, "--players", "2", "--seed", "1", "--games", "9")
    assert more["run"]["games_played"] == 3
    fresh = balance.main(["loose_caboose", "--games", "9", "--workers", "1", "--no-plots",
                          "--quiet", "--out", str(tmp_path / "fresh"), "--players", "2",
                          "--seed", "1"])
    assert more["sets"] == fresh["sets"]
    assert json.loads((out / "settings.json").read_text())["games"] == 9
    fewer = _sweep(out, "--players", "2", "--seed", "1", "--games", "4")
    assert fewer["run"]["games_played"] == 0 and fewer["sets"]["default"]["games"] == 4


def test_options_and_data_files_are_settings_compared_by_content(tmp_path, capsys):
    """An option and a data file's SHA-256 are settings; the same file at another path
    is the same setting."""
    from transit_gym.envs.loose_caboose.data import DEFAULT_FILE

    deck = tmp_path / "deck.toml"
    deck.write_bytes(DEFAULT_FILE.read_bytes())
    out = tmp_path / "R"
    _sweep(out, "--option", f"deck={deck}")
    moved = tmp_path / "moved.toml"
    moved.write_bytes(deck.read_bytes())
    assert _sweep(out, "--option", f"deck={moved}")["run"]["games_played"] == 0
    moved.write_bytes(deck.read_bytes() + b"\n# edited\n")
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        _sweep(out, "--option", f"deck={moved}")
    assert stop.value.code == 2
    assert "data_files.deck: stored" in capsys.readouterr().err


def test_comparing_sweeps_of_two_games_is_a_usage_error(tmp_path, capsys):
    from transit_gym.benchmarks.balance import balance_report

    for folder, game in (("a", "planes"), ("b", "loose_caboose")):
        balance.main([game, "--games", "2", "--workers", "1", "--no-plots", "--quiet",
                      "--out", str(tmp_path / folder)])
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        balance_report.main([str(tmp_path / "a"), str(tmp_path / "b")])
    assert stop.value.code == 2
    assert "different games (planes and loose_caboose)" in capsys.readouterr().err


def test_a_games_csv_without_settings_is_refused(tmp_path):
    (tmp_path / "games.csv").write_text("set,game,decisions\ndefault,0,5\n")
    with pytest.raises(ValueError, match="no settings.json"):
        check_settings(tmp_path, {"game": "loose_caboose", "games": 1}, "balance")


def test_differences_name_nested_settings_and_ignore_the_games_count():
    stored = {"game": "planes", "games": 10, "options": {"laps": 3}, "format": 1}
    new = {"game": "planes", "games": 50, "options": {"laps": 5}, "format": 1}
    assert differences(stored, new) == [("options.laps", 3, 5)]
    assert differences(stored, {**stored, "games": 2}) == []


# ----- tournaments ------------------------------------------------------------------------------
AGENTS = ["random", "rule_based"]


def test_a_tournament_resumes_from_its_folder_with_the_same_games(tmp_path):
    out = tmp_path / "T"
    first = tournament.run_tournament("loose_caboose", 2, AGENTS, 40, seed=3, workers=1,
                                      progress=False, out=out)
    assert first["games_played"] == 40
    assert len((out / "games.csv").read_text().splitlines()) == 41
    again = tournament.run_tournament("loose_caboose", 2, AGENTS, 40, seed=3, workers=1,
                                      progress=False, out=out)
    assert again["games_played"] == 0 and again["elo"] == first["elo"]
    grown = tournament.run_tournament("loose_caboose", 2, AGENTS, 130, seed=3, workers=1,
                                      progress=False, out=out)
    fresh = tournament.run_tournament("loose_caboose", 2, AGENTS, 130, seed=3, workers=2,
                                      progress=False)
    assert grown["games_played"] == 90
    assert grown["elo"] == fresh["elo"] and grown["score_rate"] == fresh["score_rate"]


def test_a_tournament_with_other_settings_stops_before_any_game(tmp_path, capsys):
    out = tmp_path / "T"
    tournament.main(["--game", "loose_caboose", "--games", "4", "--seed", "1", "--quiet",
                     "--workers", "1", "--out", str(out)])
    before = _files(out)
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        tournament.main(["--game", "loose_caboose", "--games", "4", "--seed", "2", "--quiet",
                         "--workers", "1", "--out", str(out), "--players", "3"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "seed: stored 1, now 2" in err and "players: stored 2, now 3" in err
    assert _files(out) == before
    with pytest.raises(SettingsMismatchError, match="tool: stored"):
        balance.run_sweep(balance.Sweep("loose_caboose", 2, [("default", {})], AGENTS, 4, 1),
                          out, workers=1, plots=False, progress=False)
