"""The AEC surface beyond the cross-game tests: hidden information in observations,
rendering, the reachability kernel, a property test over options, and the built-in
agents (the rule-based agent wins >= 90% against random in 2-player games)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hyp

from tests.automobiles.table import DRAW, STOP, Table, activate, to_space
from tests.core.conformance import check_picture, rendered, rule_based_win_share
from transit_gym.agents.rule_based.automobiles import policy
from transit_gym.envs import automobiles_v0
from transit_gym.envs.automobiles import kernels
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.board import reachable
from transit_gym.envs.automobiles.cubes import draw_one
from transit_gym.envs.automobiles.data import MAX_SPACES, NUM_COLOURS
from transit_gym.envs.automobiles.encode import O_PLAYERS, OBS, PB_BAG, PB_BAG_SIZE, PLAYER_BLOCK
from transit_gym.envs.automobiles.kernels import random_playout
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.core.rollout import play_games

GAMES_PER_SEATING = 500
SEED = 2024


def test_observation_hides_other_bags_unless_open_bags():
    """Rule Clarifications: you may not look into any bag (own contents are known to the
    seat); online rules' deviation open_bags shows every bag."""
    for open_bags in (False, True):
        game = AutomobilesGame(num_players=3, open_bags=open_bags)
        state = game.new_state(2)
        obs = game.observe(state, 0)
        for k, seat in enumerate((0, 1, 2)):
            block = O_PLAYERS + k * PLAYER_BLOCK
            bag = state["bag"][seat * NUM_COLOURS:(seat + 1) * NUM_COLOURS]
            shown = obs[block + PB_BAG:block + PB_BAG + NUM_COLOURS]
            assert obs[block + PB_BAG_SIZE] == bag.sum()
            if seat == 0 or open_bags:
                assert np.array_equal(shown, bag)
            else:
                assert not shown.any()


def test_observation_does_not_depend_on_hidden_bag_order():
    """Two states differing only in the generator (future draws) look the same."""
    game = AutomobilesGame(num_players=2)
    a = game.new_state(5)
    b = a.copy()
    b.data[0:4] = [1, 2, 3, 4]
    assert np.array_equal(game.observe(a, 0), game.observe(b, 0))


def test_cubes_on_the_board_are_seen_by_every_seat():
    """Action Phase: movement cubes mark the car's progress on the board, in view of all
    (public information): every seat's observation shows the spaces holding them."""
    from transit_gym.envs.automobiles.encode import O_SPACES, SB_TURN_CUBE, SPACE_BLOCK
    t = Table(2)
    t.put_car(0, 0, 2)
    t.park_others(1)
    t.turn(0, active=dict(light_gray=2))
    t.act(activate("light_gray"), to_space(t.space(0, 4)))
    for seat in (0, 1):
        obs = t.game.observe(t.state, seat)
        marked = [sp for sp in range(MAX_SPACES)
                  if obs[O_SPACES + sp * SPACE_BLOCK + SB_TURN_CUBE] > 0]
        assert marked == [t.space(0, 4)]


def test_observation_layout_names_every_slot():
    game = AutomobilesGame(num_players=4)
    assert game.obs_layout().size == game.obs_size == OBS.size
    state = game.new_state(1)
    for seat in range(4):
        obs = game.observe(state, seat)
        assert obs.shape == (game.obs_size,) and (obs >= 0).all() and (obs <= 100_000).all()


def test_render_ansi_and_rgb_show_the_track_and_the_players():
    text = rendered(automobiles_v0, "ansi", 1, num_players=3)
    assert "Daytona Beach" in text and "lane 2" in text and "player_2" in text
    check_picture(rendered(automobiles_v0, "rgb_array", 1, num_players=3), 4)


def test_describe_action_names_the_decision():
    t = Table(2)
    t.put_car(0, 0, 2)
    t.turn(0, active=dict(light_gray=1))
    assert t.game.describe_action(t.state, STOP) == "end the Action Phase"
    card = t.game.market(t.state)["light_gray"]
    assert t.game.describe_action(t.state, activate("light_gray")) == (
        f"activate a light_gray cube ({card})")


def test_reachable_kernel_follows_colour_occupancy_and_lanes():
    """numba kernel: spaces reachable by up to N consecutive moves of one colour."""
    t = Table(2)
    t.put_car(0, 0, 39)                                  # lane 0 white [39, 40)
    t.park_others(1)
    out = np.zeros(MAX_SPACES, dtype=np.int64)
    car = int(t.s[st.CAR_SPACE])
    longest = reachable(t.s, t.p, 0, car, 0, 1 << 1, 6, out)   # light gray
    lane0 = [t.space(0, at) for at in (0, 2, 4, 6, 8, 10)]
    assert longest == 6 and [int(out[sp]) for sp in lane0] == [1, 2, 3, 4, 5, 6]
    assert int(out.astype(bool).sum()) == 6
    t.put_car(1, 0, 4, seg=0)                            # a car in [4, 6): one free segment
    reachable(t.s, t.p, 0, car, 0, 1 << 1, 6, out)
    assert out[t.space(0, 4)] == 3 and out[t.space(0, 6)] == 0   # not through the car


