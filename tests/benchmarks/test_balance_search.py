"""Balance sweeps played by the search agent: ``--agents mcts:N`` runs,
every game is fixed by (seed, game index, seat) whatever the workers and chunks, and bad
search specs are usage errors."""

from __future__ import annotations

import csv

import pytest

from transit_gym.benchmarks.balance import sweep as balance
from transit_gym.benchmarks.balance.sweep import Sweep, parse_agents, run_sweep
from transit_gym.envs.core.errors import ConfigError

SWEEP = Sweep(game="loose_caboose", players=2, sets=[("default", {})],
              agents=["mcts:8", "mcts:8"], games=7, seed=3)


def _rows(folder):
    with (folder / "games.csv").open(newline="") as handle:
        return sorted(csv.DictReader(handle), key=lambda r: (r["set"], int(r["game"])))


def test_search_sweep_is_identical_with_one_or_two_workers_and_any_chunking(tmp_path,
                                                                              monkeypatch):
    """Agents are reseeded per game from (seed, game, seat): two workers with chunks of
    2 games give exactly the rows of one worker with the default chunks."""
    summary = run_sweep(SWEEP, tmp_path / "one", workers=1, plots=False, progress=False)
    assert summary["run"]["games_per_second"] > 0     # not rounded away for slow agents
    monkeypatch.setattr(balance, "PYTHON_CHUNK", 2)
    run_sweep(SWEEP, tmp_path / "two", workers=2, plots=False, progress=False)
    one, two = _rows(tmp_path / "one"), _rows(tmp_path / "two")
    assert len(one) == 7
    assert one == two


def test_search_sweep_plays_the_search_agent_not_the_rule_based_one(tmp_path):
    """Same seed and chance streams: games by mcts:8 differ from rule_based self-play, so
    the spec reaches the players."""
    run_sweep(SWEEP, tmp_path / "mcts", workers=1, plots=False, progress=False)
    rules = Sweep(**{**SWEEP.__dict__, "agents": ["rule_based", "rule_based"]})
    run_sweep(rules, tmp_path / "rules", workers=1, plots=False, progress=False)
    decisions = [[r["decisions"] for r in _rows(tmp_path / name)] for name in ("mcts", "rules")]
    assert decisions[0] != decisions[1]


def test_search_specs_are_accepted():
    assert parse_agents("mcts", 3) == ["mcts"] * 3
    assert parse_agents("mcts:50:rule_based", 2) == ["mcts:50:rule_based"] * 2
    assert parse_agents("mcts:8, rule_based", 2) == ["mcts:8", "rule_based"]


@pytest.mark.parametrize("spec", ["mcts:0", "mcts:x", "mcts:", "mcts:5:oracle",
                                  "mcts:5:random:1"])
def test_bad_search_specs_are_usage_errors(spec, capsys, tmp_path):
    with pytest.raises(ConfigError, match="bad search agent spec"):
        parse_agents(spec, 2)
    with pytest.raises(SystemExit) as stop:
        balance.main(["loose_caboose", "--agents", spec, "--games", "1", "--out",
                      str(tmp_path), "--quiet", "--no-plots"])
    assert stop.value.code == 2
    assert f"bad search agent spec {spec!r}" in capsys.readouterr().err
    assert not (tmp_path / "games.csv").exists()   # stopped before any game
