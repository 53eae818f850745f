"""The balance tools' figures: matplotlib drawn off-screen (Agg), imported only when a
figure is drawn, and each figure laid out, written and freed in one step."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig: Any, path: Path, dpi: int) -> Path:
    """Lay ``fig`` out tightly, write it to ``path`` at ``dpi`` and close it; ``path``."""
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    pyplot().close(fig)
    return path
