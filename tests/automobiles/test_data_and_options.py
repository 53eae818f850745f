"""Data files (cards, cubes, tracks) and constructor options: defaults, user files and
clear errors (DESIGN.md: Data files, Errors)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tests.automobiles.table import DATA
from transit_gym.agents.rule_based.automobiles import policy
from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import COLOUR_NAMES, SUGGESTED_SETS, load_cards, load_track
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.errors import ConfigError, DataFileError
from transit_gym.envs.core.rollout import play_games, random_rollouts

MINI_TRACK = (DATA / "mini_track.toml").read_text()


# ----- cards and cubes ----------------------------------------------------------------------
def test_default_cards_cover_the_base_game():
    """In This Box / Card Clarifications: 4 gears, Wear, 4 cards of each of 5 colours;
    282 cubes (30/28/24/16 gears, 80 wear, 40 yellow, 16 of each other colour); the Racing
    Season (R-YUC appendix) adds 3 cards of each of the 5 colours, marked ``expansion``."""
    cards = load_cards()
    assert cards.num_cards == 40
    for colour in auto_data.CARD_COLOURS:
        of_colour = [cards.card_id(n) for n in cards.cards_of(colour)]
        assert [int(cards.expansion[k]) for k in of_colour].count(0) == 4
        assert [int(cards.expansion[k]) for k in of_colour].count(1) == 3
    assert cards.supply.tolist() == [30, 28, 24, 16, 80, 40, 16, 16, 16, 16]
    assert int(cards.supply.sum()) == 282
    assert cards.wear_chart.tolist() == [1, 2, 3, 4]
    assert cards.hand_size == 7


def test_every_printed_cost_and_value_is_flagged_reconstructed_in_the_data_file():
    """DATA 2.2: no text source prints costs and values; the shipped table says so."""
    text = (Path(auto_data.__file__).with_name("data.toml")).read_text()
    for line in text.splitlines():
        if re.match(r"^(cost|value) = ", line):
            assert "RECONSTRUCTED" in line or "INFERRED" in line, line
    for name in ("track_daytona.toml", "track_monza.toml"):
        assert "RECONSTRUCTED" in Path(auto_data.__file__).with_name(name).read_text()


def test_suggested_sets_and_colour_names_are_exposed():
    """Suggested Card Sets: seven named sets of five cards, one per colour; the Racing
    Season's Suggested Card Sets add six (R-YUC), two of them expansion cards only."""
    assert len(SUGGESTED_SETS) == 13
    cards = load_cards()
    assert sorted(cards.expansion_sets) == sorted([
        "Rinse & Repeat", "Squeaky Clean", "Well Oiled Machine", "This or That",
        "Shake & Bake", "Rubbin' is Racin'"])
    assert len(cards.base_sets) == 7
    assert cards.sets["This or That"] == (
        "Manager", "Pit Crew", "Tires", "Turbo", "Fuel Injection Engine")
    for alone in ("Rinse & Repeat", "Squeaky Clean"):
        assert all(cards.expansion[cards.card_id(n)] for n in cards.sets[alone])
    assert SUGGESTED_SETS["Expert Invitational"] == (
        "Mechanic", "Pit Crew", "Steering", "Turbo", "Hybrid Engine")
    assert COLOUR_NAMES[:5] == ("white", "light_gray", "dark_gray", "black", "wear")
    assert len(COLOUR_NAMES) == 10


def test_user_card_file_replaces_costs_and_values(tmp_path):
    """card_data=: a user file with the printed numbers (cards matched by name)."""
    path = tmp_path / "cards.toml"
    path.write_text('[[cards]]\nname = "Gearbox"\ncost = 6\nvalue = 2\n\n'
                    '[[cards]]\nname = "4th Gear"\ncost = 2\n')
    game = AutomobilesGame(num_players=2, card_data=str(path))
    state = game.new_state(0)
    assert state["cost"][8] == 6 and state["value"][8] == 2
    assert state["cost"][1] == 2 and state["value"][1] == 1      # value kept
    assert AutomobilesGame(num_players=2).new_state(0)["cost"][8] == 4


