"""Start-up cost of a fresh process: import, make the env, reset(seed), play one random game.

    transit-gym bench startup [--games automobiles] [--runs 5] [--cold] \
        [--out F]

Every figure is a whole process (``python -c SCRIPT``, interpreter start-up included),
the same script for our games and for PettingZoo's ``texas_holdem_v4``: wall time, CPU
time (user + system) and peak resident memory, the median of ``--runs`` runs taken in
turn (one process of each environment per round, so a change in the machine's load
hits all alike). The kernel cache is warm: one untimed run of each environment comes
first. ``--cold`` adds, per game, the same script with an empty numba cache and then
``transit-gym warmup`` in that cache (the kernels the first game did not need):
the compile work a first use costs.
The load average is recorded with every figure, since other processes slow all of them.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from transit_gym.training.tool_parser import ToolParser

PEER = "texas_holdem_v4"
#: the issue's target: our first Automobiles game within this factor of the peer's time
TARGET = ("automobiles", 2.0)

#: appended to every timed script: the process's own peak RSS (``VmHWM``; ``ru_maxrss``
#: would include the benchmark process it was forked from)
MEMORY_LINE = """
try:
    with open("/proc/self/status") as status:
        peak = [line.split()[1] for line in status if line.startswith("VmHWM:")][0]
except OSError:
    import resource
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print("peak_rss_kb", peak)
"""

SCRIPT = """
import sys
name = sys.argv[1]
if name == "texas_holdem_v4":
    from pettingzoo.classic import texas_holdem_v4 as module
else:
    import importlib
    module = importlib.import_module(f"transit_gym.envs.{name}_v0")
env = module.env()
env.reset(seed=0)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None
    else:
        action = env.action_space(agent).sample(observation["action_mask"])
    env.step(action)
""" + MEMORY_LINE


def run_process(args: list[str], env: dict[str, str] | None = None) -> dict[str, float]:
    """Run ``python args...`` to the end; its wall and CPU seconds and peak RSS (MB)."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.PIPE,
                                stderr=errors)
        output = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        text = errors.read().decode(errors="replace")
    if code != 0:
        raise RuntimeError(f"python {' '.join(args[-2:])}: exit {code}\n{text[-2000:]}")
    peaks = [line.split()[1] for line in output.splitlines() if line.startswith("peak_rss_kb")]
    rss_kb = int(peaks[-1]) if peaks else usage.ru_maxrss
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": rss_kb / 1024,
            "load": os.getloadavg()[0]}


def first_game(name: str, env: dict[str, str] | None = None) -> dict[str, float]:
    return run_process(["-c", SCRIPT, name], env)


def median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    keys = ("wall", "cpu", "rss_mb")
    result = {k: statistics.median(r[k] for r in runs) for k in keys}
    result["load"] = statistics.mean(r["load"] for r in runs)
    result["wall_runs"] = [round(r["wall"], 3) for r in runs]
    return result


def measure_warm(names: list[str], runs: int) -> dict[str, dict[str, float]]:
    """Median whole-process figures with a warm cache, the environments taken in turn."""
    for name in names:  # fill the cache (and the OS file cache)
        first_game(name)
    samples: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    for _ in range(runs):
        for name in names:
            samples[name].append(first_game(name))
    return {name: median_of(samples[name]) for name in names}


def measure_cold(names: list[str]) -> dict[str, dict[str, float]]:
    """Per game, with an empty numba cache: the first-game script, then the full warm-up."""
    result = {}
    for name in names:
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            game = first_game(name, env)
            rest = run_process(["-m", "transit_gym.cli", "warmup", "--games", name], env)
        total = {k: game[k] + rest[k] for k in ("wall", "cpu")}
        result[name] = {"first_game": game, "rest_of_warmup": rest, "all_kernels": total}
    return result


def format_table(results: dict[str, Any]) -> str:
    warm = results["warm"]
    peer = warm.get(PEER)
    lines = [f"Warm cache, fresh process, median of {results['runs']} runs "
             f"(load average {results['load_before']:.1f} before, "
             f"{results['load_after']:.1f} after)", "",
             "| environment | wall s | CPU s | peak RSS MB | wall vs texas_holdem_v4 |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for name, row in warm.items():
        ratio = f"{row['wall'] / peer['wall']:.2f}x" if peer else ""
        lines.append(f"| {name} | {row['wall']:.2f} | {row['cpu']:.2f} | "
                     f"{row['rss_mb']:.0f} | {ratio} |")
    game, factor = TARGET
    if peer and game in warm:
        ratio = warm[game]["wall"] / peer["wall"]
        cpu_ratio = warm[game]["cpu"] / peer["cpu"]
        lines += ["", f"target: {game} within {factor:g}x {PEER}: wall {ratio:.2f}x, "
                      f"CPU {cpu_ratio:.2f}x -> {'met' if ratio <= factor else 'NOT met'}"]
    if results.get("cold"):
        lines += ["", "Empty numba cache (compile work), CPU s (wall s)", "",
                  "| game | first game | rest of the warm-up | all kernels |",
                  "| --- | ---: | ---: | ---: |"]
        for name, row in results["cold"].items():
            cells = [f"{row[k]['cpu']:.1f} ({row[k]['wall']:.0f})"
                     for k in ("first_game", "rest_of_warmup", "all_kernels")]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym bench startup --games loose_caboose --runs 2 "
                                "--no-peer --out startup.json")
    parser.add_games()
    parser.add_argument("--runs", type=int, default=5, help="timed runs per environment")
    parser.add_argument("--cold", action="store_true", help="also measure empty-cache compiles")
    parser.add_argument("--no-peer", action="store_true", help=f"skip PettingZoo {PEER}")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/startup.json"))
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    games = parser.installed_games(args.games)
    names = games if args.no_peer else [PEER, *games]
    results: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "runs": args.runs,
        "load_before": os.getloadavg()[0],
        "warm": measure_warm(names, args.runs),
    }
    results["cold"] = measure_cold(games) if args.cold else {}
    results["load_after"] = os.getloadavg()[0]
    print(format_table(results))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    return results
