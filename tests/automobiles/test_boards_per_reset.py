"""Random boards drawn per reset (R-YUC "Track Cards", BGA's random
base / expansion / any options): the board comes from the reset seed, one batch mixes
boards, saved states restore exactly, the validator refuses a board index out of range,
``track_seed`` pins one board, and the agents use the state's own parameter row."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest

from transit_gym.agents.registry import make_agent, policy_kernel
from transit_gym.envs.automobiles import env as auto_env
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.automobiles.track_options import RANDOM_TRACKS, pinned_board
from transit_gym.envs.core.batch import BatchEnv
from transit_gym.envs.core.errors import ConfigError, StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rollout import play_games

POOL_NAMES = {"random": {"Daytona Beach", "Monza"},
              "random_expansion": {"Talladega", "Monte Carlo", "Tucson"}}
POOL_NAMES["random_all"] = POOL_NAMES["random"] | POOL_NAMES["random_expansion"]
#: states saved by the code before the per-reset draw (main at ba7d32e: a random track kept
#: its drawn track_seed in the options): a mid-game state dict, the 80 random actions
#: played after it, the final fields and the board's name, for two option sets
OLD_STATES = Path(__file__).with_name("data") / "saved_before_boards_per_reset.json"


def _walk(game: AutomobilesGame, state: State, seed: int, steps: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.is_over(state):
            return
        game.apply(state, int(rng.choice(game.legal_actions(state))))


@pytest.mark.parametrize("track", sorted(RANDOM_TRACKS))
def test_the_reset_seed_draws_every_board_of_the_pool(track):
    """R-YUC "Track Cards": each reset draws a board of the pool from its seed; over
    40 seeds every board of the pool comes up, the same seed gives the same board in a
    game built apart, and the row the kernels take is that board's."""
    game = AutomobilesGame(num_players=2, track=track)
    other = AutomobilesGame(num_players=2, track=track)
    assert game.num_variants == len(RANDOM_TRACKS[track]) and game.track is None
    seen = set()
    for seed in range(40):
        state = game.new_state(seed)
        board = game.track_of(state)
        seen.add(board.name)
        again = other.new_state(seed)
        assert other.track_of(again).name == board.name and again == state
        p = game.params_of(state)
        assert p[st.P_NUM_SPACES] == board.num_spaces and p[st.P_LAP] == board.lap_length
    assert seen == POOL_NAMES[track]


def test_the_env_reset_draws_the_board_and_renders_it():
    """Two envs built apart, reset with one seed, race on the same board (a former bug:
    they used to differ); the text render names the drawn board."""
    names = set()
    for seed in range(12):
        one, two = auto_env.env(track="random_all"), auto_env.env(track="random_all")
        one.reset(seed=seed)
        two.reset(seed=seed)
        board = one.unwrapped.game.track_of(one.unwrapped.game_state)
        assert two.unwrapped.game.track_of(two.unwrapped.game_state).name == board.name
        names.add(board.name)
        text = one.unwrapped.game.render_text(one.unwrapped.game_state)
        assert f"Automobiles on {board.name}:" in text
    assert len(names) >= 3


def test_one_batch_mixes_boards_and_markets():
    """The batch API and the jitted games take a parameter row per game: one batch of a
    random board and a random market holds several boards and markets, and each slot
    equals the single game of its stream."""
    game = AutomobilesGame(num_players=3, track="random_all", card_set="random",
                           card_pool="all")
    batch = BatchEnv(game, 16, seed=4)
    boards = {game.track_of(batch.states[b]).name for b in range(16)}
    markets = {tuple(batch.states[b, st.LAYOUT.slice("card_of")]) for b in range(16)}
    assert len(boards) >= 3 and len(markets) >= 8
    for b in range(16):
        single = game.new_state(4, stream=b)
        assert np.array_equal(batch.states[b], single.data)
        assert np.array_equal(batch.obs[b], game.observe(single, int(batch.players[b])))
    results = play_games(game, policy_kernel("automobiles"),
                         ["rule_based", "random", "random"], 10, seed=8)
    played = {int(s[game.variant_slot]) for s in results.final_states}
    assert len(played) >= 2
    for i in range(10):
        final = results.state(game, i)
        assert game.is_over(final)
        assert np.allclose(results.rewards[i], game.rewards(final))


