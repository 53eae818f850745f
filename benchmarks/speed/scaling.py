"""Scale-out: the same balance sweep and tournament on 1, 2, 4, ... workers.

    transit-gym bench scaling [--game automobiles] [--games 4000]
        [--workers 1 2 4 8 16] [--ray] [--out F.json]

Each run builds a fresh backend (``training/runner.py``: serial for one worker, the
process pool, or local Ray with ``--ray``) and times two parts apart:

- start-up: the backend started and every worker ready (one one-game task per worker:
  process start, imports, the game built, its kernels loaded from the disk cache);
- play: the work itself, chunked as the tools chunk it (``benchmarks/balance/sweep.py``'s
  ``chunks``: ``--games`` games of the game's default configuration between the built-in
  agents; ``training/tournament.py``'s ``pair_chunks``: ``--games`` games of every pair of
  ``--agents``).

Printed per workload and worker count: seconds of each part, games per second of play,
speed-up and efficiency (speed-up / workers) against one worker, for play alone and for
the whole run, and the CPU-seconds of the run (this process and its pool workers; Ray's
workers are not counted): CPU-s that grow with the workers are overhead. The kernels are
compiled (or loaded) once before any clock starts. The load average is printed too: on a
shared machine other processes take cores from the workers, and efficiency above the
machine's free cores cannot be reached.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from transit_gym.training.runs.backends import Task, default_workers, make_backend
from transit_gym.training.tool_parser import ToolParser


def sweep_tasks(game: str, players: int, games: int, seed: int, agents: list[str]
                ) -> Callable[[], Iterator[Task]]:
    """The balance sweep's tasks: ``games`` games of the default configuration."""
    from transit_gym.benchmarks.balance.sweep import Sweep, chunks, run_chunk

    sweep = Sweep(game, players, [("default", {})], agents, games, seed)
    return lambda: ((run_chunk, chunk) for chunk in chunks(sweep, set()))


def tournament_tasks(game: str, players: int, games: int, seed: int, agents: list[str]
                     ) -> Callable[[], Iterator[Task]]:
    """The tournament's tasks: ``games`` games of every pair of ``agents``."""
    from transit_gym.envs.registry import options_key
    from transit_gym.training.tournament import pair_chunks, play_pair

    key = options_key({})
    return lambda: ((play_pair, chunk) for chunk in pair_chunks(players, game, key, agents,
                                                                games, seed, set()))


def _one_game(tasks: Iterator[Task]) -> Task:
    """The first task of ``tasks`` cut to one game (what each worker plays to get ready)."""
    function, chunk = next(tasks)
    return function, type(chunk)(**{**chunk.__dict__, "count": 1})


def timed_run(make_tasks: Callable[[], Iterator[Task]], workers: int, ray: bool
              ) -> dict[str, float]:
    """Start-up and play seconds of one run on a fresh backend of ``workers``."""
    cpu_start = _cpu()
    start = time.perf_counter()
    backend = make_backend(workers, None if ray else False)
    try:
        ready = [_one_game(make_tasks()) for _ in range(workers)]
        for _ in backend.run(ready):
            pass
        started = time.perf_counter()
        games = 0
        for result in backend.run(make_tasks()):
            games += len(result)
        done = time.perf_counter()
    finally:
        backend.close()
        if ray:   # the next run starts Ray afresh with its own number of CPUs
            import ray as ray_module

            ray_module.shutdown()
    return {"startup": started - start, "play": done - started, "games": games,
            "cpu": _cpu() - cpu_start}


def _cpu() -> float:
    """CPU-seconds of this process and of its finished child processes (pool workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def scaling(make_tasks: Callable[[], Iterator[Task]], counts: list[int], ray: bool
            ) -> list[dict[str, float]]:
    """One timed run per worker count, with speed-up and efficiency against the first."""
    runs = []
    for workers in counts:
        run = timed_run(make_tasks, workers, ray)
        run["workers"] = workers
        base = runs[0] if runs else run
        total = run["startup"] + run["play"]
        run["speedup_play"] = base["play"] / run["play"] * base["workers"]
        run["speedup_total"] = (base["startup"] + base["play"]) / total * base["workers"]
        run["efficiency_play"] = run["speedup_play"] / workers
        run["efficiency_total"] = run["speedup_total"] / workers
        runs.append(run)
    return runs


def table(title: str, runs: list[dict[str, float]]) -> str:
    """The runs of one workload as text."""
    lines = [f"== {title}",
             "workers  start-up s  play s  games/s  speed-up play (eff.)  whole run (eff.)"
             "  CPU-s"]
    for r in runs:
        lines.append(f"{r['workers']:7d}  {r['startup']:10.2f}  {r['play']:6.2f}  "
                     f"{r['games'] / r['play']:7.0f}  {r['speedup_play']:8.2f} "
                     f"({r['efficiency_play']:4.0%})  {r['speedup_total']:8.2f} "
                     f"({r['efficiency_total']:4.0%})  {r['cpu']:5.1f}")
    return "\n".join(lines)


def worker_counts(limit: int) -> list[int]:
    """1, 2, 4, ... up to ``limit``, ``limit`` itself last."""
    counts = [1]
    while counts[-1] * 2 < limit:
        counts.append(counts[-1] * 2)
    return counts + [limit] if limit > 1 else counts


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from transit_gym.envs.registry import available_games, game_class

    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym bench scaling --game loose_caboose --games 400 "
                                "--workers 1 2")
    parser.add_argument("--game", default="automobiles", choices=available_games())
    parser.add_argument("--players", type=int, default=None,
                        help="players (default: the game's smallest count)")
    parser.add_argument("--games", type=int, default=4000,
                        help="games of the sweep, and of each tournament pair (default 4000)")
    parser.add_argument("--agents", nargs="+", default=["rule_based", "random"],
                        help="the tournament's agents; the sweep seats the first at every "
                             "seat (default: rule_based random)")
    parser.add_argument("--workers", type=int, nargs="+", default=None,
                        help="worker counts (default: 1, 2, 4, ... up to every core)")
    parser.add_argument("--ray", action="store_true", help="also measure local Ray")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="also write the figures as JSON")
    args = parser.parse_args(argv)
    counts = args.workers or worker_counts(default_workers())
    if args.games < 1 or any(w < 1 for w in counts):
        parser.error("--games and --workers must be positive")
    players = args.players or game_class(args.game).min_players
    workloads = {
        "sweep": sweep_tasks(args.game, players, args.games, args.seed,
                             [args.agents[0]] * players),
        "tournament": tournament_tasks(args.game, players, args.games, args.seed,
                                       args.agents),
    }
    results: dict[str, Any] = {"game": args.game, "players": players, "games": args.games,
                               "cores": default_workers()}
    for name, make_tasks in workloads.items():
        for function, chunk in [_one_game(make_tasks())]:   # compile before any clock
            function(chunk)
        for backend in ("pool", "ray") if args.ray else ("pool",):
            runs = scaling(make_tasks, counts, backend == "ray")
            results[f"{name}/{backend}"] = runs
            print(table(f"{name}, {backend} ({args.game}, {players} players, "
                        f"load average {os.getloadavg()[0]:.1f})", runs), flush=True)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))
    return results
