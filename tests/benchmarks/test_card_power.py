"""Per-item power by restricted play (Jaffe et al., AIIDE 2012) on tiny
budgets: the restricted seat never uses the item, an item the agent never uses scores
exactly the fair share, runs resume and refuse other settings, reports are written."""

from __future__ import annotations

import csv
import json

import pytest

from transit_gym.benchmarks.balance import card_power
from transit_gym.benchmarks.balance.card_power import Settings, run
from transit_gym.envs.core.errors import ConfigError

CARDS = Settings(kinds=("cards",), players=2, games=4, agent="rule_based", seed=1, markets=1,
                 pool="all", items=("Air Jacks", "Tires"))


def test_markets_of_a_card_contain_it_and_draw_the_rest_from_the_pool():
    plan = card_power.make_plan(Settings(("cards",), 2, 8, "rule_based", 0, 3, "all"))
    assert len(plan.items["cards"]) == 35
    for name in plan.items["cards"]:
        for market in plan.markets[("cards", name)]:
            assert name in market["card_set"] and len(market["card_set"]) == 5
    base = card_power.make_plan(Settings(("cards",), 2, 8, "rule_based", 0, 1, "base"))
    assert len(base.items["cards"]) == 20


def test_an_item_the_agent_never_uses_scores_exactly_the_fair_share(tmp_path):
    """The rule-based agent never buys Air Jacks: forbidding it changes no
    decision, and with the same chance streams for every restricted seat the seats'
    shares of each game add up to one."""
    summary = run(CARDS, tmp_path, workers=1, plots=True, progress=False)
    rows = {r["item"]: r for r in summary["kinds"]["cards"]}
    assert rows["Air Jacks"]["score_rate"] == pytest.approx(0.5)
    assert rows["Air Jacks"]["verdict"] == "unused"
    low, high = rows["Air Jacks"]["interval"]
    assert low < 0.5 < high
    assert all(r["games"] == 4 for r in rows.values())
    report = (tmp_path / "power.md").read_text()
    assert "Air Jacks" in report and "Tires" in report
    assert (tmp_path / "power_cards.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with (tmp_path / "power.csv").open() as handle:
        assert {r["item"] for r in csv.DictReader(handle)} == {"Air Jacks", "Tires"}
    assert json.loads((tmp_path / "power.json").read_text())["fair_share"] == 0.5


def test_the_run_resumes_and_refuses_other_settings(tmp_path):
    run(CARDS, tmp_path, workers=1, plots=False, progress=False)
    lines = (tmp_path / "games.csv").read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 8
    (tmp_path / "games.csv").write_text("".join(lines[:4]) + lines[4][:5])   # cut mid-row
    again = run(CARDS, tmp_path, workers=1, plots=False, progress=False)
    assert sorted((tmp_path / "games.csv").read_text().splitlines()) == sorted(
        line.rstrip("\n") for line in lines)
    assert all(r["games"] == 4 for r in again["kinds"]["cards"])
    other = Settings(**{**CARDS.__dict__, "seed": 2})
    with pytest.raises(ConfigError, match="other settings"):
        run(other, tmp_path, workers=1, plots=False, progress=False)


def test_drivers_and_sponsors_are_restricted_too(tmp_path):
    settings = Settings(kinds=("drivers", "sponsors"), players=2, games=2, agent="rule_based",
                        seed=0, markets=1, pool="all", items=("Driver 08", "A1"))
    summary = run(settings, tmp_path, workers=1, plots=False, progress=False)
    assert [r["item"] for r in summary["kinds"]["drivers"]] == ["Driver 08"]
    assert [r["item"] for r in summary["kinds"]["sponsors"]] == ["A1"]
    assert all(0.0 <= r["score_rate"] <= 1.0 for t in summary["kinds"].values() for r in t)


def test_bad_arguments_are_clear_errors(tmp_path):
    with pytest.raises(SystemExit):
        card_power.main(["--kinds", "cards,bogus", "--out", str(tmp_path)])
    with pytest.raises(ConfigError, match="none is an item"):
        card_power.make_plan(Settings(("cards",), 2, 2, "rule_based", 0, 1, "all",
                                      items=("Nope",)))
    with pytest.raises(ConfigError, match="--pool"):
        card_power.make_plan(Settings(("cards",), 2, 2, "rule_based", 0, 1, "most"))
