"""Information-set MCTS over the kernel contract."""

from __future__ import annotations

import numpy as np
import pytest
from pytest import MonkeyPatch

from transit_gym.agents.registry import make_agent
from transit_gym.agents.search.mcts import MCTSAgent, parse_spec
from transit_gym.agents.tuned import TUNED_MODULES
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import available_games, game_class
from transit_gym.training.tournament import run_tournament

GAMES = available_games()


def mid_game(game, seed: int, steps: int):
    """A state some random legal steps into a seeded game (still running)."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    for _ in range(steps):
        if game.current_player(state) < 0:
            break
        legal = game.legal_actions(state)
        before = state.copy()
        game.apply(state, int(rng.choice(legal)))
        if game.current_player(state) < 0:
            return before
    return state


def small_game(name):
    cls = game_class(name)
    return cls(num_players=cls.min_players)


@pytest.mark.parametrize("name", GAMES)
def test_search_is_reproducible_and_leaves_the_state_alone(name):
    """Same seed and budget, same search; the searched state is not changed."""
    game = small_game(name)
    state = mid_game(game, 5, 12)
    seat = game.current_player(state)
    before = state.data.copy()
    a = MCTSAgent(game, simulations=64, seed=3).search(state, seat)
    b = MCTSAgent(game, simulations=64, seed=3).search(state, seat)
    np.testing.assert_array_equal(state.data, before)
    np.testing.assert_array_equal(a.visits, b.visits)
    assert a.action == b.action and a.simulations == 64
    assert game.legal_mask(state)[a.action] == 1
    assert a.visits.sum() == pytest.approx(64.0)   # every simulation passes a root child


@pytest.mark.parametrize("name", GAMES)
def test_no_peeking_hidden_information_does_not_change_the_decision(name):
    """Two states that differ only in what the seat cannot see (two determinizations of
    one state) give the searcher identical statistics for the same seed."""
    game = small_game(name)
    for seed in (1, 2):
        state = mid_game(game, seed, 9)
        seat = game.current_player(state)
        a = game.determinize(state, seat, seed=100)
        b = game.determinize(state, seat, seed=200)
        ra = MCTSAgent(game, simulations=48, seed=7).search(a, seat)
        rb = MCTSAgent(game, simulations=48, seed=7).search(b, seat)
        np.testing.assert_array_equal(ra.visits, rb.visits)
        np.testing.assert_array_equal(ra.values, rb.values)


def test_time_budget_and_bad_options():
    game = small_game("loose_caboose")
    state = game.new_state(1)
    seat = game.current_player(state)
    timed = MCTSAgent(game, simulations=None, time_limit=0.02, seed=1).search(state, seat)
    assert timed.simulations >= 1 and game.legal_mask(state)[timed.action]
    for bad in ({"simulations": 0}, {"simulations": None}, {"rollout": "oracle"},
                {"time_limit": -1.0}, {"exploration": -0.5}):
        with pytest.raises(ConfigError):
            MCTSAgent(game, **bad)
    with pytest.raises(ConfigError, match="not to move"):
        MCTSAgent(game, simulations=4).search(state, 1 - seat)
    assert parse_spec("mcts") == {} and parse_spec("mcts:250") == {"simulations": 250}
    assert parse_spec("mcts:9:rule_based") == {"simulations": 9, "rollout": "rule_based"}
    for spec in ("mcts:", "mcts:0", "mcts:x", "mctsx", "mcts:5:oracle", "mcts:5:random:1"):
        with pytest.raises(ConfigError, match="spec"):
            parse_spec(spec)
    assert make_agent("mcts:8", game).simulations == 8


def test_tuned_rollouts_guide_the_prior_with_the_tuned_policy():
    """``rollout="tuned"`` plays the rollouts with the shipped tuned vector, and the prior's
    hint (the child a node expands first) is the tuned agent's action, not the rule-based
    one; a game without a tuned policy refuses it."""
    game = small_game("automobiles")
    tuned, rule_based = make_agent("tuned", game, seed=1), make_agent("rule_based", game, seed=1)
    rng = np.random.default_rng(3)
    state = game.new_state(3)
    while True:
        seat = game.current_player(state)
        assert seat >= 0, "no state where the two policies differ"
        choice = {"tuned": tuned.act_state(state, seat),
                  "rule_based": rule_based.act_state(state, seat)}
        if choice["tuned"] != choice["rule_based"]:
            break
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    for rollout, action in choice.items():
        result = MCTSAgent(game, simulations=1, rollout=rollout, prior=1.0,
                           seed=2).search(state, seat)
        assert int(np.flatnonzero(result.visits)[0]) == action, rollout
    assert parse_spec("mcts:9:tuned") == {"simulations": 9, "rollout": "tuned"}
    with MonkeyPatch.context() as patch:   # planes as a game without a tuned policy
        patch.delitem(TUNED_MODULES, "planes")
        with pytest.raises(ConfigError, match="no tuned policy"):
            MCTSAgent(small_game("planes"), rollout="tuned")


def test_tournament_with_search_agents_is_identical_across_worker_counts():
    """Each tournament game reseeds its agents from (seed, game index): results do not
    depend on how games are split over workers."""
    kwargs = dict(game="loose_caboose", players=2, specs=["mcts:16", "rule_based"], games=6,
                  seed=4, progress=False)
    one = run_tournament(workers=1, **kwargs)
    two = run_tournament(workers=2, **kwargs)
    assert one["score_rate"] == two["score_rate"]


def test_search_finds_the_winning_move_in_a_loose_caboose_endgame():
    """Ending the Game (Loose Caboose!): the draw pile is empty, so this is the last turn.
    Passing costs a 4-point penalty card and loses; laying the 1 and rolling one die (every
    face one wheel) moves the caboose safely, empties the hand and wins. The search must
    find it from the first decision, with any seed."""
    from tests.loose_caboose.table import Table
    from transit_gym.envs.loose_caboose import kernels as k

    t = Table(dice_faces=[1], geometry=False)
    t.railway([t.card(4), t.card(2), t.card(2), t.card(3), t.card(3)], caboose=1)
    t.hand(0, [t.card(1)])
    t.penalty(1, [t.card(2)])
    t.state["end_triggered"][:] = 1
    lay_one = k.play_action(1, 0, k.TURN_STRAIGHT)
    assert sorted(t.game.legal_actions(t.state)) == [k.A_PASS, lay_one]
    for seed in range(3):
        agent = MCTSAgent(t.game, simulations=200, seed=seed)
        result = agent.search(t.state, 0)
        assert result.action == lay_one
        assert result.values[lay_one] == pytest.approx(1.0)
        assert result.values[k.A_PASS] == pytest.approx(-1.0)
