"""The Planes AEC env under its options, rendering, invariants under random play, the
batch API, and the built-in agents (the rule-based agent beats random in at
least 80% of 2-player games on a fixed seeded set)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hyp
from pettingzoo.test import api_test

from tests.core.conformance import check_picture, rendered, rule_based_win_share
from transit_gym.agents.rule_based.planes import policy
from transit_gym.envs import planes_v0
from transit_gym.envs.core.errors import IllegalActionError
from transit_gym.envs.core.rollout import play_games, random_rollouts
from transit_gym.envs.planes import state as st

from .table import Table

GAMES_PER_SEATING = 300
SEED = 2024

OPTION_SETS = [
    {"airport": "zephyr"},
    {"player_decks": True, "blockage_counts": "all"},
    {"exact_goals": "loose", "end_draw": "must", "skip": "may", "end_at": 8},
    {"first_player": "random", "reward": "score", "poi": {"S0": "fine_dining"}},
]


def test_rule_based_beats_random_in_80_percent_of_two_player_games():
    """Fixed set: seed 2024, games 0-299 with the rule-based agent first, then second."""
    game = planes_v0.Game(num_players=2)
    assert rule_based_win_share(game, policy, GAMES_PER_SEATING, SEED) >= 0.80


def test_rule_based_agent_boards_its_party_and_scores_goals():
    """Between rule-based agents both sides board cubes and score goals."""
    game = planes_v0.Game(num_players=2)
    result = play_games(game, policy, ["rule_based", "rule_based"], 20, seed=1)
    infos = [game.final_info(result.state(game, i)) for i in range(20)]
    boarded = np.mean([[i["own_cubes_boarded"] for i in info] for info in infos])
    goals = np.mean([[i["goals_scored"] for i in info] for info in infos])
    assert boarded >= 2.0 and goals >= 2.0


@pytest.mark.parametrize("options", OPTION_SETS)
def test_pettingzoo_api_under_the_options(options):
    """PettingZoo's api_test with non-default options (airport, decks, blockages...)."""
    api_test(planes_v0.env(num_players=3, **options), num_cycles=300)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_random_games_keep_every_invariant_under_the_options(options):
    """40 cubes and 60 cards each in exactly one place after every step (and the other
    invariants of ``check_invariants``), for each option set and player count."""
    games = [planes_v0.Game(num_players=n, **options) for n in (2, 3, 4)]

    @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=hyp.integers(min_value=0, max_value=2**32 - 1), which=hyp.integers(0, 2))
    def run(seed, which):
        game = games[which]
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        game.check_invariants(state)
        while not game.is_over(state):
            mask = game.legal_mask(state)
            game.apply(state, int(rng.choice(np.flatnonzero(mask))))
            game.check_invariants(state)
        assert abs(float(game.rewards(state).sum())) < 1e-4

    run()


def test_invariant_check_catches_lost_cubes_and_cards():
    """``check_invariants`` fails on a lost cube, an extra card, a wrong plane, a bad track."""
    t = Table(2)
    t.check()
    broken = t.state.copy()
    broken["cubes"][0] -= 1
    with pytest.raises(AssertionError, match="cube count is negative|exactly one place"):
        t.game.check_invariants(broken)
    broken = t.state.copy()
    broken["deck"][0] += 1
    with pytest.raises(AssertionError, match="cards are not each in exactly one place"):
        t.game.check_invariants(broken)
    broken = t.state.copy()
    broken["gate_color"][0] = 4
    with pytest.raises(AssertionError, match="plane colour"):
        t.game.check_invariants(broken)
    broken = t.state.copy()
    broken["track"][0] = 3
    with pytest.raises(AssertionError, match="boarding track"):
        t.game.check_invariants(broken)
    broken = t.state.copy()
    broken["phase"][0] = st.PH_DEST                 # a destination with no card in play
    with pytest.raises(AssertionError, match="lacks its context"):
        t.game.check_invariants(broken)


def test_rollouts_are_reproducible_for_each_airport():
    """Jitted rollouts depend only on the seed, on both airports."""
    for airport in ("flying_cloud", "zephyr"):
        game = planes_v0.Game(num_players=4, airport=airport)
        assert random_rollouts(game, 5, seed=9) == random_rollouts(game, 5, seed=9) > 5


def test_batch_api_from_the_version_module():
    """``planes_v0.batch`` steps several games with options."""
    batch = planes_v0.batch(3, seed=4, num_players=2, airport="zephyr")
    rng = np.random.default_rng(0)
    for _ in range(200):
        batch.step(batch.sample_actions(rng))
    assert batch.obs.shape == (3, batch.game.obs_size) and batch.masks.any(axis=1).all()


def test_illegal_action_error_names_the_legal_actions_in_words():
    """Illegal actions raise a ValueError listing the legal ones in words."""
    env = planes_v0.env()
    env.reset(seed=0)
    mask = env.last()[0]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="play no action card|pick up the cubes"):
        env.step(illegal)


def test_illegal_action_is_a_value_error_naming_it_and_the_legal_ones():
    """Through the game API too: the error is a ValueError that names the refused action
    and each legal one in words (here mid-move: no stop before the first space, Move
    Phase), and says when the game is over."""
    t = Table(2)
    t.clear_board()
    t.put("S4", red=1, grey=1)
    t.move(0)
    t.play(t.SPACE("S4"))
    with pytest.raises(ValueError, match=rf"illegal action {t.STOP}\b") as err:
        t.game.apply(t.state, t.STOP)
    assert isinstance(err.value, IllegalActionError)
    message = str(err.value)
    assert "drop a red cube at S5 (restroom)" in message
    assert "drop a grey cube at S5 (restroom)" in message
    for bad in (-1, 999, "stop", 1.5):
        with pytest.raises(ValueError, match="illegal action"):
            t.game.apply(t.state, bad)
    over = Table(2, end_at=1)
    over.s[st.PHASE] = st.PH_OVER
    over.s[st.END_TRIGGERED] = 1
    with pytest.raises(ValueError, match="the game is over"):
        over.game.apply(over.state, 0)


def test_text_and_picture_show_the_airport():
    """ansi and rgb_array renders of both airports."""
    text = rendered(planes_v0, "ansi", 2, num_players=3)
    assert "Flying Cloud" in text and "gate G1 at S9" in text and "player_2" in text
    for name in ("S0", "S13", "P1"):
        assert name in text
    check_picture(rendered(planes_v0, "rgb_array", 2, num_players=4, airport="zephyr"), 8)


def test_describe_action_follows_the_pending_decision():
    """Actions are described in words for the decision at hand."""
    t = Table(2)
    t.clear_board()
    t.put("S4", red=1, grey=1)
    t.move(0)
    assert t.game.describe_action(t.state, t.SPACE("S4")) == \
        "pick up the cubes at S4 (help_desk)"
    t.play(t.SPACE("S4"))
    assert t.game.describe_action(t.state, t.DROP("grey")) == \
        "drop a grey cube at S5 (restroom)"
    assert t.game.describe_action(t.state, t.STOP).startswith("stop at S4")


def test_observation_fits_the_declared_space_and_decision():
    """Observations lie in the declared Box and name the pending decision."""
    env = planes_v0.env(num_players=4)
    env.reset(seed=5)
    space = env.observation_space("player_0")["observation"]
    for _ in range(300):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        assert space.contains(obs["observation"])
        decision = obs["observation"][:st.NUM_PHASES + 1]
        assert decision.sum() == 1.0 and decision[st.NUM_PHASES] == 0.0
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
