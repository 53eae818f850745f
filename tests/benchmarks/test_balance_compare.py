"""Comparing the set rankings of two balance sweeps: rank correlations
and the sets the two rankings disagree on, checked where the answer is known."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.benchmarks.balance import balance_report as br
from transit_gym.benchmarks.balance.sweep import Sweep, run_sweep


def test_rank_correlations_of_known_orders():
    a = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    assert br.spearman(a, a) == pytest.approx(1.0) and br.kendall(a, a) == pytest.approx(1.0)
    assert br.spearman(a, -a) == pytest.approx(-1.0)
    assert br.kendall(a, -a) == pytest.approx(-1.0)
    swapped = np.array([0.8, 0.9, 0.7, 0.6, 0.5])     # one adjacent pair swapped
    assert br.spearman(a, swapped) == pytest.approx(1 - 6 * 2 / (5 * 24))   # 0.9
    assert br.kendall(a, swapped) == pytest.approx((9 - 1) / 10)
    tied = np.array([1.0, 1.0, 2.0, 3.0])
    assert br.ranks(tied, higher_first=False).tolist() == [1.5, 1.5, 3.0, 4.0]


def test_rank_correlations_agree_with_scipy_on_random_data_with_ties():
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(3)
    for _ in range(20):
        x = rng.integers(0, 4, 7).astype(float)
        y = rng.integers(0, 4, 7).astype(float)
        if len(set(x)) < 2 or len(set(y)) < 2:
            continue
        assert br.spearman(x, y) == pytest.approx(stats.spearmanr(x, y).statistic)
        assert br.kendall(x, y) == pytest.approx(stats.kendalltau(x, y).statistic)


def _summary(values: dict[str, tuple[float, float, float]]) -> dict:
    return {"players": 2, "sets": {name: {"balance": b, "first_player_advantage": f,
                                          "rounds_mean": r}
                                   for name, (b, f, r) in values.items()}}


def test_compare_rankings_names_the_sets_whose_ranks_move_by_two_or_more():
    first = _summary({"A": (0.9, 0.05, 20), "B": (0.8, -0.10, 21), "C": (0.7, 0.01, 22),
                      "D": (0.6, 0.2, 23)})
    second = _summary({"A": (0.6, 0.05, 30), "B": (0.8, 0.10, 31), "C": (0.7, -0.01, 32),
                       "D": (0.9, 0.2, 33)})
    result = br.compare_rankings(first, second)
    assert result["balance"]["disagree"] == ["A", "D"]              # ranks 1 <-> 4
    assert result["balance"]["sets"]["A"]["rank_second"] == 4.0
    # rank differences 3, 0, 0, 3: 1 - 6 * 18 / (4 * 15); pairs: 1 concordant, 5 discordant
    assert result["balance"]["spearman"] == pytest.approx(-0.8)
    assert result["balance"]["kendall"] == pytest.approx(-4 / 6)
    assert result["rounds_mean"]["spearman"] == pytest.approx(1.0)  # same order, shifted
    assert result["rounds_mean"]["disagree"] == []
    assert result["first_player_edge"]["sets"]["C"]["rank_first"] == 1.0   # smallest edge
    assert result["first_player_edge"]["spearman"] == pytest.approx(1.0)   # signs ignored
    text = br.comparison_markdown(result, "rule_based", "mcts")
    assert "### balance: Spearman -0.80, Kendall -0.67" in text
    assert "Ranks 2 or more apart: A; D" in text


def test_comparing_a_sweep_with_itself_is_perfect_agreement(tmp_path, capsys):
    """The command-line comparison of two finished sweeps, here one sweep twice: every
    correlation is 1, nothing disagrees, and the bootstrap interval is a correlation."""
    sweep = Sweep(game="automobiles", players=2,
                  sets=[(n, {"card_set": n}) for n in ("First Game", "Rev'd Up", "Broken Down")],
                  agents=["rule_based", "rule_based"], games=60, seed=2)
    run_sweep(sweep, tmp_path, workers=1, plots=False, progress=False)
    result = br.main([str(tmp_path), str(tmp_path), "--bootstrap", "50"])
    for metric in ("balance", "rounds_mean"):
        assert result[metric]["spearman"] == pytest.approx(1.0)
        assert result[metric]["disagree"] == []
    low, high = result["rounds_mean"]["spearman_interval"]
    assert -1.0 <= low <= high <= 1.0
    assert "### rounds_mean: Spearman +1.00" in capsys.readouterr().out
    assert json.loads((tmp_path / "summary.json").read_text())["players"] == 2


def test_comparison_of_different_player_counts_is_a_usage_error(tmp_path, capsys):
    for folder, players in (("a", 2), ("b", 3)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "summary.json").write_text(json.dumps(
            {"players": players, "agents": ["x"], "sets": {}, "games_per_set": 1}))
    with pytest.raises(SystemExit):
        br.main([str(tmp_path / "a"), str(tmp_path / "b")])
    assert "different player counts" in capsys.readouterr().err
