"""Human play in the terminal, driven by scripted
input."""

from __future__ import annotations

import importlib
import io
import json
import os
import subprocess
import sys

import pytest

from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import State
from transit_gym.envs.core.text import WIDTH
from transit_gym.training import play


def render_module(game):
    return importlib.import_module(game.render_module)


def session(players: int = 3, seat: int = 0, vs: tuple[str, ...] = ("rule_based", "random"),
            seed: int = 4, game: str = "loose_caboose") -> play.Session:
    return play.new_session(game, players, seat, list(vs), seed, {}, io.StringIO())


def drive(s: play.Session, script: str) -> str:
    """Run the loop on ``script`` and return everything shown since the session began."""
    play.run(s, io.StringIO(script))
    return s.out.getvalue()


class FirstChoice(io.StringIO):
    """Input that answers every prompt with the key of the first legal action ``moves``
    times (then the lines of ``then``)."""

    def __init__(self, s: play.Session, moves: int, then: str = ""):
        super().__init__(then)
        self.session, self.moves = s, moves

    def readline(self, *args) -> str:
        legal = self.session.env.game.legal_actions(self.session.state)
        if self.moves > 0 and legal:
            self.moves -= 1
            return f"{legal[0]}\n"
        return super().readline(*args)


def play_first(s: play.Session, moves: int, then: str = "") -> str:
    """Play the first listed action ``moves`` times, then the script ``then``."""
    play.run(s, FirstChoice(s, moves, then))
    return s.out.getvalue()


def logical_lines(text: str) -> list[str]:
    """The table's lines with each folded continuation (indented) joined back on."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("    ") and out:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def human_turn(s: play.Session) -> State:
    """Let the agents move up to the human's first decision; return that state."""
    play.play_agents(s)
    return s.state.copy()


def test_each_turn_shows_the_table_and_every_legal_action_with_its_key():
    """The key of an action is its action id (stable keys)."""
    s = session()
    before = human_turn(s)
    game = s.env.game
    shown = drive(s, "q\n")
    assert render_module(game).render_text(game, before, viewer=0) in shown
    legal = game.legal_actions(before)
    width = len(str(max(legal)))
    for action in legal:
        assert f"[{action:>{width}}] {game.describe_action(before, action)}" in shown
    assert shown.rstrip().endswith("bye")


def test_a_key_plays_that_action_and_the_agents_answer_until_the_human_moves_again():
    s, replica = session(), session()
    before = human_turn(s)
    legal = s.env.game.legal_actions(before)
    shown = drive(s, f"{legal[-1]}\nq\n")
    assert f"you: {s.env.game.describe_action(before, legal[-1])}" in shown
    human_turn(replica)
    replica.env.step(legal[-1])
    play.play_agents(replica)
    assert s.state == replica.state
    assert s.env.game.current_player(s.state) in (0, -1)


def test_bad_input_reprompts_with_a_clear_message_and_changes_nothing():
    """``1 2`` was silently read as 1; now it is refused."""
    s = session()
    before = human_turn(s)
    legal = s.env.game.legal_actions(before)
    missing = next(a for a in range(s.env.game.num_actions) if a not in legal)
    shown = drive(s, f"hello\n{missing}\n{legal[0]} {legal[0]}\n-1\nu\nt now\n")
    keys = ", ".join(str(a) for a in legal)
    assert "not understood: 'hello'" in shown
    assert f"no action {missing} here: choose one of the keys {keys}" in shown
    assert f"not understood: '{legal[0]} {legal[0]}'; type one key at a time" in shown
    assert "not understood: '-1'" in shown
    assert "nothing to undo" in shown
    assert "t takes nothing after it" in shown
    assert s.state == before and not s.history


def test_end_of_input_and_quit_exit_cleanly():
    for script in ("", "q\n"):
        out = io.StringIO()
        code = play.main(["--game", "loose_caboose", "--players", "2", "--seed", "1"],
                         io.StringIO(script), out)
        assert code == 0 and out.getvalue().rstrip().endswith("bye")


def test_undo_restores_the_exact_state_before_the_humans_last_move():
    s = session()
    before = human_turn(s)
    play_first(s, 1, "u\n")
    assert s.state == before
    assert s.env.game.current_player(s.state) == 0 and not s.history


def test_undo_also_rewinds_the_agents_so_the_same_move_replays_the_same_game():
    first, second = session(), session()
    play_first(first, 1)
    play_first(second, 1, "u\n")
    play_first(second, 1)
    assert first.state == second.state


def test_two_undos_go_back_two_human_moves():
    s = session()
    before = human_turn(s)
    play_first(s, 2, "u\nu\n")
    assert s.state == before