def test_user_card_file_can_add_a_card_for_later_expansions(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text('[[cards]]\nname = "Spare Engine"\ncolor = "blue"\ncost = 4\nvalue = 1\n'
                    'effect = "rotary"\nwear = 2\n')
    game = AutomobilesGame(num_players=2, card_data=str(path),
                           card_set=["Manager", "Crew Chief", "Suspension", "Gearbox",
                                     "Spare Engine"])
    assert game.market(game.new_state(0))["blue"] == "Spare Engine"
    assert random_rollouts(game, 3, seed=1) > 0


@pytest.mark.parametrize(("body", "expected"), [
    ('[[cards]]\nname = "Gearbox"\ncost = -1\n', r"cards\[0\].*'cost' must be between"),
    ('[[cards]]\nname = "Gearbox"\nprice = 3\n', r"unknown keys \['price'\]"),
    ('[[cards]]\nname = "New"\ncost = 3\nvalue = 1\neffect = "gearbox"\n', r"needs 'color'"),
    ('[[cards]]\nname = "Gearbox"\neffect = "teleport"\n', r"'effect' must be one of"),
    ('[[cards]]\nname = "Gearbox"\ncolor = "pink"\n', r"'color' must be one of"),
    ('[[cards]]\nname = "Odd Gear"\ncolor = "white"\ncost = 1\nvalue = 1\neffect = "gear"\n'
     'count = 1\n', r"colour 'white' needs exactly one card"),
    ('[cubes]\nsupply = { white = 3 }\nstarting_bag = { white = 1 }\n', r"starting bags"),
    ('[sets]\n"Bad" = ["Manager", "Engineer", "Steering", "Turbo", "Hybrid Engine"]\n',
     r"set 'Bad': needs exactly one yellow card"),
    ('[whatever]\nx = 1\n', r"unknown keys \['whatever'\]"),
])
def test_bad_card_files_name_file_entry_and_expectation(tmp_path, body, expected):
    path = tmp_path / "cards.toml"
    path.write_text(body)
    with pytest.raises(DataFileError, match=expected) as err:
        load_cards(path)
    assert str(path) in str(err.value)


def test_missing_and_malformed_files_are_clear_errors(tmp_path):
    with pytest.raises(DataFileError, match="does not exist"):
        load_cards(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[[cards]\nname = ")
    with pytest.raises(DataFileError, match="not valid TOML"):
        load_cards(bad)


# ----- tracks -------------------------------------------------------------------------------
def test_shipped_tracks_are_valid_and_every_space_leads_forward():
    """How to Move on the Track: adjacency (diagonals count, forward only) computed from
    the spaces; each space offers at most one neighbour per lane (same, inner, outer)."""
    for name in ("daytona", "monza"):
        track = load_track(name)
        assert len(track.grid) == 5 and track.allowance.tolist() == [10, 11, 12, 13, 14]
        assert (track.adj[:, 0] >= 0).all()
        for sp in range(track.num_spaces):
            lanes = [int(track.lane[b]) for b in track.adj[sp] if b >= 0]
            assert len(lanes) == len(set(lanes))
            assert all(abs(lane - int(track.lane[sp])) <= 1 for lane in lanes)
            assert all(0 < d < track.lap_length for d in track.adj_dist[sp] if d)


def test_adjacency_of_a_small_track_by_hand(tmp_path):
    """Space B follows A when it covers the point just past A's front edge, one lane away
    at most; the lap wraps."""
    path = tmp_path / "mini.toml"
    path.write_text(MINI_TRACK)
    track = load_track(str(path))
    # lane 0: spaces 0-7 at positions 0..7; lane 1: spaces 8-11 at 0, 2, 4, 6
    assert sorted(int(b) for b in track.adj[0] if b >= 0) == [1, 8]    # [1,2) and [0,2)
    assert sorted(int(b) for b in track.adj[1] if b >= 0) == [2, 9]    # [2,3) and [2,4)
    assert sorted(int(b) for b in track.adj[8] if b >= 0) == [2, 9]    # from [0,2)
    assert sorted(int(b) for b in track.adj[7] if b >= 0) == [0, 8]    # wraps past the line
    assert track.next_same[11] == 8


def test_a_user_track_plays_whole_games(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(MINI_TRACK)
    game = AutomobilesGame(num_players=2, track=str(path), laps=2)
    assert random_rollouts(game, 5, seed=3) > 0
    result = play_games(game, policy, ["rule_based", "random"], 5, seed=3)
    assert np.allclose(result.rewards.sum(axis=1), 0.0)


@pytest.mark.parametrize(("change", "expected"), [
    (("count = 8\ncolors = [\"white\"]", "count = 9\ncolors = [\"white\"]"), r"overlaps space"),
    (('colors = ["light_gray", "dark_gray"]', 'colors = ["purple"]'), r"'colors' must be one"),
    (('colors = ["light_gray", "dark_gray"]', 'colors = []'), r"1-3 different colours"),
    (("lane = 0\nat = 7\nallowance = 10", "lane = 1\nat = 6\nallowance = 10",
      "lane = 1\nat = 4\nallowance = 11", "lane = 0\nat = 7\nallowance = 11"),
     r"P2 must be behind P1"),
    (("lap_length = 8", "lap_length = 8\nbanking = 3"), r"unknown keys \['banking'\]"),
    (("lane = 1\nat = 4", "lane = 3\nat = 4"), r"'lane' must be between 0 and 1"),
])
def test_bad_track_files_name_file_entry_and_expectation(tmp_path, change, expected):
    path = tmp_path / "track.toml"
    text = MINI_TRACK
    for i in range(0, len(change), 2):
        assert change[i] in text
        text = text.replace(change[i], change[i + 1], 1)
    path.write_text(text)
    with pytest.raises(DataFileError, match=expected) as err:
        load_track(str(path))
    assert str(path) in str(err.value)


def test_a_dead_end_space_is_rejected(tmp_path):
    path = tmp_path / "track.toml"
    path.write_text(MINI_TRACK.replace("count = 8\ncolors = [\"white\"]",
                                       "count = 7\ncolors = [\"white\"]")
                    .replace("count = 4\ncolors", "count = 3\ncolors"))
    with pytest.raises(DataFileError, match="no space ahead"):
        load_track(str(path))


def test_too_few_grid_slots_for_the_players(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(MINI_TRACK)
    with pytest.raises(ConfigError, match="2 grid slots, too few for 3 players"):
        AutomobilesGame(num_players=3, track=str(path))


# ----- options ------------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "expected"), [
    ({"laps": 0}, "laps must be an integer in 1..8"),
    ({"laps": 9}, "laps must be an integer in 1..8"),
    ({"laps": True}, "laps must be"),
    ({"track": "silverstone"}, "track must be one of"),
    ({"track": 3}, "track must be"),
    ({"card_set": "Fast Cars"}, "not a suggested set"),
    ({"card_set": ["Manager", "Crew Chief", "Suspension", "Gearbox"]}, "list of 5 card names"),
    ({"card_set": ["Manager", "Engineer", "Suspension", "Gearbox", "Hybrid Engine"]},
     "exactly one yellow card"),
    ({"card_set": ["Manager", "Crew Chief", "Suspension", "Gearbox", "Warp Drive"]},
     "unknown card name"),
    ({"card_set": 5}, "card_set must be"),
    ({"start_player": 2}, "start_player"),
    ({"open_bags": "yes"}, "open_bags must be True or False"),
    ({"accelerated_play": 1}, "accelerated_play must be True or False"),
    ({"max_rounds": 0}, "max_rounds"),
    ({"card_data": 7}, "card_data must be a path"),
])
def test_bad_options_raise_config_errors(options, expected):
    with pytest.raises(ConfigError, match=re.escape(expected)):
        AutomobilesGame(num_players=2, **options)


def test_set_names_ignore_case_and_punctuation():
    for name in ("Money, Money, Money", "money money money", "MONEY_MONEY_MONEY"):
        game = AutomobilesGame(num_players=2, card_set=name)
        assert game.card_set == ("Car Chief", "Pit Team", "Tires", "Boost", "Rotary Engine")
    listed = AutomobilesGame(num_players=2, card_set=["Hybrid Engine", "Boost", "Tires",
                                                      "Pit Team", "Car Chief"])
    assert listed.card_set == ("Car Chief", "Pit Team", "Tires", "Boost", "Hybrid Engine")


@pytest.mark.parametrize("name", sorted(SUGGESTED_SETS))
def test_every_suggested_set_plays_whole_games(name):
    game = AutomobilesGame(num_players=3, card_set=name)
    result = play_games(game, policy, ["rule_based", "random", "rule_based"], 4, seed=11)
    assert (result.decisions > 0).all()
    for i in range(4):
        state = result.state(game, i)
        game.check_invariants(state)
        assert game.is_over(state)


def test_options_round_trip_through_the_state_dict(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(MINI_TRACK)
    game = AutomobilesGame(num_players=2, track=Path(path), card_set="random",
                           open_bags=True, accelerated_play=True, laps=5)
    state = game.new_state(1)
    from transit_gym.envs.core.game import State
    restored = State.from_dict(state.to_dict())
    assert restored == state and restored.game.options["track"] == str(path)
    assert int(state.data[st.CURRENT]) == restored.game.current_player(restored)


def test_card_pool_names_what_a_random_card_set_draws_from():
    """``card_set="random"`` draws one card per colour from the pool
    ``card_pool`` names (base by default; expansion; all); a bad pool is refused."""
    base = AutomobilesGame(num_players=2, card_set="random")
    cards = base.cards
    assert base.card_pool.tolist() == (cards.expansion == 0).astype(int).tolist()
    for seed in range(6):
        state = base.new_state(seed)
        chosen = [int(state.data[st.CARD_OF + c]) for c in auto_data.CARD_COLOURS]
        assert not any(cards.expansion[k] for k in chosen)
    for pool, wanted in (("expansion", {1}), ("all", {0, 1})):
        game = AutomobilesGame(num_players=2, card_set="random", card_pool=pool)
        drawn = set()
        for seed in range(40):
            state = game.new_state(seed)
            drawn |= {int(cards.expansion[int(state.data[st.CARD_OF + c])])
                      for c in auto_data.CARD_COLOURS}
        assert drawn == wanted, pool
    with pytest.raises(ConfigError, match="card_pool must be one of"):
        AutomobilesGame(num_players=2, card_set="random", card_pool="bonus")
