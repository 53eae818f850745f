"""A search of the whole Automobiles market for its most and least balanced card sets.

    transit-gym balance markets --players 2 --agents rule_based \\
        --seed 1 --out reports/market-search-2p

A market is one card per colour; with the Racing Season's 7 cards per colour there are
7^5 = 16,807. The search races them by successive halving on Balance (1 minus the
largest gap between seat win rates): round 0 gives every market ``--games`` games; the
better half of the field races on as the "most balanced" bracket and the worse half as
the "least balanced" bracket; each round a bracket plays ``--growth`` times more games a
market than the round before (its score pools all its rounds) and keeps its better
(resp. worse) half, until ``--finalists`` markets remain in each. The finalists are then
replayed with ``--final-games`` fresh games (so the reported numbers are not inflated by
the selection) and reported with 95% intervals: a bootstrap interval of Balance and a
Wilson interval of the first seat's win rate (first-player advantage).

Game ``i`` of market ``m`` in round ``r`` is seeded from ``(--seed, m, r, i)`` alone, so
one worker, a process pool (``--workers N``) and Ray (``--ray [ADDRESS]``) play the same
games. Results are appended to ``rounds.csv`` as tasks finish; a rerun into the same
``--out`` skips what is done, and a rerun with other settings stops with exit status 2
naming each difference. Outputs: ``rounds.csv``, ``finalists.md``, ``summary.json``,
``finalists.png``.

``--tune-finalists`` then tunes a vector for each finalist market with the optimiser of
``training/tune.py`` (``--tune-generations``, ``--tune-games``: stopped by the generation
count, so the seed reproduces it; cached in ``OUT/tuned/``, one task per market on the
same backend), replays each finalist with the same game seeds with every seat playing that
market's vector, and reports both replays side by side (see ``market_finalists.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.benchmarks.balance import figures
from transit_gym.benchmarks.balance import market_finalists as fin
from transit_gym.benchmarks.balance import market_race as race
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.rollout import AGENT_CODES
from transit_gym.envs.registry import cached_game, game_class, options_key
from transit_gym.training.runs.backends import (
    WorkerDiedError,
    check_backend,
    check_out,
    make_backend,
    run_with_progress,
)
from transit_gym.training.runs.folder import (
    CsvSink,
    SettingsMismatchError,
    check_settings,
    open_rows,
)
from transit_gym.training.runs.options import add_data_arguments, data_options, parse_options
from transit_gym.training.runs.specs import split_specs
from transit_gym.training.tool_parser import ToolParser

GAME = "automobiles"
#: at most this many games in one task (a market's round is split into pieces of this
#: size, small markets' rounds are batched), so a stopped run loses little and many
#: workers share even the last rounds
TASK_GAMES = 256
ROUNDS_FILE = "rounds.csv"
SHOWN = 5   # finalists per end in finalists.md and the plot


@dataclass(frozen=True)
class Settings:
    """Everything that decides the games and the races (not the backend)."""

    players: int
    agents: tuple[str, ...]
    seed: int
    games: int
    growth: int
    finalists: int
    final_games: int
    markets: int | None
    cards_per_colour: int | None
    options: tuple[tuple[str, Any], ...]
    tuning: fin.Tuning | None = None   # --tune-finalists: the finalists' tuning settings

    def as_json(self) -> dict[str, Any]:
        record = dict(self.__dict__)
        record["agents"] = list(self.agents)
        if self.tuning is None:   # (absent, so searches without tuning read as before)
            del record["tuning"]
        else:
            record["tuning"] = asdict(self.tuning)
        record["options"] = {k: v for k, v in self.options}
        record["task_games"] = TASK_GAMES   # the pieces' boundaries, which rows are keyed by
        return json.loads(json.dumps(record, sort_keys=True, default=str))


@dataclass(frozen=True)
class Piece:
    """Games ``first .. first + count - 1`` of one market in one round; with a tuned
    ``vector`` every seat plays it (the tuned replay), else the search's agents play."""

    market: int
    cards: tuple[str, ...]
    first: int
    count: int
    vector: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Task:
    """Pieces of one stage and round: one job for a worker."""

    players: int
    agents: tuple[str, ...]
    seed: int
    options: tuple[tuple[str, Any], ...]
    stage: str        # "race", "final" or "tuned" (the finalists' tuned replay)
    round: int
    pieces: tuple[Piece, ...]


