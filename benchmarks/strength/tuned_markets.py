"""Score the shipped tuned vectors against reference agents, with the targets
the shipped vectors were tuned to.

    transit-gym tuned-markets --against rule_based --games 200 \\
        --out reports/tuned-vs-rule-based
    transit-gym tuned-markets --against mcts --games 40 \\
        --out reports/tuned-vs-mcts

Each per-market vector in ``agents/tuned/markets/`` plays the market it was tuned on (the
options recorded in its file) against ``--against``, seats alternated, in a tournament of
the shared tournament code (``training.tournament.run_tournament``: game i seeded by
``(--seed, i)``, resumable per vector under ``OUT/<vector>/``). The shipped generalist
(``tuned``) plays random markets of all 35 cards on Daytona, drivers off. The table gives
the score rate with its 95% Wilson interval and whether it reaches the issue's target:
against ``rule_based`` 65% for a market's vector and 58% for the generalist, against any
other agent 50% (``--target`` sets one for all).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from transit_gym.agents.tuned import SHIPPED
from transit_gym.agents.tuned.vector import load
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.runs.specs import check_agents
from transit_gym.training.stats import wilson_interval
from transit_gym.training.tool_parser import ToolParser
from transit_gym.training.tournament import run_tournament

GAME = "automobiles"
MARKETS = Path(SHIPPED[GAME]).parent / "markets"
#: the generalist's evaluation market: random markets from every card, as it was tuned on
GENERALIST_OPTIONS = {"card_set": "random", "card_pool": "all", "track": "daytona",
                      "drivers": False}


def shipped_vectors() -> list[tuple[str, Path]]:
    """``(name, file)`` of every shipped per-market vector, then the generalist."""
    files = sorted(MARKETS.glob("*.json"))
    return [(f.stem, f) for f in files] + [("generalist", Path(SHIPPED[GAME]))]


def vector_market(name: str, path: Path) -> tuple[int, dict[str, Any]]:
    """Players and game options a vector is scored on."""
    if name == "generalist":
        return 2, dict(GENERALIST_OPTIONS)
    market = load(path).market
    options = market.get("markets")
    if not isinstance(options, dict):
        raise ConfigError(f"{path.name}: its market record holds no single market")
    return int(market.get("players", 2)), dict(options)


def score_vector(name: str, path: Path, against: str, games: int, seed: int,
                 workers: int | None, out: Path | None, progress: bool) -> dict[str, Any]:
    """One vector's tournament against ``against``: score rate and 95% interval."""
    players, options = vector_market(name, path)
    spec = "tuned" if name == "generalist" else f"tuned:{path}"
    report = run_tournament(GAME, players, [spec, against], games, seed, options=options,
                            workers=workers, progress=progress,
                            out=None if out is None else out / name)
    score = report["score_rate"][spec][against]
    low, high = wilson_interval(score * games, games)
    return {"vector": name, "players": players, "options": options, "against": against,
            "games": games, "score": score, "low": low, "high": high}


def target_score(vector: str, against: str) -> float:
    """The target score for ``vector`` against ``against``."""
    if against != "rule_based":
        return 0.50
    return 0.58 if vector == "generalist" else 0.65


def markdown(rows: list[dict[str, Any]], target: float | None) -> str:
    """The results as a Markdown table (``target`` None: the issue's target per row)."""
    lines = ["| vector | against | games | score | 95% interval | target |",
             "| --- | --- | ---: | ---: | --- | --- |"]
    for r in rows:
        goal = target_score(r["vector"], r["against"]) if target is None else target
        met = "met" if r["score"] >= goal else "NOT met"
        lines.append(f"| {r['vector']} | {r['against']} | {r['games']} | "
                     f"{100 * r['score']:.1f}% | {100 * r['low']:.1f}-{100 * r['high']:.1f}% | "
                     f">= {100 * goal:.0f}%: {met} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym tuned-markets --against rule_based --games 20")
    parser.add_argument("--against", default="rule_based",
                        help="the reference agent spec (rule_based, mcts, mcts:N, ...)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=float, default=None,
                        help="score to reach (default: the issue's target per vector)")
    parser.add_argument("--vectors", nargs="+", default=None,
                        help="names of the vectors to score (default: all shipped)")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    vectors = shipped_vectors()
    try:
        if args.games < 1:
            raise ConfigError(f"--games must be positive, got {args.games}")
        if args.vectors:
            known = {name for name, _ in vectors}
            unknown = sorted(set(args.vectors) - known)
            if unknown:
                raise ConfigError(f"unknown vectors {unknown}; shipped: {sorted(known)}")
            vectors = [(n, p) for n, p in vectors if n in args.vectors]
        from transit_gym.envs.registry import game_class

        check_agents([args.against], game_class(GAME)(num_players=2))
    except ConfigError as exc:
        parser.error(str(exc))
    rows = [score_vector(name, path, args.against, args.games, args.seed, args.workers,
                         args.out, not args.quiet) for name, path in vectors]
    text = markdown(rows, args.target)
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "tuned_markets.md").write_text(text)
        (args.out / "tuned_markets.json").write_text(json.dumps(rows, indent=2))
    return rows
