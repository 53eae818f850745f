"""Training on a single-agent view with opponents inside the env (Training)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.agents.base import Agent
from transit_gym.envs.core.errors import ConfigError, IllegalActionError
from transit_gym.envs.registry import available_games, env_module
from transit_gym.training import train
from transit_gym.training.single_agent import OpponentPool, SingleAgentEnv, build_pool


class Recorder(Agent):
    """Plays the lowest legal action and counts its decisions."""

    def __init__(self):
        self.calls = 0

    def act(self, observation, action_mask):
        self.calls += 1
        return int(np.flatnonzero(action_mask)[0])


def test_learner_only_sees_its_own_decisions_and_the_terminal_reward():
    """No interleaving: every step of the view is a decision of the learner's seat."""
    game = env_module("loose_caboose").Game(num_players=3)
    opponent = Recorder()
    env = SingleAgentEnv(game, OpponentPool([opponent]), learner_seat=1, seed=5)
    obs, info = env.reset()
    assert info["seat"] == 1
    rewards, steps = [], 0
    while True:
        assert game.current_player(env.state) == 1
        mask = env.action_masks()
        assert obs.shape == (game.obs_size,) and mask.any()
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[-1]))
        rewards.append(reward)
        steps += 1
        if terminated:
            break
    assert all(r == 0.0 for r in rewards[:-1])
    assert rewards[-1] == pytest.approx(float(game.rewards(env.state)[1]))
    assert opponent.calls > 0 and steps > 0


def test_illegal_learner_actions_raise_and_bad_seats_are_rejected():
    game = env_module("loose_caboose").Game(num_players=2)
    env = SingleAgentEnv(game, build_pool(game, ["random"]), seed=1)
    env.reset()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError, match=str(illegal)):
        env.step(illegal)
    with pytest.raises(ConfigError, match="learner_seat"):
        SingleAgentEnv(game, build_pool(game, ["random"]), learner_seat=5)
    with pytest.raises(ConfigError, match="at least one"):
        OpponentPool([])


def test_snapshots_join_the_pool_and_the_oldest_leave():
    game = env_module("loose_caboose").Game(num_players=2)
    pool = build_pool(game, ["random", "rule_based"])
    pool.max_size = 4
    for _ in range(5):
        pool.add(Recorder())
        assert len(pool.agents) <= 4
    assert pool.agents[0].name == "random" and pool.agents[1].name == "rule_based"


@pytest.mark.parametrize("name", available_games())
def test_training_cli_trains_saves_and_evaluates(name, tmp_path):
    """Smoke test: a few thousand steps of MaskablePPO through the CLI on every game."""
    out = tmp_path / f"{name}_ppo"
    report = train.main(["--game", name, "--steps", "1024", "--envs", "2", "--n-steps", "256",
                         "--batch-size", "64", "--eval-games", "4", "--self-play", "512",
                         "--out", str(out)])
    assert (tmp_path / f"{name}_ppo.zip").exists()
    saved = json.loads((tmp_path / f"{name}_ppo.json").read_text())
    assert saved["evaluation"] == report["evaluation"]
    assert set(report["evaluation"]) == {"random", "rule_based"}
    assert report["snapshots"] >= 1
    for result in report["evaluation"].values():
        assert 0.0 <= result["win_rate"] <= 1.0 and result["games"] == 4


def test_training_cli_rejects_bad_options():
    with pytest.raises(SystemExit):
        train.main(["--game", "loose_caboose", "--steps", "0"])
    with pytest.raises(ConfigError, match="key=value"):
        train.parse_options(["geometry"])
    assert train.parse_options(["geometry=false", "reward=score"]) == {
        "geometry": False, "reward": "score"}
