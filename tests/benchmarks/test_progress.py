"""The terminal progress bar of sweeps and tournaments (issue 6: a progress bar with ETA)."""

from __future__ import annotations

import io

from transit_gym.training.progress import Progress


def test_progress_bar_shows_share_count_rate_and_eta():
    stream = io.StringIO()
    bar = Progress(200, label="games ", stream=stream, width=10, min_interval=0.0)
    bar.started -= 10.0                      # as if 10 s had passed
    bar.update(50)
    line = stream.getvalue().split("\r")[-1]
    assert line.startswith("games [##........]")
    assert " 25% " in line and "50/200" in line
    assert "5.0/s" in line and "ETA 0:00:30" in line
    bar.update(150)
    assert "100%" in stream.getvalue().split("\r")[-1]
    bar.close()
    assert stream.getvalue().endswith("\n")
