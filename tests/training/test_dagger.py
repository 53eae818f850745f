"""The search agent as teacher, and DAgger rounds (trained policies that
beat the rule-based agents, distilled from the search agent of docs/search.md)."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.agents.search.mcts import MCTSAgent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import State
from transit_gym.envs.registry import game_class
from transit_gym.training import train
from transit_gym.training.behaviour_cloning import collect, decision_seed, greedy_actions
from transit_gym.training.vec_env import SelfPlayBatch, SelfPlayVecEnv

OPPONENTS = ("random", "rule_based")


@pytest.fixture(scope="module")
def game():
    return game_class("loose_caboose")(num_players=2)


@pytest.fixture(scope="module")
def search_data(game):
    return collect(game, 80, seed=7, teacher="mcts:8", num_envs=4, keep_states=True)


def test_issue13_search_teacher_labels_are_mcts_agent_choices(game, search_data):
    """Every label is the choice of
    ``MCTSAgent(seed=decision_seed(seed, row))`` with the teacher's budget from the
    learner's state, which is the state behind the recorded observation and mask."""
    data = search_data
    assert len(data) >= 80
    agent = MCTSAgent(game, simulations=8, seed=0)
    for i in range(len(data)):
        state = State(game, data.states[i].copy())
        seat = int(data.seats[i])
        assert np.array_equal(game.observe(state, seat), data.obs[i])
        assert np.array_equal(game.legal_mask(state).astype(bool), data.masks[i])
        agent.reset(decision_seed(7, int(data.rows[i])))
        assert agent.act_state(state, seat) == data.actions[i]


def test_issue13_search_teacher_same_seed_same_data(game, search_data):
    """Same seed, same data (common rules); another seed gives other games."""
    again = collect(game, 80, seed=7, teacher="mcts:8", num_envs=4, keep_states=True)
    for name in ("obs", "masks", "actions", "returns", "states", "rows"):
        assert np.array_equal(getattr(search_data, name), getattr(again, name)), name
    other = collect(game, 80, seed=8, teacher="mcts:8", num_envs=4)
    assert len(other) != len(again) or not np.array_equal(other.obs, again.obs)


def test_issue13_dagger_round_plays_the_actors_choices(game):
    """With an ``actor`` the learner's moves are the actor's
    greedy choices, the labels stay the teacher's. Replaying the same batch with the actor's
    choices meets every recorded decision; the untrained actor disagrees with the teacher on
    some of them, so playing the labels instead would not replay."""
    model = train.make_model(SelfPlayVecEnv(game, 2, seed=0), 0, n_steps=8, batch_size=8,
                             learning_rate=3e-4, net_arch=(16,), scaled=True)
    data = collect(game, 60, seed=5, teacher="mcts:8", num_envs=3, actor=model.policy,
                   keep_states=True)
    chosen = greedy_actions(model.policy, data.obs, data.masks.astype(np.int8))
    assert (chosen != data.actions).any()
    batch = SelfPlayBatch(game, 3, OPPONENTS, seed=5)
    rows = {int(r): i for i, r in enumerate(data.rows)}
    step, met = 0, 0
    while met < len(data):
        for b in range(3):
            i = rows.get(step * 3 + b)
            if i is not None:
                assert np.array_equal(batch.states[b], data.states[i])
                met += 1
        batch.step(greedy_actions(model.policy, batch.obs, batch.masks))
        step += 1


def test_issue13_bad_teacher_is_a_config_error(game):
    """Bad input gets a clear error naming the value (common rules)."""
    for bad in ("wizard", "mcts:0", "mcts:x", "mcts:10:greedy"):
        with pytest.raises(ConfigError, match="teacher|search agent spec"):
            collect(game, 10, seed=0, teacher=bad)
        with pytest.raises(ConfigError):
            train.main(["--game", "loose_caboose", "--bc-steps", "10", "--teacher", bad])
    with pytest.raises(ConfigError, match="--bc-steps"):
        train.main(["--game", "loose_caboose", "--teacher", "mcts"])
    with pytest.raises(ConfigError, match="keep_states"):
        collect(game, 10, seed=0, keep_states=True)


def test_issue13_cli_dagger_rounds_print_a_line_each_and_aggregate(tmp_path, capsys):
    """``--teacher mcts:N --dagger-rounds K`` prints one line per round
    (samples, agreement, seconds, win rates vs rule_based and random), the data sets grow
    round by round, a checkpoint is saved per round, and ``--steps 0`` saves the cloned
    policy without PPO."""
    report = train.main(["--game", "loose_caboose", "--steps", "0", "--bc-steps", "60",
                         "--teacher", "mcts:4", "--dagger-rounds", "1", "--collect-envs", "4",
                         "--round-eval-games", "8", "--eval-games", "8", "--net", "16",
                         "--out", str(tmp_path / "d"), "--no-progress"])
    lines = [line for line in capsys.readouterr().out.splitlines()
             if line.startswith("dagger ")]
    assert len(lines) == 2
    assert all("agreement=" in line and "vs_rule_based=" in line and "vs_random=" in line
               for line in lines)
    first, second = report["behaviour_cloning"]["rounds"]
    assert second["samples"] == first["samples"] + second["new_samples"]
    assert report["steps"] == 0 and (tmp_path / "d.zip").exists()
    assert (tmp_path / "d_round0.zip").exists() and (tmp_path / "d_round1.json").exists()


def test_issue13_seated_rounds_use_the_tournaments_alternate_seats(game):
    """DAgger measured by ``training.tournament`` (seats alternate A, B, A, ...,
    A first in even games): seated DAgger data puts the policy in those seats, so with
    three players it also meets a copy of itself; same seed, same data."""
    from transit_gym.training.seated_collect import collect_seated, seating

    assert seating(3, True) == [True, False, True]
    assert seating(3, False) == [False, True, False]
    assert seating(2, False) == [False, True]
    three = game_class("loose_caboose")(num_players=3)
    model = train.make_model(SelfPlayVecEnv(three, 2, seed=0), 0, n_steps=8, batch_size=8,
                             learning_rate=3e-4, net_arch=(16,), scaled=True, hint=three)
    data = collect_seated(three, model.policy, 40, seed=2, teacher="mcts:4")
    again = collect_seated(three, model.policy, 40, seed=2, teacher="mcts:4")
    assert len(data) >= 40 and np.array_equal(data.actions, again.actions)
    assert np.array_equal(data.obs, again.obs)
    assert all(data.masks[i, data.actions[i]] for i in range(len(data)))
    with pytest.raises(ConfigError, match="search agent"):
        collect_seated(three, model.policy, 10, seed=0, teacher="rule_based")
