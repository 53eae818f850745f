"""The market search's finalists tuned and replayed with their own vectors, on tiny budgets:
the replay plays the cached vectors, the same seed gives the
same vectors, an interrupted tuning resumes without re-tuning, other tuning settings are
refused, and Ray gives what the local run gives."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from tests.core.usage import usage_error
from transit_gym.agents.tuned import vector as tv
from transit_gym.benchmarks.balance import market_finalists as fin
from transit_gym.benchmarks.balance import market_race as race
from transit_gym.benchmarks.balance import market_search as ms
from transit_gym.envs.automobiles.data import load_cards

CARDS = load_cards()
TUNING = fin.Tuning(generations=2, games=4, eval_games=8)
TINY = ["--cards-per-colour", "2", "--markets", "6", "--games", "2", "--finalists", "2",
        "--final-games", "8", "--seed", "3", "--quiet", "--no-plots"]
TUNE = ["--tune-finalists", "--tune-generations", "2", "--tune-games", "4",
        "--tune-eval-games", "8"]


def _settings(**changes) -> ms.Settings:
    base = dict(players=2, agents=("rule_based", "rule_based"), seed=3, games=2, growth=2,
                finalists=2, final_games=8, markets=6, cards_per_colour=2, options=(),
                tuning=TUNING)
    return ms.Settings(**{**base, **changes})


def _run(path, workers=1, ray_address=False, plots=False, **changes):
    return ms.run_search(_settings(**changes), race.market_space(CARDS, 2), path,
                         workers=workers, ray_address=ray_address, plots=plots,
                         progress=False)


def _finalists(summary):
    return summary["most_balanced"] + summary["least_balanced"]


def _without_timing(summary):
    """The finalists' entries without wall times (which differ between runs)."""
    out = []
    for entry in _finalists(summary):
        entry = json.loads(json.dumps(entry))
        entry["tuned"].pop("tuning_seconds")
        out.append(entry)
    return out


def _vectors(path):
    return {p.name: tv.load(p).values for p in sorted((path / fin.TUNED_DIR).glob("*[0-9].json"))}


REAL_TUNE_TASK = fin.tune_task


def _counting(monkeypatch, fail_at=None):
    """Wrap ``tune_task`` (run in-process with one worker): count the markets it tunes,
    raise KeyboardInterrupt on call ``fail_at``."""
    calls = []

    def wrapped(job):
        calls.append(job[0])
        if len(calls) == fail_at:
            raise KeyboardInterrupt
        return REAL_TUNE_TASK(job)

    monkeypatch.setattr(fin, "tune_task", wrapped)
    return calls


def test_each_finalist_is_replayed_with_its_own_cached_vector(tmp_path):
    out = tmp_path / "o"
    summary = _run(out, plots=True)
    finalists = _finalists(summary)
    assert len(finalists) == 4
    game = ms.cached_game(ms.GAME, 2, ms.options_key({"start_player": 0}))
    from transit_gym.agents.tuned import automobiles as tk
    from transit_gym.envs.core.rollout import play_games
    from transit_gym.training.stats import seat_wins

    for entry in finalists:
        tuned = entry["tuned"]
        vector = tv.load(out / tuned["vector"])
        assert vector.market["markets"]["card_set"] == entry["cards"]
        assert vector.meta["stopped_by"] == "generations"
        assert vector.meta["generations_run"] == 2
        assert tuned["vs_rule_based"] == vector.meta["eval_vs_rule_based"]
        assert tuned["games"] == 8
        # every seat plays the vector, on the deals of the rule-based replay
        market_game = game.with_card_set(entry["cards"])
        params = tk.params_with_vectors(market_game.param_table, [vector.values])
        played = play_games(market_game, tk.policy, ["tuned", "tuned"], 8,
                            seed=race.game_seed(3, entry["market"], race.FINAL_ROUND),
                            params=params, codes={"tuned": tk.TUNED_CODE})
        rates = seat_wins(played.rewards).mean(axis=0)
        assert np.allclose(tuned["seat_win_rates"], np.round(rates, 4))
        for key in ("balance", "first_seat_win_rate"):
            assert tuned[f"{key.replace('_win_rate', '')}_low"] <= tuned[key] \
                <= tuned[f"{key.replace('_win_rate', '')}_high"]
        for r, lo, hi in zip(tuned["seat_win_rates"], tuned["seat_low"], tuned["seat_high"],
                             strict=True):
            assert lo <= r <= hi
    with (out / "rounds.csv").open() as handle:
        rows = [r for r in csv.DictReader(handle) if r["stage"] == "tuned"]
    assert sum(int(r["games"]) for r in rows) == 8 * 4
    text = (out / "finalists.md").read_text()
    assert "tuned vs rule_based" in text
    for entry in finalists:
        t = entry["tuned"]
        assert f"{t['balance']:.3f} [{t['balance_low']:.3f}, {t['balance_high']:.3f}]" in text
    assert (out / "finalists.png").exists()
    stored = json.loads((out / "summary.json").read_text())
    assert stored["tuning"]["settings"] == {"generations": 2, "games": 4, "eval_games": 8}
    assert stored["tuning"]["tuned_this_run"] == 4
    assert json.loads((out / "settings.json").read_text())["tuning"]["generations"] == 2


