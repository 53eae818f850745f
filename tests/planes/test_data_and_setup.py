"""Planes data (cards, components, both airports, user files) and Setup 1-7."""

from __future__ import annotations

import json

import numpy as np
import pytest

from transit_gym.envs.core.errors import ConfigError, DataFileError
from transit_gym.envs.planes import data
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.data import COLOR_NAMES, MAX_TYPES, NUM_COLORS
from transit_gym.envs.planes.rules import PlanesGame

from .table import Table


# ----- components and cards (rulebook In This Box, Card Clarifications; data 1.1-1.3) ------------
def test_components_match_in_this_box():
    """In This Box: 5 cubes per party colour, 20 neutral cubes, 6 cones, planes of 5 slots."""
    c = data.COMPONENTS
    assert (c.party_cubes, c.neutral_cubes, c.cones, c.plane_slots) == (5, 20, 6, 5)
    assert (c.hand_size, c.neutral_per_space, c.track_end) == (3, 2, 12)
    assert (c.blockage_threshold, c.vp_per_cube, c.neutral_board_draw) == (7, 5, 2)
    assert c.poi_tokens["blank"] == 14 and sum(c.poi_tokens.values()) == 44


def test_deck_is_15_cards_in_4_copies_with_20_cards_at_each_vp():
    """Contents: 60 cards = 15 unique x 4 player dots; goal VP 1, 2 and 3 on 5 cards each."""
    cards = data.load_cards()
    assert cards.num_types == 15 and data.COPIES == 4
    assert sorted(np.bincount(cards.vp)[1:].tolist()) == [5, 5, 5]
    kinds = [data.ACTION_KINDS[a] for a in cards.action]
    assert kinds == ["draw", "gather", "gather", "choose_one", "skip", "draw_discard",
                     "regroup", "send", "send", "ignore_neutrals", "draw_discard", "send",
                     "backwards", "own_only", "move_twice"]
    assert cards.action_n.tolist()[:1] == [1] and cards.action_n[5] == 2
    assert cards.action_n[10] == 3 and cards.action_n[11] == 2


def test_every_game_starts_with_60_cards_and_40_cubes_in_one_place_each():
    """In This Box: 60 cards and 40 cubes, each in exactly one place at the start."""
    for n in (2, 3, 4):
        t = Table(n, seed=n)
        cards = sum(t.game.card_places(t.state).values())
        assert cards[:15].tolist() == [4] * 15 and not cards[15:].any()
        cubes = sum(t.game.cube_places(t.state).values())
        assert cubes.tolist() == [5, 5, 5, 5, 20]


# ----- airports (data 1.4) ----------------------------------------------------------------------
def _steps(airport, a, b):
    """Fewest arrows from space ``a`` to space ``b``."""
    frontier, seen, d = {a}, {a}, 0
    while b not in frontier:
        frontier = {j for i in frontier for j in airport.next[i]} - seen
        seen |= frontier
        d += 1
    return d


@pytest.mark.parametrize("name", ["flying_cloud", "zephyr"])
def test_shipped_airports_meet_the_rulebooks_board_rules(name):
    """Setup 3/6: P1-P4 with matching G1-G4; neutral gates; two neutral cubes on each
    other space; on Zephyr each P is 9 spaces from its gate."""
    a = data.load_airport(name)
    assert a.reconstructed                       # flagged: not the printed board
    assert a.num_spaces == 14 and a.num_gates == 6
    assert sorted(a.gate_start.tolist()) == [-1, -1, 0, 1, 2, 3]
    if name == "zephyr":
        for k in range(4):
            g = a.gate_start.tolist().index(k)
            assert _steps(a, a.start[k], a.gate_access[g]) == 9
    assert (a.num_spaces - 4) * 2 == data.COMPONENTS.neutral_cubes


def test_flying_cloud_is_a_one_way_ring_fitted_to_the_game_example():
    """Data 1.4.3, refitted to A Game Example: ring S0..S13; P1 S0,
    P4 S4, P2 S6, P3 S12; G1 9 spaces from P1 (turn 3: Red's 6 cubes at P4 reach it),
    G2 at S1 (turns 5 and 8), G3 at S3 (turns 7 and 9), N1 at S6 (turn 7), N2 at S2
    (turn 3)."""
    a = data.load_airport("flying_cloud")
    assert a.next == [[(i + 1) % 14] for i in range(14)]
    assert [a.space_ids[sp] for sp in a.start] == ["S0", "S6", "S12", "S4"]
    ids = dict(zip(a.gate_ids, (a.space_ids[sp] for sp in a.gate_access), strict=True))
    assert ids == {"G1": "S9", "G2": "S1", "G3": "S3", "G4": "S13", "N1": "S6", "N2": "S2"}