# ----- the worker's job -------------------------------------------------------------------------
def run_task(task: Task) -> list[dict[str, Any]]:
    """Play every piece of ``task`` inside numba; one row per piece."""
    from transit_gym.agents.registry import policy_kernel
    from transit_gym.envs.core.rollout import play_games
    from transit_gym.training.stats import seat_wins

    # the tuned replay uses the game seeds of the rule-based replay ("final")
    seed_round = task.round if task.stage == "race" else race.FINAL_ROUND
    # one game built per process; each market only swaps its cards into the params
    base = cached_game(GAME, task.players,
                       options_key({"start_player": 0, **dict(task.options)}))
    rows = []
    for piece in task.pieces:
        started = time.process_time()
        game = base.with_card_set(piece.cards)
        seed = race.game_seed(task.seed, piece.market, seed_round)
        if piece.vector is None:
            results = play_games(game, policy_kernel(GAME), list(task.agents), piece.count,
                                 seed=seed, first_game=piece.first)
        else:
            from transit_gym.agents.tuned import automobiles as tk

            params = tk.params_with_vectors(game.param_table, [np.asarray(piece.vector)])
            results = play_games(game, tk.policy, ["tuned"] * task.players, piece.count,
                                 seed=seed, first_game=piece.first, params=params,
                                 codes={"tuned": tk.TUNED_CODE})
        shares = seat_wins(results.rewards)
        row: dict[str, Any] = {"stage": task.stage, "round": task.round,
                               "market": piece.market, "first": piece.first,
                               "games": piece.count, "cards": " + ".join(piece.cards)}
        for seat in range(task.players):
            row[f"wins_s{seat}"] = round(float(shares[:, seat].sum()), 6)
        row["decisions"] = int(results.decisions.sum())
        row["outcomes"] = race.format_outcomes(race.count_outcomes(shares))
        # CPU time, not wall time: a measure of the work that a loaded machine does not skew
        row["cpu_seconds"] = round(time.process_time() - started, 4)
        rows.append(row)
    return rows


def make_tasks(settings: Settings, space: race.MarketSpace, stage: str, round_: int,
               markets: list[int], games: int, done: set[tuple[int, int]],
               vectors: dict[int, tuple[float, ...]] | None = None) -> list[Task]:
    """Tasks covering the pieces of ``markets`` not in ``done`` (``(market, first)``);
    ``vectors``: each market's tuned vector, played by every seat."""
    tasks: list[Task] = []
    batch: list[Piece] = []
    size = 0
    for market in markets:
        cards = space.cards(market)
        for first in range(0, games, TASK_GAMES):
            if (market, first) in done:
                continue
            count = min(TASK_GAMES, games - first)
            if batch and size + count > TASK_GAMES:
                tasks.append(_task(settings, stage, round_, batch))
                batch, size = [], 0
            batch.append(Piece(market, cards, first, count,
                               None if vectors is None else vectors[market]))
            size += count
    if batch:
        tasks.append(_task(settings, stage, round_, batch))
    return tasks


def _task(settings: Settings, stage: str, round_: int, pieces: list[Piece]) -> Task:
    return Task(settings.players, settings.agents, settings.seed, settings.options, stage,
                round_, tuple(pieces))