@given(seed=hyp.integers(0, 2**32 - 1), players=hyp.integers(2, 5),
       track=hyp.sampled_from(["daytona", "monza"]), accelerated=hyp.booleans(),
       branch=hyp.booleans(), open_bags=hyp.booleans(), draft=hyp.booleans(),
       grid=hyp.booleans(), buy_wear=hyp.booleans(), laps=hyp.integers(1, 3))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_property_random_options_keep_every_cube_in_one_place(seed, players, track,
                                                              accelerated, branch, open_bags,
                                                              draft, grid, buy_wear, laps):
    """Invariant: every cube of every colour is in exactly one place (stock, a bag, a pile,
    the track) after every step, whatever the options and the random card set."""
    game = AutomobilesGame(num_players=players, track=track, card_set="random", laps=laps,
                           accelerated_play=accelerated, branch_from_car=branch,
                           open_bags=open_bags, draft_behind_space=draft,
                           grid_crossing_counts=grid, buy_wear=buy_wear, max_rounds=120)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(20_000):
        if game.is_over(state):
            break
        mask = game.legal_mask(state)
        game.apply(state, int(rng.choice(np.flatnonzero(mask))))
        game.check_invariants(state)
    assert game.is_over(state)


def test_check_invariants_catches_a_lost_cube():
    game = AutomobilesGame(num_players=2)
    state = game.new_state(0)
    state.data[st.STOCK] -= 1
    try:
        game.check_invariants(state)
    except AssertionError as exc:
        assert "exactly one place" in str(exc)
    else:
        raise AssertionError("a missing cube went unnoticed")


# ----- agents -------------------------------------------------------------------------------
def test_rule_based_beats_random_in_90_percent_of_two_player_games():
    """Fixed set: seed 2024, games 0-499 with the rule-based agent first, then second."""
    game = AutomobilesGame(num_players=2)
    assert rule_based_win_share(game, policy, GAMES_PER_SEATING, SEED) >= 0.90


def test_rule_based_agents_finish_four_player_games_on_every_suggested_set():
    """The balance tool's workload: rule-based 4-player games end by the race, not by the
    round guard."""
    for name in ("Fine Tuning", "Expert Invitational", "Broken Down"):
        game = AutomobilesGame(num_players=4, card_set=name)
        result = play_games(game, policy, ["rule_based"] * 4, 20, seed=3)
        for i in range(20):
            state = result.state(game, i)
            assert state.data[st.END_TRIGGERED] == 1
            assert state.data[st.ROUNDS] < game.params[st.P_MAX_ROUNDS]


def test_final_infos_carry_the_statistics_the_balance_tool_reads():
    """End of the game: final ranks and per-player statistics for every seat."""
    game = AutomobilesGame(num_players=3, card_set="random")
    result = play_games(game, policy, ["rule_based", "random", "rule_based"], 2, seed=8)
    for i in range(2):
        info = game.final_info(result.state(game, i))
        assert sorted(seat["rank"] for seat in info)[0] == 1
        for seat in info:
            assert {"rank", "winner", "past_line", "rounds", "wear_gained", "bought",
                    "activated"} <= set(seat)
            assert len(seat["bought"]) == len(seat["activated"])


def test_space_actions_are_described_with_lane_positions_and_colours():
    t = Table(2)
    t.put_car(0, 0, 2)
    t.turn(0, active=dict(dark_gray=1))
    t.act(activate("dark_gray"))
    space = t.space(1, 4)
    assert t.game.describe_action(t.state, to_space(space)) == (
        f"move to track space {space} (lane 1, positions 4-8, dark_gray)")


def test_bag_draw_kernel_draws_in_proportion_to_the_bag():
    """numba kernel: a draw takes a uniformly random cube of the bag (3 black : 1 white)."""
    t = Table(2)
    t.give(0, "bag", black=3, white=1)
    blacks = 0
    for seed in range(400):
        t.rig(seed)
        state = t.s.copy()
        blacks += int(draw_one(state, 0) == 3)
    assert 0.65 < blacks / 400 < 0.85


def test_random_playout_kernel_finishes_a_game_reproducibly():
    """numba kernel: a whole random game from any position, chance from the state."""
    game = AutomobilesGame(num_players=3)
    state = game.new_state(4)
    words = np.array(seeded_words(9))
    a, b = state.data.copy(), state.data.copy()
    made_a = random_playout(a, game.params, words.copy(), 100_000)
    made_b = random_playout(b, game.params, words.copy(), 100_000)
    assert made_a == made_b > 0 and np.array_equal(a, b)
    assert kernels.current_player(a, game.params) == -1


def test_boost_offer_moves_agent_selection_to_the_other_player_and_back():
    """DESIGN.md / Boost: the other players' optional draws are their own decisions in the
    AEC env (agent_selection moves to each of them, then back to the player on turn)."""
    t = Table(3, card_set=["Car Chief", "Crew Chief", "Steering", "Boost", "Rotary Engine"])
    t.put_car(0, 0, 2)
    t.park_others(1, 2)
    t.give(0, "active", green=1, wear=1)
    t.give(0, "bag", white=3)
    t.give(1, "bag", yellow=2)
    t.give(2, "bag", yellow=2)
    t.turn(0)
    env = automobiles_v0.env(num_players=3, card_set=list(t.game.card_set), start_player=0)
    env.reset(seed=0)
    env.unwrapped.set_state(t.state)
    assert env.agent_selection == "player_0"
    env.step(activate("green"))
    env.step(STOP)                                  # no own draw
    assert env.agent_selection == "player_1"
    assert env.last()[0]["action_mask"][DRAW] == 1
    env.step(DRAW)
    assert env.agent_selection == "player_2"
    env.step(STOP)
    assert env.agent_selection == "player_0"
    assert env.unwrapped.game_state["active"][NUM_COLOURS + 5] == 1