def test_save_then_load_continues_the_same_game(tmp_path):
    """The saved JSON holds ``State.to_dict()``; loading it (with the agents' streams)
    and playing the same moves reaches the same state as never stopping."""
    path = tmp_path / "game.json"
    straight = session()
    play_first(straight, 1, f"s {path}\n")
    saved = json.loads(path.read_text())
    assert saved["format"] == play.SAVE_FORMAT and saved["seat"] == 0
    assert State.from_dict(saved["state"]).game == straight.env.game
    play_first(straight, 2)
    out = io.StringIO()
    resumed_session = {}

    def start(args, out):
        resumed_session["s"] = real_start(args, out)
        return resumed_session["s"]

    real_start, play._start = play._start, start
    try:
        assert play.main(["--load", str(path)], io.StringIO(), out) == 0
    finally:
        play._start = real_start
    resumed = resumed_session["s"]
    play_first(resumed, 2, f"s {tmp_path / 'b.json'}\n")
    again = State.from_dict(json.loads((tmp_path / "b.json").read_text())["state"])
    assert again == straight.state
    assert f"continuing {path}" in out.getvalue()


def test_loading_in_game_replaces_the_position_and_a_wrong_game_is_refused(tmp_path):
    path = tmp_path / "game.json"
    s = session()
    before = human_turn(s)
    shown = play_first(s, 0, f"s {path}\n")
    shown = play_first(s, 1, f"l {path}\n")
    assert s.state == before and f"loaded {path}" in shown
    other = tmp_path / "other.json"
    other.write_text(json.dumps(session(players=2, vs=("random",)).state.to_dict()))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    shown = drive(s, f"l {other}\nl {broken}\nl {tmp_path / 'missing.json'}\nl\n")
    assert "could not load: the saved game is" in shown
    assert "could not load:" in shown and "is not JSON" in shown
    assert "cannot read" in shown and "l needs a file name" in shown
    assert s.state == before


def test_the_game_ends_with_the_rewards_and_commands_still_work():
    """Always playing the first listed action finishes the game; the result names every
    seat and its reward, and undo still takes back the last move afterwards."""
    s = session(players=2, vs=("random",), seed=2)
    shown = play_first(s, 400, "1\n")
    assert s.env.game.is_over(s.state)
    assert "game over:" in shown
    rewards = s.env.game.rewards(s.state)
    assert f"player_0 (you): reward {float(rewards[0]):+.2f}" in shown
    assert f"player_1 (random): reward {float(rewards[1]):+.2f}" in shown
    assert "the game is over;" in shown
    drive(s, "u\n")
    assert not s.env.game.is_over(s.state) and s.env.game.current_player(s.state) == 0


@pytest.mark.parametrize("game", ["automobiles", "automobile", "planes"])
def test_every_game_can_be_played_from_any_seat(game):
    s = session(players=3, seat=2, vs=("random",), seed=3, game=game)
    before = human_turn(s)
    shown = play_first(s, 1, "u\n")
    assert s.state == before and "your move, player_2:" in shown


def test_the_table_hides_the_other_hands_until_the_end_unless_open():
    """Planes setup step 7: hands are kept hidden from the other players (Loose Caboose
    likewise, per DESIGN's hidden-information rule): the human sees their own cards and
    only the sizes of the others' hands; ``--open`` shows them all."""
    for game_name in ("planes", "loose_caboose"):
        s = session(players=2, vs=("random",), seed=6, game=game_name)
        human_turn(s)
        game = s.env.game
        hidden = render_module(game).render_text(game, s.state, viewer=0)
        full = render_module(game).render_text(game, s.state)
        own, other = [ln for ln in logical_lines(full) if ln.startswith("player_")][:2]
        assert own in logical_lines(hidden) and other not in logical_lines(hidden)
        assert "player_1" in hidden and "cards" in hidden.split("player_1")[1]
        assert hidden in drive(s, "t\n")
        s.open_table = True
        assert full in drive(s, "t\n")


def test_automobile_demand_tiles_stay_secret():
    """Automobile P1: each player may look at the demand tiles they drew but keeps their
    values secret."""
    s = session(players=3, vs=("random",), seed=6, game="automobile")
    human_turn(s)
    game = s.env.game
    hidden = render_module(game).render_text(game, s.state, viewer=0)
    lines = [ln for ln in logical_lines(hidden) if ln.startswith("player_")]
    assert "demand tiles [" in lines[0]
    assert all("hidden)" in ln and "demand tiles [" not in ln for ln in lines[1:])


