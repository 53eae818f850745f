"""Expert iteration: seeded, resumable, the same on any backend."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.agents.learned.network import Network
from transit_gym.training import exit as exit_training

pytest.importorskip("torch")

TINY = ["--game", "loose_caboose", "--games", "3", "--simulations", "6", "--hidden", "8",
        "--eval-games", "2", "--eval-vs", "random", "--seed", "4", "--no-progress"]


def _run(out, iterations: int, *extra: str) -> int:
    return exit_training.main([*TINY, "--iterations", str(iterations), "--out", str(out),
                               *extra])


def _weights(out, iteration: int) -> np.ndarray:
    return Network.load(out / f"net_{iteration:03d}.npz").weights


def test_same_seed_same_network_on_one_worker_and_a_pool(tmp_path):
    assert _run(tmp_path / "a", 2, "--workers", "1") == 0
    assert _run(tmp_path / "b", 2, "--workers", "2") == 0
    assert np.array_equal(_weights(tmp_path / "a", 1), _weights(tmp_path / "b", 1))
    # the files too, bit for bit: the recipe they record leaves out the worker count
    assert (tmp_path / "a" / "latest.npz").read_bytes() == (
        tmp_path / "b" / "latest.npz").read_bytes()
    log = json.loads((tmp_path / "a" / "run.json").read_text())["log"]
    assert [entry["iteration"] for entry in log] == [0, 1]
    assert all(entry["samples"] > 0 and "net_vs_random" in entry for entry in log)


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path):
    assert _run(tmp_path / "whole", 2, "--workers", "1") == 0
    assert _run(tmp_path / "parts", 1, "--workers", "1") == 0
    assert _run(tmp_path / "parts", 2, "--workers", "1") == 0
    assert np.array_equal(_weights(tmp_path / "whole", 1), _weights(tmp_path / "parts", 1))


def test_a_run_with_other_settings_into_the_same_folder_stops(tmp_path, capsys):
    assert _run(tmp_path / "r", 1, "--workers", "1") == 0
    capsys.readouterr()
    assert _run(tmp_path / "r", 1, "--workers", "1", "--simulations", "7") == 2
    assert "simulations: stored 6, now 7" in capsys.readouterr().err
    # nothing of the refused run was written
    log = json.loads((tmp_path / "r" / "run.json").read_text())
    assert log["settings"]["simulations"] == 6


def test_bad_arguments_are_usage_errors(tmp_path, capsys):
    assert _run(tmp_path / "x", 0) == 2
    assert "--iterations must be >= 1" in capsys.readouterr().err


def test_elo_follows_the_score():
    assert exit_training.elo_from_score(0.5, 100) == pytest.approx(0.0)
    assert exit_training.elo_from_score(0.76, 100) == pytest.approx(200, abs=2)
    assert exit_training.elo_from_score(1.0, 10) < exit_training.elo_from_score(1.0, 100)


def test_improved_policy_moves_mass_to_the_action_the_search_found_better():
    """Gumbel AlphaZero's target: equal priors, action 1 searched to +1 and action 2 to -1:
    the target ranks 1 over 2, puts no mass on the illegal action 0, and sums to 1."""
    from transit_gym.agents.search.net_mcts import NetSearchResult

    result = NetSearchResult(action=1, visits=np.array([0.0, 3.0, 3.0, 0.0]),
                             values=np.array([0.0, 1.0, -1.0, 0.0]), simulations=7,
                             root_logits=np.zeros(4, dtype=np.float32), root_value=0.0)
    mask = np.array([False, True, True, True])
    target = exit_training.improved_policy(result, mask)
    assert target[0] == 0.0
    assert target.sum() == pytest.approx(1.0)
    assert target[1] > target[3] > target[2]


def test_a_teacher_starts_the_run_with_its_own_decisions(tmp_path):
    """Warm start: iteration 0 holds the teacher's games; a non-search
    teacher's targets are its chosen actions (one-hot, legal), and fitting them makes the
    network agree with the teacher more often than the blank network did."""
    from transit_gym.envs.registry import cached_game

    out = tmp_path / "warm"
    assert _run(out, 1, "--workers", "1", "--teacher", "rule_based", "--teacher-games", "12",
                "--teacher-epochs", "30") == 0
    log = json.loads((out / "run.json").read_text())["log"]
    assert [(e["iteration"], e["source"]) for e in log] == [(0, "rule_based"), (1, "self-play")]
    with np.load(out / "samples_000.npz") as data:
        policy, mask, obs = data["policy"], data["mask"], data["obs"]
    assert np.all(policy.max(axis=1) == 1.0) and np.all(mask[policy > 0] == 1)
    game = cached_game("loose_caboose", 2, ())
    blank = Network.initial(game, (8,), seed=4)
    taught = Network.load(out / "net_000.npz")
    chosen = policy.argmax(axis=1)

    def agreement(net: Network) -> float:
        logits = np.where(mask > 0, net.forward_batch(obs)[0], -np.inf)
        return float(np.mean(logits.argmax(axis=1) == chosen))

    assert agreement(taught) > agreement(blank)


def test_a_search_teacher_gives_visit_distributions(tmp_path):
    """A search teacher's target is its root visit distribution over legal actions."""
    out = tmp_path / "search"
    assert _run(out, 1, "--workers", "1", "--teacher", "mcts:16", "--teacher-games", "2",
                "--teacher-epochs", "1") == 0
    with np.load(out / "samples_000.npz") as data:
        policy, mask = data["policy"], data["mask"]
    assert np.allclose(policy.sum(axis=1), 1.0) and np.all(mask[policy > 0] == 1)
    assert np.any(policy.max(axis=1) < 1.0)   # visits spread over several actions


