"""The designer's data patches through the balance tools and the tuner: ``--card-data``,
``--driver-data``, ``--sponsor-data``, ``--track-data`` (one run-layer helper) reach the
games they play, a flag the game has no option for is refused naming it, and a tiny run
plays on the patched numbers."""

from __future__ import annotations

import json

import pytest

from transit_gym.benchmarks.balance import automobiles_drivers, card_power, season_sponsors
from transit_gym.benchmarks.balance import driver_sensitivity as ds
from transit_gym.benchmarks.balance import sweep as balance
from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles.patches import write_patch
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.automobiles_season.rules import AutomobilesSeasonGame
from transit_gym.training import tune
from transit_gym.training.runs.options import data_tag, options_for


def _patch(tmp_path) -> dict[str, str]:
    changes = [{"file": "drivers.toml", "entry": "8", "field": "amount", "from": 3, "to": 2},
               {"file": "data.toml", "entry": "Gearbox", "field": "cost", "from": 4, "to": 6},
               {"file": "sponsors.toml", "entry": "A1", "field": "money", "from": [3, 6, 9],
                "to": [4, 6, 9]}]
    return {k: str(v) for k, v in write_patch(changes, tmp_path / "fix").items()}


def test_a_sweep_plays_on_the_patched_data_and_pins_its_contents(tmp_path, capsys):
    files = _patch(tmp_path)
    out = tmp_path / "sweep"
    argv = ["automobiles", "--sets", "none", "--players", "2", "--games", "4",
            "--option", "drivers=true", "--option", "laps=1", "--workers", "1", "--quiet",
            "--no-plots", "--driver-data", files["driver_data"], "--card-data",
            files["card_data"], "--out", str(out)]
    summary = balance.main(argv)
    assert summary["sets"]["default"]["games"] == 4
    stored = json.loads((out / "settings.json").read_text())
    assert sorted(stored["data_files"]) == ["card_data", "driver_data"]
    with pytest.raises(SystemExit):   # a season-only file for a single race
        balance.main([*argv[:-2], "--sponsor-data", files["sponsor_data"],
                      "--out", str(tmp_path / "other")])
    assert "automobiles takes no sponsor_data option" in capsys.readouterr().err


def test_restricted_play_gives_each_game_the_files_it_takes(tmp_path):
    """``balance power``: the sponsor patch goes to the season's games only."""
    files = _patch(tmp_path)
    args = card_power.build_parser().parse_args(
        ["--kinds", "drivers,sponsors", "--games", "2", "--markets", "1",
         "--sponsor-data", files["sponsor_data"], "--driver-data", files["driver_data"]])
    settings = card_power.parse_settings(args)
    plan = card_power.make_plan(settings)
    by_kind = {c.kind: dict(c.options) for c in card_power.cells(plan, set())}
    assert by_kind["sponsors"]["sponsor_data"] == files["sponsor_data"]
    assert "sponsor_data" not in by_kind["drivers"]
    assert by_kind["drivers"]["driver_data"] == by_kind["sponsors"]["driver_data"]


def test_options_for_drops_only_the_data_files_a_game_lacks():
    options = {"sponsor_data": "s.toml", "card_data": "c.toml", "no_such_option": 1}
    assert options_for(options, AutomobilesGame) == {"card_data": "c.toml",
                                                     "no_such_option": 1}
    assert options_for(options, AutomobilesSeasonGame) == options


def test_a_card_variant_is_made_over_the_card_patch(tmp_path):
    """``balance drivers``: with --card-data the baseline is the patched game and a card
    variant moves the patched numbers (Gearbox 6 -> 7 for gear-free costs +1)."""
    files = _patch(tmp_path)
    variant = ds.catalogue()["other_costs_plus1"]
    assert "Gearbox" in variant.cards
    setups = ds.write_variants([variant.name], "tuned", tmp_path / "v",
                               {"card_data": files["card_data"]})
    cards = auto_data.load_cards(setups[variant.name]["options"]["card_data"])
    shipped = auto_data.load_cards()
    gearbox = cards.card_id("Gearbox")
    assert cards.costs[gearbox] == 7 and shipped.costs[gearbox] == 4
    settings = ds.make_settings([2], 2, 5, "tuned", "random", ["baseline"],
                                {"driver_data": files["driver_data"]})
    assert settings["data"] == {"driver_data": files["driver_data"]}
    assert len(settings["data_sha256"]["driver_data"]) == 64


def test_the_sponsor_tool_refuses_a_bad_patch_and_plays_a_good_one(tmp_path, capsys):
    files = _patch(tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text("[[sponsor]]\nname = 'A1'\ngain = [1, 1, 1]\n")
    with pytest.raises(SystemExit):
        season_sponsors.main(["--seasons", "1", "--sponsor-data", str(bad)])
    err = capsys.readouterr().err
    assert str(bad) in err and "unknown keys ['gain']" in err
    game = AutomobilesSeasonGame(num_players=2, sponsor_data=files["sponsor_data"])
    assert game.sponsor_data.table[0, :, 0].tolist() == [4, 6, 9]
    with pytest.raises(SystemExit):   # the race tool: no sponsors
        automobiles_drivers.main(["--games", "1", "--sponsor-data", files["sponsor_data"]])
    assert "automobiles takes no sponsor_data option" in capsys.readouterr().err


def test_tune_takes_the_data_flags_and_tags_its_vectors_with_their_contents(tmp_path,
                                                                            capsys):
    files = _patch(tmp_path)
    with pytest.raises(SystemExit):   # race tuning: the race game has no sponsor table
        tune.main(["--sponsor-data", files["sponsor_data"], "--out", str(tmp_path / "t")])
    assert "automobiles takes no sponsor_data option" in capsys.readouterr().err
    tag = data_tag({"driver_data": files["driver_data"]})
    assert tag.startswith("-data-") and len(tag) == len("-data-") + 8
    assert data_tag({}) == ""
    name = tune.season_market_name({"laps": 1, **files}, 2, "tuned")
    assert name.endswith(data_tag(files)[1:]) and "fix" not in name

