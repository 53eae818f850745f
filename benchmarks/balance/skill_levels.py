"""Balance verdicts across skill levels (after Mahlmann, Togelius and Yannakakis, CEC 2012):
the same balance sweep played by agents of different strength, each set's verdict per
level, and how well the levels agree on the ranking of the sets.

    transit-gym balance skills automobiles --sets suggested \\
        --players 2 --games 200 --levels random rule_based mcts:50 --seed 0 \\
        --out reports/skill-2p

Each level is an ordinary balance sweep (``benchmarks.balance.sweep``, same seed, so the sets
see the same chance streams) in ``OUT/level-<agent>/``, resumable like any sweep. A set's
verdict at a level: **fair** when every seat's 95% Wilson interval contains the fair
share, else **biased** (naming the seat that wins too often). A set whose verdict changes
with the level is flagged **skill-dependent**. Rank agreement between two levels: Kendall's
tau-b of the sets' balance, with a 95% bootstrap interval (each set's games resampled).
Results: ``skill.md``, ``skill.json`` and ``skill_balance.png``.

The level ``tuned:markets`` plays each set with its own tuned vector: the file of
``agents/tuned/markets/`` (``tuned:markets:DIR``: of DIR) whose recorded market is the
set's game (same players, same game parameters: cards, board, laps, drivers, rules). Each
set is then its own sweep in ``OUT/level-tuned-markets/<set>/``, and the level's joint
report (card usage per seat included) is ``OUT/level-tuned-markets/report.md``. A set
without a matching vector is a ConfigError naming it and the markets that exist.
``--sets`` takes several specs joined by commas (``suggested,expansion``: the 13 named
sets); ``--level-games LEVEL=N`` plays N games a set at that level instead of ``--games``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.benchmarks.balance import balance_report, card_sets, figures
from transit_gym.benchmarks.balance.sweep import Sweep, run_sweep
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import cached_game, game_class, game_for_cli, options_key
from transit_gym.training.runs.backends import check_backend, check_out
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.folder import load_csv
from transit_gym.training.runs.options import (
    add_data_arguments,
    add_run_arguments,
    check_counts,
    data_options,
    parse_options,
)
from transit_gym.training.runs.specs import parse_agents
from transit_gym.training.tool_parser import ToolParser

#: the level that plays each set with its own tuned vector (``tuned:markets[:DIR]``)
MARKETS_LEVEL = "tuned:markets"


def is_markets_level(level: str) -> bool:
    """``tuned:markets`` or ``tuned:markets:DIR``."""
    return level == MARKETS_LEVEL or level.startswith(MARKETS_LEVEL + ":")


def markets_folder(level: str) -> Path:
    """The vector folder of a ``tuned:markets[:DIR]`` level (the shipped one by default)."""
    if level == MARKETS_LEVEL:
        from transit_gym.agents.tuned import markets

        return Path(markets.__file__).parent
    folder = Path(level[len(MARKETS_LEVEL) + 1:])
    if not folder.is_dir():
        raise ConfigError(f"level {level!r}: no folder {str(folder)!r} of tuned vectors")
    return folder


def _seat_zero(game: str) -> dict[str, Any]:
    start = game_class(game).start_option   # as every sweep sets it
    return {start: 0} if start else {}


def _market_game(game: str, players: int, options: dict[str, Any]):
    return cached_game(game, players, options_key({**options, **_seat_zero(game)}))


def market_vector(game: str, players: int, options: dict[str, Any], set_name: str,
                  folder: Path) -> Path:
    """The vector file in ``folder`` tuned on the market of set ``set_name`` (env
    ``options``, ``players``): its recorded game and players equal, and the game built from
    its recorded market has the same parameters (cards, board, laps, drivers, rules). No
    match is a ConfigError naming the set and listing the markets the folder holds."""
    from transit_gym.agents.tuned import vector as tv

    wanted = _market_game(game, players, options).param_table
    found = []
    for path in sorted(folder.glob("*.json")):
        try:
            market = tv.load(path).market
        except ConfigError:
            continue   # not a vector file (a tuning log, settings)
        recorded = market.get("markets")
        if not isinstance(recorded, dict):
            continue   # a generalist (several markets)
        found.append(f"{path.name} ({market.get('players')} players, "
                     f"{json.dumps(recorded, sort_keys=True)})")
        if market.get("game") != game or market.get("players") != players:
            continue
        table = _market_game(game, players, recorded).param_table
        if table.shape == wanted.shape and np.array_equal(table, wanted):
            return path
    raise ConfigError(f"level {MARKETS_LEVEL}: no tuned vector in {str(folder)!r} for set "
                      f"{set_name!r} ({players} players, options {options}); tune one with "
                      f"transit-gym tune. Vectors there: " + ("; ".join(found) or "none"))


def market_specs(level: str, game: str, players: int, sets: list[tuple[str, dict[str, Any]]],
                 base: dict[str, Any]) -> dict[str, str]:
    """``tuned:FILE`` of each set for a ``tuned:markets[:DIR]`` level."""
    folder = markets_folder(level)
    return {name: f"tuned:{market_vector(game, players, {**base, **options}, name, folder)}"
            for name, options in sets}


def set_slug(name: str) -> str:
    """A folder name for a set."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "set"


