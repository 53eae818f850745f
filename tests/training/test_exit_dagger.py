"""DAgger rounds of the expert-iteration trainer: the network plays, the
teacher labels its positions, the union is refitted; seeded, backend-independent,
resumable."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.agents.learned.network import Network
from transit_gym.training import exit as exit_training

pytest.importorskip("torch")

TINY = ["--game", "loose_caboose", "--hidden", "8", "--eval-games", "2", "--eval-vs",
        "random", "--seed", "4", "--no-progress", "--teacher", "rule_based",
        "--teacher-games", "4", "--teacher-epochs", "3"]


def _run(out, *extra: str) -> int:
    return exit_training.main([*TINY, "--out", str(out), *extra])


def _dagger(out, workers: int = 1, rounds: int = 2) -> int:
    return _run(out, "--iterations", "0", "--dagger-rounds", str(rounds), "--dagger-games",
                "3", "--workers", str(workers))


def _weights(out, iteration: int) -> np.ndarray:
    return Network.load(out / f"net_{iteration:03d}.npz").weights


def _samples(out, iteration: int) -> dict[str, np.ndarray]:
    with np.load(out / f"samples_{iteration:03d}.npz") as data:
        return {k: data[k] for k in data.files}


def test_dagger_rounds_label_the_networks_positions_with_the_teachers_choice(tmp_path):
    """Iterations 1..K are DAgger rounds: each target is the teacher's action at that
    position (rule_based reads only the observation and mask, so it can be asked again),
    and each fit takes the teacher's samples and every round so far."""
    from transit_gym.agents.registry import make_agent
    from transit_gym.envs.registry import cached_game

    out = tmp_path / "d"
    assert _dagger(out) == 0
    log = json.loads((out / "run.json").read_text())["log"]
    assert [(e["iteration"], e["source"]) for e in log] == [
        (0, "rule_based"), (1, "dagger:rule_based"), (2, "dagger:rule_based")]
    counts = [len(_samples(out, i)["value"]) for i in range(3)]
    assert [e["buffer"] for e in log] == [counts[0], counts[0] + counts[1], sum(counts)]
    game = cached_game("loose_caboose", 2, ())
    teacher = make_agent("rule_based", game, seed=0)
    for iteration in (1, 2):
        data = _samples(out, iteration)
        assert len(data["value"]) > 0
        assert np.all(data["policy"].max(axis=1) == 1.0)
        assert np.all(data["mask"].sum(axis=1) > 1)   # only real decisions are labelled
        chosen = data["policy"].argmax(axis=1)
        asked = [teacher.act(obs, mask) for obs, mask in zip(data["obs"], data["mask"],
                                                            strict=True)]
        assert np.array_equal(chosen, asked)


def test_the_network_not_the_teacher_plays_the_dagger_games():
    """A round's positions are the network's: replaying the game's seed with the network
    greedy at every seat reaches exactly the labelled observations (the teacher's search
    does not move the game), and a search teacher labels them with its visit distribution."""
    from transit_gym.agents.learned.net_agent import NetAgent
    from transit_gym.envs.registry import cached_game
    from transit_gym.training.exit_dagger import DaggerTask, dagger_game

    game = cached_game("loose_caboose", 2, ())
    net = Network.initial(game, (8,), seed=3)
    seed = 12345
    data = dagger_game(DaggerTask("loose_caboose", 2, (), net.record.to_json(), net.weights,
                                  "mcts:16", seed))
    player, state, seen = NetAgent(game, net), game.new_state(seed), []
    while (seat := game.current_player(state)) >= 0:
        if np.count_nonzero(game.legal_mask(state)) > 1:
            seen.append(game.observe(state, seat).copy())
        game.apply(state, player.act_state(state, seat))
    assert np.array_equal(data["obs"], np.asarray(seen, dtype=np.float32))
    assert np.allclose(data["policy"].sum(axis=1), 1.0)
    assert np.all(data["mask"][data["policy"] > 0] == 1)
    assert np.any(data["policy"].max(axis=1) < 1.0)   # visits spread over several actions


def test_dagger_is_the_same_on_one_worker_and_a_pool(tmp_path):
    assert _dagger(tmp_path / "a", workers=1) == 0
    assert _dagger(tmp_path / "b", workers=2) == 0
    assert np.array_equal(_weights(tmp_path / "a", 2), _weights(tmp_path / "b", 2))


def test_a_run_interrupted_in_a_dagger_round_resumes_to_the_same_weights(tmp_path):
    """Stopping after round 1 (the run folder without its last iteration) and rerunning
    the same command gives the weights of an uninterrupted run."""
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert _dagger(whole) == 0
    assert _dagger(cut) == 0
    meta = json.loads((cut / "run.json").read_text())
    meta["log"] = meta["log"][:2]
    (cut / "run.json").write_text(json.dumps(meta))
    (cut / "net_002.npz").unlink()
    (cut / "samples_002.npz").unlink()
    assert _dagger(cut) == 0
    assert np.array_equal(_weights(whole, 2), _weights(cut, 2))


def test_self_play_follows_the_dagger_rounds(tmp_path):
    out = tmp_path / "s"
    assert _run(out, "--iterations", "1", "--dagger-rounds", "1", "--dagger-games", "2",
                "--games", "2", "--simulations", "4", "--workers", "1") == 0
    log = json.loads((out / "run.json").read_text())["log"]
    assert [e["source"] for e in log] == ["rule_based", "dagger:rule_based", "self-play"]


def test_dagger_without_a_teacher_or_games_is_a_usage_error(tmp_path, capsys):
    assert exit_training.main(["--game", "loose_caboose", "--out", str(tmp_path / "x"),
                               "--dagger-rounds", "2", "--dagger-games", "3"]) == 2
    assert "--dagger-rounds 2 needs --teacher" in capsys.readouterr().err
    assert _run(tmp_path / "y", "--dagger-rounds", "1") == 2
    assert "--dagger-games 0" in capsys.readouterr().err
    assert _run(tmp_path / "z", "--dagger-rounds", "-1") == 2
    assert "--dagger-rounds must be >= 0, got -1" in capsys.readouterr().err


def test_changing_the_dagger_rounds_of_a_run_is_refused(tmp_path, capsys):
    assert _dagger(tmp_path / "r", rounds=1) == 0
    capsys.readouterr()
    assert _dagger(tmp_path / "r", rounds=2) == 2
    assert "dagger_rounds: stored 1, now 2" in capsys.readouterr().err
