"""The Automobile env surface beyond the cross-game suite: observation layout, words,
renders, option variants under random play, the built-in agents and the training CLI."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hyp

from tests.automobile.table import Table
from tests.core.conformance import check_picture, rendered
from transit_gym.agents.rule_based.automobile import policy
from transit_gym.envs import automobile_v0
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.encode import O_DECISION, OBS
from transit_gym.envs.automobile.rules import AutomobileGame
from transit_gym.envs.core.errors import IllegalActionError
from transit_gym.envs.core.rollout import play_games

SEED = 2024
GAMES_PER_SEATING = 400


def test_observation_layout_and_decision_encoding():
    """The observation is the named layout; the seat to move sees its decision, the
    others see 'not deciding'."""
    game = AutomobileGame(num_players=4)
    state = game.new_state(3)
    assert game.obs_size == OBS.size
    mover = game.current_player(state)
    for seat in range(4):
        obs = game.observe(state, seat)
        assert obs.dtype == np.float32 and obs.shape == (OBS.size,)
        decision = obs[O_DECISION:O_DECISION + st.NUM_PHASES]
        assert decision.sum() == 1.0
        expected = st.PH_SELECT if seat == mover else st.PH_OVER
        assert decision[expected] == 1.0


def test_actions_in_words_and_illegal_action_errors():
    """Clear errors: an illegal action names the legal ones in words."""
    t = Table(num_players=3)
    assert t.game.describe_action(t.state, a.A_SELECT + 3) == "select Howard"
    assert t.game.describe_action(t.state, a.A_SPACE + 7) == "space 8 (Pathfinder 40)"
    assert t.game.describe_action(t.state, a.A_QTY + 0) == "produce nothing here"
    assert "middle showroom" in t.game.describe_action(t.state, a.A_SHOWROOM + 1)
    with pytest.raises(IllegalActionError, match=r"select Ford"):
        t.play(a.A_PASS)


def test_renders_show_the_table():
    """ansi and rgb_array renders of a game in progress."""
    env = automobile_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs = env.last()[0]
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    text = env.render()
    assert text.startswith("Automobile turn") and "player_2: $" in text
    assert "characters: Ford" in text
    check_picture(rendered(automobile_v0, "rgb_array", 4, num_players=3), 3)


@pytest.mark.parametrize("options", [
    {"frontier": "open", "sloan": "taken", "shortfall": "debt"},
    {"shortfall": "forgive", "markers_on_closed": False, "parts_with_new_factory": True},
    {"durant_borrow": True, "reward": "cash", "first_player": 1},
])
def test_option_variants_keep_the_invariants(options):
    """Every option variant plays random games to the end with money, R&D cubes, tiles
    and pieces conserved and zero-sum rewards."""
    game = AutomobileGame(num_players=4, **options)

    @settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=hyp.integers(min_value=0, max_value=2**32 - 1))
    def run(seed):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while not game.is_over(state):
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
            game.check_invariants(state)
        assert abs(float(game.rewards(state).sum())) < 1e-5

    run()


def test_rule_based_agent_beats_random_agents_in_80_percent_of_three_player_games():
    """The rule-based agent ends with more cash than both random agents in at least 80%
    of 3-player games (fixed set: seed 2024, games 0-399, in each of the three seats)."""
    game = AutomobileGame(num_players=3)
    wins = 0
    for seat in range(3):
        agents = ["random"] * 3
        agents[seat] = "rule_based"
        result = play_games(game, policy, agents, GAMES_PER_SEATING, seed=SEED)
        cash = result.final_states[:, game.layout.slice("cash")][:, :3]
        others = np.delete(cash, seat, axis=1).max(axis=1)
        wins += int((cash[:, seat] > others).sum())
    assert wins / (3 * GAMES_PER_SEATING) >= 0.80


def test_final_infos_rank_the_seats_and_name_one_winner():
    """Winning the game: ranks 1..3 without ties (ties go to the earlier selection order),
    one winner, and the economic statistics of every seat in the final infos."""
    game = AutomobileGame(num_players=3)
    result = play_games(game, policy, ["rule_based", "random", "rule_based"], 3, seed=8)
    for i in range(3):
        info = game.final_info(result.state(game, i))
        assert sorted(seat["rank"] for seat in info) == [1, 2, 3]
        assert sum(seat["winner"] for seat in info) == 1
        for seat in info:
            assert {"cash", "cars_produced", "cars_sold", "loss_cubes_taken",
                    "loans"} <= set(seat)


def test_training_cli_smoke(tmp_path):
    """The training CLI trains a few hundred steps on Automobile, saves and evaluates."""
    pytest.importorskip("sb3_contrib")
    from transit_gym.training.train import main

    out = tmp_path / "auto"
    report = main(["--game", "automobile", "--players", "3", "--steps", "256", "--envs", "2",
                   "--n-steps", "128", "--batch-size", "64", "--eval-games", "3",
                   "--out", str(out)])
    assert report["game"] == "automobile" and (tmp_path / "auto.zip").exists()
    assert set(report["evaluation"]) == {"random", "rule_based"}