# ----- the search -------------------------------------------------------------------------------
class Search:
    """Plays (or resumes) the race and the finalists' replay, keeping every row."""

    def __init__(self, settings: Settings, space: race.MarketSpace, out: Path,
                 workers: int | None, ray_address: str | None | bool, progress: bool):
        self.settings = settings
        self.space = space
        self.out = out
        self.workers = workers
        self.ray_address = ray_address
        self.progress = progress
        self.csv_path = out / ROUNDS_FILE
        rows = load_csv_rows(self.csv_path)
        self.sink = CsvSink(self.csv_path, rows)
        self.rows: dict[tuple[str, int, int, int], dict[str, Any]] = {
            (r["stage"], int(r["round"]), int(r["market"]), int(r["first"])): r for r in rows}
        self.timing: list[dict[str, Any]] = []
        self.warm: set[bool] = set()   # kernels compiled: rule-based (False), tuned (True)

    def play(self, stage: str, round_: int, markets: list[int], games: int,
             bracket: dict[int, str], vectors: dict[int, tuple[float, ...]] | None = None
             ) -> dict[int, dict[str, int]]:
        """Play what is missing of ``games`` games for each market (every seat playing
        the market's tuned vector when ``vectors`` is given); return each market's
        outcome counts for this stage and round."""
        done = {(m, f) for (s, r, m, f) in self.rows if s == stage and r == round_}
        tasks = make_tasks(self.settings, self.space, stage, round_, markets, games, done,
                           vectors)
        total = sum(p.count for t in tasks for p in t.pieces)
        label = {"race": f"round {round_}", "final": "final replay",
                 "tuned": "tuned replay"}[stage]
        if self.progress:
            print(f"{label}: {len(markets)} markets x {games} games "
                  f"({total} to play)", file=sys.stderr)
        if tasks and (vectors is not None) not in self.warm:
            # compile before forking and before the clock
            first = tasks[0].pieces[0]
            run_task(Task(**{**tasks[0].__dict__, "pieces": (Piece(
                first.market, first.cards, 0, 1, first.vector),)}))
            self.warm.add(vectors is not None)
        started = time.perf_counter()
        if tasks:
            backend = make_backend(self.workers, self.ray_address)
            for rows in run_with_progress(backend, ((run_task, t) for t in tasks), total,
                                          self.progress, size=_games):
                fresh = []
                for row in rows:
                    key = (stage, round_, row["market"], row["first"])
                    if key not in self.rows:
                        row["bracket"] = bracket[row["market"]]
                        self.rows[key] = row
                        fresh.append(row)
                self.sink.write(fresh)
        elapsed = time.perf_counter() - started
        if total:
            self.timing.append({"stage": stage, "round": round_, "markets": len(markets),
                                "games_per_market": games, "games_played": total,
                                "seconds": round(elapsed, 2),
                                "games_per_second": round(total / elapsed, 1)
                                if elapsed > 0 else None})
        counts: dict[int, list[dict[str, int]]] = {m: [] for m in markets}
        for (s, r, m, f), row in self.rows.items():
            if s == stage and r == round_ and m in counts and f < games:
                counts[m].append(race.parse_outcomes(row["outcomes"]))
        return {m: race.merge_outcomes(parts) for m, parts in counts.items()}


def _games(rows: list[dict[str, Any]]) -> int:
    return sum(int(r["games"]) for r in rows)


ROW_KEY = ("stage", "round", "market", "first")


