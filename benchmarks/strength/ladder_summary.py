"""One compact markdown table from the JSON reports of ``benchmarks.strength.ladder`` (the README's
"Ladders" table).

    transit-gym ladder-table docs/ladders/*.json

A row per game and agent: its score rate against ``random``, ``rule_based`` and ``mcts``
with the 95% interval (blank where the ladder has no such agent), CPU per move, training
wall time and where it uses hand-written rules. Game counts are in each game's ladder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from transit_gym.benchmarks.strength.ladder import wall_text
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.tool_parser import ToolParser

OPPONENTS = ("random", "rule_based", "mcts")


def _cell(report: dict[str, Any], agent: str, opponent: str) -> str:
    if opponent not in report["agents"]:
        return ""
    if agent == opponent:
        return "-"
    if report["score_rate"][agent][opponent] is None:
        return "not played"
    low, high = report["score_interval"][agent][opponent]
    return (f"{100 * report['score_rate'][agent][opponent]:.1f}% "
            f"({100 * low:.0f}-{100 * high:.0f})")


def summary(reports: list[dict[str, Any]]) -> str:
    """The table, games in the order given, agents in each ladder's order."""
    lines = ["| game | agent | vs `random` | vs `rule_based` | vs `mcts` | CPU ms/move | "
             "training wall time | hand-written hints |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for report in reports:
        title = f"{report['game']} ({report['players']}p)"
        for agent in report["agents"]:
            info = report["agent_info"][agent]
            cells = " | ".join(_cell(report, agent, o) for o in OPPONENTS)
            lines.append(f"| {title} | `{agent}` | {cells} | {info['cpu_ms_per_move']:.2f} | "
                         f"{wall_text(info['training_seconds'])} | {info['hints']} |")
            title = ""
    return "\n".join(lines) + "\n"


def load(path: Path) -> dict[str, Any]:
    """A ladder report (``ConfigError`` for a file that is not one)."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: not a readable ladder report ({exc})") from None
    if not isinstance(report, dict) or "agent_info" not in report:
        raise ConfigError(f"{path} is not a ladder report (no agent_info)")
    return report


def main(argv: list[str] | None = None) -> str:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym ladder-table docs/ladders/*.json")
    parser.add_argument("reports", nargs="+", type=Path, help="ladder JSON reports")
    args = parser.parse_args(argv)
    try:
        text = summary([load(path) for path in args.reports])
    except ConfigError as exc:
        parser.error(str(exc))
    print(text, end="")
    return text
