"""What a new user gets wrong first: a game given by name to ``make_agent``, a misspelt
keyword to ``gymnasium.make`` or a game class. Each is accepted or a clear error."""

from __future__ import annotations

import gymnasium
import pytest

import transit_gym.training  # noqa: F401  (registers the Gymnasium ids)
from transit_gym.agents.registry import make_agent
from transit_gym.envs.core.catalog import GAMES, game_class
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.single_agent import view_keywords

VIEW_OPTIONS = ("opponents", "learner_seat", "illegal_action", "num_players")


def test_make_agent_accepts_a_registered_game_name():
    """A game's name builds that game with its default options."""
    agent = make_agent("rule_based", "loose_caboose", seed=0)
    assert agent.game.name == "loose_caboose"
    assert agent.game.num_players == game_class("loose_caboose").min_players


def test_make_agent_unknown_game_name_lists_the_games():
    with pytest.raises(ConfigError, match="loose_cabose") as err:
        make_agent("random", "loose_cabose")
    for name in GAMES:
        assert name in str(err.value)


@pytest.mark.parametrize("game", [3, None, game_class("planes")])
def test_make_agent_other_game_values_say_what_to_pass(game):
    with pytest.raises(TypeError, match="game object|Game object") as err:
        make_agent("random", game)
    assert "name" in str(err.value)


@pytest.mark.parametrize("keyword, closest", [("oponents", "opponents"),
                                              ("num_player", "num_players"),
                                              ("learner", "learner_seat"),
                                              ("ilegal_action", "illegal_action"),
                                              ("dice_face", "dice_faces")])
def test_gym_make_misspelt_keyword_lists_every_keyword_and_the_closest(keyword, closest):
    """The message names the view's keywords and the game's options, and suggests one."""
    with pytest.raises(ConfigError) as err:
        gymnasium.make("transit_gym/LooseCaboose-v0", **{keyword: 3})
    message = str(err.value)
    assert set(VIEW_OPTIONS) <= set(view_keywords())
    assert f"did you mean {closest!r}" in message
    for name in [*VIEW_OPTIONS, *view_keywords(), *game_class("loose_caboose").option_names()]:
        assert repr(name) in message, name


def test_game_misspelt_keyword_lists_num_players_and_suggests():
    with pytest.raises(ConfigError) as err:
        game_class("planes")(num_player=3)
    message = str(err.value)
    assert "did you mean 'num_players'" in message
    assert "'num_players'" in message.split("accepted:")[1]
    assert "'airport'" in message


def test_unknown_keyword_far_from_every_name_gets_no_guess():
    with pytest.raises(ConfigError) as err:
        game_class("planes")(zzzz=1)
    assert "did you mean" not in str(err.value)
