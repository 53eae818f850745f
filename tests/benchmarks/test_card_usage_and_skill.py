"""Balance reports per card (cubes of each market card bought and played
per seat and game), the reconstructed-data notes read from the data module (item 8), and
verdicts across skill levels with their rank agreement (item 5), on tiny budgets."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.benchmarks.balance import skill_levels
from transit_gym.benchmarks.balance.balance_report import reconstructed_notes
from transit_gym.benchmarks.balance.sweep import Sweep, load_csv, run_sweep
from transit_gym.envs.automobiles.data import RECONSTRUCTED

SWEEP = Sweep(game="automobiles", players=2, sets=[("Rinse & Repeat",
                                                    {"card_set": "Rinse & Repeat"})],
              agents=["rule_based", "random"], games=6, seed=3)


def test_card_usage_counts_each_market_cards_cubes_per_seat(tmp_path):
    summary = run_sweep(SWEEP, tmp_path, workers=1, plots=False, progress=False)
    rows = load_csv(tmp_path / "games.csv")
    cards = summary["sets"]["Rinse & Repeat"]["cards"]
    market = {r["card_yellow"] for r in rows}
    assert len(market) == 1 and market <= set(cards)
    for usage in cards.values():
        colour = usage["colour"]
        assert usage["games"] == 6
        for seat in (0, 1):
            bought = np.mean([r[f"s{seat}_bought_{colour}"] for r in rows])
            played = np.mean([r[f"s{seat}_activated_{colour}"] for r in rows])
            assert usage["bought_per_seat"][seat] == pytest.approx(bought)
            assert usage["played_per_seat"][seat] == pytest.approx(played)
    assert sum(sum(u["bought_per_seat"]) for u in cards.values()) > 0
    report = (tmp_path / "report.md").read_text()
    assert "## Card usage" in report and "s1 (random)" in report
    assert "## Reconstructed data" in report and RECONSTRUCTED[0] in report


def test_reconstructed_notes_come_from_the_data_module():
    notes = reconstructed_notes("automobiles")
    assert notes[:len(RECONSTRUCTED)] == [f"RECONSTRUCTED: {n}" for n in RECONSTRUCTED]


def _stats(rates, intervals, balance):
    return {"seat_win_rate": rates, "seat_win_interval": intervals, "balance": balance,
            "balance_interval": [balance - 0.1, balance + 0.1]}


def test_verdicts_flag_a_set_whose_verdict_depends_on_skill():
    fair = _stats([0.5, 0.5], [[0.4, 0.6], [0.4, 0.6]], 0.95)
    biased = _stats([0.7, 0.3], [[0.6, 0.8], [0.2, 0.4]], 0.6)
    assert skill_levels.verdict(fair, 2) == "fair"
    assert skill_levels.verdict(biased, 2) == "biased: seat 0 high"
    summaries = {
        "weak": {"sets": {"A": fair, "B": fair}, "ranking": ["A", "B"]},
        "mid": {"sets": {"A": fair, "B": biased}, "ranking": ["A", "B"]},
        "strong": {"sets": {"A": fair, "B": fair}, "ranking": ["B", "A"]},
    }
    result = skill_levels.compare_levels(["weak", "mid", "strong"], summaries, {}, 2,
                                         bootstrap=0)
    assert result["flagged"] == ["B"]
    assert not result["sets"]["A"]["skill_dependent"]
    assert len(result["agreement"]) == 3


def test_skill_levels_end_to_end_on_a_tiny_budget(tmp_path):
    sets = tmp_path / "sets.txt"
    sets.write_text("a: Mechanic, Pit Crew, Steering, Boost, Supercharged\n"
                    "b: Engineer, Pit Captain, Aerodynamics, Nitro, Diesel Engine\n"
                    "c: Car Chief, Pit Team, Suspension, Gearbox, Hybrid Engine\n")
    out = tmp_path / "out"
    result = skill_levels.main(["automobiles", "--sets", str(sets), "--players", "2",
                                "--games", "4", "--levels", "random", "rule_based", "mcts:2",
                                "--bootstrap", "20", "--workers", "1", "--quiet",
                                "--out", str(out)])
    assert set(result["sets"]) == {"a", "b", "c"}
    for s in result["sets"].values():
        assert set(s["levels"]) == {"random", "rule_based", "mcts:2"}
    for pair in result["agreement"]:
        assert -1.0 <= pair["kendall"] <= 1.0 or np.isnan(pair["kendall"])
    text = (out / "skill.md").read_text()
    assert "Kendall" in text and "random vs rule_based" in text
    assert (out / "skill_balance.png").read_bytes()[:4] == b"\x89PNG"
    assert (out / "level-mcts-2" / "games.csv").exists()


def test_skill_levels_needs_three_levels(tmp_path):
    with pytest.raises(SystemExit):
        skill_levels.main(["automobiles", "--levels", "random", "rule_based", "--out",
                           str(tmp_path)])


def test_designer_report_joins_the_runs_and_states_the_reconstructed_data_once(tmp_path):
    from transit_gym.benchmarks.balance import designer_report

    sweep_dir, skill_dir = tmp_path / "balance", tmp_path / "skill"
    run_sweep(SWEEP, sweep_dir, workers=1, plots=True, progress=False)
    skill_dir.mkdir()
    (skill_dir / "skill.md").write_text("# Balance verdicts across skill levels\n\n"
                                        "## Rank agreement between levels\n\nrows\n")
    report = designer_report.build({"balance": sweep_dir, "skill": skill_dir},
                                   tmp_path / "out")
    text = report.read_text()
    assert text.count("## Reconstructed data") == 1 and RECONSTRUCTED[0] in text
    assert "### Card usage" in text and "### Rank agreement between levels" in text
    assert (tmp_path / "out" / "balance_seat_win_rates.png").exists()
    assert "](balance_seat_win_rates.png)" in text
    with pytest.raises(ValueError, match="no power.md"):
        designer_report.build({"power": skill_dir}, tmp_path / "out2")


def test_designer_report_includes_the_market_search_finalists(tmp_path):
    """The report gains the market search's finalists and their plot."""
    from transit_gym.benchmarks.balance import designer_report

    market = tmp_path / "market"
    market.mkdir()
    (market / "finalists.md").write_text("# Market search\n\n## Most balanced\n\n| market |\n")
    (market / "finalists.png").write_bytes(b"png")
    text = designer_report.build({"market": market}, tmp_path / "out").read_text()
    assert "## The most and least balanced markets (market search)" in text
    assert "### Most balanced" in text and "](market_finalists.png)" in text
