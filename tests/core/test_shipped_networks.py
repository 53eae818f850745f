"""The shipped networks: loadable by name, recording what they were
trained on, refused by another game, and stronger than the rule-based agent they face."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.agents.learned.net_agent import CHECKPOINTS, load_network
from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import cached_game, options_key
from transit_gym.training.generalist import HELD_OUT_SETS, TRAINING_BOARDS, training_options

SHIPPED = ("automobiles", "automobiles_season")
#: shipped networks by name (spec ``net:NAME``): game, players, name
NAMED = (("automobiles", 2, "generalist"), ("automobiles", 3, "generalist"))


def test_every_shipped_network_file_is_listed_here():
    assert sorted(p.stem for p in CHECKPOINTS.glob("*_net.npz")) == sorted(
        [f"{name}_2p_net" for name in SHIPPED]
        + [f"{game}_{players}p_{name}_net" for game, players, name in NAMED])


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


def _score(game, first, second, seeds) -> float:
    """``first``'s wins (shared wins split) over ``seeds``, seats alternated."""
    score = 0.0
    for g, seed in enumerate(seeds):
        seats = (first, second) if g % 2 == 0 else (second, first)
        state = game.new_state(seed)
        while (player := game.current_player(state)) >= 0:
            game.apply(state, seats[player].act_state(state, player))
        rewards = game.rewards(state)
        best = rewards.max()
        if rewards[g % 2] == best:
            score += 1.0 / int(np.sum(rewards == best))
    return score


@pytest.mark.parametrize(("name", "players", "network"), NAMED)
def test_named_network_records_its_training_options(name, players, network):
    """Item 5: ``net:generalist`` loads the shipped generalist, which records the random
    markets, four boards and driver modes it was trained on, with the held-out sets."""
    game = cached_game(name, players, options_key(training_options()))
    record = make_agent(f"net:{network}", game).network.record
    assert record.game == name and record.players == players
    assert record.options == {"num_players": players, **training_options()}
    assert "tucson" not in record.options["track"]
    assert sum(size for _, size in record.obs_fields) == game.obs_size
    with pytest.raises(ConfigError, match="'nosuch'"):
        make_agent("net:nosuch", game)


def test_generalist_beats_rule_based_on_a_held_out_market():
    """Item 5 in small: on a suggested set it never saw in training (Expert Invitational,
    on the training boards), the generalist alone wins at least 7 of 10 seeded races
    against the rule-based agent, seats alternated (docs/learning.md has 200 games)."""
    options = {"card_set": HELD_OUT_SETS[0], "track": list(TRAINING_BOARDS),
               "drivers": "random"}
    game = cached_game("automobiles", 2, options_key(options))
    net, rule = make_agent("net:generalist", game), make_agent("rule_based", game, seed=1)
    assert _score(game, net, rule, range(2000, 2010)) >= 7
