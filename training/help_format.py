"""``--help`` that fits 100 columns whatever the terminal's width (narrower terminals
get narrower help, as argparse does by default)."""

from __future__ import annotations

import argparse
import shutil

#: the widest a help line may be
HELP_COLUMNS = 100


class NarrowHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with its width capped at :data:`HELP_COLUMNS`."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 28,
                 width: int | None = None):
        if width is None:
            width = shutil.get_terminal_size().columns - 2
        super().__init__(prog, indent_increment, max_help_position,
                         min(width, HELP_COLUMNS - 2))


def narrow_help(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser`` with its help capped at :data:`HELP_COLUMNS` columns."""
    parser.formatter_class = NarrowHelpFormatter
    return parser
