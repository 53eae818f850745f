"""The generalist Automobiles network's games: the options it trains on
(random markets from all 35 cards, four boards, drivers off or on, three suggested sets
and one board held out) and its held-out evaluation.

``transit-gym generalist --agent net:generalist --vs rule_based
--games 200`` scores an agent against an opponent on each held-out market (on the
training boards), on the held-out board (random training markets) and on random training
markets, seats alternated, each rate with its 95% Wilson interval.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.runs.specs import check_agents
from transit_gym.training.stats import wilson_interval
from transit_gym.training.tool_parser import ToolParser
from transit_gym.training.tournament import run_tournament

#: the boards the generalist trains on, and the one it never sees
TRAINING_BOARDS = ("daytona", "monza", "talladega", "monte_carlo")
HELD_OUT_BOARD = "tucson"
#: suggested sets never drawn in training: one of the base game, two of the expansion
HELD_OUT_SETS = ("Expert Invitational", "Rinse & Repeat", "Well Oiled Machine")


def training_options() -> dict[str, Any]:
    """The options of every training game (each reset draws a market, board and driver
    mode from its seed; the held-out sets and board never come up)."""
    return {"card_set": "random", "card_pool": "all", "exclude_sets": list(HELD_OUT_SETS),
            "track": list(TRAINING_BOARDS), "drivers": "random"}


def evaluation_cases() -> dict[str, dict[str, Any]]:
    """Each held-out market on the training boards, the held-out board with random
    training markets, and the training distribution itself."""
    boards = {"track": list(TRAINING_BOARDS), "drivers": "random"}
    cases = {f"held-out market {name}": {"card_set": name, **boards} for name in HELD_OUT_SETS}
    cases[f"held-out board {HELD_OUT_BOARD}"] = {**training_options(),
                                                 "track": HELD_OUT_BOARD}
    cases["training markets and boards"] = training_options()
    return cases


def evaluate(agent: str, opponent: str, games: int, players: int = 2, seed: int = 0,
             cases: list[str] | None = None, workers: int | None = None,
             progress: bool = True) -> list[dict[str, Any]]:
    """The agent's score rate against the opponent in each evaluation case (all of them,
    or the named ones), seats alternated, with a 95% Wilson interval."""
    chosen = evaluation_cases()
    if cases:
        unknown = [c for c in cases if c not in chosen]
        if unknown:
            raise ConfigError(f"unknown evaluation case(s) {unknown}; cases: {list(chosen)}")
        chosen = {c: chosen[c] for c in cases}
    rows = []
    for name, options in chosen.items():
        report = run_tournament("automobiles", players, [agent, opponent], games, seed,
                                options=options, workers=workers, progress=progress)
        rate = report["score_rate"][agent][opponent]
        low, high = wilson_interval(rate * games, games)
        rows.append({"case": name, "agent": agent, "opponent": opponent, "games": games,
                     "score": rate, "low": low, "high": high})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym generalist --agent net:generalist --vs rule_based "
                                "--games 20")
    parser.add_argument("--agent", default="net:generalist")
    parser.add_argument("--vs", default="rule_based")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--case", action="append", default=None,
                        help="one evaluation case (repeatable; default: all)")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.games < 1:
            raise ConfigError(f"--games must be >= 1, got {args.games}")
        from transit_gym.envs.automobiles.rules import AutomobilesGame

        check_agents([args.agent, args.vs],
                     AutomobilesGame(num_players=args.players, **training_options()))
        rows = evaluate(args.agent, args.vs, args.games, args.players, args.seed, args.case,
                        args.workers, not args.quiet)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"| case | {args.agent} vs {args.vs} | 95% interval |")
    print("| --- | ---: | ---: |")
    for row in rows:
        print(f"| {row['case']} | {100 * row['score']:.1f}% | "
              f"{100 * row['low']:.1f}-{100 * row['high']:.1f}% |")
    print(json.dumps(rows), file=sys.stderr)
    return 0
