"""The per-market optimiser of the tuned Automobiles agent, on small
budgets: reproducible from its seed, cached per market, refusing other settings in the
same folder, and scoring its vector against the rule-based agent in its own log."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.agents.tuned import vector as tv
from transit_gym.training import tune

SMALL = ["--generations", "2", "--games", "8", "--popsize", "4", "--eval-games", "8",
         "--workers", "1", "--quiet", "--field-every", "1"]


def _run(out, *extra):
    return tune.main(["--card-set", "Shake & Bake", "--laps", "1", *SMALL, "--out", str(out),
                      *extra])


def _vector(out):
    (path,) = [p for p in out.glob("*.json") if p.name != "settings.json"
               and not p.name.endswith(".log.json")]
    return tv.load(path)


def test_same_seed_same_vector_and_another_seed_another(tmp_path):
    assert _run(tmp_path / "a", "--seed", "3") == 0
    assert _run(tmp_path / "b", "--seed", "3") == 0
    assert _run(tmp_path / "c", "--seed", "4") == 0
    a, b, c = (_vector(tmp_path / k) for k in "abc")
    np.testing.assert_array_equal(a.values, b.values)
    assert not np.array_equal(a.values, c.values)
    assert a.market["markets"]["card_set"] == "Shake & Bake"
    assert a.meta["stopped_by"] == "generations" and a.meta["generations_run"] == 2


def test_second_run_loads_the_cached_vector(tmp_path, capsys):
    out = tmp_path / "t"
    assert _run(out) == 0
    path = next(out.glob("shake-bake*.json"))
    stamp = path.stat().st_mtime_ns
    capsys.readouterr()
    assert _run(out) == 0
    assert "cached" in capsys.readouterr().out
    assert path.stat().st_mtime_ns == stamp


def test_other_settings_into_the_same_folder_exit_2_naming_them(tmp_path, capsys):
    out = tmp_path / "t"
    assert _run(out) == 0
    with pytest.raises(SystemExit) as exc:
        _run(out, "--seed", "9")
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "seed: 0 in the folder, 9 now" in err


def test_the_log_scores_candidates_and_the_vector_against_rule_based(tmp_path):
    out = tmp_path / "t"
    assert _run(out) == 0
    log = json.loads(next(out.glob("*.log.json")).read_text())
    assert [e["generation"] for e in log] == [0, 1]
    for entry in log:
        assert 0.0 <= entry["mean_vs_rule_based"] <= entry["best_vs_rule_based"] <= 1.0
    assert log[1]["field"] == 1 and log[0]["field"] == 0   # a snapshot joined the field
    ev = _vector(out).meta["eval_vs_rule_based"]
    assert ev["games"] >= 8 and ev["low"] <= ev["score"] <= ev["high"]


def test_search_space_starts_at_the_rule_based_point_and_covers_the_market():
    markets = [tune.market_options("Rinse & Repeat", None, "daytona", "on", None)]
    entries = tune.searched_entries(markets, 2)
    scale = tune.scales(entries)
    np.testing.assert_array_equal(tune.to_vector(np.zeros(entries.size), entries, scale),
                                  tv.rule_based_vector())
    for name in ("Pit Mechanic", "Internal Combustion", "black_gear"):
        assert tv.card_param(tv.card_of_name(name), tv.K_BUY) in entries
    assert tv.card_param(tv.card_of_name("Air Jacks"), tv.K_BUY) not in entries
    assert tv.driver_param(8, 1) in entries
    x = np.zeros(entries.size)
    x[list(entries).index(tv.card_param(tv.card_of_name("Pit Mechanic"), tv.K_WANT))] = 1.5
    assert tune.to_vector(x, entries, scale)[
        tv.card_param(tv.card_of_name("Pit Mechanic"), tv.K_WANT)] == 4.0


def test_bad_market_is_a_usage_error(tmp_path):
    with pytest.raises(SystemExit) as exc:
        tune.main(["--cards", "Burnout,Redline", "--out", str(tmp_path)])
    assert exc.value.code == 2


def test_tune_speed_reports_both_agents_and_the_optimiser_time(tmp_path, capsys):
    from transit_gym.benchmarks.speed import tune_speed

    out = tmp_path / "t"
    assert _run(out) == 0
    capsys.readouterr()
    assert tune_speed.main(["--games", "2", "--tune-dir", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.count("| First Game, 2p |") == 1
    (row,) = [line for line in text.splitlines() if line.startswith("| shake-bake")]
    assert row.split("|")[3].strip() == "2"     # generations run


def test_driver_shares_count_every_seat_once_with_intervals():
    from transit_gym.benchmarks.balance.driver_shares import driver_shares

    rows = driver_shares("tuned", 3, 10, 1, True, "random", "daytona")
    assert [r[0] for r in rows] == list(range(1, 11))
    assert sum(r[1] for r in rows) == 30              # 10 games x 3 seats, one driver each
    assert sum(r[2] * r[1] for r in rows if r[1]) >= 10 - 1e-9   # at least a winner a game
    for _, held, share, low, high in rows:
        if held:
            assert low - 1e-9 <= share <= high + 1e-9
