"""Text tables that fit a terminal: every game's ``render_text`` keeps its lines within
:data:`WIDTH` columns by folding long lines at their field separators."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

#: the widest line a text table may have (a common terminal width)
WIDTH = 100
#: where a long line may be cut, most preferred first
SEPARATORS = (" | ", "; ", ", ", "  ", " ")
INDENT = "    "


def fold_line(line: str, width: int = WIDTH) -> list[str]:
    """``line`` cut into lines of at most ``width`` columns, each continuation indented.

    Cuts fall after the first separator of :data:`SEPARATORS` that splits the line (the
    separator stays at the end of the earlier piece, trailing blanks dropped); a word
    longer than the width is cut hard."""
    out: list[str] = []
    rest = line
    limit = width
    while len(rest) > limit:
        cut = -1
        for sep in SEPARATORS:
            at = rest.rfind(sep, 0, limit + 1 - len(sep.rstrip()))
            if at > len(INDENT) + 4:
                cut = at + len(sep)
                break
        if cut < 0:
            cut = limit
        out.append(rest[:cut].rstrip())
        rest = INDENT + rest[cut:].lstrip()
        limit = width
    out.append(rest)
    return out


def fold(lines: list[str], width: int = WIDTH) -> str:
    """The lines joined with newlines, each folded to ``width`` columns."""
    return "\n".join(piece for line in lines for piece in fold_line(line, width))


def unfold(text: str) -> list[str]:
    """The lines of a folded table with each continuation joined back onto its line (by
    one blank: exact for every separator but the double blank)."""
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith(INDENT) and lines:
            lines[-1] += " " + line[len(INDENT):]
        else:
            lines.append(line)
    return lines


def decision_help(phase: str, kinds: Iterable[str],
                  kind_help: Mapping[str, str]) -> list[tuple[str, str]]:
    """The help of one decision for human play: ``("now", phase)`` (what the decision is),
    then each kind of action in ``kinds`` once, in order, with what it does."""
    return [("now", phase), *((kind, kind_help[kind]) for kind in dict.fromkeys(kinds))]
