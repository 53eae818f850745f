"""Every bad constructor option is a ``ConfigError`` naming the option.

The options are read from the code: each game's ``Game._build`` signature is the option
table that ``Game.__init__`` accepts, so an option added later is fed the same bad values
without editing this test. Each option gets values of the wrong type (list, dict, float,
a string for a number, a number for a string, None where its annotation has no None, a
bool where it takes no bool), huge and negative numbers, and a string that is no choice.
"""

from __future__ import annotations

import inspect
import math

import pytest

from transit_gym.envs.core.errors import ConfigError, DataFileError
from transit_gym.envs.registry import available_games, env_module

GAMES = available_games()


def options_of(name: str) -> dict[str, str]:
    """Every constructor option of game ``name`` with its annotation (as written)."""
    cls = env_module(name).Game
    params = inspect.signature(cls._build).parameters
    return {k: str(v.annotation) for k, v in params.items() if k != "self"}


def bad_values(annotation: str) -> list[object]:
    """Values an option annotated ``annotation`` must refuse."""
    takes_int = "int" in annotation.replace("list[int]", "")
    takes_str = "str" in annotation.replace("list[str]", "").replace("dict[str, str]", "")
    values: list[object] = [1.5, math.nan, object()]
    if "list" not in annotation:
        values += [[], [1, "x"]]
    else:
        values += [[{}], [None], [10**20], ["x" * 3, 1.5]]
    if "dict" not in annotation:
        values += [{}, {"a": 1}]
    else:
        values += [{"no such key": []}, {(): "x"}, {"a": {}}]
    if "None" not in annotation:
        values.append(None)
    if "bool" not in annotation:
        values += [True, False]
    if takes_int:
        values += [10**20, -(10**20), -1]
    else:
        values += [3, 10**20, -1]
    if not takes_str:
        values += ["3", "no_such_value"]
    return values


CASES = [(game, option, annotation) for game in GAMES
         for option, annotation in options_of(game).items()]


def test_every_game_declares_its_options():
    """The table the test walks is not empty for any game (an option cannot escape)."""
    for game in GAMES:
        assert options_of(game), game
    assert {"reward", "max_rounds"} <= {option for _, option, _ in CASES}


@pytest.mark.parametrize(("game", "option", "annotation"), CASES,
                         ids=[f"{g}-{o}" for g, o, _ in CASES])
def test_bad_values_are_config_errors_naming_the_option(game, option, annotation):
    """Each bad value raises ``ConfigError`` (a ``ValueError``) whose message names the
    option and the value; never ``TypeError``, ``OverflowError`` or a silent accept."""
    cls = env_module(game).Game
    for value in bad_values(annotation):
        with pytest.raises(ConfigError) as info:
            cls(**{option: value})
        assert isinstance(info.value, ValueError)
        assert option in str(info.value), (option, value, str(info.value))


@pytest.mark.parametrize(("game", "option", "annotation"),
                         [c for c in CASES if "str" in c[2]],
                         ids=[f"{g}-{o}" for g, o, a in CASES if "str" in a])
def test_a_string_that_is_no_choice_names_the_option(game, option, annotation):
    """A string an option does not know is refused naming the option: a ``ConfigError``,
    or for an option that may name a data file, a ``DataFileError`` for the missing file."""
    cls = env_module(game).Game
    with pytest.raises((ConfigError, DataFileError)) as info:
        cls(**{option: "no_such_value"})
    assert option in str(info.value) or "no_such_value" in str(info.value)


def test_the_reported_cases():
    """The issue's reproducers: ``reward=[]`` and ``max_rounds=10**20``."""
    with pytest.raises(ConfigError, match="reward"):
        env_module("loose_caboose").env(reward=[])
    with pytest.raises(ConfigError, match="max_rounds"):
        env_module("planes").env(max_rounds=10**20)