def test_an_unknown_teacher_is_a_usage_error(tmp_path, capsys):
    assert _run(tmp_path / "bad", 1, "--teacher", "grandmaster") == 2
    assert "grandmaster" in capsys.readouterr().err


def test_teacher_only_run_is_the_first_iteration_of_a_longer_one(tmp_path):
    """``--iterations 0`` with a teacher is a distillation: it stops after iteration 0,
    whose weights equal iteration 0 of a longer run with the same seed."""
    teacher = ("--workers", "1", "--teacher", "rule_based", "--teacher-games", "4",
               "--teacher-epochs", "3")
    assert _run(tmp_path / "only", 0, *teacher) == 0
    assert _run(tmp_path / "longer", 1, *teacher) == 0
    log = json.loads((tmp_path / "only" / "run.json").read_text())["log"]
    assert [e["iteration"] for e in log] == [0]
    assert np.array_equal(_weights(tmp_path / "only", 0), _weights(tmp_path / "longer", 0))


def test_a_checkpoint_records_the_recipe_that_made_it(tmp_path):
    """Each checkpoint names its run: the settings that fix the weights (game, options,
    teacher, sizes, seed...) and its iteration; not the worker count or the evaluation."""
    out = tmp_path / "r"
    assert _run(out, 0, "--workers", "1", "--teacher", "rule_based", "--teacher-games", "2",
                "--teacher-epochs", "1") == 0
    record = Network.load(out / "latest.npz").record
    recipe = record.extra["exit"]
    assert record.extra["iteration"] == 0
    assert (recipe["game"], recipe["teacher"], recipe["teacher_games"]) == (
        "loose_caboose", "rule_based", 2)
    assert recipe["hidden"] == [8] and recipe["seed"] == 4 and recipe["options"] == {}
    assert not {"workers", "eval_games", "eval_opponents", "progress"} & set(recipe)


def test_games_are_ordered_by_content_even_when_they_begin_alike():
    """Two games of one length whose first observations and values agree still sort into
    one order from either completion order, so the fit does not depend on the backend."""
    def game(last: float) -> dict[str, np.ndarray]:
        obs = np.zeros((3, 100), dtype=np.float32)
        obs[2, 99] = last
        return {"obs": obs, "mask": np.ones((3, 4), dtype=np.int8),
                "policy": np.full((3, 4), 0.25), "value": np.array([1.0, -1.0, 1.0])}

    first, second = game(0.0), game(1.0)
    one = sorted([first, second], key=exit_training.content_order)
    other = sorted([second, first], key=exit_training.content_order)
    assert [g["obs"][2, 99] for g in one] == [g["obs"][2, 99] for g in other] == [0.0, 1.0]
