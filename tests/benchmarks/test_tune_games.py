"""The tuner's game-generic parts: the vector packing every tuned kernel reads, the
layout registry of the vector files, and the ``--game``/``--option``/``--vary`` flags
(the games' own tunings are tested with their tuned agents)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.agents.tuned import packing
from transit_gym.agents.tuned import vector as tv
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training import tune


def test_packed_vectors_read_back_and_leave_the_row_in_front():
    row = np.arange(7, dtype=np.int64)
    a, b = np.array([0.25, -3.5, 10.0]), np.array([1.0, 2.0, -0.125])
    packed = packing.append_vectors(row, [a, b], 3)
    np.testing.assert_array_equal(packed[:7], row)
    np.testing.assert_allclose(packing.read_vector(packed, 0), a)
    np.testing.assert_allclose(packing.read_vector(packed, 1), b)
    table = packing.append_vectors(np.stack([row, row + 1]), [a], 3)
    assert table.shape == (2, 7 + 3 + 3)
    np.testing.assert_allclose(packing.read_vector(table[1], 0), a)


def test_a_vector_of_the_wrong_size_is_refused():
    with pytest.raises(ValueError, match="3 entries"):
        packing.append_vectors(np.zeros(4, dtype=np.int64), [np.zeros(2)], 3)


def test_a_game_without_a_layout_is_a_config_error():
    with pytest.raises(ConfigError, match="no tuned vector layout for game 'chess'"):
        tv.layout("chess")


def test_the_season_reads_the_race_layout_and_its_files(tmp_path):
    assert tv.layout("automobiles_season") is tv.layout("automobiles")
    path = tv.TunedVector(tv.rule_based_vector()).save(tmp_path / "v.json")
    back = tv.load(path, "automobiles_season")
    assert back.game == "automobiles"
    np.testing.assert_array_equal(back.values, tv.rule_based_vector())


def test_a_vector_file_of_another_game_names_both_games(tmp_path):
    path = tv.TunedVector(tv.rule_based_vector()).save(tmp_path / "v.json")
    with pytest.raises(ConfigError, match="for game 'automobiles', not 'planes'"):
        tv.load(path, "planes")


def test_a_vector_file_with_a_non_number_is_a_config_error(tmp_path):
    path = tv.TunedVector(tv.rule_based_vector()).save(tmp_path / "v.json")
    data = json.loads(path.read_text())
    data["params"][tv.names()[0]] = "high"
    path.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match="must be a number"):
        tv.load(path)


def test_vary_makes_one_market_per_value_and_names_them():
    vary = tune.parse_vary(['airport=["flying_cloud", "zephyr"]'])
    markets = tune.vary_markets([{"end_at": 10}], vary)
    assert markets == [{"end_at": 10, "airport": "flying_cloud"},
                       {"end_at": 10, "airport": "zephyr"}]
    assert tune.options_tag({"end_at": 10}, vary) == "-end-at-10-airport-flying-cloud-zephyr"
    assert tune.options_tag({}, {}) == ""


@pytest.mark.parametrize("item", ["airport=zephyr", 'airport=["zephyr"]'])
def test_vary_needs_a_list_of_two_or_more_values(item):
    with pytest.raises(ConfigError, match="--vary airport= needs a JSON list"):
        tune.parse_vary([item])


@pytest.mark.parametrize("flag", [["--card-set", "First Game"], ["--track", "monza"],
                                  ["--generalist"], ["--season"], ["--laps", "2"]])
def test_automobiles_market_flags_are_refused_with_another_game(flag, capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        tune.main(["--game", "planes", *flag, "--out", str(tmp_path)])
    assert exc.value.code == 2
    assert "choose an Automobiles market" in capsys.readouterr().err


def test_option_and_vary_do_not_go_with_the_season(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        tune.main(["--season", "--option", "laps=2", "--out", str(tmp_path)])
    assert exc.value.code == 2
    assert "--option and --vary go with one market" in capsys.readouterr().err


def _tune_automobile(out, *extra):
    """A two-generation Automobile tuning into ``out``; its vector and its log."""
    assert tune.main(["--game", "automobile", "--generations", "2", "--games", "6",
                      "--popsize", "4", "--eval-games", "6", "--field-every", "1",
                      "--workers", "1", "--quiet", "--out", str(out), *extra]) == 0
    return tv.load(out / "automobile-3p.json", "automobile"), \
        json.loads((out / "automobile-3p.log.json").read_text())


def test_an_opponent_vector_joins_the_field_from_the_first_generation(tmp_path):
    lay = tv.layout("automobile")
    opponent = tv.TunedVector(lay.rule_based_vector() + lay.scales(), game="automobile")
    path = opponent.save(tmp_path / "opponent.json")
    _, alone_log = _tune_automobile(tmp_path / "alone")
    with_opp, opp_log = _tune_automobile(tmp_path / "with", "--opponent", str(path))
    assert [g["field"] for g in alone_log] == [0, 1]
    assert [g["field"] for g in opp_log] == [1, 2]
    assert with_opp.meta["settings"]["opponent"] == str(path)
    # the candidates' first scores: half of their games are against the opponent
    assert opp_log[0]["mean"] != alone_log[0]["mean"]
    assert alone_log[0]["mean"] == alone_log[0]["mean_vs_rule_based"]


def test_an_unreadable_opponent_or_one_with_the_season_is_a_usage_error(capsys, tmp_path):
    for flags, says in ((["--game", "automobile", "--opponent", str(tmp_path / "none.json")],
                         "none.json"),
                        (["--season", "--opponent", "generalist"], "--opponent goes with")):
        with pytest.raises(SystemExit) as exc:
            tune.main([*flags, "--out", str(tmp_path / "t")])
        assert exc.value.code == 2
        assert says in capsys.readouterr().err


def _quadratic(gen, xs):
    """A toy score for the CMA loop: higher nearer the point 1."""
    scores = np.array([-float(np.sum((np.asarray(x) - 1.0) ** 2)) for x in xs])
    return scores, {}, len(xs)


def test_a_budget_of_zero_runs_every_generation_and_repeats_bit_for_bit():
    """``--budget 0`` sets no wall-time limit: the search stops on its generation count,
    so the same seed gives the same mean (the reproducible run a shipped vector needs)."""
    settings = tune.Settings(seed=3, generations=4, budget=0.0, sigma=0.5)
    runs = [tune.cma_search(np.zeros(3), settings, _quadratic, "", show=False)
            for _ in range(2)]
    for _, log, stopped_by, _ in runs:
        assert stopped_by == "generations" and len(log) == 4
    np.testing.assert_array_equal(runs[0][0].mean, runs[1][0].mean)


def test_a_negative_budget_is_refused(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        tune.main(["--game", "planes", "--budget", "-1", "--out", str(tmp_path)])
    assert exc.value.code == 2
    assert "--budget must be non-negative" in capsys.readouterr().err
