"""TensorBoard was in no extra, the bar overshot
(``114,688/100,000 steps, eta -1s``), ``--bc-steps 2000`` collected 11,295 decisions,
there was no ``--device``, and a 0%-against-random evaluation gave no hint."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from transit_gym.agents.learned.ppo import read_metadata
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import game_class
from transit_gym.training import train
from transit_gym.training.behaviour_cloning import collect

ROOT = Path(__file__).resolve().parents[2]


def test_tensorboard_is_in_the_train_extra():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert any(re.match(r"tensorboard\b", dep) for dep in extras["train"])


def test_bc_steps_collects_exactly_what_it_says():
    """2000 asked, 2000 collected (the 256 batched games all end at about the same step,
    so whole games gave 11,295 before): a random, seeded choice among the finished games'
    decisions, the same for the same seed."""
    game = game_class("loose_caboose")(num_players=2)
    data = collect(game, 2000, seed=1, num_envs=256)
    assert len(data) == 2000 and len(data.obs) == len(data.masks) == len(data.returns) == 2000
    again = collect(game, 2000, seed=1, num_envs=256)
    assert (again.actions == data.actions).all() and (again.obs == data.obs).all()
    assert all(data.masks[i, data.actions[i]] for i in range(0, 2000, 7))


def test_the_training_bar_stops_at_the_target():
    """PPO's last rollout ends past ``--steps``: the bar shows the target, not beyond."""
    bar = train.Progress(100_000, start=0, enabled=True)
    bar.update(50_000)
    bar.update(114_688, force=True)
    assert bar.bar.n == 100_000 and bar.bar.total == 100_000
    bar.close()


def test_device_cuda_without_cuda_is_a_usage_error(capsys):
    import torch

    assert train.resolve_device("cpu") == "cpu"
    assert train.resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    with pytest.raises(ConfigError, match="--device must be cpu, cuda or auto"):
        train.resolve_device("tpu")
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA: the refusal cannot be shown here")
    with pytest.raises(SystemExit) as stop:
        train.main(["--game", "loose_caboose", "--steps", "100", "--device", "cuda"])
    assert stop.value.code == 2
    assert "--device cuda: torch sees no CUDA device" in capsys.readouterr().err


def test_zero_wins_against_random_come_with_a_hint():
    zero = {"random": {"win_rate": 0.0, "mean_reward": -1.0, "games": 40},
            "rule_based": {"win_rate": 0.0, "mean_reward": -1.0, "games": 40}}
    hint = train.zero_win_hint(zero)
    assert hint is not None
    for cause in ("too few steps", "wrong seat", "sign", "masks"):
        assert cause in hint
    assert train.zero_win_hint({**zero, "random": {**zero["random"], "win_rate": 0.1}}) is None


def test_a_tiny_training_run(tmp_path, capfd, monkeypatch):
    """One small run: the bar ends at --steps, the cloning data has exactly --bc-steps
    decisions, TensorBoard logs are written, the checkpoint zip carries its metadata, the
    report names the device, and a 0% evaluation prints the hint."""
    real = train.evaluate_batched

    def losing(*args, **kwargs):          # as if the policy never won against random
        result = real(*args, **kwargs)
        result["random"]["win_rate"] = 0.0
        return result

    monkeypatch.setattr(train, "evaluate_batched", losing)
    out = tmp_path / "tiny"
    report = train.train("loose_caboose", 2, 300, ["random"], 0, out, seed=0, n_envs=2,
                         eval_games=4, options={}, n_steps=256, batch_size=64, bc_steps=150,
                         device="auto")
    err = capfd.readouterr().err
    assert report["behaviour_cloning"]["samples"] == 150
    assert re.search(r"\b300/300\b", err) and "512/300" not in err
    assert "hint: 0% against random" in err
    assert report["device"] in ("cpu", "cuda")
    assert list((tmp_path / "tensorboard").rglob("events.out.tfevents.*"))
    out.with_suffix(".json").unlink()      # the zip alone still says what it is for
    meta = read_metadata(out.with_suffix(".zip"))
    assert meta["game"] == "loose_caboose" and meta["players"] == 2
    assert meta["observation"]["obs_size"] == game_class("loose_caboose")(2).obs_size
    assert json.loads(json.dumps(meta)) == meta
