"""The shipped checkpoint as the agent spec ``ppo`` (issue 13 item 3)."""

from __future__ import annotations

import pytest

from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import game_class
from transit_gym.training.tournament import run_tournament


def test_issue13_ppo_spec_plays_legal_loose_caboose_games():
    """Issue 13 item 3: ``make_agent("ppo", game)`` loads the shipped checkpoint and plays
    whole games with legal actions (``Game.apply`` checks every action)."""
    game = game_class("loose_caboose")(num_players=2)
    agent = make_agent("ppo", game)
    for stream in range(3):
        state = game.new_state(5, stream=stream)
        while (player := game.current_player(state)) >= 0:
            game.apply(state, agent.act_state(state, player))
        assert abs(float(game.rewards(state).sum())) < 1e-6


def test_issue13_ppo_spec_in_the_tournament():
    """Issue 13 item 3: ``training.tournament --agents ppo`` takes the spec."""
    report = run_tournament("loose_caboose", 2, ["ppo", "random"], 4, seed=1, workers=1,
                            progress=False)
    assert set(report["elo"]) == {"ppo", "random"}


def test_ppo_spec_refuses_a_game_or_player_count_without_a_checkpoint():
    """A clear error names the game and how to train a checkpoint for it."""
    with pytest.raises(ConfigError, match="make train GAME=automobile"):
        make_agent("ppo", game_class("automobile")(num_players=3))
    with pytest.raises(ConfigError, match="trained for 2 players, not 3"):
        make_agent("ppo", game_class("loose_caboose")(num_players=3))
