"""Human play in the terminal (issue 14 item 4), driven by scripted input."""

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


def human_turn(s: play.Session) -> State:
    """Let the agents move up to the human's first decision; return that state."""
    play.play_agents(s)
    return s.state.copy()


def test_each_turn_shows_the_table_and_every_legal_action_numbered_with_its_name():
    s = session()
    before = human_turn(s)
    game = s.env.game
    shown = drive(s, "q\n")
    assert render_module(game).render_text(game, before, viewer=0) in shown
    legal = game.legal_actions(before)
    for i, action in enumerate(legal, start=1):
        assert f"{i:>3}. {game.describe_action(before, action)}" in shown
    assert shown.rstrip().endswith("bye")


def test_a_number_plays_that_action_and_the_agents_answer_until_the_human_moves_again():
    s, replica = session(), session()
    before = human_turn(s)
    legal = s.env.game.legal_actions(before)
    shown = drive(s, f"{len(legal)}\nq\n")
    assert f"you: {s.env.game.describe_action(before, legal[-1])}" in shown
    human_turn(replica)
    replica.env.step(legal[-1])
    play.play_agents(replica)
    assert s.state == replica.state
    assert s.env.game.current_player(s.state) in (0, -1)


def test_bad_input_reprompts_with_a_clear_message_and_changes_nothing():
    s = session()
    before = human_turn(s)
    count = len(s.env.game.legal_actions(before))
    shown = drive(s, f"hello\n{count + 1}\n0\nu\n")
    assert "not understood: 'hello'" in shown
    assert f"no action {count + 1}: choose 1-{count}" in shown
    assert f"no action 0: choose 1-{count}" in shown
    assert "nothing to undo" in shown
    assert s.state == before


def test_end_of_input_and_quit_exit_cleanly():
    for script in ("", "q\n"):
        out = io.StringIO()
        code = play.main(["--game", "loose_caboose", "--players", "2", "--seed", "1"],
                         io.StringIO(script), out)
        assert code == 0 and out.getvalue().rstrip().endswith("bye")


def test_undo_restores_the_exact_state_before_the_humans_last_move():
    s = session()
    before = human_turn(s)
    drive(s, "1\nu\n")
    assert s.state == before
    assert s.env.game.current_player(s.state) == 0 and not s.history


def test_undo_also_rewinds_the_agents_so_the_same_move_replays_the_same_game():
    first, second = session(), session()
    drive(first, "1\n")
    drive(second, "1\nu\n1\n")
    assert first.state == second.state


def test_two_undos_go_back_two_human_moves():
    s = session()
    before = human_turn(s)
    drive(s, "1\n1\nu\nu\n")
    assert s.state == before


def test_save_then_load_continues_the_same_game(tmp_path):
    """The saved JSON holds ``State.to_dict()``; loading it (with the agents' streams)
    and playing the same moves reaches the same state as never stopping."""
    path = tmp_path / "game.json"
    straight = session()
    drive(straight, f"1\ns {path}\n1\n1\n")
    saved = json.loads(path.read_text())
    assert saved["format"] == play.SAVE_FORMAT and saved["seat"] == 0
    assert State.from_dict(saved["state"]).game == straight.env.game
    out = io.StringIO()
    assert play.main(["--load", str(path)], io.StringIO("1\n1\ns " + str(tmp_path / "b.json")
                                                          + "\n"), out) == 0
    resumed = State.from_dict(json.loads((tmp_path / "b.json").read_text())["state"])
    assert resumed == straight.state
    assert f"continuing {path}" in out.getvalue()


def test_loading_in_game_replaces_the_position_and_a_wrong_game_is_refused(tmp_path):
    path = tmp_path / "game.json"
    s = session()
    before = human_turn(s)
    shown = drive(s, f"s {path}\n1\nl {path}\n")
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
    shown = drive(s, "1\n" * 400)
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
    shown = drive(s, "1\nu\n")
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
        own, other = [ln for ln in full.splitlines() if ln.startswith("player_")][:2]
        assert own in hidden and other not in hidden
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
    lines = [ln for ln in hidden.splitlines() if ln.startswith("player_")]
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


def test_the_module_runs_from_the_command_line():
    result = subprocess.run(
        [sys.executable, "-m", "transit_gym.training.play", "--game", "loose_caboose",
         "--players", "2", "--seed", "5", "--vs", "random"],
        input="h\nq\n", capture_output=True, text=True, env=dict(os.environ), timeout=600)
    assert result.returncode == 0, result.stderr
    assert "your move, player_0:" in result.stdout and "u = undo" in result.stdout