def test_zephyr_centre_space_has_two_arrows():
    """Rule Clarifications: the Zephyr centre space has more than one arrow."""
    a = data.load_airport("zephyr")
    centre = a.space_index("C2")
    assert sorted(a.space_ids[j] for j in a.next[centre]) == ["A1", "B1"]
    assert sum(len(row) > 1 for row in a.next) == 1
    assert sorted(a.space_ids[j] for j in a.prev()[a.space_index("C1")]) == ["A6", "B6"]


def _entries(kind: str, *rows: dict) -> str:
    """TOML text of one ``[[kind]]`` table per row, keys in the row's order."""
    return "".join(f"[[{kind}]]\n" + "".join(f"{key} = {json.dumps(value)}\n"
                                               for key, value in row.items())
                   for row in rows)


AIRPORT = "\n[airport]\nname = \"Test\"\n{spaces}\n" + _entries(
    "gates", *(dict(id=f"G{n}", start=n, access=access) for n, access in enumerate("CDAB", 1))
) + "{neutral}\n"
RING = "\n" + _entries("spaces",
                       dict(id="A", start=1, poi="blank", next=["B"]),
                       dict(id="B", start=2, poi="restroom", next=["C"]),
                       dict(id="C", start=3, poi="fast_food", next=["D"]),
                       dict(id="D", start=4, poi="gift_shop", next=["E"]),
                       dict(id="E", poi="fine_dining", next=["A"]))
NEUTRAL = "\n" + _entries("gates", dict(id="N1", neutral=True, access="E"))


def _airport(tmp_path, spaces=RING, neutral=NEUTRAL, name="port.toml"):
    path = tmp_path / name
    path.write_text(AIRPORT.format(spaces=spaces, neutral=neutral))
    return str(path)


def test_user_airport_file_plays(tmp_path):
    """A user's board (Setup 1: the airport is a choice) is validated and playable."""
    game = PlanesGame(airport=_airport(tmp_path))
    state = game.new_state(0)
    assert game.airport.name == "Test" and game.airport.num_spaces == 5
    assert not game.airport.reconstructed
    t = Table(airport=_airport(tmp_path))
    assert t.cubes("E") == {"grey": 2}
    assert state["box_cubes"][4] == 18          # only one space takes neutral cubes
    game.check_invariants(state)


@pytest.mark.parametrize(("spaces", "neutral", "expected"), [
    (RING.replace('start = 4\n', ''), NEUTRAL, r"P1-P4.*missing \['P4'\]"),
    (RING.replace('start = 4', 'start = 3'), NEUTRAL, "start space P3 is already 'C'"),
    (RING.replace('next = ["E"]', 'next = ["Z"]'), NEUTRAL, r"'next' entry 'Z' is not a space"),
    (RING.replace('next = ["E"]', 'next = ["D"]'), NEUTRAL, "back to itself"),
    (RING.replace('next = ["E"]', 'next = []'), NEUTRAL, r"'next' must list 1\.\.4"),
    (RING.replace('poi = "blank"', 'poi = "lounge"'), NEUTRAL, "'poi' must be one of"),
    (RING, "", r"1\.\.4 neutral gates"),
    (RING, NEUTRAL.replace('access = "E"', 'access = "Q"'), "'access' 'Q' is not a space"),
    (RING, NEUTRAL.replace('neutral = true', 'start = 1'), "G1 .* listed twice"),
    (RING.replace('next = ["A"]', 'next = ["D"]'), NEUTRAL, "reachable from every other"),
    (RING.replace('id = "B"', 'id = "A"'), NEUTRAL, "space id 'A' is used twice"),
    (RING.replace('poi = "blank"', 'poi = "blank"\ncolour = 1'), NEUTRAL, "unknown keys"),
])
def test_user_airport_errors_name_file_entry_and_expectation(tmp_path, spaces, neutral,
                                                             expected):
    """Every board rule of the rulebook is checked in a user airport (data 1.4.1)."""
    path = _airport(tmp_path, spaces, neutral)
    with pytest.raises(DataFileError, match=expected) as err:
        PlanesGame(airport=path)
    assert "port.toml" in str(err.value)


def test_airport_needs_room_for_two_neutral_cubes_per_space(tmp_path):
    """Setup 4: 20 neutral cubes, 2 on each non-start space: at most 10 such spaces."""
    extra = _entries("spaces", *(dict(id=f"X{i}", poi="blank", next=[f"X{i + 1}"])
                                 for i in range(11)))
    spaces = RING.replace('next = ["A"]', 'next = ["X0"]') + extra.replace('"X11"', '"A"')
    with pytest.raises(DataFileError, match=r"1\.\.14 spaces \(4 start spaces and at most "
                                             r"10 others.*got 16"):
        PlanesGame(airport=_airport(tmp_path, spaces))


