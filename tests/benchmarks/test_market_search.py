"""The market search on tiny budgets: the racing logic, determinism
across backends, resuming, settings checks and the outputs."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from tests.core.usage import usage_error
from transit_gym.benchmarks.balance import market_race as race
from transit_gym.benchmarks.balance import market_search as ms
from transit_gym.envs.automobiles.data import CARD_COLOURS, load_cards
from transit_gym.envs.core.errors import ConfigError

CARDS = load_cards()
TINY = ["--cards-per-colour", "2", "--markets", "6", "--games", "2", "--finalists", "2",
        "--final-games", "8", "--seed", "3", "--quiet"]


def _settings(**changes) -> ms.Settings:
    base = dict(players=2, agents=("rule_based", "rule_based"), seed=3, games=2, growth=2,
                finalists=2, final_games=8, markets=6, cards_per_colour=2, options=())
    return ms.Settings(**{**base, **changes})


def _run(path, workers=1, **changes):
    space = race.market_space(CARDS, 2)
    return ms.run_search(_settings(**changes), space, path, workers=workers, plots=False,
                         progress=False)


def _rows(path):
    with (path / "rounds.csv").open() as handle:
        return sorted((dict(r) for r in csv.DictReader(handle)),
                      key=lambda r: (r["stage"], int(r["round"]), int(r["market"]),
                                     int(r["first"])))


# ----- pure logic -------------------------------------------------------------------------------
def test_swapping_the_cards_equals_building_the_game():
    """``with_card_set`` (the search's fast path) gives the params and options of a game
    built with that market."""
    from transit_gym.envs.automobiles.rules import AutomobilesGame

    space = race.market_space(CARDS)
    base = AutomobilesGame(num_players=2, start_player=0, drivers=True)
    for market in (0, 4321, 16_806):
        cards = list(space.cards(market))
        built = AutomobilesGame(num_players=2, start_player=0, drivers=True, card_set=cards)
        swapped = base.with_card_set(cards)
        assert np.array_equal(swapped.params, built.params)
        assert swapped.options == built.options and swapped.card_set == built.card_set
    assert base.card_set == AutomobilesGame(num_players=2).card_set   # base unchanged
    with pytest.raises(ConfigError, match="card_set"):
        base.with_card_set(["Nitro"] * 5)


def test_the_full_space_is_seven_cards_per_colour_one_of_each_colour():
    space = race.market_space(CARDS)
    assert [len(p) for p in space.pools] == [7] * 5
    assert space.size == 16_807
    for market in (0, 1, 7, 16_806):
        colours = [int(CARDS.colours[CARDS.card_id(n)]) for n in space.cards(market)]
        assert colours == list(CARD_COLOURS)
    assert len({space.cards(m) for m in range(space.size)}) == space.size


def test_cards_per_colour_keeps_the_first_cards_of_each_pool():
    small = race.market_space(CARDS, 2)
    full = race.market_space(CARDS)
    assert small.size == 32
    assert small.pools == tuple(p[:2] for p in full.pools)
    with pytest.raises(ConfigError, match="cards-per-colour must be 1..7"):
        race.market_space(CARDS, 8)


def test_a_sample_is_seeded_distinct_and_inside_the_space():
    space = race.market_space(CARDS, 2)
    a = race.sample_markets(space, 10, seed=5)
    assert a == race.sample_markets(space, 10, seed=5)
    assert len(set(a)) == 10 and all(0 <= m < 32 for m in a)
    assert a != race.sample_markets(space, 10, seed=6)
    with pytest.raises(ConfigError, match="--markets must be 1..32"):
        race.sample_markets(space, 33, seed=5)


def test_game_seeds_depend_on_seed_market_and_round():
    seeds = {race.game_seed(s, m, r) for s in (0, 1) for m in (0, 1) for r in (0, 1)}
    assert len(seeds) == 8
    assert race.game_seed(1, 2, 3) == race.game_seed(1, 2, 3)
    assert all(0 <= s < 1 << 63 for s in seeds)


def test_halving_keeps_the_better_or_the_worse_half():
    """A known ordering: the most-balanced bracket keeps the highest scores, the
    least-balanced bracket the lowest, ties ordered by the tie keys."""
    scores = {10: 0.9, 11: 0.2, 12: 0.5, 13: 0.9, 14: 0.1, 15: 0.7}
    ties = {10: 0.8, 11: 0.1, 12: 0.5, 13: 0.3, 14: 0.9, 15: 0.2}
    assert race.halve(list(scores), scores, 3, best=True, ties=ties) == [13, 10, 15]
    assert race.halve(list(scores), scores, 3, best=False, ties=ties) == [14, 11, 12]
    # a tie across the cut: the two ends still split the field into disjoint halves
    level = {10: 0.5, 11: 0.5, 12: 0.5, 13: 0.9, 14: 0.1, 15: 0.5}
    top = race.halve(list(level), level, 3, best=True, ties=ties)
    bottom = race.halve(list(level), level, 3, best=False, ties=ties)
    assert top == [13, 11, 15]            # 0.9, then the tied 0.5s by their tie keys
    assert bottom == [14, 10, 12]
    assert set(top) | set(bottom) == set(level)


def test_bracket_sizes_halve_down_to_the_finalists():
    assert race.bracket_sizes(16_807, 5) == [16_807, 8404, 4202, 2101, 1051, 526, 263, 132,
                                             66, 33, 17, 9, 5]
    assert race.bracket_sizes(6, 2) == [6, 3, 2]
    assert race.bracket_sizes(3, 5) == [3, 3]     # a field smaller than the finalists
    # round 0: 6 x 2; round 1: both brackets of 3 x 4 games; replay: 2 x 2 finalists x 8
    assert race.planned_games(6, 2, 2, 2, 8) == 12 + 24 + 32


def test_outcome_counts_round_trip_and_give_balance():
    shares = np.array([[1, 0], [0, 1], [1, 0], [0.5, 0.5]])
    counts = race.count_outcomes(shares)
    assert counts == {"0": 2, "01": 1, "1": 1}
    assert race.parse_outcomes(race.format_outcomes(counts)) == counts
    rates = race.seat_rates(counts, 2)
    assert rates.tolist() == [0.625, 0.375]
    assert race.balance_score(counts, 2) == pytest.approx(0.75)
    low, high = race.balance_interval({"0": 300, "1": 200}, 2, seed=0)
    assert low < 0.8 < high and high <= 1.0


# ----- whole runs on tiny budgets ---------------------------------------------------------------
def test_one_worker_and_two_workers_find_the_same_finalists(tmp_path):
    one = _run(tmp_path / "one", workers=1)
    two = _run(tmp_path / "two", workers=2)
    assert one["most_balanced"] == two["most_balanced"]
    assert one["least_balanced"] == two["least_balanced"]
    drop = ("bracket", "cpu_seconds")
    strip = [[{k: v for k, v in r.items() if k not in drop} for r in _rows(tmp_path / d)]
             for d in ("one", "two")]
    assert strip[0] == strip[1]
    assert one["run"]["games_played"] == race.planned_games(6, 2, 2, 2, 8)


def test_the_race_keeps_the_better_half_by_the_played_games(tmp_path):
    """Round 1's most-balanced bracket is round 0's top half by its recorded outcomes."""
    _run(tmp_path / "r")
    rows = _rows(tmp_path / "r")
    round0 = {int(r["market"]): race.parse_outcomes(r["outcomes"])
              for r in rows if r["stage"] == "race" and r["round"] == "0"}
    scores = {m: race.balance_score(c, 2) for m, c in round0.items()}
    ties = race.tie_keys(3, list(round0))
    top = race.halve(list(round0), scores, 3, best=True, ties=ties)
    bottom = race.halve(list(round0), scores, 3, best=False, ties=ties)
    round1 = {int(r["market"]): r["bracket"] for r in rows
              if r["stage"] == "race" and r["round"] == "1"}
    assert {m for m, b in round1.items() if b in ("most", "both")} == set(top)
    assert {m for m, b in round1.items() if b in ("least", "both")} == set(bottom)
    assert all(int(r["games"]) == 4 for r in rows if r["round"] == "1" and r["stage"] == "race")


def test_an_interrupted_search_resumes_with_nothing_lost(tmp_path, monkeypatch):
    full = _run(tmp_path / "full")
    calls = {"n": 0}
    real = ms.run_task

    def dies_on_the_fourth_task(task):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(ms, "run_task", dies_on_the_fourth_task)
    monkeypatch.setattr(ms, "TASK_GAMES", 4)   # several tasks a round
    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path / "cut")
    kept = len(_rows(tmp_path / "cut"))
    assert kept > 0
    with (tmp_path / "cut" / "rounds.csv").open("a") as handle:
        handle.write("race,0,5")     # a row cut short by the interruption
    monkeypatch.setattr(ms, "run_task", real)
    resumed = _run(tmp_path / "cut")
    assert resumed["most_balanced"] == full["most_balanced"]
    assert resumed["least_balanced"] == full["least_balanced"]
    assert resumed["run"]["games_played"] < full["run"]["games_played"]
    assert {(r["stage"], r["round"], r["market"]): None for r in _rows(tmp_path / "cut")}.keys() \
        == {(r["stage"], r["round"], r["market"]): None for r in _rows(tmp_path / "full")}.keys()


def test_other_settings_into_the_same_out_exit_2_naming_each(tmp_path, capsys):
    out = str(tmp_path / "o")
    ms.main([*TINY, "--out", out, "--no-plots"])
    with pytest.raises(SystemExit) as stop:
        ms.main([*TINY, "--out", out, "--no-plots", "--games", "3", "--final-games", "9"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "games: stored 2, now 3" in err and "final_games: stored 8, now 9" in err
    assert "nothing was played" in err


def test_the_outputs_hold_the_numbers(tmp_path):
    out = tmp_path / "o"
    summary = ms.main([*TINY, "--out", str(out)])
    for name in ("rounds.csv", "finalists.md", "summary.json", "finalists.png", "settings.json"):
        assert (out / name).exists(), name
    stored = json.loads((out / "summary.json").read_text())
    assert stored["most_balanced"] == summary["most_balanced"]
    text = (out / "finalists.md").read_text()
    for entry in stored["most_balanced"] + stored["least_balanced"]:
        assert entry["balance_low"] <= entry["balance"] <= entry["balance_high"]
        assert entry["games"] == 8
        assert f"{entry['balance']:.3f} [{entry['balance_low']:.3f}" in text
        assert ", ".join(entry["cards"]) in text
    finals = [r for r in _rows(out) if r["stage"] == "final"]
    assert sum(int(r["games"]) for r in finals) == 8 * len(finals)
    assert sum(int(r["games"]) for r in _rows(out)) == stored["run"]["games_played"]


def test_bad_arguments_are_clear_errors(capsys):
    for bad, message in ((["--agents", "mcts"], "jitted agents"),
                         (["--games", "0"], "--games must be a positive"),
                         (["--cards-per-colour", "9"], "cards-per-colour must be 1..7")):
        assert message in usage_error(ms.main, ["--quiet", *bad], capsys)


def test_a_search_on_local_ray_equals_the_local_search(tmp_path):
    """``--ray`` runs the same tasks: the same rows and finalists as one local worker."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)
    try:
        space = race.market_space(CARDS, 2)
        remote = ms.run_search(_settings(), space, tmp_path / "ray", ray_address="",
                               plots=False, progress=False)
    finally:
        ray.shutdown()
    local = _run(tmp_path / "local")
    assert remote["run"]["backend"] == "ray"
    assert remote["most_balanced"] == local["most_balanced"]
    assert remote["least_balanced"] == local["least_balanced"]
    strip = [[{k: v for k, v in r.items() if k not in ("bracket", "cpu_seconds")}
              for r in _rows(tmp_path / d)] for d in ("ray", "local")]
    assert strip[0] == strip[1]