def test_the_same_seed_tunes_the_same_vectors_with_one_or_two_workers(tmp_path):
    one = _run(tmp_path / "one", workers=1)
    two = _run(tmp_path / "two", workers=2)
    assert _without_timing(one) == _without_timing(two)
    a, b = _vectors(tmp_path / "one"), _vectors(tmp_path / "two")
    assert a.keys() == b.keys() and len(a) == 4
    assert all(np.array_equal(a[k], b[k]) for k in a)
    # and the vectors moved away from the rule-based one (the optimiser ran)
    assert not any(np.array_equal(v, tv.rule_based_vector()) for v in a.values())


def test_an_interrupted_tuning_resumes_tuning_only_the_missing_markets(tmp_path, monkeypatch):
    reference = _run(tmp_path / "ref")
    _counting(monkeypatch, fail_at=3)
    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path / "cut")
    kept = _vectors(tmp_path / "cut")
    assert len(kept) == 2      # the two finished before the stop
    finished = {int(name[len("market-"):-len(".json")]) for name in kept}
    calls = _counting(monkeypatch)
    resumed = _run(tmp_path / "cut")
    finalists = {e["market"] for e in _finalists(reference)}
    assert sorted(calls) == sorted(finalists - finished)   # only the missing ones tuned
    assert {n: v.tolist() for n, v in _vectors(tmp_path / "cut").items() if n in kept} \
        == {n: v.tolist() for n, v in kept.items()}
    assert resumed["tuning"]["tuned_this_run"] == 2 and resumed["tuning"]["cached"] == 2
    assert _without_timing(resumed) == _without_timing(reference)
    # a third run tunes nothing and plays nothing
    again_calls = _counting(monkeypatch)
    again = _run(tmp_path / "cut")
    assert again_calls == [] and again["run"]["games_played"] == 0
    assert _without_timing(again) == _without_timing(reference)


def test_other_tuning_settings_are_refused_and_tuning_can_be_added(tmp_path, capsys):
    out = str(tmp_path / "o")
    ms.main([*TINY, "--out", out])                    # a search without tuning
    with (tmp_path / "o" / "rounds.csv").open() as handle:
        race_rows = len(list(csv.DictReader(handle)))
    summary = ms.main([*TINY, *TUNE, "--out", out])   # tuning added: the race is reused
    assert summary["run"]["games_played"] == 8 * 4   # only the tuned replay was played
    with (tmp_path / "o" / "rounds.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) > race_rows
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        ms.main([*TINY, *TUNE[:-1], "9", "--tune-generations", "3", "--out", out])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "tuning: stored" in err and '"generations": 2' in err and '"generations": 3' in err
    assert "nothing was played" in err
    with pytest.raises(SystemExit) as stop:                # and tuning cannot be dropped
        ms.main([*TINY, "--out", out])
    assert stop.value.code == 2
    assert "tuning: stored" in capsys.readouterr().err


def test_bad_tuning_arguments_are_clear_errors(capsys):
    for bad, message in ((["--tune-generations", "0"], "--tune-generations must be a positive"),
                         (["--tune-games", "-1"], "--tune-games must be a positive")):
        assert message in usage_error(ms.main, ["--quiet", "--tune-finalists", *bad], capsys)


def test_a_tuned_search_on_local_ray_equals_the_local_one(tmp_path):
    """``--ray`` tunes the finalists as Ray tasks: the same vectors and replays."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)
    try:
        remote = _run(tmp_path / "ray", ray_address="")
    finally:
        ray.shutdown()
    local = _run(tmp_path / "local")
    assert remote["run"]["backend"] == "ray"
    assert _without_timing(remote) == _without_timing(local)
    a, b = _vectors(tmp_path / "ray"), _vectors(tmp_path / "local")
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
