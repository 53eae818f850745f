"""The parts of the stronger search: leaf evaluations, truncated
rollouts, the rule-based prior, and the per-game default configurations."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from transit_gym.agents.registry import make_agent
from transit_gym.agents.search.mcts import DEFAULTS, MCTSAgent, SearchConfig, parse_spec
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.leaf import softmax_rewards
from transit_gym.envs.registry import available_games, game_class

GAMES = available_games()


def small_game(name):
    cls = game_class(name)
    return cls(num_players=cls.min_players)


def rule_based_position(game, seed: int, steps: int):
    """A running state ``steps`` rule-based decisions into a seeded game."""
    agent = make_agent("rule_based", game, seed=seed)
    state = game.new_state(seed)
    for _ in range(steps):
        if game.current_player(state) < 0:
            break
        before = state.copy()
        game.apply(state, agent.act_state(state, game.current_player(state)))
        if game.current_player(state) < 0:
            return before
    return state


def test_softmax_rewards_are_expected_win_shares():
    """Equal strengths
    give every seat 0, a decisive lead gives the leader +1 and the others -1 shared,
    and the rewards always sum to 0 (zero-sum, like the games' own rewards)."""
    out = np.zeros(3, dtype=np.float32)
    softmax_rewards(np.array([2.0, 2.0, 2.0]), 3, 1.0, out)
    np.testing.assert_allclose(out, 0.0, atol=1e-6)
    softmax_rewards(np.array([100.0, 0.0, 0.0]), 3, 1.0, out)
    np.testing.assert_allclose(out, [1.0, -0.5, -0.5], atol=1e-6)
    softmax_rewards(np.array([1.0, 0.5, 0.0]), 3, 1.0, out)
    assert out[0] > out[1] > out[2] and abs(out.sum()) < 1e-6


@pytest.mark.parametrize("name", GAMES)
def test_leaf_evaluation_is_a_zero_sum_expected_reward(name):
    """Each game's leaf evaluation of a running game gives every seat a
    value in [-1 / (n - 1), 1] (a win probability turned into the game's win-share
    reward), summing to 0."""
    evaluate = importlib.import_module(f"transit_gym.agents.search.leaf_{name}").evaluate
    cls = game_class(name)
    for players in (cls.min_players, cls.max_players):
        game = cls(num_players=players)
        for steps in (0, 40, 120):
            state = rule_based_position(game, 3, steps)
            out = np.zeros(players, dtype=np.float32)
            evaluate(state.data, game.params, out)
            assert np.all(out >= -1.0 / (players - 1) - 1e-6) and np.all(out <= 1.0 + 1e-6)
            assert abs(float(out.sum())) < 1e-5


def test_automobiles_evaluation_favours_the_car_ahead():
    """Winning the Game (Automobiles): the car farthest past the line wins, so moving
    one car a lap ahead makes its seat's evaluation the higher one."""
    from transit_gym.agents.search.leaf_automobiles import evaluate
    from transit_gym.envs.automobiles.state import P_LAP

    game = small_game("automobiles")
    state = game.new_state(2)
    out = np.zeros(2, dtype=np.float32)
    for leader in (0, 1):
        s = state.copy()
        s["car_abs"][leader] += int(game.params[P_LAP])
        evaluate(s.data, game.params, out)
        assert out[leader] > 0 > out[1 - leader]


@pytest.mark.parametrize("name", GAMES)
def test_truncated_rollouts_are_reproducible_from_the_seed(name):
    """Same seed, same search, also with rollouts cut short by the leaf evaluation and
    epsilon-greedy guided rollouts (rule-based, tuned where the game's default is); the
    searched state is left alone."""
    game = small_game(name)
    state = rule_based_position(game, 5, 15)
    seat = game.current_player(state)
    before = state.data.copy()
    guide = "tuned" if DEFAULTS[name].rollout == "tuned" else "rule_based"
    kwargs = dict(simulations=48, rollout=guide, horizon=3, prior=1.0, epsilon=0.2)
    a = MCTSAgent(game, seed=9, **kwargs).search(state, seat)
    b = MCTSAgent(game, seed=9, **kwargs).search(state, seat)
    np.testing.assert_array_equal(state.data, before)
    np.testing.assert_array_equal(a.visits, b.visits)
    np.testing.assert_array_equal(a.values, b.values)
    assert a.visits.sum() == pytest.approx(48.0)


@pytest.mark.parametrize("name", GAMES)
def test_the_prior_expands_the_guides_action_first(name):
    """Progressive bias: with ``prior > 0`` the first simulation expands the guide's action
    at the root: the rule-based agent's, or the tuned agent's where the game's default
    rollouts are tuned (the season). The guide reads only the seat's observation, which
    determinization leaves unchanged."""
    game = small_game(name)
    state = rule_based_position(game, 6, 10)
    seat = game.current_player(state)
    agent = MCTSAgent(game, simulations=1, prior=1.0, seed=4)
    guide = make_agent("tuned" if agent.config.rollout == "tuned" else "rule_based", game,
                       seed=1)
    expected = guide.act(game.observe(state, seat), game.legal_mask(state))
    result = agent.search(state, seat)
    assert np.flatnonzero(result.visits).tolist() == [expected]


@pytest.mark.parametrize("name", GAMES)
def test_default_spec_is_the_documented_row(name):
    """The spec ``mcts`` is the game's row of DEFAULTS; ``mcts:N`` changes only the
    simulation count; ``mcts:N:ROLLOUT`` also the rollout policy."""
    game = small_game(name)
    default = make_agent("mcts", game)
    assert default.config == DEFAULTS[name]
    agent = make_agent("mcts:37", game)
    assert agent.config.simulations == 37
    assert agent.config.horizon == DEFAULTS[name].horizon
    assert agent.config.prior == DEFAULTS[name].prior
    assert MCTSAgent(game, **parse_spec("mcts:5:random")).config.rollout == "random"


@pytest.mark.parametrize(("field", "value"), [("horizon", -1), ("horizon", 2.5),
                                              ("prior", -0.1), ("epsilon", 1.5),
                                              ("exploration", -1.0), ("rollout", "oracle"),
                                              ("simulations", 0), ("prior_budget", 0),
                                              ("prior_budget", 1.5), ("horizon_budget", 0),
                                              ("horizon_cap", 0), ("horizon_cap", 2.5)])
def test_a_bad_config_value_raises_naming_it(field, value):
    """Bad input gets a ConfigError naming the field and the bad value."""
    game = small_game("loose_caboose")
    with pytest.raises(ConfigError, match=field):
        MCTSAgent(game, **{field: value})
    assert SearchConfig().horizon is None


def test_more_simulations_keep_the_prior_weight_of_its_budget():
    """The hint's bonus
    ``prior / (visits + 1)`` fades as visits grow, so without scaling a larger budget
    drifts away from the rule-based hints (Automobiles mcts:1000 scored 10%,
    docs/search.md). With ``prior_budget`` B a search of N > B simulations weighs the prior
    ``prior x N / B``: exactly the unscaled search with that prior, same seed; at or below
    B the prior is left alone."""
    game = small_game("automobiles")
    state = rule_based_position(game, 5, 30)
    seat = game.current_player(state)
    base = dict(rollout="rule_based", horizon=4, seed=2)
    scaled = MCTSAgent(game, simulations=64, prior=1.0, prior_budget=16, **base)
    plain = MCTSAgent(game, simulations=64, prior=4.0, prior_budget=None, **base)
    a, b = scaled.search(state, seat), plain.search(state, seat)
    np.testing.assert_array_equal(a.visits, b.visits)
    np.testing.assert_array_equal(a.values, b.values)
    small = MCTSAgent(game, simulations=16, prior=1.0, prior_budget=16, **base)
    same = MCTSAgent(game, simulations=16, prior=1.0, prior_budget=None, **base)
    np.testing.assert_array_equal(small.search(state, seat).visits,
                                  same.search(state, seat).visits)
    assert SearchConfig(prior=2.0, prior_budget=100).prior_at(None) == 2.0


def test_more_simulations_look_further_ahead():
    """A horizon-20 rollout scored
    by the race-position evaluation misleads a 1000-simulation Automobiles search (10% vs
    rule_based; horizon 100: 95%, docs/search.md). With ``horizon_budget`` H a search of
    N > H simulations cuts rollouts at ``horizon x N / H`` decisions: exactly the search
    with that horizon, same seed; at or below H, and without a horizon, nothing changes.
    The Automobiles default grows its horizon above its own budget."""
    game = small_game("automobiles")
    state = rule_based_position(game, 5, 30)
    seat = game.current_player(state)
    base = dict(rollout="rule_based", prior=1.0, seed=2, simulations=64)
    grown = MCTSAgent(game, horizon=3, horizon_budget=16, **base).search(state, seat)
    plain = MCTSAgent(game, horizon=12, horizon_budget=None, **base).search(state, seat)
    np.testing.assert_array_equal(grown.visits, plain.visits)
    np.testing.assert_array_equal(grown.values, plain.values)
    assert SearchConfig(horizon=3, horizon_budget=16).horizon_at(16) == 3
    assert SearchConfig(horizon=None, horizon_budget=16).horizon_at(64) == -1
    assert SearchConfig(horizon=20, horizon_budget=200).horizon_at(None) == 20
    row = DEFAULTS["automobiles"]
    assert row.horizon_budget == row.simulations
    assert row.horizon_at(1000) == 5 * row.horizon


def test_the_grown_horizon_stops_at_its_cap():
    """docs/search.md: at 10,000 simulations a horizon grown without
    limit (1000 decisions) plays every Automobiles rollout to the end, which scored 50% and
    83% against rule_based where 1000 simulations (horizon 100) scored 100%. With
    ``horizon_cap`` C the growth stops at C decisions: exactly the search with horizon C,
    same seed; below the cap, and without one, the growth is unchanged."""
    game = small_game("automobiles")
    state = rule_based_position(game, 5, 30)
    seat = game.current_player(state)
    base = dict(rollout="rule_based", prior=1.0, seed=2, simulations=64)
    capped = MCTSAgent(game, horizon=3, horizon_budget=16, horizon_cap=6, **base)
    plain = MCTSAgent(game, horizon=6, horizon_budget=None, horizon_cap=None, **base)
    a, b = capped.search(state, seat), plain.search(state, seat)
    np.testing.assert_array_equal(a.visits, b.visits)
    np.testing.assert_array_equal(a.values, b.values)
    config = SearchConfig(horizon=20, horizon_budget=200, horizon_cap=100)
    assert [config.horizon_at(n) for n in (200, 500, 1000, 10_000)] == [20, 50, 100, 100]
    assert SearchConfig(horizon=20, horizon_budget=200).horizon_at(10_000) == 1000
    assert SearchConfig(horizon=20, horizon_budget=200, horizon_cap=5).horizon_at(1000) == 20
    row = DEFAULTS["automobiles"]
    assert row.horizon_at(1000) == row.horizon_at(10_000) == row.horizon_cap == 100


def test_automobiles_default_keeps_the_hints_weight_above_its_budget():
    """docs/search.md: the Automobiles default scales the prior with the
    budget above 200 simulations (prior_budget), as it does the horizon, and leaves the
    default search (200 simulations) as it was."""
    row = DEFAULTS["automobiles"]
    assert row.prior_budget == row.simulations == 200
    assert row.prior_at(200) == row.prior == 1.0
    assert row.prior_at(1000) == 5.0 and row.prior_at(10_000) == 50.0
