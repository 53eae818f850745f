"""Behaviour-cloning warm start and the batched training CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.agents.registry import policy_kernel
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.registry import game_class
from transit_gym.training import train
from transit_gym.training.behaviour_cloning import collect, fit
from transit_gym.training.vec_env import SelfPlayVecEnv, policy_logits


@pytest.fixture(scope="module")
def game():
    return game_class("loose_caboose")(num_players=2)


def test_issue13_demonstrations_are_the_rule_based_choices_with_final_rewards(game):
    """Samples are (obs, mask, action) of the rule-based agent; each decision carries
    the final (zero-sum, +-1 shared) reward of its game from the seat."""
    data = collect(game, 600, seed=3, num_envs=16)
    assert len(data) >= 600
    policy, words = policy_kernel(game.name), seeded_words(0, 1)
    for i in range(0, len(data), 37):
        assert data.masks[i, data.actions[i]]
        expected = policy(1, game.params, data.obs[i], data.masks[i].astype(np.int8), words)
        assert data.actions[i] == expected
    assert set(np.unique(data.returns)) <= {-1.0, -0.5, 0.0, 0.5, 1.0}
    with pytest.raises(ConfigError, match="unknown teacher"):
        collect(game, 10, seed=0, teacher="wizard")


def test_issue13_fitting_makes_the_policy_choose_like_the_teacher(game):
    """Cross-entropy on the legal logits moves the greedy choice of the
    policy to the teacher's."""
    from sb3_contrib import MaskablePPO

    model = train.make_model(SelfPlayVecEnv(game, 4, seed=0), 0, n_steps=8, batch_size=64,
                             learning_rate=3e-4, net_arch=(64, 64), scaled=True)
    data = collect(game, 6000, seed=5, num_envs=64)

    def agreement() -> float:
        logits = policy_logits(model.policy, data.obs)
        logits[~data.masks] = -np.inf
        return float((logits.argmax(axis=1) == data.actions).mean())

    before = agreement()
    stats = fit(model.policy, data, epochs=6, batch_size=256, learning_rate=3e-3)
    assert stats["agreement"] == pytest.approx(agreement(), abs=1e-4)
    assert stats["agreement"] > before + 0.2
    assert isinstance(model, MaskablePPO)


def test_issue13_cli_warm_starts_evaluates_checkpoints_and_resumes(tmp_path, capsys):
    """Evaluation lines with win rates vs random and rule_based, a
    checkpoint at each evaluation, and --resume continuing to the step budget."""
    out = tmp_path / "lc"
    report = train.main(["--game", "loose_caboose", "--steps", "2048", "--envs", "16",
                         "--n-steps", "512", "--batch-size", "256", "--bc-steps", "500",
                         "--eval-every", "1024", "--eval-games", "20", "--self-play", "1024",
                         "--out", str(out), "--no-progress"])
    printed = capsys.readouterr().out
    assert printed.count("eval steps=") == 2 and "vs_rule_based=" in printed
    assert report["behaviour_cloning"]["samples"] >= 500
    assert report["snapshots"] == 2
    assert [row["steps"] for row in report["history"]] == [1024, 2048]
    assert (tmp_path / "lc_last.zip").exists() and (tmp_path / "lc.zip").exists()
    assert json.loads((tmp_path / "lc.json").read_text())["evaluation"] == report["evaluation"]
    resumed = train.main(["--game", "loose_caboose", "--steps", "3072", "--envs", "16",
                          "--n-steps", "512", "--batch-size", "256", "--eval-games", "20",
                          "--resume", str(tmp_path / "lc_last.zip"), "--out",
                          str(tmp_path / "again"), "--no-progress"])
    from sb3_contrib import MaskablePPO

    assert MaskablePPO.load(resumed["checkpoint"]).num_timesteps == 3072


def test_issue13_same_seed_same_trained_weights(tmp_path):
    """``--seed`` reproduces a run (warm start, snapshots, PPO updates)."""
    import torch
    from sb3_contrib import MaskablePPO

    def run(name: str) -> dict:
        train.main(["--game", "loose_caboose", "--steps", "1024", "--envs", "8", "--n-steps",
                    "256", "--batch-size", "128", "--bc-steps", "300", "--self-play", "512",
                    "--eval-games", "10", "--seed", "4", "--out", str(tmp_path / name),
                    "--no-progress"])
        return MaskablePPO.load(str(tmp_path / name)).policy.state_dict()

    first, again = run("a"), run("b")
    assert first.keys() == again.keys()
    assert all(torch.equal(first[key], again[key]) for key in first)
