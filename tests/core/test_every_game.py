"""What every environment offers (issue 2, "build it once"), run on every installed game.

PettingZoo's own api/seed/render tests for every player count, copying and pickling
mid-game, JSON state round trips, clear errors, the batch API, jitted rollouts and a
property test of each game's invariants (conservation of cards/cubes/money).
"""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hyp
from pettingzoo.test import api_test, render_test, seed_test

from transit_gym.agents.registry import make_agent, policy_kernel
from transit_gym.envs.core.batch import BatchEnv
from transit_gym.envs.core.errors import ConfigError, IllegalActionError, StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rollout import play_games, random_rollouts
from transit_gym.envs.registry import available_games, env_module

GAMES = available_games()
CASES = []
for _name in GAMES:
    _cls = env_module(_name).Game
    CASES += [(_name, n) for n in range(_cls.min_players, _cls.max_players + 1)]
IDS = [f"{g}-{n}p" for g, n in CASES]


def _game(name, players):
    return env_module(name).Game(num_players=players)


def _random_walk(game, state, rng, steps):
    """Play up to ``steps`` random legal actions; return the actions played."""
    played = []
    for _ in range(steps):
        if game.is_over(state):
            break
        action = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
        game.apply(state, action)
        played.append(action)
    return played


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_pettingzoo_api_seed_and_render(name, players):
    module = env_module(name)
    api_test(module.env(num_players=players), num_cycles=200)
    seed_test(lambda **kw: module.env(num_players=players, **kw), num_cycles=200)
    render_test(lambda render_mode=None: module.env(num_players=players,
                                                    render_mode=render_mode))


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_deepcopy_and_pickle_mid_game_keep_the_game(name, players):
    env = env_module(name).env(num_players=players)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(25):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    clones = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for clone in clones:
        assert clone.agent_selection == env.agent_selection
        assert np.array_equal(clone.unwrapped.game_state.data, env.unwrapped.game_state.data)
    # the same actions give the same future, chance included
    for _ in range(60):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        for clone in [env, *clones]:
            clone.step(action)
        for clone in clones:
            assert np.array_equal(clone.last()[0]["observation"], env.last()[0]["observation"])


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_state_dict_round_trips_through_json(name, players):
    game = _game(name, players)
    state = game.new_state(5)
    _random_walk(game, state, np.random.default_rng(1), 30)
    payload = json.loads(json.dumps(state.to_dict()))
    restored = State.from_dict(payload)
    assert restored == state
    assert restored.game == game
    # restored state plays on identically
    a, b = state.copy(), restored
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    assert _random_walk(game, a, rng_a, 40) == _random_walk(game, b, rng_b, 40)
    assert a == b


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
    env = env_module(name).env()
    env.reset(seed=3)
    mask = env.last()[0]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0]) if (mask == 0).any() else None
    legal = [int(a) for a in np.flatnonzero(mask)]
    if illegal is not None:
        with pytest.raises(ValueError, match=rf"illegal action {illegal}\b") as err:
            env.step(illegal)
        assert str(legal[0]) in str(err.value)
    for bad in (-1, len(mask), 1.5, "pass", None, True):
        with pytest.raises(IllegalActionError):
            env.step(bad)


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
    game = _game(name, players)
    batch = BatchEnv(game, 4, seed=99)
    singles = [game.new_state(99, stream=b) for b in range(4)]
    for b in range(4):
        assert np.array_equal(batch.states[b], singles[b].data)
        assert batch.players[b] == game.current_player(singles[b])
        assert np.array_equal(batch.masks[b], game.legal_mask(singles[b]))
    rng = np.random.default_rng(4)
    finished = 0
    for _ in range(20000):  # random Planes games take ~4000 decisions
        actions = batch.sample_actions(rng)
        prev = [batch.state(b) for b in range(4)]
        batch.step(actions)
        for b in range(4):
            expected = prev[b]
            game.apply(expected, int(actions[b]))
            if batch.dones[b]:
                finished += 1
                assert game.is_over(expected)
                assert np.allclose(batch.rewards[b], game.rewards(expected))
                assert game.current_player(batch.state(b)) >= 0
            else:
                assert np.array_equal(batch.states[b], expected.data)
                assert np.all(batch.rewards[b] == 0)
                obs = game.observe(expected, int(batch.players[b]))
                assert np.array_equal(batch.obs[b], obs)
        if finished >= 3:
            break
    assert finished >= 3, "fewer than 3 games finished in the batch within 20000 steps"
    with pytest.raises(IllegalActionError, match="batch slot"):
        bad = batch.sample_actions(rng)
        bad[1] = -1
        batch.step(bad)


@pytest.mark.parametrize("name", GAMES)
def test_jitted_rollouts_are_reproducible(name):
    game = _game(name, env_module(name).Game.min_players)
    first = random_rollouts(game, 20, seed=123)
    assert first > 20
    assert random_rollouts(game, 20, seed=123) == first


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

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=hyp.integers(min_value=0, max_value=2**63 - 1))
    def run(seed):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed % (2**32))
        game.check_invariants(state)
        for _ in range(20000):
            if game.is_over(state):
                break
            mask = game.legal_mask(state)
            assert mask.any(), "a running game must offer a legal action"
            game.apply(state, int(rng.choice(np.flatnonzero(mask))))
            game.check_invariants(state)
        assert game.is_over(state), "game did not end within 20000 decisions"
        assert not game.legal_mask(state).any()
        assert abs(float(game.rewards(state).sum())) < 1e-5

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
