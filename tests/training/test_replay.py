"""Pictures and replays: each frame shows what a player needs, and a
played game is written as an animation that decodes back to the same frames."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from PIL import Image, ImageSequence

from transit_gym.envs.core import render
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.render import FELT, Canvas, fit, text_width
from transit_gym.envs.loose_caboose import state as lc_state
from transit_gym.envs.registry import game_class
from transit_gym.training import replay

LC_AGENTS = ["rule_based", "random", "random"]


def _edit(state, field: str, index: int, delta: int = 1) -> None:
    state[field][index] += delta


def _lc_railway(state) -> None:
    """Swap the back railway card for a card of another value."""
    p = state.game.params
    lo = int(state["rail_lo"][0])
    card = int(state["rail"][lo])
    other = next(c for c in range(state.game.data.num_cards)
                 if p[lc_state.P_VALUES + c] != p[lc_state.P_VALUES + card])
    state["rail"][lo] = other


# (game, what the issue asks the picture to show, how to change it in the state)
SHOWN = [
    ("automobiles", "a car on the track", lambda s: _edit(s, "car_seg", 1)),
    ("automobiles", "a player's bag count", lambda s: _edit(s, "bag", 10 + 3)),
    ("automobiles", "a player's active cubes", lambda s: _edit(s, "active", 10 + 5)),
    ("automobiles", "a player's discard pile", lambda s: _edit(s, "discard", 0 + 7)),
    ("automobiles", "the card row (a cost)", lambda s: _edit(s, "cost", 6)),
    ("automobile", "the board (factories on a space)", lambda s: _edit(s, "closed", 12)),
    ("automobile", "the salesroom (a showroom box)", lambda s: _edit(s, "show", 3 + 2)),
    ("automobile", "a player's cash", lambda s: _edit(s, "cash", 1, 100)),
    ("planes", "the airport (cubes on a space)", lambda s: _edit(s, "cubes", 5 * 6 + 4)),
    ("planes", "a gate's boarded passengers", lambda s: _edit(s, "boarded", 1)),
    ("planes", "a hand's size", lambda s: _edit(s, "hand", 0)),
    ("planes", "the boarding track (score timing)", lambda s: _edit(s, "track", 0)),
    ("loose_caboose", "the railway", _lc_railway),
    ("loose_caboose", "the draw pile", lambda s: _edit(s, "deck_len", 0, -1)),
    ("loose_caboose", "the last roll", lambda s: _edit(s, "last_wheels", 0, 3)),
]


@pytest.mark.parametrize(("name", "what", "change"), SHOWN, ids=[f"{g}: {w}" for g, w, _ in SHOWN])
def test_the_picture_shows_what_a_player_needs(name, what, change):
    """Changing the listed part of the table changes the picture (and
    not its size)."""
    game = game_class(name)(num_players=3)
    state = game.new_state(5)
    before = game.render_rgb(state)
    assert before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
    change(state)
    after = game.render_rgb(state)
    assert after.shape == before.shape
    assert not np.array_equal(after, before), f"{what} is not drawn"


def test_labels_use_the_bitmap_font_and_fit_their_box(monkeypatch):
    monkeypatch.setattr(render, "USE_PILLOW", False)     # the fallback without Pillow
    canvas = Canvas(20, 40, (0, 0, 0))
    canvas.text(0, 0, "P1 $5", (255, 255, 255), 1)
    lit = canvas.image().any(axis=2)
    assert lit[:5, :text_width("P1 $5", 1)].any() and not lit[6:].any()
    assert fit("HYBRID ENGINE", 40, 1) == "HYBRID ENG" and text_width(fit("ABC", 8), 2) == 8


def test_a_replay_gif_holds_every_decision_and_decodes_to_the_recorded_frames(tmp_path,
                                                                             monkeypatch):
    """Lossless with the pixel font (few colours); Pillow's antialiased TrueType labels
    bring more than a GIF's 256 colours, and Pillow then reduces each frame's palette."""
    monkeypatch.setattr(render, "USE_PILLOW", False)
    frames = replay.record("loose_caboose", 3, LC_AGENTS, seed=2)
    game = game_class("loose_caboose")(num_players=3)
    start = replay.captioned(game.render_rgb(game.new_state(2)), "loose_caboose seed 2: start")
    assert np.array_equal(frames[0], start)
    path = tmp_path / "game.gif"
    assert replay.main(["--game", "loose_caboose", "--players", "3", "--agents", *LC_AGENTS,
                        "--seed", "2", "--out", str(path)]) == 0
    with Image.open(path) as gif:
        decoded = [np.array(f.convert("RGB")) for f in ImageSequence.Iterator(gif)]
    assert len(decoded) == len(frames) > 10
    assert all(np.array_equal(a, b) for a, b in zip(decoded, frames, strict=True))


def test_the_same_seed_records_the_same_game_and_every_k_keeps_fewer_frames():
    full = replay.record("loose_caboose", 3, LC_AGENTS, seed=7)
    again = replay.record("loose_caboose", 3, LC_AGENTS, seed=7)
    assert len(full) == len(again)
    assert all(np.array_equal(a, b) for a, b in zip(full, again, strict=True))
    sparse = replay.record("loose_caboose", 3, LC_AGENTS, seed=7, every=5)
    decisions = len(full) - 1
    assert len(sparse) == 1 + decisions // 5 + (decisions % 5 != 0)
    assert np.array_equal(sparse[-1], full[-1])
    assert np.array_equal(sparse[1], full[5])


def test_a_png_is_the_frame_after_the_given_decisions(tmp_path):
    full = replay.record("loose_caboose", 3, LC_AGENTS, seed=7)
    path = tmp_path / "frame.png"
    assert replay.main(["--game", "loose_caboose", "--players", "3", "--agents", *LC_AGENTS,
                        "--seed", "7", "--out", str(path), "--at", "4"]) == 0
    with Image.open(path) as png:
        picture = np.array(png.convert("RGB"))
    height, width = picture.shape[:2]
    assert np.array_equal(picture, full[4][:height, :width])
    assert (full[4][height:] == FELT).all() and (full[4][:, width:] == FELT).all()


def test_frames_of_different_sizes_are_padded_to_one():
    small, large = np.zeros((4, 6, 3), np.uint8), np.ones((8, 5, 3), np.uint8)
    out = replay.same_size([small, large])
    assert [f.shape for f in out] == [(8, 6, 3), (8, 6, 3)]
    assert np.array_equal(out[0][:4, :6], small) and np.array_equal(out[1][:8, :5], large)


def test_bad_requests_are_refused_with_the_reason(tmp_path, capsys):
    with pytest.raises(ConfigError, match="one agent kind or 3"):
        replay.seat_specs(["random", "random"], 3)
    with pytest.raises(ConfigError, match="--every must be at least 1"):
        replay.record("loose_caboose", 2, ["random"], 0, every=0)
    assert replay.main(["--game", "loose_caboose", "--out", str(tmp_path / "x.avi")]) == 2
    assert "--out must end in one of" in capsys.readouterr().err
    assert replay.main(["--game", "chess", "--out", str(tmp_path / "x.gif")]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("ffmpeg") is not None, reason="ffmpeg is installed here")
def test_mp4_without_ffmpeg_says_what_is_missing(tmp_path):
    frames = [np.zeros((4, 4, 3), np.uint8)]
    with pytest.raises(ConfigError, match="needs the ffmpeg program"):
        replay.write(frames, tmp_path / "game.mp4", 4.0)


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed")
def test_mp4_with_ffmpeg_is_written(tmp_path):
    frames = [np.full((10, 12, 3), v, np.uint8) for v in (0, 120, 255)]
    replay.write(frames, tmp_path / "game.mp4", 4.0)
    assert (tmp_path / "game.mp4").stat().st_size > 0


def test_scale_draws_every_frame_larger_and_a_bad_scale_is_refused(tmp_path, capsys):
    """``--scale N`` draws N times larger (the labels at that size)."""
    small = replay.record("loose_caboose", 3, LC_AGENTS, seed=2, at=3)
    large = replay.record("loose_caboose", 3, LC_AGENTS, seed=2, at=3, scale=3)
    assert large[0].shape == (3 * small[0].shape[0], 3 * small[0].shape[1], 3)
    assert replay.main(["--game", "loose_caboose", "--players", "3", "--seed", "2",
                        "--scale", "0", "--out", str(tmp_path / "a.png")]) == 2
    assert "scale must be a whole number 1-16, got 0" in capsys.readouterr().err
