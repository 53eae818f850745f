"""Racing Season tracks (R-YUC "About this Expansion": Talladega, Monte Carlo, Tucson and the
start/finish note) and Variant Weaving (R-YUC "Variant Weaving"), on small hand-written
boards and on the five shipped boards.

FLAG board (lap 8, 2 lanes): lane 0 is space A = positions 7-0 (2 white segments, the
checkered flag between them), then one-segment white spaces 1..6; lane 1 is space B =
positions 7-2 (4 segments, 1 behind the flag), then one-segment white spaces 3..6. P1 is
the segment of A behind the flag (``own_space``), P2 lane 1 at 6, P3 lane 0 at 5.

WEAVE board (lap 12, 2 lanes): lane 0 is a long white space L = 0-4 (4 segments), then
one-segment white spaces 4..11; lane 1 is white K = 0-1, white S = 1-3 (2 segments),
black 3-6 and black 6-12.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.automobiles.table import DATA, EXAMPLE_SET, STOP, Table, activate, to_space
from transit_gym.agents.registry import make_agent
from transit_gym.envs.automobiles import render
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.board import crossings, drafting, rank
from transit_gym.envs.automobiles.data import TRACKS, load_track
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.errors import ConfigError, DataFileError
from transit_gym.envs.core.text import unfold

FLAG_BOARD = (DATA / "flag_board.toml").read_text()

WEAVE_BOARD = (DATA / "weave_board.toml").read_text()

A, SLOT = 0, 12            # FLAG board: space A and P1's own-space slot (after the 12 spaces)


def board(tmp_path, text: str, name: str = "board.toml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def flag_table(tmp_path, players: int = 3, **options) -> Table:
    return Table(players, track=board(tmp_path, FLAG_BOARD), **options)


# ----- the track format: flag-cut spaces and own-space start slots ----------------------------
def test_flag_board_loads_a_and_b_cut_by_the_flag_and_p1_slot_as_its_own_space(tmp_path):
    """R-YUC start/finish note: the flag cuts spaces A and B, which stay ordinary spaces;
    P1's starting segment of A is a distinct space (an extra id cut from A, which no move
    can enter) until its car leaves it."""
    t = load_track(board(tmp_path, FLAG_BOARD))
    assert list(t.flag[[A, 7]]) == [1, 3] and t.flag[1] == 0
    assert t.num_spaces == 13 and t.board_spaces == 12
    assert t.parent[SLOT] == A and list(t.grid) == [SLOT, 11, 5]
    assert t.slot_of[A] == SLOT + 1 and not (t.cover == SLOT).any()
    assert (t.start[SLOT], t.end[SLOT], t.length[SLOT]) == (7, 8, 1)


def test_p1_starts_behind_the_flag_in_its_slot_and_leads(tmp_path):
    """R-YUC: the car on "P1: $10" starts in its segment of A, behind the flag (no crossing
    yet), and leads the race (Setup 5: cars in player order)."""
    t = flag_table(tmp_path)
    assert t.s[st.CAR_SPACE + 0] == SLOT and t.s[st.CAR_SEG + 0] == 0
    assert [rank(t.s, t.p, seat) for seat in range(3)] == [1, 2, 3]
    assert crossings(t.s, t.p, 0) == 0


def test_one_white_cube_moves_p1_one_segment_to_the_front_of_space_a(tmp_path):
    """R-YUC example: one white cube on P1's first turn moves it forward 1 segment, to the
    front of space A; crossing the flag inside A moves the lap marker (the flag is a
    segment line: with grid_crossing_counts=True that first crossing counts)."""
    t = flag_table(tmp_path, grid_crossing_counts=True)
    t.turn(0, active=dict(white=1), bag=dict(white=7))
    before = int(t.s[st.CAR_ABS + 0])
    t.act(activate("white"))
    assert to_space(A) in t.legal()
    t.act(to_space(A), STOP, STOP)
    assert t.s[st.CAR_SPACE + 0] == A and t.s[st.CAR_SEG + 0] == 0
    assert t.s[st.CAR_ABS + 0] == before + 1
    assert crossings(t.s, t.p, 0) == 1


def test_p1_ignores_momentum_in_its_slot_but_a_car_in_a_slides_over_the_flag(tmp_path):
    """R-YUC: P1 ignores momentum until it moves out (its slot is a space of its own), so
    it stays behind the flag when another turn ends; a car in A's rear segment (A is an
    ordinary space) moves up by Momentum, crosses the flag inside A and its lap count
    changes."""
    t = flag_table(tmp_path)
    t.turn(1, bag=dict(white=7))
    t.act(STOP, STOP)                              # seat 1 ends a turn without moving
    assert t.s[st.CAR_SPACE + 0] == SLOT and t.s[st.CAR_SEG + 0] == 0
    t.put_car(0, 0, 3)                             # P1 has moved on
    t.put_car(2, 0, 0, seg=0)                      # A's front segment, past the flag
    t.put_car(1, 0, 0, seg=1)                      # A's segment behind the flag
    assert crossings(t.s, t.p, 1) == 0
    t.turn(2, active=dict(white=1), bag=dict(white=7))
    t.act(activate("white"), to_space(1), STOP, STOP)   # seat 2 leaves A
    assert t.s[st.CAR_SPACE + 1] == A and t.s[st.CAR_SEG + 1] == 0
    assert crossings(t.s, t.p, 1) == 1


def test_race_order_across_the_flag_inside_a(tmp_path):
    """Card Clarifications (position by progress, inner lane on a tie) with the flag as a
    segment line: a car in A's front segment (past the flag) is ahead of P1 in A's slot,
    which is ahead of a car level with it in lane 1 (B's rear segment)."""
    t = flag_table(tmp_path)
    t.put_car(2, 0, 0, lap=0)                      # A's front segment (the race's start
    t.put_car(1, 1, 7, seg=3, lap=0)               # lap, as P1); B's segment behind the flag
    assert [rank(t.s, t.p, seat) for seat in range(3)] == [2, 3, 1]


def test_no_cube_enters_a_at_or_behind_p1s_car(tmp_path):
    """How to Move on the Track ("cannot place a cube on a segment occupied by an
    opponent's race car"; "cannot drive through other race cars"): while P1 sits in its
    slot, a cube coming from behind A would enter A on P1's segment, so A is closed to
    it (B, diagonal, stays open); once P1 has left, A is open again."""
    t = flag_table(tmp_path, players=2)
    t.put_car(1, 0, 6)                             # lane 0 at 6, directly behind the slot
    t.turn(1, active=dict(white=1))
    t.act(activate("white"))
    assert t.legal() == [to_space(7)]              # only B
    t = flag_table(tmp_path, players=2)
    t.put_car(1, 0, 6)
    t.put_car(0, 0, 0)                             # P1 left its slot: A's front segment
    t.turn(1, active=dict(white=1))
    t.act(activate("white"))
    assert to_space(A) in t.legal()
    t.act(to_space(A))
    assert t.s[st.PLACED_SEG] == 1                 # behind P1, on the segment it left


def test_a_car_right_behind_p1s_slot_is_drafting(tmp_path):
    """Drafting ("ended directly behind another opponent's race car"): the segment just
    ahead of lane 0 at 6 is P1's slot, so a car there drafts while P1 is in it (strict
    segment rule, draft_behind_space=False), and not once P1 has moved on."""
    t = flag_table(tmp_path, players=2, draft_behind_space=False)
    t.put_car(1, 0, 6)
    assert drafting(t.s, t.p, 1)
    t.put_car(0, 0, 3)
    assert not drafting(t.s, t.p, 1)


# ----- bad track files and options --------------------------------------------------------------
BAD_FILES = [
    (FLAG_BOARD.replace("start = 7\nlength = 2\nflag = 1", "start = 6\nlength = 2\nflag = 1"),
     "'start' must be 7"),
    (FLAG_BOARD.replace("length = 2\nflag = 1", "length = 2\nflag = 2"), "'flag' must be"),
    (FLAG_BOARD.replace("length = 2\nflag = 1\n", "length = 2\n"), "runs across the finish"),
    (FLAG_BOARD.replace("length = 2\nflag = 1\n", "length = 2\nflag = 1\ncount = 2\n"),
     "without 'count'"),
    (FLAG_BOARD.replace("at = 7\nown_space = true", "at = 6\nown_space = true"),
     "has 1 segment"),
    (FLAG_BOARD.replace("at = 7\nown_space = true", "at = 0\nown_space = true"),
     "past the finish line"),
    (FLAG_BOARD.replace("at = 7\nown_space = true", "at = 7"), "cut by the checkered flag"),
    (FLAG_BOARD.replace("own_space = true", 'own_space = "yes"'), "'own_space' must be bool"),
    (FLAG_BOARD.replace('lanes = 2', 'lanes = 2\ndirection = "sideways"'), "'direction'"),
]


@pytest.mark.parametrize(("text", "message"), BAD_FILES)
def test_malformed_flag_and_grid_keys_are_clear_data_file_errors(tmp_path, text, message):
    """Every malformed flag/slot/direction key is a DataFileError naming the problem."""
    with pytest.raises(DataFileError, match=message):
        load_track(board(tmp_path, text))


def test_bad_track_and_weaving_options_are_config_errors():
    """An unknown board name or a non-bool weaving flag is a ConfigError naming the value
    and what is expected."""
    with pytest.raises(ConfigError, match=r"track must be one of .*talladega.*'nowhere'"):
        AutomobilesGame(num_players=2, track="nowhere")
    with pytest.raises(ConfigError, match="weaving must be True or False.*'yes'"):
        AutomobilesGame(num_players=2, weaving="yes")


# ----- Variant Weaving --------------------------------------------------------------------------
def weave_table(tmp_path, weaving: bool) -> Table:
    t = Table(2, track=board(tmp_path, WEAVE_BOARD), card_set=list(EXAMPLE_SET),
              weaving=weaving)
    t.put_car(0, 0, 11)                            # lane 0 at 11, just behind L
    t.put_car(1, 0, 8)
    t.give(0, "active", blue=1)                    # Rotary Engine: white spaces, up to
    t.give(0, "discard", white=1, light_gray=1, dark_gray=1)   # 3 (distinct colours)
    t.give(0, "bag", white=7)
    return t


def test_weaving_leaves_a_long_space_sideways_from_an_early_segment(tmp_path):
    """Variant Weaving ("change lanes while moving through early segments of long
    spaces"): a cube moving through L (entered on its rear segment, passing to the
    front) may step into lane 1's S from L's rear segments; without Weaving the only
    exit is from L's front segment, where S lies behind (not forward)."""
    for weaving in (False, True):
        t = weave_table(tmp_path, weaving)
        t.turn(0)
        t.act(activate("blue"), to_space(0))       # into L
        s_space = t.space(1, 1)
        assert (to_space(s_space) in t.legal()) == weaving
    t.act(to_space(s_space), STOP, STOP, STOP)
    assert t.s[st.CAR_SPACE + 0] == s_space and t.s[st.CAR_SEG + 0] == 0
    assert t.s[st.CAR_ABS + 0] == 12 + 3           # S's front edge, past the line at 12


def test_weaving_still_forbids_backward_steps_and_leaving_the_cars_own_space(tmp_path):
    """Weaving keeps "must progress your race car forward": K (lane 1, 0-1) overlaps L's
    rear segment but ends at the point the cube entered, so it stays illegal; and a car
    resting in L is not moving through it, so its first cube cannot weave out of L's
    rear segments into S."""
    t = weave_table(tmp_path, True)
    t.turn(0)
    t.act(activate("blue"), to_space(0))
    assert to_space(t.space(1, 0)) not in t.legal()
    t = weave_table(tmp_path, True)
    t.put_car(0, 0, 3)                             # resting on L's front segment
    t.turn(0)
    t.act(activate("blue"))
    assert to_space(t.space(1, 1)) not in t.legal()
    assert to_space(t.space(0, 4)) in t.legal()


# ----- the five shipped boards ------------------------------------------------------------------
def test_expansion_boards_follow_the_confirmed_facts():
    """R-YUC: Talladega and Tucson counter-clockwise, Monte Carlo clockwise (stored in the
    file); Talladega has several two-colour combos, Tucson three-colour combos; every
    one has the flag cutting two spaces and P1 in its own segment of A; $10-$14."""
    combos = {}
    for name in ("talladega", "monte_carlo", "tucson"):
        text = TRACKS[name].read_text()
        assert "RECONSTRUCTED" in text and "CONFIRMED: R-YUC" in text
        t = load_track(name)
        assert t.direction == ("clockwise" if name == "monte_carlo" else "counter-clockwise")
        assert np.count_nonzero(t.flag) == 2
        assert t.parent[t.grid[0]] >= 0 and t.flag[t.parent[t.grid[0]]] > 0
        assert list(t.allowance) == [10, 11, 12, 13, 14]
        combos[name] = [bin(int(m)).count("1") for m in t.colours[:t.board_spaces]]
    assert combos["talladega"].count(2) >= 6
    assert 3 in combos["tucson"]
    assert max(combos["monte_carlo"]) <= 2


@pytest.mark.parametrize("track", sorted(TRACKS))
def test_every_board_plays_whole_games_for_2_to_5_players(track):
    """Every shipped board plays whole games for 2-5 players with the random and the
    rule-based agents (every action legal, invariants checked after each one), renders,
    and with Weaving on as well."""
    for players in range(2, 6):
        game = AutomobilesGame(num_players=players, track=track, laps=1,
                               weaving=players % 2 == 1)
        state = game.new_state(players)
        agents = [make_agent("rule_based" if seat % 2 == 0 else "random", game, seed=seat)
                  for seat in range(players)]
        while not game.is_over(state):
            seat = game.current_player(state)
            mask = game.legal_mask(state)
            action = agents[seat].act(game.observe(state, seat), mask)
            assert mask[action] == 1
            game.apply(state, action)
            game.check_invariants(state)
        assert max(crossings(state.data, game.params, s) for s in range(players)) >= 1
        text = render.render_text(game, state)
        lanes = {row.split()[1] for row in text.splitlines() if row.startswith("lane ")}
        assert lanes == {str(lane) for lane in range(game.track.lanes)}
        legend = " ".join(unfold(text))
        assert ("travel right to left" in legend) == (game.track.direction == "clockwise")


# ----- random boards for a single race ----------------------------------------------------------
def test_random_tracks_pin_a_board_by_track_seed_or_draw_per_reset():
    """R-YUC "Track Cards" (and BGA's random base / expansion / any options): a random
    board comes from its pool; the same track_seed pins the same board; without one the
    board is drawn at every reset from the reset seed, and a saved state
    (JSON) rebuilds the game on the board it played."""
    import json

    from transit_gym.envs.core.game import State

    pools = {"random": {"Daytona Beach", "Monza"},
             "random_expansion": {"Talladega", "Monte Carlo", "Tucson"}}
    pools["random_all"] = pools["random"] | pools["random_expansion"]
    for track, names in pools.items():
        drawn = {AutomobilesGame(num_players=2, track=track, track_seed=k).track.name
                 for k in range(12)}
        assert drawn <= names and len(drawn) >= 2
    one = AutomobilesGame(num_players=2, track="random_all", track_seed=7)
    assert AutomobilesGame(num_players=2, track="random_all", track_seed=7).track.name \
        == one.track.name
    fresh = AutomobilesGame(num_players=2, track="random_expansion")
    assert "track_seed" not in fresh.options
    assert {fresh.track_of(fresh.new_state(k)).name for k in range(30)} \
        == pools["random_expansion"]
    state = fresh.new_state(3)
    restored = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored.game.track_of(restored).name == fresh.track_of(state).name
    assert restored == state
    with pytest.raises(ConfigError, match="track_seed only applies to a random track"):
        AutomobilesGame(num_players=2, track="monza", track_seed=1)
    with pytest.raises(ConfigError, match="track_seed must be"):
        AutomobilesGame(num_players=2, track="random", track_seed="x")


def test_a_tampered_weaving_entry_is_refused_not_run(tmp_path):
    """A saved state whose moving cube's entry segment (mv_entry, Weaving) is out
    of range is a StateDictError naming the field, before any kernel loops over it."""
    from transit_gym.envs.core.errors import StateDictError

    t = weave_table(tmp_path, True)
    t.turn(0)
    t.act(activate("blue"), to_space(0))
    t.game.validate(t.state)
    t.s[st.MV_ENTRY] = 10 ** 12
    with pytest.raises(StateDictError, match="mv_entry"):
        t.game.validate(t.state)
