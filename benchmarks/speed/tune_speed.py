"""Speed of the tuned Automobiles agent: jitted whole games per second
with tuned seats against rule-based seats (target: at least half), and the optimiser's
wall time per market read from a ``transit-gym tune`` output folder.

    transit-gym bench tune --games 400 [--tune-dir reports/tune]

Compiling (or loading the compiled kernels) happens before the clock starts.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from transit_gym.agents.registry import play_specs
from transit_gym.agents.tuned import vector as tv
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import cached_game, options_key
from transit_gym.training.tool_parser import ToolParser

CONFIGS = {
    "First Game, 2p": {"card_set": "First Game"},
    "Rinse & Repeat, 2p, drivers": {"card_set": "Rinse & Repeat", "drivers": True},
    "random all-35, tucson, 4p": {"card_set": "random", "card_pool": "all",
                                  "track": "tucson", "players": 4},
}


def games_per_second(options: dict, specs_kind: str, games: int, seed: int = 0) -> float:
    """Jitted games per second of every seat playing ``specs_kind``."""
    options = dict(options)
    players = options.pop("players", 2)
    game = cached_game("automobiles", players, options_key(options))
    specs = [specs_kind] * players
    play_specs(game, specs, 1, seed=seed)   # compile / load first, off the clock
    started = time.perf_counter()
    play_specs(game, specs, games, seed=seed, first_game=1)
    return games / (time.perf_counter() - started)


def optimiser_times(folder: Path) -> list[tuple[str, float, int, str]]:
    """(market file, tuning seconds, generations, stopped by) of each vector in ``folder``."""
    rows = []
    for path in sorted(folder.glob("*.json")):
        if path.name == "settings.json" or path.name.endswith(".log.json"):
            continue
        meta = tv.load(path).meta
        rows.append((path.stem, float(meta.get("tuning_seconds", 0.0)),
                     int(meta.get("generations_run", 0)), str(meta.get("stopped_by", "?"))))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym bench tune --games 100")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--tune-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be positive, got {args.games}")
    if args.tune_dir is not None and not args.tune_dir.is_dir():
        parser.error(f"--tune-dir {str(args.tune_dir)!r} is not a folder")
    print("compiling or loading the kernels first (not timed)...", file=sys.stderr)
    print("| configuration | rule_based games/s | tuned games/s | ratio |\n|---|---|---|---|")
    for name, options in CONFIGS.items():
        try:
            rule = games_per_second(options, "rule_based", args.games)
            tuned = games_per_second(options, "tuned", args.games)
        except ConfigError as exc:
            parser.error(str(exc))
        print(f"| {name} | {rule:,.0f} | {tuned:,.0f} | {tuned / rule:.2f} |")
    if args.tune_dir is not None:
        print("\n| market | optimiser wall s | generations | stopped by |\n|---|---|---|---|")
        for stem, seconds, gens, stopped in optimiser_times(args.tune_dir):
            print(f"| {stem} | {seconds:.0f} | {gens} | {stopped} |")
    return 0
