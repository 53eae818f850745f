"""Where numba's compile time goes: CPU-seconds per kernel and specialisation, per game.

    transit-gym bench compile [--games planes] [--demo] [--top 15]
        [--out F.json]

Each game runs the warm-up's steps (``training/warmup.py``: AEC env, agents, validation,
batch API, rollouts, jitted agents, search, ...) in a fresh process with an empty
``NUMBA_CACHE_DIR``, so everything it uses is compiled, as on a new machine. A listener on
numba's ``numba:compile`` event (the one ``envs/_numba_cache.py`` uses for its notice)
times every compile in CPU-seconds of that process; nested compiles (a kernel's callees
are typed and compiled while the kernel is) are subtracted from their caller, so each
specialisation is charged its own typing, lowering and LLVM time. Printed per game: the
slowest specialisations, the CPU-s of each warm-up step (the first, ``AEC env``, is a
first ``reset`` plus one game), and totals (compile CPU-s, the child's whole CPU-s from
``getrusage``, wall seconds). The Racing Season season compiles the race's kernels too
(its cache starts empty like every game's).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from transit_gym.training.tool_parser import ToolParser

#: run in the child: the warm-up's steps for one game, timing every compile
CHILD = r"""
import json, sys, time
from numba.core import event
from transit_gym.envs import _numba_cache
from transit_gym.envs.registry import env_module
from transit_gym.training import warmup

_numba_cache.notice.silent = True
stack, records = [], {}

class Timer(event.Listener):
    def on_start(self, ev):
        stack.append([time.process_time(), 0.0])
    def on_end(self, ev):
        start, inner = stack.pop()
        spent = time.process_time() - start
        if stack:
            stack[-1][1] += spent
        fn = ev.data["dispatcher"].py_func
        key = f"{fn.__module__}.{fn.__qualname__}"
        row = records.setdefault(key, {"cpu": 0.0, "inclusive": 0.0, "signatures": []})
        row["cpu"] += spent - inner
        if not stack:
            row["inclusive"] += spent
        row["signatures"].append(", ".join(str(a) for a in ev.data["args"]))

event.register("numba:compile", Timer())
module = env_module(sys.argv[1])
steps = {}
for label, run in warmup.steps_for(sys.argv[2] == "demo"):
    start = time.process_time()
    run(module, 0)
    steps[label] = time.process_time() - start
print("RESULT " + json.dumps({"kernels": records, "steps": steps}))
"""


def measure(game: str, demo: bool = False) -> dict[str, Any]:
    """Compile ``game``'s kernels in a fresh process with an empty cache; the child's
    per-kernel and per-step CPU-s, its whole CPU-s and wall seconds."""
    with tempfile.TemporaryDirectory(prefix="tg_compile_") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-c", CHILD, game, "demo" if demo else "all"],
                             capture_output=True, text=True, env=env, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cache_bytes = sum(f.stat().st_size for f in Path(cache).rglob("*") if f.is_file())
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    if run.returncode != 0 or not lines:
        raise RuntimeError(f"{game}: the compile run failed:\n{run.stderr[-3000:]}")
    result = json.loads(lines[-1].removeprefix("RESULT "))
    result["process_cpu"] = (after.ru_utime - before.ru_utime
                             + after.ru_stime - before.ru_stime)
    result["wall"] = wall
    result["cache_bytes"] = cache_bytes
    result["compile_cpu"] = sum(r["inclusive"] for r in result["kernels"].values())
    return result


def report(game: str, result: dict[str, Any], top: int) -> str:
    """The slowest ``top`` specialisations, the steps and the totals of one game."""
    kernels = sorted(result["kernels"].items(), key=lambda item: -item[1]["cpu"])
    lines = [f"== {game}: {result['compile_cpu']:.1f} CPU-s compiling "
             f"({len(kernels)} functions, "
             f"{sum(len(r['signatures']) for _, r in kernels)} specialisations), "
             f"{result['process_cpu']:.1f} CPU-s in all, {result['wall']:.1f} s wall, "
             f"cache {result['cache_bytes'] / 1e6:.1f} MB"]
    for name, row in kernels[:top]:
        short = name.removeprefix("transit_gym.")
        lines.append(f"  {row['cpu']:7.2f} CPU-s  x{len(row['signatures'])}  {short}")
    steps = ", ".join(f"{label} {cpu:.1f}" for label, cpu in result["steps"].items())
    lines.append(f"  steps (CPU-s): {steps}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym bench compile --games loose_caboose --demo --top 5")
    parser.add_games("games to measure")
    parser.add_argument("--demo", action="store_true",
                        help="only the warm-up steps `make demo` uses")
    parser.add_argument("--top", type=int, default=15,
                        help="specialisations listed per game, slowest first (default 15)")
    parser.add_argument("--out", type=Path, default=None, help="also write the figures as JSON")
    args = parser.parse_args(argv)
    games = parser.installed_games(args.games)
    if args.top < 0:
        parser.error(f"--top must be at least 0, got {args.top}")
    results = {}
    for game in games:
        results[game] = measure(game, args.demo)
        print(report(game, results[game], args.top), flush=True)
    total = sum(r["compile_cpu"] for r in results.values())
    print(f"all games: {total:.1f} CPU-s compiling, "
          f"{sum(r['process_cpu'] for r in results.values()):.1f} CPU-s in all "
          f"(load average {os.getloadavg()[0]:.1f})")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))
    return results