def test_missing_airport_file_and_bad_airport_option():
    """Clear errors for a missing airport file or a non-path option."""
    with pytest.raises(DataFileError, match="does not exist"):
        PlanesGame(airport="no/such/airport.toml")
    with pytest.raises(ConfigError, match="airport"):
        PlanesGame(airport=3)


CARDS = """
[[cards]]
name = "Only Card"
action = {{ kind = "draw", n = 1 }}
goal = {goal}
vp = {vp}
"""


def test_user_card_file_replaces_the_card_table(tmp_path):
    """A user card table (e.g. the printed pairing of actions and goals) is used as given."""
    path = tmp_path / "cards.toml"
    path.write_text(CARDS.format(goal='{ cubes = 0, poi = "blank" }', vp=4))
    game = PlanesGame(cards=str(path))
    assert game.cards.names == ("Only Card",) and game.cards.vp.tolist() == [4]
    t = Table(cards=str(path))
    # four copies for two hands of three: the deal stops when no card is left
    assert t.hand(0) == {"Only Card": 2} and t.hand(1) == {"Only Card": 2}
    t.check()


@pytest.mark.parametrize(("goal", "vp", "expected"), [
    ('{ cubes = 0 }', 0, None),
    ('{ }', 1, "at least one condition"),
    ('{ sole = true, cubes = 1 }', 1, "'sole' needs exactly one"),
    ('{ mine = [2, 1] }', 1, r"min <= max"),
    ('{ colors = 6 }', 1, "'colors' must be between 1 and 5"),
    ('{ height = 2 }', 1, "unknown keys"),
    ('{ cubes = 0 }', -1, "'vp' must be between"),
])
def test_user_card_file_errors(tmp_path, goal, vp, expected):
    """Card-table errors name the file, the card and what was expected."""
    path = tmp_path / "cards.toml"
    path.write_text(CARDS.format(goal=goal, vp=vp))
    if expected is None:
        PlanesGame(cards=str(path))
        return
    with pytest.raises(DataFileError, match=expected) as err:
        PlanesGame(cards=str(path))
    assert "cards.toml" in str(err.value) and "cards[0]" in str(err.value)


def test_user_card_file_action_errors(tmp_path):
    """Unknown action kinds and blank destinations are rejected."""
    path = tmp_path / "cards.toml"
    path.write_text(CARDS.format(goal="{ cubes = 0 }", vp=1).replace('"draw", n = 1',
                                                                      '"teleport"'))
    with pytest.raises(DataFileError, match="'kind' must be one of"):
        PlanesGame(cards=str(path))
    path.write_text(CARDS.format(goal="{ cubes = 0 }", vp=1).replace(
        'kind = "draw", n = 1', 'kind = "send", poi = "blank", n = 1'))
    with pytest.raises(DataFileError, match="cannot be 'blank'"):
        PlanesGame(cards=str(path))


# ----- options ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "expected"), [
    ({"blockage_counts": "some"}, "blockage_counts must be one of"),
    ({"exact_goals": "fuzzy"}, "exact_goals must be one of"),
    ({"end_at": 0}, "end_at must be a boarding-track space in 1..12"),
    ({"end_at": 13}, "end_at"),
    ({"end_at": True}, "end_at"),
    ({"player_decks": "yes"}, "player_decks must be True or False"),
    ({"end_draw": "never"}, "end_draw must be one of"),
    ({"skip": "sometimes"}, "skip must be one of"),
    ({"first_player": 2}, "first_player must be a seat 0..1"),
    ({"reward": "glory"}, "reward must be one of"),
    ({"max_rounds": 0}, r"max_rounds must be None \(no limit\) or a round count in 1..100000"),
    ({"cards": 5}, "cards must be a file path"),
    ({"poi": ["S1"]}, "poi must be a dict"),
    ({"poi": {"S99": "blank"}}, "'S99' is not a space of Flying Cloud"),
    ({"poi": {"S1": "lounge"}}, "kinds"),
])
def test_bad_options_raise_config_errors(options, expected):
    """Every option is validated with a ConfigError naming it."""
    with pytest.raises(ConfigError, match=expected):
        PlanesGame(**options)


@pytest.mark.parametrize(("options", "expected"), [
    ({"num_players": 1}, "2-4 players, got num_players=1"),
    ({"num_players": 5}, "2-4 players, got num_players=5"),
    ({"num_players": "3"}, "num_players must be an integer"),
    ({"blockage_count": "all"}, r"unknown option\(s\) \['blockage_count'\]"),
])
def test_player_count_and_unknown_options_raise_config_errors(options, expected):
    """2-4 players (rulebook cover); a misspelt option is named, never ignored."""
    with pytest.raises(ConfigError, match=expected):
        PlanesGame(**options)