def parse_set_specs(game: str, text: str | None, seed: int,
                    base: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``--sets``: one spec of ``transit-gym balance sweep`` or several joined by commas
    (``suggested,expansion``); a set named twice is a ConfigError."""
    if text is None or "," not in text:
        return card_sets.parse_sets(game, text, seed, base)
    sets: list[tuple[str, dict[str, Any]]] = []
    for part in (t.strip() for t in text.split(",")):
        if not part:
            raise ConfigError(f"--sets {text!r}: an empty entry between commas")
        sets += card_sets.parse_sets(game, part, seed, base)
    names = [n for n, _ in sets]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ConfigError(f"--sets {text!r} names these sets twice: {twice}")
    return sets


def parse_level_games(items: list[str], levels: list[str], games: int) -> dict[str, int]:
    """Games per set of each level: ``--games``, or N for ``--level-games LEVEL=N``."""
    out = dict.fromkeys(levels, games)
    for item in items:
        level, sep, count = item.rpartition("=")
        if not sep or level not in levels:
            raise ConfigError(f"--level-games needs LEVEL=N with LEVEL one of {levels}, got "
                              f"{item!r}")
        if not count.isdigit() or int(count) < 1:
            raise ConfigError(f"--level-games {item!r}: N must be a positive integer")
        out[level] = int(count)
    return out


def run_markets_level(sweep: Sweep, specs: dict[str, str], folder: Path,
                      workers: int | None, ray_address: str | None | bool, plots: bool,
                      progress: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One sweep per set with its own vector (``folder/<set>/``), then the level's joint
    summary and report (``folder/summary.json``, ``folder/report.md``)."""
    rows: list[dict[str, Any]] = []
    seconds, played = 0.0, 0
    for name, options in sweep.sets:
        own = Sweep(sweep.game, sweep.players, [(name, options)],
                    [specs[name]] * sweep.players, sweep.games, sweep.seed, sweep.base_options)
        sub = folder / set_slug(name)
        summary = run_sweep(own, sub, workers=workers, ray_address=ray_address, plots=False,
                            progress=progress)
        seconds += summary["run"]["seconds"]
        played += summary["run"]["games_played"]
        rows += [r for r in load_csv(sub / "games.csv")
                 if r["set"] == name and int(r["game"]) < sweep.games]
    summary = balance_report.summarise(sweep, rows)
    summary["vectors"] = {name: spec[len("tuned:"):] for name, spec in specs.items()}
    summary["run"] = {"games_played": played, "games_resumed": len(rows) - played,
                      "seconds": round(seconds, 2),
                      "games_per_second": float(f"{played / seconds:.3g}") if seconds > 0
                      else None, "backend": "per-set sweeps", "workers": workers}
    (folder / "summary.json").write_text(json.dumps(summary, indent=2, default=float))
    (folder / "report.md").write_text(balance_report.markdown(sweep, summary))
    if plots:
        balance_report.plots(sweep, rows, summary, folder)
    return summary, rows


def level_folder(out: Path, level: str) -> Path:
    """Where one level's sweep lives (``:`` and ``/`` made safe for file names)."""
    safe = level.replace(":", "-").replace("/", "_").replace("\\", "_")
    return out / f"level-{safe}"


def verdict(stats: dict[str, Any], players: int) -> str:
    """``fair`` when every seat's interval contains ``1 / players``, else ``biased: seat i
    high`` (the seat winning most above it; ``low`` when only seats below it are out)."""
    fair = 1.0 / players
    outside = [s for s, (lo, hi) in enumerate(stats["seat_win_interval"])
               if not lo <= fair <= hi]
    if not outside:
        return "fair"
    high = [s for s in outside if stats["seat_win_rate"][s] > fair]   # who wins too often
    worst = max(high or outside, key=lambda s: abs(stats["seat_win_rate"][s] - fair))
    side = "high" if stats["seat_win_rate"][worst] > fair else "low"
    return f"biased: seat {worst} {side}"


def bootstrap_kendall(rows_a: list[dict[str, Any]], rows_b: list[dict[str, Any]],
                      players: int, rounds: int = 400, seed: int = 0,
                      level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of Kendall's tau-b between two sweeps' balance per set,
    resampling each set's games with replacement in both sweeps."""
    names = sorted({r["set"] for r in rows_a} & {r["set"] for r in rows_b})
    sweeps = [[balance_report._metric_columns([r for r in rows if r["set"] == n], players)
               for n in names] for rows in (rows_a, rows_b)]
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(rounds):
        xa, xb = ([balance_report._set_metric(c[rng.integers(0, len(c), len(c))], players,
                                              "balance") for c in sets] for sets in sweeps)
        values.append(balance_report.kendall(np.array(xa), np.array(xb)))
    finite = np.array([v for v in values if np.isfinite(v)])
    if not finite.size:
        return float("nan"), float("nan")
    tail = (1.0 - level) / 2.0
    return float(np.quantile(finite, tail)), float(np.quantile(finite, 1.0 - tail))


def compare_levels(levels: list[str], summaries: dict[str, dict[str, Any]],
                   rows: dict[str, list[dict[str, Any]]], players: int,
                   bootstrap: int = 400, seed: int = 0) -> dict[str, Any]:
    """Verdicts per set and level, the flagged sets, and Kendall's tau per pair of levels."""
    names = [n for n in summaries[levels[0]]["sets"]
             if all(n in summaries[lv]["sets"] for lv in levels)]
    sets = {}
    for name in names:
        per_level = {}
        for lv in levels:
            stats = summaries[lv]["sets"][name]
            per_level[lv] = {"verdict": verdict(stats, players), "balance": stats["balance"],
                             "balance_interval": stats["balance_interval"],
                             "rank": summaries[lv]["ranking"].index(name) + 1}
        kinds = {v["verdict"].split(":")[0] for v in per_level.values()}
        sets[name] = {"levels": per_level, "skill_dependent": len(kinds) > 1}
    pairs = []
    for a, b in combinations(levels, 2):
        xa = np.array([summaries[a]["sets"][n]["balance"] for n in names])
        xb = np.array([summaries[b]["sets"][n]["balance"] for n in names])
        tau = balance_report.kendall(xa, xb) if len(names) >= 2 else float("nan")
        interval = (bootstrap_kendall(rows[a], rows[b], players, rounds=bootstrap, seed=seed)
                    if bootstrap and len(names) >= 2 else None)
        pairs.append({"first": a, "second": b, "kendall": tau, "interval": interval})
    return {"levels": levels, "players": players, "sets": sets, "agreement": pairs,
            "flagged": [n for n in names if sets[n]["skill_dependent"]]}


def outside_interval(pair: dict[str, Any]) -> bool:
    """Whether a pair's measured tau lies outside its bootstrap interval."""
    interval, tau = pair.get("interval"), pair["kendall"]
    return (interval is not None and bool(np.isfinite(tau))
            and not interval[0] <= tau <= interval[1])


def _num(x: float) -> str:
    return "nan" if not np.isfinite(x) else f"{x:+.2f}"


def markdown(result: dict[str, Any], game: str, games: int | dict[str, int],
             seed: int) -> str:
    levels = result["levels"]
    if isinstance(games, dict) and len(set(games.values())) > 1:
        counts = "games per set: " + ", ".join(f"{lv} {games[lv]}" for lv in levels)
    else:
        n = next(iter(games.values())) if isinstance(games, dict) else games
        counts = f"{n} games per set and level"
    lines = ["# Balance verdicts across skill levels", "",
             f"{game}, {result['players']} players, {counts}, seed "
             f"{seed}; levels (weakest first as given): {', '.join(levels)}. Verdict: **fair** "
             f"when every seat's 95% Wilson interval contains the fair share, else "
             f"**biased** (naming the seat that wins too often). Balance = 1 - largest gap between "
             f"seat win rates (rank among the sets in brackets)."
             + (" Level tuned:markets: each set played by the vector tuned on its own market."
                if any(is_markets_level(lv) for lv in levels) else ""), "",
             "| set | " + " | ".join(levels) + " | skill-dependent |",
             "| --- |" + " --- |" * len(levels) + " --- |"]
    for name, s in result["sets"].items():
        cells = [f"{v['verdict']}, {v['balance']:.3f} ({v['rank']})"
                 for v in s["levels"].values()]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | "
                     f"{'**yes**' if s['skill_dependent'] else 'no'} |")
    lines += ["", "## Rank agreement between levels", "",
              "Kendall's tau-b of the sets' balance (95% bootstrap interval, games resampled "
              "per set). +1: same order, 0: unrelated, -1: reversed.", "",
              "| levels | Kendall tau | 95% interval |", "| --- | ---: | --- |"]
    for pair in result["agreement"]:
        interval = pair["interval"]
        text = "-" if interval is None else f"{_num(interval[0])} to {_num(interval[1])}"
        lines.append(f"| {pair['first']} vs {pair['second']} | {_num(pair['kendall'])} | "
                     f"{text} |")
    outside = [p for p in result["agreement"] if outside_interval(p)]
    if outside:
        lines += ["", "Outside its interval: " + ", ".join(
            f"{p['first']} vs {p['second']}" for p in outside) + ". Resampling a set's games "
            "adds noise to its balance, which pulls the resampled tau towards 0; with few "
            "games a set the percentile interval can miss the measured tau. Read such an "
            "interval as: this agreement is not established at this budget."]
    flagged = result["flagged"]
    lines += ["", "Sets whose verdict depends on skill: " + (", ".join(flagged) or "none"), ""]
    lines += balance_report.reconstructed_markdown(game)
    return "\n".join(lines) + "\n"


def plot(result: dict[str, Any], out: Path) -> Path:
    """Balance per set at each level with its bootstrap interval (PNG)."""
    plt = figures.pyplot()
    names = list(result["sets"])
    levels = result["levels"]
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(names)), 4.5))
    width = 0.8 / len(levels)
    x = np.arange(len(names))
    for k, lv in enumerate(levels):
        values = np.array([result["sets"][n]["levels"][lv]["balance"] for n in names])
        lows = np.array([result["sets"][n]["levels"][lv]["balance_interval"][0] for n in names])
        highs = np.array([result["sets"][n]["levels"][lv]["balance_interval"][1]
                          for n in names])
        ax.bar(x + (k - (len(levels) - 1) / 2) * width, values, width,
               yerr=[np.maximum(values - lows, 0), np.maximum(highs - values, 0)], capsize=2,
               label=lv)
    ax.set_xticks(x, names, rotation=30, ha="right")
    ax.set_ylabel("balance (95% bootstrap interval)")
    ax.set_title("balance by set and skill level")
    ax.legend(fontsize=8)
    return figures.save(fig, out / "skill_balance.png", 110)