def load_csv_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of an earlier (possibly interrupted) run's ``rounds.csv``, numbers parsed,
    duplicates dropped. A last row cut short (no line end: the run stopped while writing
    it) is removed from the file, so its games are played again; other damage is a
    ``ConfigError`` naming the line."""
    reader = open_rows(path, (*ROW_KEY, "outcomes"), ROUNDS_FILE)
    if reader is None:
        return []
    rows, seen = [], set()
    for row in reader:
        if None in row or None in row.values() or not all(
                row[k].isdigit() for k in ("round", "market", "first", "games")):
            raise ConfigError(f"{path} line {reader.line_num} is damaged; delete that line "
                              f"to resume")
        parsed: dict[str, Any] = dict(row)
        for key in ("round", "market", "first", "games", "decisions"):
            parsed[key] = int(row[key])
        for key in row:
            if key.startswith("wins_s") or key == "cpu_seconds":
                parsed[key] = float(row[key])
        ident = tuple(parsed[k] for k in ROW_KEY)
        if ident not in seen:
            seen.add(ident)
            rows.append(parsed)
    return rows


def run_search(settings: Settings, space: race.MarketSpace, out: Path,
               workers: int | None = None, ray_address: str | None | bool = False,
               plots: bool = True, progress: bool = True) -> dict[str, Any]:
    """Race the markets, replay the finalists, and write every output."""
    check_out(out)
    check_settings(out, settings.as_json(), None, games_file=ROUNDS_FILE, growable=(),
                   may_gain=("tuning",), what="a market search", nested=False)
    # tuning changes none of the race's games, so a search stored without it gains it
    markets = race.sample_markets(space, settings.markets, settings.seed)
    search = Search(settings, space, out, workers, ray_address, progress)
    sizes = race.bracket_sizes(len(markets), settings.finalists)
    ties = race.tie_keys(settings.seed, markets)
    most, least = list(markets), list(markets)
    pooled: dict[int, dict[str, int]] = {m: {} for m in markets}
    rounds = []
    started = time.perf_counter()
    for round_, keep in enumerate(sizes[1:]):
        field = sorted(set(most) | set(least))
        bracket = {m: ("both" if m in most and m in least else "most" if m in most
                       else "least") for m in field}
        games = race.games_in_round(settings.games, settings.growth, round_)
        for market, counts in search.play("race", round_, field, games, bracket).items():
            pooled[market] = race.merge_outcomes([pooled[market], counts])
        scores = {m: race.balance_score(pooled[m], settings.players) for m in field}
        most = race.halve(most, scores, keep, best=True, ties=ties)
        least = race.halve(least, scores, keep, best=False, ties=ties)
        rounds.append({"round": round_, "markets": len(field), "games_per_market": games,
                       "most_kept": len(most), "least_kept": len(least),
                       "best_score": round(scores[most[0]], 4),
                       "worst_score": round(scores[least[0]], 4)})
    finalists = sorted(set(most) | set(least))
    final_bracket = {m: "final" for m in finalists}
    replay = search.play("final", 0, finalists, settings.final_games, final_bracket)
    stats = {m: market_statistics(space, m, replay[m], pooled[m], settings) for m in finalists}
    tuning = None
    if settings.tuning is not None:
        vectors, tuning = fin.tune_finalists(
            finalists, space, dict(settings.options), settings.players, settings.tuning,
            settings.seed, out, workers, ray_address, progress)
        tuned = search.play("tuned", 0, finalists, settings.final_games,
                            {m: "tuned" for m in finalists},
                            {m: tuple(vectors[m].values.tolist()) for m in finalists})
        for m in finalists:
            stats[m]["tuned"] = fin.tuned_entry(tuned[m], settings.players,
                                                _bootstrap_seed(settings, m), vectors[m],
                                                out, m)
    elapsed = time.perf_counter() - started
    most_final = sorted(most, key=lambda m: (-stats[m]["balance"], ties[m]))
    least_final = sorted(least, key=lambda m: (stats[m]["balance"], ties[m]))
    played = sum(t["games_played"] for t in search.timing)
    seconds = sum(t["seconds"] for t in search.timing)
    all_rows = list(search.rows.values())
    cpu = sum(float(r["cpu_seconds"]) for r in all_rows)
    per_cpu = sum(int(r["games"]) for r in all_rows) / cpu if cpu > 0 else None
    full = race.planned_games(space.size, settings.finalists, settings.games,
                              settings.growth, settings.final_games)
    summary = {
        "settings": settings.as_json(),
        "space": {"pools": [list(p) for p in space.pools], "size": space.size,
                  "markets_raced": len(markets)},
        "schedule": {"bracket_sizes": sizes,
                     "planned_games": race.planned_games(len(markets), settings.finalists,
                                                         settings.games, settings.growth,
                                                         settings.final_games)},
        "rounds": rounds,
        "tuning": tuning,
        "most_balanced": [stats[m] for m in most_final],
        "least_balanced": [stats[m] for m in least_final],
        "run": {"games_played": played, "seconds_playing": round(seconds, 2),
                "seconds_total": round(elapsed, 2),
                "games_per_second": round(played / seconds, 1) if seconds > 0 else None,
                "games_per_cpu_second": round(per_cpu, 1) if per_cpu else None,
                "full_space_games": full,
                "projected_minutes": {f"{cores} cores": round(full / per_cpu / cores / 60, 1)
                                      for cores in (2, 64)} if per_cpu else None,
                "backend": "ray" if ray_address is not False else
                "pool" if (workers or 0) != 1 else "serial", "workers": workers,
                "timing": search.timing},
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "finalists.md").write_text(finalists_markdown(summary))
    if plots:
        plot_finalists(summary, out / "finalists.png")
    return summary


def market_statistics(space: race.MarketSpace, market: int, counts: dict[str, int],
                      race_counts: dict[str, int], settings: Settings) -> dict[str, Any]:
    """A finalist's replay numbers with 95% intervals, and its pooled race score."""
    players = settings.players
    return {"market": market, "cards": list(space.cards(market)),
            **fin.replay_statistics(counts, players, _bootstrap_seed(settings, market)),
            "race_games": sum(race_counts.values()),
            "race_balance": round(race.balance_score(race_counts, players), 4)}


