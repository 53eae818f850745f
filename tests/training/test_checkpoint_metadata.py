"""A checkpoint did not record its game, so a Loose Caboose! checkpoint
in an Automobiles tournament ended in a 52-line worker traceback. Checkpoints now record
game, options and observation layout (inside the zip; the shipped ones in their JSON
report), and tournaments, ``play`` and ``replay`` check them before any game: a usage error
(exit status 2) naming both games."""

from __future__ import annotations

import io
import json
import shutil
import zipfile

import pytest

from transit_gym.agents.learned.ppo import (
    CHECKPOINTS,
    METADATA_NAME,
    CheckpointMismatchError,
    check_checkpoint,
    checkpoint_metadata,
    read_metadata,
)
from transit_gym.envs.registry import game_class
from transit_gym.training import play, replay, tournament

CABOOSE = CHECKPOINTS / "loose_caboose_ppo.zip"


@pytest.mark.parametrize("report", sorted(CHECKPOINTS.glob("*_ppo.json")), ids=lambda p: p.stem)
def test_every_shipped_checkpoint_records_its_layout_and_passes_its_own_check(report):
    data = json.loads(report.read_text())
    game = game_class(data["game"])(num_players=data["players"], **data["options"])
    meta = read_metadata(report.with_suffix(".zip"))
    assert meta is not None and meta["game"] == game.name
    assert meta["observation"] == checkpoint_metadata(game)["observation"]
    assert sum(size for _, size in meta["observation"]["fields"]) == game.obs_size
    check_checkpoint(report.with_suffix(".zip"), game)


def test_a_caboose_checkpoint_in_an_automobiles_tournament_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        tournament.main(["--game", "automobiles", "--agents", "random", str(CABOOSE),
                         "--games", "2", "--quiet", "--workers", "1"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]          # argparse: usage lines, then the error
    assert "error: checkpoint" in last and "Traceback" not in err
    assert "trained for loose_caboose (2 players), not for automobiles (2 players)" in last


def test_play_and_replay_refuse_a_checkpoint_of_another_game_before_any_game(tmp_path,
                                                                             capsys):
    out = io.StringIO()
    assert play.main(["--game", "planes", "--vs", str(CABOOSE), "--seed", "1"],
                     io.StringIO(""), out) == 2
    err = capsys.readouterr().err
    assert "loose_caboose" in err and "planes" in err
    assert out.getvalue() == ""                 # no table was drawn: no game started
    picture = tmp_path / "x.png"
    assert replay.main(["--game", "automobiles", "--agents", str(CABOOSE),
                        "--out", str(picture)]) == 2
    err = capsys.readouterr().err
    assert "loose_caboose" in err and "automobiles" in err
    assert not picture.exists()


def test_a_checkpoint_plays_its_own_game_in_play_and_tournament(tmp_path):
    report = tournament.run_tournament("loose_caboose", 2, ["random", str(CABOOSE)], 4,
                                       seed=1, workers=1, progress=False)
    assert set(report["elo"]) == {"random", str(CABOOSE)}
    out = io.StringIO()
    assert play.main(["--game", "loose_caboose", "--vs", str(CABOOSE), "--seed", "1"],
                     io.StringIO("q\n"), out) == 0


def test_a_layout_change_within_one_game_is_named(tmp_path):
    """Same game, another observation layout (as options or a new version could make):
    refused, naming what differs."""
    copy = tmp_path / "old.zip"
    shutil.copy(CABOOSE, copy)
    game = game_class("loose_caboose")(num_players=2)
    meta = checkpoint_metadata(game)
    meta["observation"]["fields"][0][1] += 1
    meta["observation"]["obs_size"] += 1
    meta["observation"]["layout_sha256"] = "0" * 64
    with zipfile.ZipFile(copy, "a") as archive:
        archive.writestr(METADATA_NAME, json.dumps(meta))
    with pytest.raises(CheckpointMismatchError, match="obs_size 112 vs 111"):
        check_checkpoint(copy, game)


def test_a_checkpoint_without_metadata_is_checked_by_its_shapes(tmp_path):
    copy = tmp_path / "bare.zip"
    shutil.copy(CABOOSE, copy)            # no JSON report beside it, nothing in the zip
    assert read_metadata(copy) is None
    check_checkpoint(copy, game_class("loose_caboose")(num_players=2))
    with pytest.raises(CheckpointMismatchError, match="no game recorded"):
        check_checkpoint(copy, game_class("planes")(num_players=2))


def test_a_balance_sweep_checks_its_checkpoint_agents_before_any_game(tmp_path, capsys):
    from transit_gym.benchmarks.balance import sweep as balance

    with pytest.raises(SystemExit) as stop:
        balance.main(["planes", "--agents", f"rule_based,{CABOOSE}", "--games", "2",
                      "--quiet", "--no-plots", "--workers", "1", "--out", str(tmp_path)])
    assert stop.value.code == 2
    assert "trained for loose_caboose (2 players), not for planes" in capsys.readouterr().err
    assert not (tmp_path / "games.csv").exists()
