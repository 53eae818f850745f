"""Driver 08's sensitivity to the reconstructed numbers, on tiny
budgets: the variant files are legal data that differ from the shipped data only in the
intended numbers, a run is reproducible from its seed, resumes, and refuses an output
folder holding another run's games; a random deal deals what it says in every variant."""

from __future__ import annotations

import csv
import json
import os

import numpy as np
import pytest

from transit_gym.agents.tuned import spec_vector
from transit_gym.agents.tuned import vector as tv
from transit_gym.benchmarks.balance import driver_sensitivity as ds
from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.runs.folder import SettingsMismatchError

CARD_VARIANTS = [v for v in ds.catalogue().values() if v.kind == "cards"]


def _settings(games=3, seed=5, deal="random", variants=("baseline", "gear_values_plus1"),
              players=(2,)):
    return ds.make_settings(list(players), games, seed, "tuned", deal, list(variants))


def _rows(out):
    with (out / "games.csv").open() as handle:
        return sorted(map(tuple, (r.values() for r in csv.DictReader(handle))))


@pytest.mark.parametrize("variant", CARD_VARIANTS, ids=lambda v: v.name)
def test_card_variant_is_legal_and_changes_only_its_numbers(tmp_path, variant):
    setups = ds.write_variants([variant.name], "tuned", tmp_path)
    shipped = auto_data.load_cards()
    changed = auto_data.load_cards(setups[variant.name]["options"]["card_data"])
    assert changed.names == shipped.names
    key = {"cost": "costs", "value": "values"}[variant.key]
    ids = [shipped.card_id(n) for n in variant.cards]
    assert ids, "a variant changes at least one card"
    expected = getattr(shipped, key).copy()
    expected[ids] += variant.delta
    np.testing.assert_array_equal(getattr(changed, key), expected)
    for other in ("costs", "values", "colours", "effects", "wear", "count", "bonus",
                  "supply", "starting_bag", "wear_chart"):
        if other != key:
            np.testing.assert_array_equal(getattr(changed, other), getattr(shipped, other))


def test_card_groups_are_the_reconstructed_numbers_they_name():
    v = ds.catalogue()
    assert v["gear_values_plus1"].cards == ("3rd Gear", "4th Gear", "5th Gear", "6th Gear")
    assert v["wear_cost_plus1"].cards == ("Wear",)
    cleaning = set(v["cleaning_costs_minus1"].cards)
    assert {"Mechanic", "Pit Crew", "Pit Team", "Maintenance Staff", "Pit Mechanic"} <= cleaning
    others = set(v["other_costs_minus1"].cards)
    assert not cleaning & others
    assert len(cleaning | others) == 35                # every market card, once


def test_shifted_board_is_legal_and_only_its_colours_move(tmp_path):
    setups = ds.write_variants(["daytona_gears_down", "daytona_gears_up"], "tuned", tmp_path)
    shipped = auto_data.load_track("daytona")
    masks = {name: auto_data.load_track(setups[name]["options"]["track"]).colours
             for name in ("daytona_gears_down", "daytona_gears_up")}
    down = auto_data.load_track(setups["daytona_gears_down"]["options"]["track"])
    for attr in ("lane", "start", "length", "grid", "allowance", "adj", "parent"):
        np.testing.assert_array_equal(getattr(down, attr), getattr(shipped, attr))
    black = 1 << auto_data.BLACK
    white = 1 << auto_data.WHITE
    assert not (masks["daytona_gears_down"] & black).any()      # no black space left
    assert not (masks["daytona_gears_up"] & white).any()        # no white space left
    was_black = (shipped.colours & black) > 0
    assert ((masks["daytona_gears_down"][was_black] & (1 << auto_data.DARK)) > 0).all()


@pytest.mark.parametrize(("name", "drivers", "flag"), [("agent_use_all", range(1, 11), 1.0),
                                                     ("agent_no_08", [8], 0.0)])
def test_agent_variant_differs_only_in_the_use_flags(tmp_path, name, drivers, flag):
    setups = ds.write_variants([name], "tuned", tmp_path)
    changed = tv.load(setups[name]["agent"].removeprefix("tuned:")).values
    shipped = spec_vector("tuned", "automobiles")
    use = [tv.driver_param(d, 1) for d in drivers]
    assert (changed[use] == flag).all()
    assert shipped[tv.driver_param(5, 1)] < 0.5 <= shipped[tv.driver_param(8, 1)]
    rest = np.ones(tv.VECTOR_SIZE, dtype=bool)
    rest[use] = False
    np.testing.assert_array_equal(changed[rest], shipped[rest])


def test_agent_variants_need_a_tuned_agent(tmp_path):
    with pytest.raises(ConfigError, match="'agent_no_08' changes a tuned vector.*rule_based"):
        ds.write_variants(["agent_no_08"], "rule_based", tmp_path)


def test_a_variant_outside_the_legal_range_is_a_clear_error(tmp_path):
    bad = ds.Variant("gear_values_minus2", "gear_values", "too far", "cards",
                     ("3rd Gear",), "value", -2)
    with pytest.raises(ConfigError, match=r"3rd Gear value would be -1.*0\.\.99"):
        ds.card_variant_toml(bad)


def test_bad_settings_are_clear_errors():
    with pytest.raises(ConfigError, match="unknown variant.*'gear_value_plus1'"):
        _settings(variants=("gear_value_plus1",))
    with pytest.raises(ConfigError, match="--deal must be one of"):
        _settings(deal="shuffle")
    with pytest.raises(ConfigError, match="--players must list"):
        _settings(players=(1,))
    assert _settings(variants=("gear_costs_plus1",))["variants"][0] == "baseline"
    with pytest.raises(ConfigError, match="--agent must be a jitted agent.*'mcts'"):
        ds.make_settings([2], 3, 5, "mcts", "draft", ["baseline"])
    with pytest.raises(ConfigError, match="no tuned vector file"):
        ds.make_settings([2], 3, 5, "tuned:missing.json", "draft", ["baseline"])


