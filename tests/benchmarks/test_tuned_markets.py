"""The shipped tuned vectors scored against a reference agent, with their targets."""

from __future__ import annotations

import json

import pytest

from transit_gym.benchmarks.strength import tuned_markets as tm


def test_every_shipped_market_vector_plays_the_market_it_was_tuned_on():
    """A per-market vector is judged in its own market (13 suggested sets),
    the generalist on random markets of all 35 cards."""
    vectors = tm.shipped_vectors()
    names = [name for name, _ in vectors]
    assert len(names) == 14 and names[-1] == "generalist"
    for name, path in vectors[:-1]:
        players, options = tm.vector_market(name, path)
        recorded = json.loads(path.read_text())["market"]
        assert players == recorded["players"] == 2
        assert options == recorded["markets"] and options["card_set"] != "random"
    assert tm.vector_market("generalist", vectors[-1][1]) == (2, tm.GENERALIST_OPTIONS)


def test_target_scores_per_vector_and_opponent():
    """The targets: >= 65% (market vector) and >= 58% (generalist) against rule_based,
    >= 50% against the default mcts."""
    assert tm.target_score("broken-down-daytona-2p-drivers-off", "rule_based") == 0.65
    assert tm.target_score("generalist", "rule_based") == 0.58
    assert tm.target_score("generalist", "mcts") == 0.50
    rows = [{"vector": "generalist", "against": "rule_based", "games": 10, "score": 0.6,
             "low": 0.3, "high": 0.8}]
    assert ">= 58%: met" in tm.markdown(rows, None)
    assert ">= 65%: NOT met" in tm.markdown(rows, 0.65)


def test_scores_a_vector_and_resumes_from_its_folder(tmp_path):
    """A small run: the score is the vector's share of the wins, with a Wilson interval,
    and a rerun into the same folder replays nothing and gives the same rows."""
    rows = tm.main(["--vectors", "first-game-daytona-2p-drivers-off", "--games", "6",
                    "--workers", "1", "--quiet", "--out", str(tmp_path)])
    (row,) = rows
    assert 0.0 <= row["low"] <= row["score"] <= row["high"] <= 1.0
    assert (tmp_path / "first-game-daytona-2p-drivers-off" / "games.csv").is_file()
    assert tm.main(["--vectors", "first-game-daytona-2p-drivers-off", "--games", "6",
                    "--workers", "1", "--quiet", "--out", str(tmp_path)]) == rows


def test_unknown_vector_is_a_usage_error_listing_the_shipped_ones(capsys):
    with pytest.raises(SystemExit) as exit_info:
        tm.main(["--vectors", "no-such-market"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "no-such-market" in err and "generalist" in err