def build_parser() -> argparse.ArgumentParser:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym balance skills loose_caboose --levels random "
                                "rule_based mcts:20 --games 20 --out reports/skills")
    parser.add_argument("game", help="environment name, e.g. automobiles")
    parser.add_argument("--levels", nargs="+", default=["random", "rule_based", "mcts:50"],
                        help="agent specs, one per level (3 or more), e.g. random rule_based "
                             "tuned:markets mcts:50 (tuned:markets: each set's own tuned "
                             "vector)")
    parser.add_argument("--sets", default=None,
                        help="as for benchmarks.balance.sweep, or several joined by commas "
                             "(suggested,expansion: the 13 named sets)")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=200, help="games per set and level")
    parser.add_argument("--level-games", action="append", default=[], metavar="LEVEL=N",
                        help="N games per set at LEVEL instead of --games (e.g. mcts=40); "
                             "repeatable")
    add_run_arguments(parser, options=True)
    add_data_arguments(parser)
    parser.add_argument("--bootstrap", type=int, default=400,
                        help="bootstrap rounds for the Kendall intervals (0: none)")
    parser.add_argument("--no-plots", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = build_parser()
    args = parser.parse_args(argv)
    with tool_errors(parser):
        cls, players = game_for_cli(args.game, args.players)
        if len(args.levels) < 3 or len(set(args.levels)) != len(args.levels):
            raise ConfigError(f"--levels needs 3 or more different agent specs, got "
                              f"{args.levels}")
        check_counts(args.seed, games=args.games)
        base = {**data_options(args, cls), **parse_options(args.option)}
        sets = parse_set_specs(args.game, args.sets, args.seed, base)
        if len(sets) < 2:
            raise ConfigError("--sets must name 2 or more sets to rank")
        games = parse_level_games(args.level_games, args.levels, args.games)
        cls(num_players=players, **base, **sets[0][1])
        vectors = {lv: market_specs(lv, args.game, players, sets, base)
                   for lv in args.levels if is_markets_level(lv)}
        sweeps = {lv: Sweep(args.game, players, sets,
                            [lv] * players if lv in vectors else parse_agents(lv, players),
                            games[lv], args.seed, base) for lv in args.levels}
        check_backend(args.workers, args.ray)
        out = args.out or Path("reports") / f"skill-{args.game}-{players}p-seed{args.seed}"
        check_out(out)
        summaries, rows = {}, {}
        for lv, sweep in sweeps.items():
            if not args.quiet:
                print(f"level {lv}", file=sys.stderr)
            folder = level_folder(out, lv)
            if lv in vectors:
                summaries[lv], rows[lv] = run_markets_level(
                    sweep, vectors[lv], folder, args.workers, args.ray, not args.no_plots,
                    not args.quiet)
                continue
            summaries[lv] = run_sweep(sweep, folder, workers=args.workers,
                                      ray_address=args.ray, plots=not args.no_plots,
                                      progress=not args.quiet)
            rows[lv] = [r for r in load_csv(folder / "games.csv")
                        if int(r["game"]) < games[lv]]
    result = compare_levels(args.levels, summaries, rows, players, args.bootstrap, args.seed)
    result["games"] = games
    text = markdown(result, args.game, games, args.seed)
    (out / "skill.json").write_text(json.dumps(result, indent=2, default=float))
    (out / "skill.md").write_text(text)
    if not args.no_plots:
        plot(result, out)
    print(text)
    return result