def test_opponent_kinds_one_for_all_or_one_per_seat():
    assert play.opponent_specs(["random"], 3, 1) == {0: "random", 2: "random"}
    assert play.opponent_specs(["random", "rule_based"], 3, 0) == {1: "random", 2: "rule_based"}
    with pytest.raises(ConfigError, match="one agent kind or 2"):
        play.opponent_specs(["random", "random", "random"], 3, 0)


def test_bad_command_lines_are_refused_with_the_reason(capsys):
    assert play.main(["--game", "loose_caboose", "--players", "2", "--seat", "2"]) == 2
    assert "--seat must be 0-1" in capsys.readouterr().err
    assert play.main(["--game", "loose_caboose", "--vs", "genius"]) == 2
    assert "unknown agent 'genius'" in capsys.readouterr().err
    assert play.main(["--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert play.main([]) == 2
    assert "--game is required" in capsys.readouterr().err


def test_play_runs_from_the_command_line():
    result = subprocess.run(
        [sys.executable, "-m", "transit_gym.cli", "play", "--game", "loose_caboose",
         "--players", "2", "--seed", "5", "--vs", "random"],
        input="h\nq\n", capture_output=True, text=True, env=dict(os.environ), timeout=600)
    assert result.returncode == 0, result.stderr
    assert "your move, player_0:" in result.stdout and "u = undo" in result.stdout


# ----- a table a person can keep up with ---------------------------------------
GAMES = ("loose_caboose", "automobiles", "automobile", "planes", "automobiles_season")


@pytest.mark.parametrize("game_name", GAMES)
def test_every_table_line_fits_in_100_columns(game_name):
    """The track lanes wrapped below 200 columns and the market line had
    230 characters; every line of every table (open and seen from a seat) now fits."""
    import numpy as np

    from transit_gym.envs.registry import game_class

    cls = game_class(game_name)
    game = cls(num_players=min(cls.max_players, 4))
    state = game.new_state(3)
    rng = np.random.default_rng(3)
    module = render_module(game)
    for _ in range(120):
        for viewer in (None, 0):
            text = module.render_text(game, state, viewer=viewer)
            assert max(len(line) for line in text.splitlines()) <= WIDTH, text
        if game.is_over(state):
            break
        game.apply(state, int(rng.choice(game.legal_actions(state))))


def test_the_automobiles_lanes_are_cut_into_blocks_that_cover_the_whole_lap():
    """The lanes no longer wrap: each lap position appears once per lane, in blocks."""
    from transit_gym.envs.automobiles import render
    from transit_gym.envs.automobiles.rules import AutomobilesGame

    for track in ("daytona", "monza", "talladega", "monte_carlo", "tucson"):
        game = AutomobilesGame(num_players=4, track=track)
        for width in (WIDTH, 60):
            lines = render.track_lines(game, game.new_state(1), width=width)
            lanes = [ln for ln in lines if ln.startswith("lane ")]
            assert all(len(ln) <= width for ln in lines)
            cells = sum(len(ln) - len("lane 0 ") for ln in lanes)
            assert cells == 2 * game.track.lap_length * game.track.lanes
            blocks = -(-2 * game.track.lap_length // (width - len("lane 0 ")))
            assert len(lanes) >= game.track.lanes * blocks


def test_later_turns_show_the_other_seats_moves_and_only_what_changed():
    s = session()
    first = human_turn(s)
    first_moves = list(s.moves)
    shown = play_first(s, 1)
    assert s.env.game.render_text(first) not in shown.split("you:")[1]
    after = shown.split("you:")[1]
    assert "since your last move:" in after
    for player, what in first_moves:
        assert f"player_{player} ({s.specs[player]}): {what}" in shown.split("you:")[0]
    assert "changed on the table (t shows all of it):" in after
    now = s.table().splitlines()
    changed = after.split("changed on the table (t shows all of it):")[1]
    assert any(line in changed for line in now)
    unchanged = [line for line in now if line in play.render_module(s.env.game).render_text(
        s.env.game, first, viewer=0).splitlines()]
    assert not any(f"\n{line}\n" in changed for line in unchanged if line.strip())


def test_an_action_keeps_its_key_from_one_menu_to_the_next():
    """Stable keys: a choice shown in two menus (same words) has the same key in both,
    read from what the human sees."""
    import re

    s = session(players=2, vs=("random",), seed=2, game="automobiles")
    shown = play_first(s, 40)
    menus = []
    for block in shown.split("your move, player_0:")[1:]:
        entries = re.findall(r"^  \[ *(\d+)\] (.+)$", block.split("\n> ")[0], re.M)
        menus.append({what: int(key) for key, what in entries})
    assert len(menus) >= 10
    seen: dict[str, set[int]] = {}
    for menu in menus:
        for what, key in menu.items():
            seen.setdefault(what, set()).add(key)
    recurring = [what for what in seen if sum(what in m for m in menus) > 1]
    assert len(recurring) >= 3
    assert all(len(seen[what]) == 1 for what in recurring), seen


@pytest.mark.parametrize("game_name,card", [("automobiles", "Pit Team"),
                                            ("planes", "Move Backwards"),
                                            ("automobile", "Sloan"),
                                            ("loose_caboose", "x")])
def test_h_card_explains_the_card_in_our_words(game_name, card):
    s = session(players=3, vs=("random",), seed=1, game=game_name)
    human_turn(s)
    texts = render_module(s.env.game).card_help(s.env.game)
    shown = drive(s, f"h {card.lower()}\nh nosuchcard\n")
    assert f"{card}: {texts[card]}" in shown
    assert "no card 'nosuchcard'; the cards are:" in shown


def test_every_automobiles_card_has_its_effect_in_our_words():
    """All 35 cards (20 base, 15 Racing Season) plus Wear and the gears' texts."""
    from transit_gym.envs.automobiles import data, render
    from transit_gym.envs.automobiles.rules import AutomobilesGame

    game = AutomobilesGame(num_players=2)
    texts = render.card_help(game)
    names = set(data.load_cards().names)
    assert len(names) >= 35 and names <= set(texts)
    assert all(len(texts[name]) > 20 and texts[name] != "no description" for name in names)


def test_every_planes_card_names_its_action_and_its_goal():
    from transit_gym.envs.planes import render
    from transit_gym.envs.planes.rules import PlanesGame

    game = PlanesGame(num_players=3)
    texts = render.card_help(game)
    assert set(texts) == set(game.cards.names) and len(texts) == 15
    assert texts["Draw 1"] == ("As an action: draw 1 card(s) into your hand. As a goal (1 VP): "
                               "a blank space with exactly 0 cubes on the board.")
    assert "fast food" in texts["Gather at Fast Food"]


def test_the_header_after_load_shows_the_saved_games_seed(tmp_path):
    """After ``--load`` the header showed an unrelated random seed."""
    path = tmp_path / "game.json"
    s = session(seed=1234)
    play_first(s, 1, f"s {path}\n")
    out = io.StringIO()
    assert play.main(["--load", str(path)], io.StringIO("q\n"), out) == 0
    header = out.getvalue().splitlines()[0]
    assert "seed 1234:" in header
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(s.state.to_dict()))
    out = io.StringIO()
    assert play.main(["--load", str(bare)], io.StringIO("q\n"), out) == 0
    assert "seed unknown (a bare saved state)" in out.getvalue().splitlines()[0]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colours_on_a_terminal_with_rich_and_plain_text_otherwise(monkeypatch):
    pytest.importorskip("rich")
    coloured = play.new_session("loose_caboose", 2, 0, ["random"], 1, {}, Terminal(),
                                plain=False)
    play.run(coloured, io.StringIO("q\n"))
    assert "\x1b[" in coloured.out.getvalue()
    plain = play.new_session("loose_caboose", 2, 0, ["random"], 1, {}, Terminal(), plain=True)
    play.run(plain, io.StringIO("q\n"))
    assert "\x1b[" not in plain.out.getvalue()
    monkeypatch.setitem(sys.modules, "rich.console", None)   # rich not installed
    fallback = play.new_session("loose_caboose", 2, 0, ["random"], 1, {}, Terminal(),
                                plain=False)
    play.run(fallback, io.StringIO("q\n"))
    assert "\x1b[" not in fallback.out.getvalue()
    assert "your move, player_0:" in fallback.out.getvalue()


def test_window_shows_the_picture_each_turn(monkeypatch):
    """Optional picture window, with SDL's headless driver."""
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    shown = []
    real_show = play.Window.show

    def show(self, picture):
        shown.append(picture.shape)
        real_show(self, picture)

    monkeypatch.setattr(play.Window, "show", show)
    s = session(players=2, vs=("random",), seed=1)
    s.window = play.open_window(s)
    try:
        play_first(s, 1)
    finally:
        s.window.close()
    assert len(shown) == 2 and shown[0][2] == 3
    assert play.main(["--game", "loose_caboose", "--players", "2", "--window"],
                     io.StringIO("q\n"), io.StringIO()) == 0
    assert len(shown) == 3
    assert play.main(["--game", "automobile", "--players", "3", "--window"],
                     io.StringIO("q\n"), io.StringIO()) == 2
