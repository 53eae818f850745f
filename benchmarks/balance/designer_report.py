"""One report a designer reads without the code: a balance sweep, the per-item power by
restricted play, the verdicts across skill levels and the market search's finalists, with
the data that are reconstructed.

    transit-gym balance report --balance reports/suggested-2p \\
        --power reports/power-2p --skill reports/skill-2p --market reports/market-2p \\
        --out reports/designer

Each input is the ``--out`` folder of a finished run of ``transit-gym balance sweep``,
``benchmarks.balance.card_power``, ``benchmarks.balance.skill_levels`` or
``benchmarks.balance.market_search``
(any may be left out; each may be given more than once, e.g. a restriction run and a
forced-play run of ``card_power``); their reports are joined under one title, their PNG
plots copied next to ``report.md``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from transit_gym.benchmarks.balance.balance_report import reconstructed_markdown
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.runs.backends import check_out
from transit_gym.training.tool_parser import ToolParser

PARTS = (("balance", "report.md", "Card-set balance"),
         ("power", "power.md", "What each card, driver and sponsor is worth (restricted and forced "
                            "play)"),
         ("skill", "skill.md", "Do the verdicts depend on the players' skill?"),
         ("market", "finalists.md", "The most and least balanced markets (market search)"))


def _body(text: str) -> list[str]:
    """A report's lines under a part heading: its title dropped, headings one level down,
    and its own reconstructed-data section dropped (the joint report states it once)."""
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    out, skipping = [], False
    for line in lines:
        if line.startswith("## "):
            skipping = line == "## Reconstructed data"
        if skipping:
            continue
        out.append("#" + line if line.startswith("#") else line)
    return out


def build(folders: dict[str, Path | list[Path]], out: Path, game: str = "automobiles") -> Path:
    """Write ``out/report.md`` from the finished runs in ``folders`` (kind -> folder, or a
    list of folders of that kind)."""
    runs = {kind: f if isinstance(f, list) else [f] for kind, f in folders.items() if f}
    if not runs:
        raise ConfigError("give at least one of --balance, --power, --skill, --market")
    check_out(out)
    summary = runs["balance"][0] / "summary.json" if "balance" in runs else None
    if summary is not None and summary.is_file():
        game = json.loads(summary.read_text()).get("game", game)
    lines = ["# Balance report for designers", "",
             "Everything below was measured by self-play of the agents named in each part; "
             "intervals are 95%. A verdict describes the game as reconstructed here, played "
             "by these agents.", *reconstructed_markdown(game)]
    for kind, name, title in PARTS:
        for k, folder in enumerate(runs.get(kind, [])):
            path = folder / name
            if not path.is_file():
                raise ConfigError(f"--{kind} {folder}: no {name}; give the --out folder of a "
                                  f"finished run")
            lines += ["", f"## {title}", "", *_body(path.read_text())]
            prefix = kind if k == 0 else f"{kind}{k + 1}"
            for picture in sorted(folder.glob("*.png")):
                target = out / f"{prefix}_{picture.name}"
                shutil.copyfile(picture, target)
                lines += ["", f"![{kind}: {picture.stem}]({target.name})"]
    report = out / "report.md"
    report.write_text("\n".join(lines) + "\n")
    return report


def main(argv: list[str] | None = None) -> Path:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym balance report --balance reports/caboose --out "
                                "reports/designer")
    for kind, _, _ in PARTS:
        parser.add_argument(f"--{kind}", type=Path, action="append", default=None,
                            help=f"--out folder of a finished {kind} run (repeatable)")
    parser.add_argument("--out", type=Path, default=Path("reports") / "designer")
    args = parser.parse_args(argv)
    folders = {kind: getattr(args, kind) for kind, _, _ in PARTS if getattr(args, kind)}
    try:
        report = build(folders, args.out)
    except ValueError as exc:
        parser.error(str(exc))
    print(f"written: {report}")
    return report