def _bootstrap_seed(settings: Settings, market: int) -> int:
    return settings.seed * 1_000_003 + market


# ----- reports ----------------------------------------------------------------------------------
def finalists_markdown(summary: dict[str, Any]) -> str:
    """The top and bottom finalists as Markdown tables."""
    s = summary["settings"]
    lines = [
        "# Market search: the most and least balanced markets",
        "",
        f"{s['players']} players, agents {', '.join(s['agents'])}, seed {s['seed']}; "
        f"{summary['space']['markets_raced']} of {summary['space']['size']} markets raced by "
        f"successive halving ({len(summary['rounds'])} rounds, {s['games']} games a market "
        f"in round 0, x{s['growth']} a round); finalists replayed with {s['final_games']} "
        f"fresh games each.",
        "",
        "Balance = 1 - largest gap between seat win rates (95% bootstrap interval); first "
        "seat = the seat that starts (95% Wilson interval); advantage = its win rate minus "
        "the fair share. Card costs, values and boards are reconstructed where the rulebooks "
        "are silent (see docs/balance.md), so these verdicts are about that reconstruction.",
        "",
    ]
    for title, key in (("Most balanced", "most_balanced"), ("Least balanced", "least_balanced")):
        lines += [f"## {title}", "",
                  "| rank | market | cards | games | Balance [95%] | first seat wins [95%] "
                  "| first-player advantage | race Balance (games) |",
                  "|---:|---:|---|---:|---|---|---:|---|"]
        for rank, m in enumerate(summary[key][:SHOWN], start=1):
            lines.append(
                f"| {rank} | {m['market']} | {', '.join(m['cards'])} | {m['games']} | "
                f"{m['balance']:.3f} [{m['balance_low']:.3f}, {m['balance_high']:.3f}] | "
                f"{m['first_seat_win_rate']:.1%} [{m['first_seat_low']:.1%}, "
                f"{m['first_seat_high']:.1%}] | {m['first_player_advantage']:+.1%} | "
                f"{m['race_balance']:.3f} ({m['race_games']}) |")
        lines.append("")
        if summary.get("tuning"):
            lines += tuned_markdown(summary[key][:SHOWN])
    if summary.get("tuning"):
        t = summary["tuning"]
        lines += [f"Tuning: {t['settings']['generations']} generations of CMA-ES a market, "
                  f"{t['settings']['games']} games a candidate (seed {s['seed']}, stopped by "
                  f"the generation count), {t['tuned_this_run']} market(s) tuned in this run "
                  f"in {t['seconds']} s, {t['cached']} loaded from tuned/.", ""]
    run = summary["run"]
    lines.append(f"{run['games_played']} games played in this run, "
                 f"{run['seconds_playing']} s ({run['games_per_second']} games/s, "
                 f"backend {run['backend']}); {run['games_per_cpu_second']} games per "
                 f"CPU-second over all rows.")
    if run["projected_minutes"]:
        lines.append(f"With these settings the whole space ({summary['space']['size']} "
                     f"markets, {run['full_space_games']} games) would take about "
                     + ", ".join(f"{v} min on {k}" for k, v in
                                 run["projected_minutes"].items())
                     + " (CPU time only: no scheduling overhead, cores not shared).")
    return "\n".join(lines) + "\n"


def _seats(entry: dict[str, Any]) -> str:
    return "; ".join(f"{r:.1%} [{lo:.1%}, {hi:.1%}]" for r, lo, hi in
                     zip(entry["seat_win_rates"], entry["seat_low"], entry["seat_high"],
                         strict=True))


