"""What every environment offers ("build it once"), run on every installed game.

PettingZoo's own api/seed/render tests for every player count, copying and pickling
mid-game, JSON state round trips, clear errors, the batch API, jitted rollouts and a
property test of each game's invariants (conservation of cards/cubes/money).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hyp
from pettingzoo.test import render_test

from tests.core.conformance import (
    check_api_and_seed,
    check_batch_api,
    check_copy_and_pickle_mid_game,
    check_illegal_actions,
    check_jitted_rollouts,
    check_options_drawn_per_reset,
    check_random_game_keeps_invariants,
    check_state_dict_json_round_trip,
)
from transit_gym.agents.registry import make_agent, policy_kernel
from transit_gym.envs.core.errors import ConfigError, StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rollout import play_games
from transit_gym.envs.registry import available_games, env_module

GAMES = available_games()
CASES = []
for _name in GAMES:
    _cls = env_module(_name).Game
    CASES += [(_name, n) for n in range(_cls.min_players, _cls.max_players + 1)]
IDS = [f"{g}-{n}p" for g, n in CASES]
#: every option set that draws at random (``Game.random_options``), per game
RANDOM_CASES = [(_name, options) for _name in GAMES
                for options in env_module(_name).Game.random_options]
RANDOM_IDS = [f"{g}-" + ",".join(f"{k}={v}" for k, v in o.items()) for g, o in RANDOM_CASES]


def _game(name, players):
    return env_module(name).Game(num_players=players)



@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_pettingzoo_api_seed_and_render(name, players):
    module = env_module(name)
    check_api_and_seed(lambda **kw: module.env(num_players=players, **kw))
    render_test(lambda render_mode=None: module.env(num_players=players,
                                                    render_mode=render_mode))



@pytest.mark.parametrize(("name", "options"), RANDOM_CASES, ids=RANDOM_IDS)
def test_options_drawn_at_random_follow_the_reset_seed(name, options):
    """PettingZoo's seed test passes for every option that draws at
    random (a random board, market, season tracks or first player): the same seed gives
    the same game in any env built with the same options."""
    module = env_module(name)
    players = module.Game.min_players
    check_options_drawn_per_reset(
        lambda **kw: module.env(num_players=players, **options, **kw))


@pytest.mark.parametrize(("name", "options"), RANDOM_CASES, ids=RANDOM_IDS)
def test_random_options_keep_batch_rollouts_and_saved_states(name, options):
    """Games whose options draw per reset run in the batch API (each slot on its own
    draw, matching single games), in jitted rollouts, and save and restore exactly
    (JSON, deepcopy, pickle)."""
    module = env_module(name)
    players = module.Game.min_players
    game = module.Game(num_players=players, **options)
    check_batch_api(game, finished_games=2)
    check_jitted_rollouts(game, games=6)
    check_state_dict_json_round_trip(game)
    check_copy_and_pickle_mid_game(module.env(num_players=players, **options))


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_deepcopy_and_pickle_mid_game_keep_the_game(name, players):
    check_copy_and_pickle_mid_game(env_module(name).env(num_players=players))



@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_state_dict_round_trips_through_json(name, players):
    check_state_dict_json_round_trip(_game(name, players))



@pytest.mark.parametrize("name", GAMES)
def test_state_dict_errors_name_the_problem(name):
    game = _game(name, env_module(name).Game.min_players)
    payload = game.new_state(0).to_dict()
    wrong_game = dict(payload, game="chess")
    with pytest.raises(StateDictError, match="chess"):
        game.state_from_dict(wrong_game)
    first_field = next(iter(payload["fields"]))
    missing = copy.deepcopy(payload)
    del missing["fields"][first_field]
    with pytest.raises(StateDictError, match=first_field):
        State.from_dict(missing)
    short = copy.deepcopy(payload)
    short["fields"][first_field] = []
    with pytest.raises(StateDictError, match=first_field):
        State.from_dict(short)
    bad_options = copy.deepcopy(payload)
    bad_options["options"]["num_players"] = 99
    with pytest.raises(StateDictError, match="num_players"):
        State.from_dict(bad_options)


@pytest.mark.parametrize("name", GAMES)
def test_illegal_actions_raise_value_error_naming_the_legal_ones(name):
    check_illegal_actions(env_module(name).env())



@pytest.mark.parametrize("name", GAMES)
def test_bad_options_raise_value_errors(name):
    module = env_module(name)
    cls = module.Game
    with pytest.raises(ConfigError, match="num_players"):
        module.env(num_players=cls.max_players + 1)
    with pytest.raises(ConfigError, match="num_players"):
        module.env(num_players=cls.min_players - 1)
    with pytest.raises(ConfigError, match="no_such_option"):
        module.env(no_such_option=1)
    with pytest.raises(ConfigError, match="render_mode"):
        module.env(render_mode="hologram")
    with pytest.raises(ValueError, match="seed"):
        module.env().reset(seed=-1)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_batch_api_matches_single_games_and_auto_resets(name, players):
    check_batch_api(_game(name, players))  # random Planes games take ~4000 decisions



@pytest.mark.parametrize("name", GAMES)
def test_jitted_rollouts_are_reproducible(name):
    check_jitted_rollouts(_game(name, env_module(name).Game.min_players))



@pytest.mark.parametrize("name", GAMES)
def test_play_games_depends_only_on_seed_and_game_index(name):
    """Balance sweeps split games over workers; each game is fixed by (seed, index)."""
    game = _game(name, env_module(name).Game.min_players)
    policy = policy_kernel(name)
    agents = ["rule_based"] + ["random"] * (game.num_players - 1)
    whole = play_games(game, policy, agents, 12, seed=5)
    part = play_games(game, policy, agents, 6, seed=5, first_game=6)
    assert np.array_equal(whole.final_states[6:], part.final_states)
    assert np.array_equal(whole.rewards[6:], part.rewards)
    assert np.allclose(whole.rewards.sum(axis=1), 0.0, atol=1e-5), "rewards are zero-sum"


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_property_random_games_end_and_keep_invariants(name, players):
    game = _game(name, players)

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=hyp.integers(min_value=0, max_value=2**63 - 1))
    def run(seed):
        check_random_game_keeps_invariants(game, seed)

    run()


@pytest.mark.parametrize("name", GAMES)
def test_functional_rules_api_of_design_md(name):
    """DESIGN.md: rules.py offers new_game, legal_mask, apply, current_player, is_over,
    scores, working on states without any PettingZoo object."""
    import importlib

    rules = importlib.import_module(f"transit_gym.envs.{name}.rules")
    state = rules.new_game({}, seed=3)
    rng = np.random.default_rng(3)
    while not rules.is_over(state):
        mask = rules.legal_mask(state)
        assert rules.current_player(state) >= 0
        rules.apply(state, int(rng.choice(np.flatnonzero(mask))))
    assert rules.current_player(state) == -1
    assert rules.scores(state) is not None


AGENT_GAME_OPTIONS = {"automobiles": {"card_set": "random"}, "planes": {"airport": "zephyr"}}


@pytest.mark.parametrize("name", GAMES)
def test_built_in_agents_play_legally_through_the_aec_env(name):
    """Random and rule-based agents act from the observation and mask alone; every action
    they choose is legal, the game ends, and the final infos rank every seat and agree
    with the rewards (a winner never gets a negative reward)."""
    env = env_module(name).env(num_players=3, **AGENT_GAME_OPTIONS.get(name, {}))
    env.reset(seed=8)
    game = env.unwrapped.game
    agents = {a: make_agent(kind, game, seed=1) for a, kind in
              zip(env.possible_agents, ["rule_based", "random", "rule_based"], strict=True)}
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (reward, info)
            env.step(None)
            continue
        action = agents[agent].act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][action] == 1
        env.step(action)
    assert not env.agents
    assert set(final) == set(env.possible_agents)
    for reward, info in final.values():
        assert 1 <= info["rank"] <= 3
        assert reward >= 0 if info["winner"] else reward <= 0
    assert any(info["winner"] for _, info in final.values())
