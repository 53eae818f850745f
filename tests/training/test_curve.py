"""``transit-gym learning-curve`` (``training/curve.py``): MaskablePPO from scratch with and
without reward shaping, scored at evenly spaced step counts with Wilson intervals; every
point, seed and the recipe recorded; finished runs kept; the folder keeps its settings."""

from __future__ import annotations

import json
import zipfile

import pytest

from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.curve import main, marks
from transit_gym.training.runs.folder import SettingsMismatchError

SMALL = ["--game", "loose_caboose", "--steps", "256", "--points", "2", "--eval-games", "6",
         "--envs", "4", "--n-steps", "32", "--batch-size", "64", "--no-progress"]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("curve")
    return out, main([*SMALL, "--out", str(out)])


def test_marks_are_evenly_spaced_and_end_at_the_steps():
    assert marks(1000, 4) == [250, 500, 750, 1000]
    assert marks(3, 5) == [1, 2, 3]
    with pytest.raises(ConfigError, match="--steps and --points must be positive"):
        marks(100, 0)


def test_every_point_has_steps_seconds_and_a_wilson_interval_per_opponent(made):
    out, result = made
    stored = json.loads((out / "curve.json").read_text())
    assert stored["runs"].keys() == {"off", "on"}
    assert stored["runs"]["off"]["reward_shaping"] is None
    assert stored["runs"]["on"]["reward_shaping"] == "score"
    for run in stored["runs"].values():
        steps = [p["steps"] for p in run["points"]]
        assert steps[0] == 0 and len(steps) == 3 and steps == sorted(steps) and steps[-1] >= 256
        for point in run["points"]:
            assert point["wall_seconds"] >= point["train_seconds"] >= 0
            for kind in ("random", "rule_based"):
                row = point[kind]
                assert row["games"] == 6 and row["score"] == pytest.approx(row["wins"] / 6)
                assert row["low"] <= row["score"] <= row["high"]
                assert row["high"] - row["low"] > 0.2   # 6 games: a wide interval
    assert stored["seeds"] == {"model_and_env": 0, "evaluation": 20_000}
    assert stored["command"].startswith("transit-gym learning-curve --game loose_caboose")
    assert stored["recipe"]["n_steps"] == 32 and stored["recipe"]["net"] == [64, 64]
    assert (out / "curve.png").read_bytes()[:4] == b"\x89PNG"
    page = (out / "curve.md").read_text()
    assert "![learning curve](curve.png)" in page and stored["command"] in page


def test_each_checkpoint_names_its_game_options_and_recipe(made):
    out, _ = made
    for name, shaping in (("off", None), ("on", "score")):
        with zipfile.ZipFile(out / f"{name}.zip") as archive:
            recipe = json.loads(archive.read("recipe.json"))
            names = archive.namelist()
        assert recipe["game"] == "loose_caboose" and recipe["players"] == 2
        assert recipe["reward_shaping"] == shaping and recipe["run"] == name
        assert recipe["recipe"]["batch_size"] == 64 and "options" in recipe
        assert "transit_gym.json" in names   # the game and options, checked before play


def test_a_finished_run_is_kept_and_other_settings_are_refused(made):
    out, result = made
    before = (out / "off.zip").stat().st_mtime_ns
    again = main([*SMALL, "--shaping", "off", "--out", str(out)])
    assert (out / "off.zip").stat().st_mtime_ns == before
    assert again["runs"] == result["runs"]
    with pytest.raises(SettingsMismatchError, match="seed"):
        main([*SMALL, "--seed", "5", "--out", str(out)])


@pytest.mark.parametrize("flags, message", [
    (["--option", "reward_shaping=score"], "--shaping"),
    (["--coefficient", "-1"], "--coefficient must be"),
    (["--envs", "0"], "--envs must be positive"),
    (["--net", "64,x"], "--net takes"),
])
def test_bad_input_is_refused_before_training(tmp_path, capsys, flags, message):
    with pytest.raises((ConfigError, SystemExit)) as caught:
        main([*SMALL, *flags, "--out", str(tmp_path / "c")])
    shown = str(caught.value) if caught.type is not SystemExit else capsys.readouterr().err
    assert message in shown
    assert not (tmp_path / "c" / "curve.json").exists()


def test_the_docs_table_is_the_shipped_curves():
    """docs/training.md's "Learning from scratch" table has a row for every shipped curve,
    and each row's last point is the one in that folder's curve.json (players, steps,
    training seconds, score and interval)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "training.md").read_text(encoding="utf-8")
    folders = {("Loose Caboose!", "small"): "loose_caboose",
               ("Loose Caboose!", "large"): "loose_caboose_long",
               ("Automobiles", "small"): "automobiles",
               ("Automobiles", "large"): "automobiles_long",
               ("Planes", "small"): "planes",
               ("Automobile (3 players)", "small"): "automobile",
               ("Racing Season", "small"): "automobiles_season",
               ("Racing Season", "large"): "automobiles_season_long"}
    games = "|".join(sorted({re.escape(game) for game, _ in folders}))
    rows = re.findall(rf"^\| ({games}) \| (small|large) \| (off|on) \| "
                      r"([\d,]+) \| (\d+) \| (.+?) \| (.+?) \|$", text, flags=re.M)
    assert {(game, recipe) for game, recipe, *_ in rows} == set(folders)
    for game, recipe, name, steps, seconds, *scores in rows:
        curve = json.loads((root / "docs" / "reports" / "curves" / folders[game, recipe]
                            / "curve.json").read_text())
        players = re.search(r"\((\d) players\)", game)
        assert curve["players"] == (int(players.group(1)) if players else 2), game
        last = curve["runs"][name]["points"][-1]
        assert int(steps.replace(",", "")) == last["steps"]
        assert int(seconds) == round(last["train_seconds"])
        for kind, cell in zip(("random", "rule_based"), scores, strict=True):
            shown = [float(x) for x in re.findall(r"[\d.]+", cell)]
            want = [100 * last[kind][key] for key in ("score", "low", "high")]
            assert shown == pytest.approx(want, abs=0.051), (game, recipe, name, kind)