def tuned_markdown(entries: list[dict[str, Any]]) -> list[str]:
    """A bracket's finalists replayed with every seat playing the market's tuned vector,
    next to the rule-based replay (the same game seeds)."""
    lines = ["Replayed with the market's own tuned vector in every seat (the same game seeds "
             "as above). Seat win rates by seat, first seat first, 95% Wilson intervals; the "
             "tuned vector's score against rule_based on fresh games, seats alternated.", "",
             "| rank | market | Balance [95%] | tuned Balance [95%] | seats win [95%] | "
             "tuned seats win [95%] | tuned vs rule_based [95%] |",
             "|---:|---:|---|---|---|---|---|"]
    for rank, m in enumerate(entries, start=1):
        t = m["tuned"]
        ev = t["vs_rule_based"]
        lines.append(
            f"| {rank} | {m['market']} | {m['balance']:.3f} [{m['balance_low']:.3f}, "
            f"{m['balance_high']:.3f}] | {t['balance']:.3f} [{t['balance_low']:.3f}, "
            f"{t['balance_high']:.3f}] | {_seats(m)} | {_seats(t)} | {ev['score']:.1%} "
            f"[{ev['low']:.1%}, {ev['high']:.1%}] ({ev['games']} games) |")
    return lines + [""]


def plot_finalists(summary: dict[str, Any], path: Path) -> Path:
    """Horizontal error bars: each finalist's Balance with its 95% interval."""
    plt = figures.pyplot()
    entries = [(m, "most balanced", "tab:green") for m in summary["most_balanced"][:SHOWN]]
    entries += [(m, "least balanced", "tab:red") for m in summary["least_balanced"][:SHOWN]]
    tuned = bool(summary.get("tuning"))
    fig, ax = plt.subplots(figsize=(9, (0.65 if tuned else 0.45) * len(entries) + 1.5))
    for y, (m, label, colour) in enumerate(entries):
        name = f"{label}, {', '.join(sorted(set(summary['settings']['agents'])))}"
        ax.errorbar(m["balance"], y, xerr=[[m["balance"] - m["balance_low"]],
                                           [m["balance_high"] - m["balance"]]],
                    fmt="o", color=colour, capsize=3,
                    label=name if y == 0 or entries[y - 1][1] != label else None)
        if tuned:
            t = m["tuned"]
            ax.errorbar(t["balance"], y + 0.3, xerr=[[t["balance"] - t["balance_low"]],
                                                     [t["balance_high"] - t["balance"]]],
                        fmt="s", color=colour, mfc="white", capsize=3,
                        label=f"{label}, tuned" if y == 0 or entries[y - 1][1] != label
                        else None)
    ax.set_yticks(range(len(entries)))
    ax.set_yticklabels([f"{m['market']}: {', '.join(m['cards'])}" for m, _, _ in entries],
                       fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("Balance (1 - largest seat win-rate gap), 95% bootstrap interval")
    lows = [m["balance_low"] for m, _, _ in entries]
    lows += [m["tuned"]["balance_low"] for m, _, _ in entries if tuned]
    ax.set_xlim(min(lows) - 0.02, 1.02)
    ax.legend(loc="center", fontsize=8)   # the ends hold the points
    ax.set_title(f"Market search finalists ({summary['settings']['players']} players, "
                 f"{', '.join(sorted(set(summary['settings']['agents'])))})")
    return figures.save(fig, path, 120)


# ----- command line -----------------------------------------------------------------------------
def parse_agents(text: str, players: int) -> tuple[str, ...]:
    """One jitted agent spec for every seat, or one per seat (comma-separated)."""
    specs = split_specs(text, players)
    for spec in specs:
        if spec not in AGENT_CODES:
            raise ConfigError(f"--agents {spec!r}: the market search plays inside numba, so "
                              f"it takes the jitted agents {sorted(AGENT_CODES)}")
    return tuple(specs)


def build_parser() -> argparse.ArgumentParser:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym balance markets --players 2 --plan")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--agents", default="rule_based",
                        help=f"one of {sorted(AGENT_CODES)} for every seat, or one per seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=4, help="games a market in round 0")
    parser.add_argument("--growth", type=int, default=2,
                        help="each round plays this many times more games a market")
    parser.add_argument("--finalists", type=int, default=SHOWN,
                        help="markets left in each bracket when the race stops")
    parser.add_argument("--final-games", type=int, default=2000,
                        help="fresh games for each finalist's replay")
    parser.add_argument("--markets", type=int, default=None,
                        help="race only this many markets, drawn from --seed (default: all)")
    parser.add_argument("--cards-per-colour", type=int, default=None,
                        help="only the first K cards of each colour (data-file order, base "
                             "cards first; default: all 7)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="any other env option, e.g. track=monza, drivers=true, laps=2 "
                             "(VALUE read as JSON, else text); repeatable")
    add_data_arguments(parser)
    tuning = fin.Tuning()
    parser.add_argument("--tune-finalists", action="store_true",
                        help="tune a vector for each finalist market (cached in OUT/tuned/) "
                             "and replay it with every seat playing that vector")
    parser.add_argument("--tune-generations", type=int, default=tuning.generations,
                        help=f"CMA-ES generations a finalist (default {tuning.generations})")
    parser.add_argument("--tune-games", type=int, default=tuning.games,
                        help=f"games a candidate and generation (default {tuning.games})")
    parser.add_argument("--tune-eval-games", type=int, default=tuning.eval_games,
                        help="fresh games scoring each tuned vector against rule_based "
                             f"(default {tuning.eval_games})")
    parser.add_argument("--plan", action="store_true",
                        help="print the schedule and the number of games, play nothing")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=None, help="default: all cores")
    parser.add_argument("--ray", nargs="?", const="", default=False, metavar="ADDRESS",
                        help="run on Ray (local Ray when no ADDRESS)")
    parser.add_argument("--no-plots", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    return parser


def _positive(name: str, value: int) -> None:
    if value < 1:
        raise ConfigError(f"{name} must be a positive integer, got {value}")


def main(argv: list[str] | None = None) -> dict[str, Any] | None:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        from transit_gym.envs.automobiles.data import load_cards

        for name in ("games", "growth", "finalists", "final_games"):
            _positive(f"--{name.replace('_', '-')}", getattr(args, name))
        if args.seed < 0:
            raise ConfigError(f"--seed must be non-negative, got {args.seed}")
        options = {**data_options(args, game_class(GAME)), **parse_options(args.option)}
        if "card_set" in options or "num_players" in options:
            raise ConfigError("--option card_set / num_players: the search sets these itself")
        space = race.market_space(load_cards(options.get("card_data")), args.cards_per_colour)
        tuning = None
        if args.tune_finalists:
            tuning = fin.Tuning(args.tune_generations, args.tune_games, args.tune_eval_games)
            tuning.check()
        settings = Settings(args.players, parse_agents(args.agents, args.players), args.seed,
                            args.games, args.growth, args.finalists, args.final_games,
                            args.markets, args.cards_per_colour,
                            tuple(sorted(options.items())), tuning)
        markets = race.sample_markets(space, args.markets, args.seed)
        # the options valid? (one market's game built here, so errors come before any work)
        cached_game(GAME, args.players, options_key(
            {**options, "card_set": list(space.cards(markets[0]))}))
        check_backend(args.workers, args.ray)
    except ValueError as exc:   # ConfigError, DataFileError
        parser.error(str(exc))
    planned = race.planned_games(len(markets), args.finalists, args.games, args.growth,
                                 args.final_games)
    if args.plan:
        sizes = race.bracket_sizes(len(markets), args.finalists)
        print(f"{len(markets)} markets; bracket sizes {sizes}; games a market per round "
              f"{[race.games_in_round(args.games, args.growth, r) for r in range(len(sizes) - 1)]}"
              f"; {planned} games in all")
        return None
    out = args.out or Path("reports") / f"market-search-{args.players}p-seed{args.seed}"
    try:
        summary = run_search(settings, space, out, workers=args.workers,
                             ray_address=args.ray, plots=not args.no_plots,
                             progress=not args.quiet)
    except SettingsMismatchError as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    except ConfigError as exc:   # a damaged rounds.csv, Ray not starting
        parser.error(str(exc))
    except WorkerDiedError as exc:
        parser.exit(1, f"{parser.prog}: error: {exc}\n")
    print(finalists_markdown(summary))
    print(f"written: {out}/finalists.md, rounds.csv, summary.json"
          + ("" if args.no_plots else ", finalists.png")
          + (f", {fin.TUNED_DIR}/" if tuning else ""), file=sys.stderr)
    return summary
