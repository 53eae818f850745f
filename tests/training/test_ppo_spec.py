"""The shipped checkpoints as the agent spec ``ppo``."""

from __future__ import annotations

import json

import pytest

from transit_gym.agents.learned.ppo import CHECKPOINTS
from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import game_class
from transit_gym.training.tournament import run_tournament

#: (game, players) of every shipped checkpoint, from its training report
SHIPPED = sorted((path.stem.removesuffix("_ppo"), json.loads(path.read_text())["players"])
                 for path in CHECKPOINTS.glob("*_ppo.json"))


def test_issue13_every_shipped_checkpoint_has_its_report():
    """A checkpoint ships with its training report (players, recipe)."""
    zips = sorted(path.stem.removesuffix("_ppo") for path in CHECKPOINTS.glob("*_ppo.zip"))
    assert zips == [name for name, _ in SHIPPED]
    assert "loose_caboose" in zips


@pytest.mark.parametrize(("name", "players"), SHIPPED)
def test_issue13_ppo_spec_plays_legal_games(name, players):
    """``make_agent("ppo", game)`` loads the game's shipped checkpoint and
    plays whole games in every seat with legal actions (``Game.apply`` checks each)."""
    game = game_class(name)(num_players=players)
    agent = make_agent("ppo", game)
    for stream in range(2):
        state = game.new_state(5, stream=stream)
        while (player := game.current_player(state)) >= 0:
            game.apply(state, agent.act_state(state, player))
        assert game.rewards(state).shape == (players,)


def test_issue13_ppo_spec_in_the_tournament():
    """``training.tournament --agents ppo`` takes the spec."""
    report = run_tournament("loose_caboose", 2, ["ppo", "random"], 4, seed=1, workers=1,
                            progress=False)
    assert set(report["elo"]) == {"ppo", "random"}


def test_ppo_spec_refuses_a_game_or_player_count_without_a_checkpoint():
    """A clear error names the game and how to train a checkpoint for it."""
    shipped = {name for name, _ in SHIPPED}
    missing = [name for name in ("planes", "automobiles", "automobile") if name not in shipped]
    if missing:
        players = game_class(missing[0]).min_players
        with pytest.raises(ConfigError, match=f"make train GAME={missing[0]}"):
            make_agent("ppo", game_class(missing[0])(num_players=players))
    with pytest.raises(ConfigError, match="trained for 2 players, not 3"):
        make_agent("ppo", game_class("loose_caboose")(num_players=3))
