"""The shipped networks (issue 23 items 4 and 6): loadable by name, recording what they were
trained on, refused by another game, and stronger than the rule-based agent they face."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.agents.learned.net_agent import CHECKPOINTS, load_network
from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import cached_game

SHIPPED = ("automobiles", "automobiles_season")


def test_every_shipped_network_file_is_listed_here():
    assert sorted(p.stem for p in CHECKPOINTS.glob("*_net.npz")) == \
        sorted(f"{name}_2p_net" for name in SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_network_records_its_game_options_and_layout(name):
    """Item 6: the spec ``net`` loads the game's network, which names its game, options and
    observation layout."""
    game = cached_game(name, 2, ())
    network = load_network(None, game)
    record = network.record
    assert record.game == name and record.players == 2
    assert record.options == {"num_players": 2}
    assert sum(size for _, size in record.obs_fields) == game.obs_size


def test_a_shipped_network_in_another_game_is_a_usage_error_naming_both():
    season = cached_game("automobiles_season", 2, ())
    path = CHECKPOINTS / "automobiles_2p_net.npz"
    with pytest.raises(ConfigError) as info:
        make_agent(f"net:{path}", season)
    assert "automobiles" in str(info.value) and "automobiles_season" in str(info.value)


def test_shipped_automobiles_network_beats_rule_based_in_seeded_races():
    """Item 4 in small: the network alone wins at least 8 of 10 seeded First Game races
    against the rule-based agent, seats alternated (measured: 200 of 200, docs/learning.md)."""
    game = cached_game("automobiles", 2, ())
    net, rule = make_agent("net", game), make_agent("rule_based", game, seed=1)
    score = 0.0
    for g in range(10):
        seats = (net, rule) if g % 2 == 0 else (rule, net)
        state = game.new_state(1000 + g)
        while (player := game.current_player(state)) >= 0:
            game.apply(state, seats[player].act_state(state, player))
        rewards = game.rewards(state)
        mine = g % 2
        best = rewards.max()
        if rewards[mine] == best:
            score += 1.0 / int(np.sum(rewards == best))
    assert score >= 8
