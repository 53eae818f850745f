"""The terminal progress bar of sweeps, tournaments and the warm-up (a progress bar
with ETA; drawn by ``tqdm``, ending exactly at its total)."""

from __future__ import annotations

import io

from transit_gym.training.runs.progress import Progress


def _last_frame(stream: io.StringIO) -> str:
    return stream.getvalue().replace("\n", "\r").rstrip("\r").split("\r")[-1]


def test_progress_bar_shows_label_share_count_and_rate():
    stream = io.StringIO()
    bar = Progress(200, label="games ", stream=stream, min_interval=0.0, unit="game")
    bar.update(50)
    line = _last_frame(stream)
    assert line.startswith("games: ") and " 25%" in line and "50/200" in line
    assert "game/s" in line
    bar.label = "warm-up planes "      # the warm-up renames the bar as it goes
    bar.update(150)
    bar.close()
    line = _last_frame(stream)
    assert line.startswith("warm-up planes: 100%") and "200/200" in line
    assert stream.getvalue().endswith("\n")


def test_progress_bar_never_counts_past_its_total():
    """Updates beyond the total stop at it."""
    stream = io.StringIO()
    bar = Progress(100, label="games", stream=stream, min_interval=0.0)
    bar.update(60)
    bar.update(60)
    bar.update(5)
    bar.close()
    assert bar.done == 100
    assert "100/100" in _last_frame(stream)
    assert "120/100" not in stream.getvalue() and "125/100" not in stream.getvalue()
