"""The run layer (``training/runs``): the one game loop, its seeding, its handling of forced
moves, the ``--option`` parser and the ``--out`` settings guard, as docs/DEVELOPING.md
("The run layer") states them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.agents.base import Agent, RandomAgent
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import game_class
from transit_gym.training.runs.folder import SettingsMismatchError, check_settings
from transit_gym.training.runs.options import parse_options
from transit_gym.training.runs.seating import play_seated
from transit_gym.training.runs.seeds import game_seed


@pytest.fixture(scope="module")
def game():
    return game_class("loose_caboose")(num_players=3)


class Spy(Agent):
    """A uniformly random agent that counts the decisions it is asked and their legal
    actions; ``needs_state`` marks it a searching agent."""

    def __init__(self, needs_state: bool):
        self.needs_state = needs_state
        self.inner = RandomAgent()
        self.asked: list[int] = []
        self.seeds: list[int | None] = []

    def reset(self, seed: int | None = None) -> None:
        self.seeds.append(seed)
        self.inner.reset(seed)

    def act(self, observation, action_mask) -> int:
        self.asked.append(int(np.count_nonzero(action_mask)))
        return self.inner.act(observation, action_mask)


def test_forced_moves_are_not_asked_of_a_searching_agent(game):
    """A decision with one legal action is played without asking a search agent."""
    spy = Spy(needs_state=True)
    played = play_seated(game, [spy], [0, 0, 0], seed=1)
    assert 0 < len(spy.asked) <= played.decisions
    assert min(spy.asked) >= 2


def test_an_observation_agent_is_asked_at_every_decision(game):
    """An observation agent is asked at every decision, forced ones too, as the jitted
    loops ask it (so a built-in agent plays the same game in Python and in numba)."""
    for seed in range(20):
        spy = Spy(needs_state=False)
        played = play_seated(game, [spy], [0, 0, 0], seed=seed)
        assert len(spy.asked) == played.decisions
        if min(spy.asked) == 1:
            return
    pytest.fail("no forced move in 20 games: the test no longer covers one")


def test_a_game_is_fixed_by_seed_and_index_whatever_was_played_before(game):
    """Game i of a run seeded s starts from new_state(s, stream=i) and agent k is reseeded
    with game_seed(s, i, k), so any chunking or worker plays the same game."""
    agents = [Spy(False), Spy(False)]
    first = [play_seated(game, agents, [0, 1, 0], 5, stream=g).rewards for g in range(3)]
    fresh = [Spy(False), Spy(False)]
    again = play_seated(game, fresh, [0, 1, 0], 5, stream=2)
    np.testing.assert_array_equal(first[2], again.rewards)
    assert fresh[0].seeds == [game_seed(5, 2, 0)] and fresh[1].seeds == [game_seed(5, 2, 1)]
    assert len({game_seed(5, g, k) for g in range(3) for k in range(2)}) == 6


def test_given_agent_seeds_replace_the_schemes_and_none_leaves_an_agent_alone(game):
    kept, reseeded = Spy(False), Spy(False)
    play_seated(game, [kept, reseeded], [0, 1, 1], 5, agent_seeds=[None, 42])
    assert kept.seeds == [] and reseeded.seeds == [42]
    with pytest.raises(ValueError, match="one agent index per seat"):
        play_seated(game, [kept], [0, 0], 5)


def test_options_are_json_when_they_can_be_and_text_otherwise():
    assert parse_options(["laps=2", "drivers=true", "track=monza", 'cards=["a", "b"]']) == {
        "laps": 2, "drivers": True, "track": "monza", "cards": ["a", "b"]}
    for bad in ("laps", "=2", "two words=1"):
        with pytest.raises(ConfigError, match="KEY=VALUE"):
            parse_options([bad])


def test_the_settings_guard_names_every_difference_before_any_game(tmp_path):
    check_settings(tmp_path, {"seed": 1, "games": 4, "players": 2}, "tool")
    check_settings(tmp_path, {"seed": 1, "games": 9, "players": 2}, "tool")   # may grow
    assert json.loads((tmp_path / "settings.json").read_text())["games"] == 9
    with pytest.raises(SettingsMismatchError) as error:
        check_settings(tmp_path, {"seed": 2, "games": 9, "players": 3}, "tool")
    assert "seed: stored 1, now 2" in str(error.value)
    assert "players: stored 2, now 3" in str(error.value)


def test_a_guard_without_growable_settings_refuses_another_count(tmp_path):
    """Tools whose games depend on the count (the market search, card power) pass no
    growable settings; a setting they may gain is added to the stored file."""
    check_settings(tmp_path, {"games": 2}, None, growable=())
    with pytest.raises(SettingsMismatchError, match="games: stored 2, now 3"):
        check_settings(tmp_path, {"games": 3}, None, growable=())
    check_settings(tmp_path, {"games": 2, "tuning": {"generations": 2}}, None, growable=(),
                   may_gain=("tuning",))
    assert json.loads((tmp_path / "settings.json").read_text())["tuning"] == {
        "generations": 2}
