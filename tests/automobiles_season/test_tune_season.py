"""``transit-gym tune --season`` (the sponsor entries
tuned by season self-play) on a tiny budget: it runs, the seed reproduces the vector, the
race entries stay those of the race vector, results are cached like the race tuning."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.agents.tuned import vector as tv
from transit_gym.training import tune

SMALL = ["--season", "--laps", "1", "--generations", "2", "--games", "4", "--popsize", "4",
         "--eval-games", "4", "--workers", "1", "--quiet"]


def _run(out, *extra):
    return tune.main([*SMALL, "--out", str(out), *extra])


def _vector(out):
    (path,) = [p for p in out.glob("season-*.json") if not p.name.endswith(".log.json")]
    return path, tv.load(path)


def test_season_tuning_is_seeded_and_moves_only_the_sponsor_entries(tmp_path):
    from transit_gym.agents import tuned

    assert _run(tmp_path / "a", "--seed", "3") == 0
    assert _run(tmp_path / "b", "--seed", "3") == 0
    assert _run(tmp_path / "c", "--seed", "4") == 0
    (path, a), (_, b), (_, c) = (_vector(tmp_path / k) for k in "abc")
    assert path.name == "season-2p-races-automobiles-generalist-laps-1.json"
    np.testing.assert_array_equal(a.values, b.values)
    assert not np.array_equal(a.values, c.values)
    general = tv.load(tuned.SHIPPED["automobiles_season"]).values
    np.testing.assert_array_equal(a.values[:tv.SPONSOR_BASE], general[:tv.SPONSOR_BASE])
    assert not np.array_equal(a.values[tv.SPONSOR_BASE:],
                              tv.rule_based_sponsor_entries())
    assert a.market == {"game": "automobiles_season", "players": 2, "options": {"laps": 1},
                        "race_vector": "automobiles-generalist"}
    ev = a.meta["eval_vs_rule_based_sponsors"]
    assert ev["games"] >= 4 and ev["low"] <= ev["score"] <= ev["high"]
    assert a.meta["stopped_by"] == "generations" and a.meta["generations_run"] == 2
    log = json.loads((tmp_path / "a" / path.name.replace(".json", ".log.json")).read_text())
    assert [e["generation"] for e in log] == [0, 1]
    assert all(0.0 <= e["mean"] <= e["best"] <= 1.0 and e["games"] == 4 * 4 for e in log)


def test_season_tuning_is_cached_and_refuses_other_settings(tmp_path, capsys):
    out = tmp_path / "t"
    assert _run(out, "--race-vector", "rule_based") == 0
    path, vector = _vector(out)
    assert path.name == "season-2p-races-rule-based-laps-1.json"
    np.testing.assert_array_equal(vector.values[:tv.SPONSOR_BASE],
                                  tv.rule_based_vector()[:tv.SPONSOR_BASE])
    stamp = path.stat().st_mtime_ns
    capsys.readouterr()
    assert _run(out, "--race-vector", "rule_based") == 0
    assert "cached" in capsys.readouterr().out and path.stat().st_mtime_ns == stamp
    with pytest.raises(SystemExit) as exc:
        _run(out, "--race-vector", "rule_based", "--seed", "9")
    assert exc.value.code == 2
    assert "seed: 0 in the folder, 9 now" in capsys.readouterr().err


def test_season_arguments_are_checked(tmp_path, capsys):
    for extra in (["--generalist"], ["--race-vector", str(tmp_path / "missing.json")]):
        with pytest.raises(SystemExit) as exc:
            _run(tmp_path / "x", *extra)
        assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        tune.main(["--race-vector", "rule_based", "--out", str(tmp_path / "y")])
    assert exc.value.code == 2
    assert "--race-vector goes with --season" in capsys.readouterr().err


def test_the_search_origin_is_the_rule_based_sponsor_block():
    base = tv.rule_based_vector() + 0.5
    v = tune.season_to_vector(np.zeros(tv.NUM_SPONSOR_PARAMS), base)
    np.testing.assert_array_equal(v[:tv.SPONSOR_BASE], base[:tv.SPONSOR_BASE])
    np.testing.assert_array_equal(v[tv.SPONSOR_BASE:], tv.rule_based_sponsor_entries())
    x = np.zeros(tv.NUM_SPONSOR_PARAMS)
    x[tv.P_KEEP_BIAS] = 1.0
    assert tune.season_to_vector(x, base)[tv.sponsor_param(tv.P_KEEP_BIAS)] == \
        tune.SPONSOR_SCALE[tv.P_KEEP_BIAS]


def test_the_shipped_season_sponsor_vector_replays_its_recorded_evaluation():
    """``agents/tuned/automobiles_season_sponsors.json`` (made by ``tune --season``, its
    command in ``meta``) holds the generalist's race entries and scores exactly the win
    share its file records against rule-based sponsor choices (the same 2,000 seasons)."""
    from pathlib import Path

    from transit_gym.agents import tuned
    from transit_gym.training.runs.backends import make_backend

    vector = tv.load(Path(tuned.__file__).with_name("automobiles_season_sponsors.json"))
    general = tv.load(tuned.SHIPPED["automobiles"]).values
    np.testing.assert_array_equal(vector.values[:tv.SPONSOR_BASE], general[:tv.SPONSOR_BASE])
    recorded = vector.meta["eval_vs_rule_based_sponsors"]
    settings, players = vector.meta["settings"], vector.market["players"]
    opponent = tune.season_to_vector(np.zeros(tv.NUM_SPONSOR_PARAMS), general)
    chunks = max(1, min(2 * vector.meta["workers"], settings["eval_games"] // players))
    backend = make_backend(1)
    try:
        wins, played = tune._season_scores(backend, [vector.values], opponent,
                                           vector.market["options"], players,
                                           settings["eval_games"], settings["seed"],
                                           tune.EVAL_FIRST, chunks)
    finally:
        backend.close()
    assert int(played[0]) == recorded["games"] == 2000
    assert round(float(wins[0] / played[0]), 4) == recorded["score"]


def test_a_start_file_sets_the_first_search_point_at_its_sponsor_entries():
    """``--start FILE`` with ``--season``: the search begins at the file's sponsor entries
    (``season_to_point`` inverts ``season_to_vector``); the rule-based start is the origin."""
    from pathlib import Path

    from transit_gym.agents import tuned

    path = Path(tuned.__file__).with_name("automobiles_season_sponsors.json")
    values = tv.load(path).values
    x = tune.season_to_point(values)
    np.testing.assert_allclose(tune.season_to_vector(x, values), values, atol=1e-12)
    assert np.abs(x).max() > 0.5
    np.testing.assert_array_equal(tune.season_to_point(tune.start_vector("rule_based")),
                                  np.zeros(tv.NUM_SPONSOR_PARAMS))
