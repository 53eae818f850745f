"""How the rule-based Automobiles agent does against random play on Racing Season content.

    transit-gym expansion-strength [--sets expansion] \
        [--tracks talladega monte_carlo tucson] [--games 200] [--seed 1] [--out F] \
        [--option drivers=true ...]

For every card set and track, ``--games`` two-player games inside numba (the jitted
agents of ``agents/rule_based/automobiles.py``), half with the rule-based agent in seat 0 and half
in seat 1. A win is a positive reward (a shared win counts half). Prints a Markdown table
with 95% Wilson intervals and writes it (with JSON) to ``--out``. The project asks
for at least 90% on each expansion set on each new track.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.runs.options import parse_options
from transit_gym.training.stats import wilson_interval
from transit_gym.training.tool_parser import ToolParser

EXPANSION_TRACKS = ("talladega", "monte_carlo", "tucson")


def win_share(rewards: np.ndarray, seat: int) -> float:
    """Wins of ``seat`` over the games (a shared first place counts its share)."""
    best = rewards.max(axis=1, keepdims=True)
    winners = rewards == best
    return float((winners[:, seat] / winners.sum(axis=1)).sum())


def measure(card_set: str, track: str, games: int, seed: int,
            options: dict[str, Any]) -> dict[str, Any]:
    """Rule-based vs random on one set and track: wins, rate, interval, seconds."""
    from transit_gym.agents.rule_based.automobiles import policy
    from transit_gym.envs.automobiles.rules import AutomobilesGame
    from transit_gym.envs.core.rollout import play_games

    game = AutomobilesGame(num_players=2, card_set=card_set, track=track, **options)
    half = games // 2
    start = time.perf_counter()
    first = play_games(game, policy, ["rule_based", "random"], games - half, seed)
    second = play_games(game, policy, ["random", "rule_based"], half, seed,
                        first_game=games - half)
    seconds = time.perf_counter() - start
    wins = win_share(first.rewards, 0) + win_share(second.rewards, 1)
    low, high = wilson_interval(wins, games)
    return {"set": card_set, "track": track, "games": games, "wins": wins,
            "rate": wins / games, "low": low, "high": high, "seconds": seconds}


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table."""
    lines = ["| card set | track | games | rule_based wins | 95% interval |",
             "| --- | --- | ---: | ---: | --- |"]
    for r in rows:
        lines.append(f"| {r['set']} | {r['track']} | {r['games']} | {100 * r['rate']:.1f}% "
                     f"| {100 * r['low']:.0f}-{100 * r['high']:.0f}% |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym expansion-strength --tracks tucson --games 20")
    parser.add_argument("--sets", default="expansion",
                        help="expansion (the six Racing Season sets) | suggested | one set name")
    parser.add_argument("--tracks", nargs="+", default=list(EXPANSION_TRACKS))
    parser.add_argument("--games", type=int, default=200, help="games per set and track")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--out", type=Path, default=None, help="folder for table.md, rows.json")
    args = parser.parse_args(argv)
    try:
        from transit_gym.envs.automobiles.data import load_cards

        if args.games < 2:
            raise ConfigError(f"--games must be at least 2, got {args.games}")
        cards = load_cards()
        groups = {"expansion": cards.expansion_sets, "suggested": cards.base_sets}
        names = list(groups[args.sets]) if args.sets in groups else [args.sets]
        options = parse_options(args.option)
        print("transit-gym: compiling the Automobiles kernels and agents if not cached "
              "(about a minute the first time)", file=sys.stderr)
        rows = []
        for name in names:
            for track in args.tracks:
                rows.append(measure(name, track, args.games, args.seed, options))
                r = rows[-1]
                print(f"{name} / {track}: {100 * r['rate']:.1f}% "
                      f"({100 * r['low']:.0f}-{100 * r['high']:.0f}), {r['seconds']:.1f} s",
                      file=sys.stderr)
    except ConfigError as error:
        parser.error(str(error))
    print(table(rows))
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "table.md").write_text(table(rows) + "\n")
        (args.out / "rows.json").write_text(json.dumps(rows, indent=2))
    return rows