def test_saved_states_restore_the_drawn_board():
    """to_dict / from_dict, pickle, set_state and BatchEnv.load keep the board a state
    plays (its ``variant`` field), mid-game."""
    game = AutomobilesGame(num_players=2, track="random_expansion")
    state = next(s for s in (game.new_state(k) for k in range(20))
                 if game.track_of(s).name != game.tracks[0].name)
    _walk(game, state, 3, 30)
    restored = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored == state and restored.game.track_of(restored).name \
        == game.track_of(state).name
    assert pickle.loads(pickle.dumps(state)) == state
    env = auto_env.raw_env(track="random_expansion")
    env.reset(seed=0)
    env.set_state(state)
    assert np.array_equal(env.observe(env.agent_selection)["observation"],
                          game.observe(state, game.current_player(state)))
    batch = BatchEnv(game, 2, seed=1)
    batch.load(1, state)
    assert np.array_equal(batch.states[1], state.data)
    assert np.array_equal(batch.masks[1], game.legal_mask(state))


@pytest.mark.parametrize("bad", [-1, 3, 99])
def test_a_board_index_out_of_range_is_refused(bad):
    """The validator refuses a state whose ``variant`` names no parameter row, before
    any kernel reads the row (from_dict, set_state, BatchEnv.load, unpickling)."""
    game = AutomobilesGame(num_players=2, track="random_expansion")
    payload = game.new_state(1).to_dict()
    payload["fields"]["variant"] = [bad]
    with pytest.raises(StateDictError, match=rf"variant = {bad}, allowed 0\.\.2"):
        State.from_dict(payload)
    tampered = game.new_state(1)
    tampered.data[game.variant_slot] = bad
    with pytest.raises(StateDictError, match="variant"):
        BatchEnv(game, 1, seed=0).load(0, tampered)
    with pytest.raises(StateDictError, match="variant"):
        env = auto_env.raw_env(track="random_expansion")
        env.reset(seed=0)
        env.set_state(tampered)
    with pytest.raises(StateDictError, match="variant"):
        pickle.loads(pickle.dumps(tampered))


def test_track_seed_pins_one_board_as_before():
    """``track_seed=N`` keeps its meaning: the one board ``N`` draws, for every reset,
    with the single-board state layout (no ``variant`` field)."""
    for track, pool in RANDOM_TRACKS.items():
        drawn = set()
        for k in range(12):
            game = AutomobilesGame(num_players=2, track=track, track_seed=k)
            assert game.num_variants == 1 and game.layout is st.LAYOUT
            assert game.track.name == AutomobilesGame(
                num_players=2, track=pinned_board(list(pool), k)).track.name
            assert game.options["track_seed"] == k
            drawn.add(game.track.name)
        assert drawn <= POOL_NAMES[track] and len(drawn) >= 2
    fresh = AutomobilesGame(num_players=2, track="random")
    assert "track_seed" not in fresh.options
    with pytest.raises(ConfigError, match="track_seed must be"):
        AutomobilesGame(num_players=2, track="random", track_seed="x")


def test_states_saved_before_the_per_reset_draw_load_and_replay_identically():
    """States written by the earlier code (a random track kept its drawn ``track_seed`` in
    the options) load on the same board and replay the recorded actions to the recorded
    final state, field by field."""
    cases = json.loads(OLD_STATES.read_text())
    assert set(cases) == {"random_board", "pinned_board"}
    for case in cases.values():
        state = State.from_dict(case["saved"])
        assert state.game.track.name == case["board"]
        for action in case["actions"]:
            state.game.apply(state, action)
        assert state.to_dict()["fields"] == case["final"]


def test_params_of_a_game_with_several_rows_is_asked_per_state():
    """``game.params`` of a game drawing its board per reset is an error naming
    ``params_of``, so no caller silently plays the wrong board."""
    game = AutomobilesGame(num_players=2, track="random")
    with pytest.raises(ConfigError, match=r"params_of\(state\)"):
        _ = game.params
    assert game.param_table.shape == (2, st.PARAMS.size)


@pytest.mark.parametrize("spec", ["rule_based", "mcts:30"])
def test_agents_play_each_state_on_its_own_board(spec):
    """The rule-based and search agents read the state's parameter row (the search
    determinizes and simulates on the drawn board): their moves are legal on boards of
    different lengths, and each game ends."""
    game = AutomobilesGame(num_players=2, track="random_all", laps=1)
    boards = set()
    for seed in (0, 1, 2, 5):
        state = game.new_state(seed)
        boards.add(game.track_of(state).name)
        agents = [make_agent(spec, game, seed=seat) for seat in range(2)]
        for _ in range(3000):
            player = game.current_player(state)
            if player < 0:
                break
            game.apply(state, agents[player].act_state(state, player))
        assert game.is_over(state)
    assert len(boards) >= 2