def test_a_changed_agent_vector_is_refused_on_resume(tmp_path):
    vector = tmp_path / "v.json"
    tv.TunedVector(spec_vector("tuned", "automobiles")).save(vector)
    settings = ds.make_settings([2], 2, 5, f"tuned:{vector}", "draft", ["baseline"])
    ds.run(settings, tmp_path / "out", workers=1, plots=False, progress=False)
    values = spec_vector("tuned", "automobiles")
    values[tv.driver_param(8, 1)] = 0.0
    tv.TunedVector(values).save(vector)
    stamp = vector.stat().st_mtime + 10          # the vector cache keys on the mtime
    os.utime(vector, (stamp, stamp))
    changed = ds.make_settings([2], 2, 5, f"tuned:{vector}", "draft", ["baseline"])
    with pytest.raises(SettingsMismatchError, match="agent_vector_sha256"):
        ds.run(changed, tmp_path / "out", workers=1, plots=False, progress=False)


def test_random_deal_gives_every_seat_its_dealt_driver_in_every_variant(tmp_path):
    summary = ds.run(_settings(games=4), tmp_path, workers=1, plots=False, progress=False)
    rows = list(csv.DictReader((tmp_path / "games.csv").open()))
    assert len(rows) == 8                                    # 2 variants x 4 games
    for row in rows:
        dealt = ds.dealt_drivers(5, 2, int(row["game"]))
        assert row["drivers"] == "-".join(str(d) for d in dealt)
        assert sum(float(x) for x in row["shares"].split("-")) == pytest.approx(1.0)
    seats = sum(d["seats"] for d in summary["drivers"]["baseline"]["2"])
    assert seats == 8                                        # 4 games x 2 seats
    assert (tmp_path / "sensitivity.md").read_text().startswith("# Driver 08")


def test_same_seed_same_games_and_resume_equals_one_run(tmp_path):
    one, two, resumed = tmp_path / "one", tmp_path / "two", tmp_path / "resumed"
    ds.run(_settings(games=4, deal="draft"), one, workers=1, plots=False, progress=False)
    ds.run(_settings(games=4, deal="draft"), two, workers=1, plots=False, progress=False)
    assert _rows(one) == _rows(two)
    ds.run(_settings(games=2, deal="draft"), resumed, workers=1, plots=False, progress=False)
    path = resumed / "games.csv"
    path.write_text(path.read_text()[:-5])                  # stopped while writing a row
    summary = ds.run(_settings(games=4, deal="draft"), resumed, workers=1, plots=True,
                     progress=False)
    assert _rows(resumed) == _rows(one)
    assert (resumed / "sensitivity.png").stat().st_size > 0
    stored = json.loads((resumed / "settings.json").read_text())
    assert stored["games"] == 4
    assert summary["variants"][0]["variant"] == "baseline"


def test_other_settings_are_refused_before_any_game(tmp_path):
    ds.run(_settings(games=2), tmp_path, workers=1, plots=False, progress=False)
    before = (tmp_path / "games.csv").read_text()
    with pytest.raises(SettingsMismatchError, match="seed: stored 5, now 6"):
        ds.run(_settings(games=2, seed=6), tmp_path, workers=1, plots=False, progress=False)
    with pytest.raises(SettingsMismatchError, match="variants"):
        ds.run(_settings(games=2, variants=("baseline", "gear_costs_plus1")), tmp_path,
               workers=1, plots=False, progress=False)
    assert (tmp_path / "games.csv").read_text() == before


def test_paired_change_uses_only_seats_holding_the_driver_in_both():
    base = {(0, 0): (8, 1.0), (1, 1): (8, 0.0), (2, 0): (8, 1.0), (3, 0): (1, 1.0)}
    other = {(0, 0): (8, 0.0), (1, 1): (8, 0.0), (2, 0): (8, 1.0), (3, 1): (8, 1.0)}
    change = ds.paired_change(base, other, 8)
    assert change["paired"] == 3 and change["unpaired"] == 1
    assert change["change"] == pytest.approx(-1 / 3)
    low, high = change["interval"]
    assert low < -1 / 3 < high
    assert ds.share(other, 8) == {"seats": 4, "share": 0.5,
                                  "interval": list(ds.wilson_interval(2.0, 4))}


def test_driver_shares_dealt_holds_the_random_deal():
    from transit_gym.benchmarks.balance.driver_shares import driver_shares

    rows = driver_shares("tuned", 2, 6, 3, "dealt", "random", "daytona")
    dealt = np.bincount(np.concatenate([ds.dealt_drivers(3, 2, g) for g in range(6)]),
                        minlength=11)
    assert [r[1] for r in rows] == dealt[1:].tolist()   # seats per driver: the deal's
    assert sum(r[2] * r[1] for r in rows if r[1]) == pytest.approx(6)   # a winner a game


def test_command_line_lists_variants_and_rejects_bad_input(capsys, tmp_path):
    assert ds.main(["--list"]) is None
    listed = capsys.readouterr().out.split("\n")
    assert [line.split()[0] for line in listed if line] == list(ds.catalogue())
    with pytest.raises(SystemExit) as stop:
        ds.main(["--players", "2,6", "--out", str(tmp_path / "x")])
    assert stop.value.code == 2
    assert "--players must list player counts in 2..5" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
