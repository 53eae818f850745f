"""The shipped networks: loadable by name, recording what they were
trained on (and, for a Makefile recipe, that recipe), playing legal games alone and with
their search, refused by another game, and stronger than the rule-based agent they face."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from tests.core.stepped import play_stepped
from transit_gym.agents.learned.net_agent import CHECKPOINTS, load_network
from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import cached_game, options_key
from transit_gym.training.generalist import HELD_OUT_SETS, TRAINING_BOARDS, training_options

#: shipped default networks (spec ``net``): game, players
SHIPPED = (("automobiles", 2), ("automobiles_season", 2), ("loose_caboose", 2),
           ("automobile", 3))
#: shipped networks whose file records the Makefile recipe (``EXIT_ARGS_<game>``) made it
RECIPES = (("loose_caboose", 2), ("automobile", 3))
MAKEFILE = Path(__file__).resolve().parents[2] / "Makefile"
#: shipped networks by name (spec ``net:NAME``): game, players, name
NAMED = (("automobiles", 2, "generalist"), ("automobiles", 3, "generalist"))


def test_every_shipped_network_file_is_listed_here():
    assert sorted(p.stem for p in CHECKPOINTS.glob("*_net.npz")) == sorted(
        [f"{name}_{players}p_net" for name, players in SHIPPED]
        + [f"{game}_{players}p_{name}_net" for game, players, name in NAMED])


@pytest.mark.parametrize(("name", "players"), SHIPPED)
def test_shipped_network_records_its_game_options_and_layout(name, players):
    """Item 6: the spec ``net`` loads the game's network, which names its game, options and
    observation layout."""
    game = cached_game(name, players, ())
    network = load_network(None, game)
    record = network.record
    assert record.game == name and record.players == players
    assert record.options == {"num_players": players}
    assert sum(size for _, size in record.obs_fields) == game.obs_size


@pytest.mark.parametrize(("name", "players"), SHIPPED)
@pytest.mark.parametrize("spec", ["net", "net_mcts:8"])
def test_shipped_network_plays_a_legal_game_alone_and_with_its_search(name, players, spec):
    """``net`` and ``net_mcts`` resolve to the game's shipped network and play a seeded game
    to its end, every action legal."""
    game = cached_game(name, players, ())
    agent = make_agent(spec, game, seed=3)

    def choose(state, seat: int, obs: np.ndarray, mask: np.ndarray) -> int:
        action = agent.act_state(state, seat)
        assert mask[action], (spec, action)
        return action

    assert play_stepped(game, [21], choose) > 0


def _makefile_recipe(name: str) -> tuple[int, list[str]]:
    """The player count ``make train`` gives ``name`` (``PLAYERS_<name>``, else 2) and the
    arguments of ``EXIT_ARGS_<name>`` in the Makefile (continued lines joined)."""
    text = MAKEFILE.read_text().replace("\\\n", " ")
    found = re.search(rf"^EXIT_ARGS_{name} := (.*)$", text, flags=re.MULTILINE)
    assert found, f"no EXIT_ARGS_{name} in the Makefile"
    players = re.search(rf"^PLAYERS_{name} := (\d+)$", text, flags=re.MULTILINE)
    return (int(players.group(1)) if players else 2), shlex.split(found.group(1))


@pytest.mark.parametrize(("name", "players"), RECIPES)
def test_shipped_network_records_the_makefile_recipe(name, players, tmp_path):
    """``make train GAME=<name> AGENT=net`` runs ``transit-gym exit`` with the Makefile's
    ``EXIT_ARGS_<name>``: they parse, and the shipped network records exactly the settings
    they give (the game, its options and every setting that fixes the weights) and the
    last iteration of that run."""
    from transit_gym.training import exit as exit_training

    make_players, recipe = _makefile_recipe(name)
    assert make_players == players
    argv = ["--game", name, "--players", str(players), *recipe, "--out", str(tmp_path / "run")]
    settings = exit_training.settings_from_args(exit_training.build_parser().parse_args(argv))
    record = load_network(None, cached_game(name, players, ())).record
    expected = exit_training.with_recipe(load_network(None, cached_game(name, players, ())),
                                         settings, 0).record.extra["exit"]
    assert record.extra["exit"] == expected
    last = settings.iterations + (1 + settings.dagger_rounds if settings.teacher else 0) - 1
    assert record.extra["iteration"] == last


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
    assert _score(game, net, rule, range(1000, 1010)) >= 8


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
