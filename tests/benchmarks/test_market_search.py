"""Market search by successive halving (issue 22 item 6) on a tiny budget: the rounds
halve each side down to the finalists with doubled games, a stopped run resumes with
nothing lost, other settings are refused."""

from __future__ import annotations

import json

import pytest

from transit_gym.benchmarks import market_search
from transit_gym.benchmarks.market_search import Settings, run
from transit_gym.envs.core.errors import ConfigError

TINY = Settings(players=2, agent="rule_based", seed=0, first_games=2, finalists=2,
                cards_per_colour=2)


def test_every_market_is_one_card_per_colour():
    assert len(market_search.all_markets(Settings(2, "rule_based", 0, 1, 1))) == 7 ** 5
    markets = market_search.all_markets(TINY)
    assert len(markets) == 32 and len(set(markets)) == 32
    with pytest.raises(ConfigError, match="cards-per-colour"):
        market_search.all_markets(Settings(2, "rule_based", 0, 1, 1, cards_per_colour=8))


def test_successive_halving_down_to_the_finalists_and_resume(tmp_path):
    summary = run(TINY, tmp_path, workers=1, progress=False)
    rounds = summary["rounds"]
    assert [r["games_per_market"] for r in rounds] == [2, 4, 8, 16, 32]
    assert [r["most"] for r in rounds] == [32, 16, 8, 4, 2]
    assert all(len(summary["finalists"][side]) == 2 for side in ("most", "least"))
    for side in ("most", "least"):
        for r in summary["finalists"][side]:
            assert r["games"] == 32
            low, high = r["balance_interval"]
            assert low <= r["balance"] <= high
    best = min(r["balance"] for r in summary["finalists"]["most"])
    lines = (tmp_path / "games.csv").read_text().splitlines(keepends=True)
    assert len(lines) - 1 == summary["run"]["games_played"]
    (tmp_path / "games.csv").write_text("".join(lines[:100]) + lines[100][:3])
    again = run(TINY, tmp_path, workers=1, progress=False)
    assert again["finalists"] == summary["finalists"]
    assert again["run"]["games_played"] == len(lines) - 100
    assert min(r["balance"] for r in again["finalists"]["most"]) == best
    assert "Most balanced finalists" in (tmp_path / "search.md").read_text()
    assert json.loads((tmp_path / "search.json").read_text())["markets"] == 32
    with pytest.raises(ConfigError, match="other settings"):
        run(Settings(**{**TINY.__dict__, "seed": 1}), tmp_path, workers=1, progress=False)
