"""The progress bar of sweeps, tournaments and the warm-up: a thin ``tqdm`` bar on stderr.

``Progress(total, label=...)`` keeps the call sites' small interface (``update(n)``,
a settable ``label``, ``close()``) over ``tqdm``, which draws the share, count, rate and
time left. The count never passes ``total``: the bar ends exactly at its total.
"""

from __future__ import annotations

import sys
from typing import TextIO

from tqdm import tqdm


class Progress:
    """``update(n)`` as work completes; ``tqdm`` draws ``label 50%|███  | 1200/2400 [...]``."""

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None,
                 min_interval: float = 0.2, unit: str = "it"):
        self.total = max(0, int(total))
        self._label = label
        self.bar = tqdm(total=self.total, desc=label.rstrip() or None,
                        file=stream if stream is not None else sys.stderr,
                        mininterval=min_interval, unit=unit, dynamic_ncols=True, leave=True)

    @property
    def done(self) -> int:
        """Units counted so far (at most ``total``)."""
        return int(self.bar.n)

    @property
    def label(self) -> str:
        return self._label

    @label.setter
    def label(self, text: str) -> None:
        self._label = text
        self.bar.set_description_str(text.rstrip(), refresh=False)

    def update(self, n: int = 1) -> None:
        """Count ``n`` more units (clipped at ``total``)."""
        step = min(int(n), self.total - self.done)
        if step > 0:
            self.bar.update(step)

    def close(self) -> None:
        """Draw the final state and end the line."""
        self.bar.close()
