"""A small progress bar with rate and ETA for the terminal (stderr)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``update(n)`` as work completes; draws ``[#####.....] 50% 1200/2400 35/s ETA 0:34``."""

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None,
                 width: int = 30, min_interval: float = 0.2):
        self.total = max(0, total)
        self.done = 0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.min_interval = min_interval
        self.started = time.perf_counter()
        self._last_draw = 0.0

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.perf_counter()
        if now - self._last_draw >= self.min_interval or self.done >= self.total:
            self._last_draw = now
            self.stream.write("\r" + self.line(now))
            self.stream.flush()

    def line(self, now: float | None = None) -> str:
        """The bar as text (also used by tests)."""
        now = time.perf_counter() if now is None else now
        elapsed = max(now - self.started, 1e-9)
        share = self.done / self.total if self.total else 1.0
        filled = int(self.width * share)
        rate = self.done / elapsed
        remaining = (self.total - self.done) / rate if rate > 0 else float("inf")
        eta = _clock(remaining) if remaining != float("inf") else "?"
        return (f"{self.label}[{'#' * filled}{'.' * (self.width - filled)}] {share:4.0%} "
                f"{self.done}/{self.total} {rate:,.1f}/s ETA {eta}")

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
