"""The designer's loop in one command (``transit-gym balance report --card-data FILE``): it
runs the skill levels, the balance sweep and restricted play itself, writes ``report.md``
and ``summary.json`` (flags ranked, fixes, tables), resumes, and refuses what it cannot do
(``--fix`` without ``benchmarks.balance.fixes``, loop flags without ``--card-data``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transit_gym.benchmarks.balance import designer_report
from transit_gym.envs.automobiles.data import load_cards
from transit_gym.envs.core.errors import ConfigError

DATA = str(Path(load_cards().source))
FLAG_KEYS = {"kind", "item", "rule", "figure", "interval", "markets", "severity", "text"}


def _sets(tmp_path: Path) -> Path:
    cards = load_cards().sets
    path = tmp_path / "sets.toml"
    path.write_text("".join(f'"{name}" = {json.dumps(list(cards[name]))}\n'
                            for name in ("Well Oiled Machine", "First Game")))
    return path


def _loop(tmp_path: Path, *extra: str) -> list[str]:
    return ["--card-data", DATA, "--sets", str(_sets(tmp_path)), "--games", "4", "--markets",
            "1", "--workers", "1", "--quiet", "--out", str(tmp_path / "out"), *extra]


def test_one_command_runs_the_analyses_and_writes_the_report_and_summary(tmp_path):
    report = designer_report.main(_loop(tmp_path))
    out = tmp_path / "out"
    text = report.read_text()
    summary = json.loads((out / "summary.json").read_text())
    assert {"flags", "fixes", "tables", "setup"} <= set(summary)
    assert summary["fixes"] == [] and "None proposed (run with --fix)." in text
    assert "Made in one command: 2 players, 4 games" in text and "generalist" not in text
    for flag in summary["flags"]:
        assert set(flag) == FLAG_KEYS and len(flag["interval"]) == 2
    severities = [f["severity"] for f in summary["flags"]]
    assert severities == sorted(severities, reverse=True)
    tables = summary["tables"]
    assert set(tables["markets"]) == {"Well Oiled Machine", "First Game"}
    assert "Crate Motor" in tables["markets"]["Well Oiled Machine"]["cards"]
    assert tables["skill"]["levels"] == ["random", "rule_based", "tuned:markets"]
    assert [set(t["kinds"]) for t in tables["power"]] == [{"cards", "drivers"}, {"sponsors"}]
    setup = summary["setup"]
    assert setup["games"] == 4 and Path(setup["options"]["card_data"]).resolve() == Path(DATA)
    # files under the working folder are named relative to it, not by this machine's path
    assert f"{Path.cwd()}/" not in (out / "summary.json").read_text()
    assert setup["sets"]["First Game"] == list(load_cards().sets["First Game"])
    # the opening comes first, then the parts of today's report
    order = [text.index(h) for h in ("## Summary: what looks degenerate",
                                     "## Proposed changes", "## All flags",
                                     "## Card-set balance", "## What each card",
                                     "## Do the verdicts depend")]
    assert order == sorted(order)
    assert (out / "race_length_markets.png").exists() and "](race_length_markets.png)" in text
    # the sub-runs are reused: a second run plays no game and flags the same
    designer_report.main(_loop(tmp_path))
    again = json.loads((out / "summary.json").read_text())
    assert again["flags"] == summary["flags"]
    runs = json.loads((out / "skill" / "level-random" / "summary.json").read_text())["run"]
    assert runs["games_played"] == 0


def test_sets_file_errors_name_the_market(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('"A" = ["Nitro"]\n"B" = ["Nitro", "Tires", "Boost", "Turbo", "Manager"]\n')
    with pytest.raises(ConfigError, match="market 'A' must list five card names"):
        designer_report.read_sets(bad)
    one = tmp_path / "one.json"
    one.write_text('{"A": ["Nitro", "Tires", "Boost", "Turbo", "Manager"]}')
    with pytest.raises(ConfigError, match="2 or more market names"):
        designer_report.read_sets(one)


@pytest.mark.parametrize("extra", [["--fix"], ["--sets", "x.toml"]])
def test_loop_flags_need_card_data(tmp_path, extra, capsys):
    with pytest.raises(SystemExit) as stop:
        designer_report.main([*extra, "--balance", str(tmp_path), "--out", str(tmp_path)])
    assert stop.value.code == 2 and "need --card-data" in capsys.readouterr().err


def test_fix_searches_the_most_severe_items_each_once():
    """``--fix`` hands the fix search the ``--fix-top`` most severe flagged items, a card
    flagged by two rules once (its most severe flag)."""
    found = [{"kind": "card", "item": "Crate Motor", "rule": "power"},
             {"kind": "market", "item": "Well Oiled Machine", "rule": "race_length"},
             {"kind": "card", "item": "Crate Motor", "rule": "dominant_card"},
             {"kind": "driver", "item": "Driver 01", "rule": "power"}]
    assert [f["rule"] for f in designer_report.fix_targets(found, 4)] == [
        "power", "race_length", "power"]
    assert [f["item"] for f in designer_report.fix_targets(found, 2)] == [
        "Crate Motor", "Well Oiled Machine"]


def test_fix_top_must_be_positive(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        designer_report.main(_loop(tmp_path, "--fix", "--fix-top", "0"))
    assert stop.value.code == 2 and "--fix-top must be positive" in capsys.readouterr().err


def test_driver_data_is_passed_to_the_env(tmp_path):
    """A driver patch reaches the race's and the season's options."""
    drivers = Path(load_cards().source).parent / "racing_season" / "drivers.toml"
    args = designer_report.build_parser().parse_args(_loop(tmp_path, "--driver-data",
                                                           str(drivers)))
    setup = designer_report.run_setup(args)
    assert setup["options"]["driver_data"] == str(drivers.resolve())
    assert setup["season_options"]["driver_data"] == str(drivers.resolve())


def _power_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "power"
    folder.mkdir()
    rows = [{"item": "Crate Motor", "score_rate": 0.07, "interval": [0.042, 0.114],
             "games": 200}, {"item": "Nitro", "score_rate": 0.5, "interval": [0.43, 0.57],
                             "games": 200}]
    (folder / "power.json").write_text(json.dumps(
        {"settings": {"players": 2}, "fair_share": 0.5, "kinds": {"cards": rows}}))
    (folder / "power.md").write_text("# Per-item power\n\n## Market cards\n\n| rank |\n")
    return folder


def test_joined_runs_are_flagged_and_fixes_are_rendered(tmp_path, monkeypatch):
    """The joining mode judges the JSON of the folders it joins; with ``fix`` the flags
    go to ``fixes.propose_fixes(flags, setup, out)`` and its fixes to the report."""
    import sys
    import types

    calls = []

    def propose_fixes(found, setup, out):
        calls.append((found, setup, out))
        return [{"item": "Crate Motor", "kind": "card", "verified": {"score rate": 0.48},
                 "changes": [{"file": "data.toml", "entry": "Crate Motor", "field": "cost",
                              "from": 5, "to": 6}]}]

    fake = types.ModuleType("transit_gym.benchmarks.balance.fixes")
    fake.propose_fixes = propose_fixes
    monkeypatch.setitem(sys.modules, "transit_gym.benchmarks.balance.fixes", fake)
    out = tmp_path / "out"
    report = designer_report.build({"power": _power_folder(tmp_path)}, out,
                                   setup={"players": 2}, fix=True)
    summary = json.loads((out / "summary.json").read_text())
    (flag,) = summary["flags"]
    assert set(flag) == FLAG_KEYS and flag["item"] == "Crate Motor" and flag["rule"] == "power"
    assert calls == [(summary["flags"], {"players": 2}, out / "fixes")]
    assert summary["fixes"][0]["changes"][0]["to"] == 6
    text = report.read_text()
    proposed = text[text.index("## Proposed changes"):text.index("## All flags")]
    assert "**Crate Motor** (card): data.toml [Crate Motor] cost: 5 -> 6." in proposed
    assert "Verified: score rate 0.48." in proposed
    assert text.index("## Summary") < text.index("## What each card")