@pytest.mark.parametrize("kind", ["airport", "cards"])
def test_malformed_data_files_name_the_file(tmp_path, kind):
    """A data file that is not TOML raises a DataFileError naming it."""
    path = tmp_path / f"broken_{kind}.toml"
    path.write_text("[[spaces]\nid = \n")
    with pytest.raises(DataFileError, match=r"broken_\w+\.toml.*not valid TOML"):
        PlanesGame(**{kind: str(path)})


def test_card_file_without_a_cards_list_names_the_file(tmp_path):
    """A card file must hold a [[cards]] list; its errors name the file and the key."""
    path = tmp_path / "cards.toml"
    path.write_text('name = "x"\n')
    with pytest.raises(DataFileError, match=r"cards\.toml.*unknown keys \['name'\]"):
        PlanesGame(cards=str(path))
    path.write_text("cards = 3\n")
    with pytest.raises(DataFileError, match=r"cards\.toml.*'cards' must be list"):
        PlanesGame(cards=str(path))


def test_poi_tokens_cover_or_replace_printed_points_of_interest():
    """Optional Rules, Point of Interest Tokens: blanks cover, any kind can be placed."""
    game = PlanesGame(poi={"S1": "blank", "S0": "fine_dining"})
    a = game.airport
    assert game.poi[a.space_index("S1")] == data.BLANK
    assert game.poi[a.space_index("S0")] == data.FINE_DINING
    assert game.poi[a.space_index("S2")] == a.poi[a.space_index("S2")]
    too_many = {f"S{i}": "fine_dining" for i in range(7)}
    with pytest.raises(ConfigError, match="7 fine_dining tokens placed, the box holds 6"):
        PlanesGame(poi=too_many)


# ----- setup ------------------------------------------------------------------------------------
def test_setup_party_cubes_two_players_neutral_colours_still_placed():
    """Setup 3: starting player at P1, next clockwise at P2; unassigned colours fill P3, P4."""
    t = Table(2)
    assert t.cubes("S0") == {"red": 5}       # P1: seat 0 (starting player)
    assert t.cubes("S3") == {"blue": 5}      # P2: seat 1
    assert t.cubes("S7") == {"green": 5}     # P3: unassigned
    assert t.cubes("S10") == {"yellow": 5}   # P4: unassigned


def test_setup_first_player_starts_at_p1_and_planes_match_their_start():
    """Setup 3 and 6: with seat 2 starting, seat 2 at P1, 3 at P2, 0 at P3, 1 at P4; each
    plane at the gate numbered like its colour's start; neutral planes grey."""
    t = Table(4, first_player=2)
    assert t.current == 2
    assert [t.cubes(s) for s in ("S0", "S3", "S7", "S10")] == [
        {"green": 5}, {"yellow": 5}, {"red": 5}, {"blue": 5}]
    color = {g: COLOR_NAMES[t.s[st.GATE_COLOR + t.gate(g)]]
             for g in ("G1", "G2", "G3", "G4", "N1", "N2")}
    assert color == {"G1": "green", "G2": "yellow", "G3": "red", "G4": "blue",
                     "N1": "grey", "N2": "grey"}


def test_setup_two_neutral_cubes_on_every_other_space_and_track_at_zero():
    """Setup 1 and 4: boarding token on 0; two grey cubes on each non-start space."""
    t = Table(3)
    starts = {"S0", "S3", "S7", "S10"}
    for sp in t.game.airport.space_ids:
        if sp not in starts:
            assert t.cubes(sp) == {"grey": 2}
    assert t.s[st.TRACK] == 0 and not t.state["boarded"].any()
    assert t.state["box_cubes"].tolist() == [0] * NUM_COLORS


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_three_cards_each_from_one_deck(n):
    """Setup 7: three cards each; the rest is the draw deck."""
    t = Table(n, seed=7)
    assert [t.hand_size(i) for i in range(n)] == [3] * n
    assert t.deck_size() == 60 - 3 * n


def test_random_first_player_is_drawn_from_the_seed():
    """Setup 2: the starting player (option ``first_player="random"``)."""
    game = PlanesGame(num_players=4, first_player="random")
    firsts = {int(game.new_state(seed)["first_player"][0]) for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    a, b = game.new_state(5), game.new_state(5)
    assert a == b


def test_player_decks_give_each_seat_its_own_15_cards():
    """Optional Rules, Player Decks: one copy of each card per player; spare sets aside."""
    t = Table(3, player_decks=True, seed=4)
    decks = t.state["deck"].reshape(4, MAX_TYPES)
    for seat in range(3):
        own = decks[seat] + t.state["hand"].reshape(4, MAX_TYPES)[seat]
        assert own[:15].tolist() == [1] * 15
        assert t.hand_size(seat) == 3
    assert not decks[3].any()
    assert t.state["box_cards"][:15].tolist() == [1] * 15
    t.check()
