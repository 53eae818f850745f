"""Step throughput of our environments and of peer libraries, in one run on one machine.

    transit-gym bench throughput [--games loose_caboose planes] \
        [--seconds 3] [--option KEY=VALUE ...] [--out F]

Every figure is random legal play. The AEC loop is the same for our envs and for
PettingZoo's (``agent_iter`` / ``last`` / ``step`` through the wrapped env, a legal action
picked with ``np.flatnonzero`` and ``random.randrange``). The batch API steps B games per
call with actions drawn by a jitted sampler; rollouts are whole random games inside
numba on one core. OpenSpiel is driven from a Python loop (``legal_actions`` /
``apply_action``). Prints a table with ratios to the peers and writes JSON.

Compile time is never inside a figure: every kernel of the measured games is compiled
(or loaded from the cache) by ``transit-gym warmup`` before any clock starts, and
each figure also runs its loop once untimed.
"""

from __future__ import annotations

import json
import platform
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.core.batch import BatchEnv
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.core.rollout import random_rollouts
from transit_gym.envs.registry import env_module
from transit_gym.training.runs.options import parse_options
from transit_gym.training.tool_parser import ToolParser
from transit_gym.training.warmup import warm_up

#: targets from the issues: (game, figure) -> (peer or None, minimum)
TARGETS: dict[tuple[str, str], tuple[str | None, float]] = {
    ("loose_caboose", "aec"): ("pettingzoo connect_four_v3", 10.0),
    ("loose_caboose", "batch_1024"): (None, 1_000_000.0),
    ("loose_caboose", "rollout"): (None, 3_000_000.0),
    ("automobiles", "aec"): ("pettingzoo texas_holdem_v4", 5.0),
    ("automobiles", "rollout"): (None, 500_000.0),
    ("automobile", "aec"): ("pettingzoo texas_holdem_v4", 5.0),
    ("automobile", "rollout"): (None, 300_000.0),
    ("planes", "aec"): ("pettingzoo connect_four_v3", 10.0),
    ("planes", "rollout"): (None, 1_000_000.0),
}
BATCH_SIZES = (1, 64, 1024)


def aec_steps_per_second(make_env: Callable[[], Any], seconds: float) -> float:
    """Steps per second of random legal play through a PettingZoo AEC env."""
    env = make_env()
    env.reset(seed=0)
    rnd = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rnd.randrange(len(legal))])
            env.step(action)
            steps += 1
        env.reset()
    return steps / (time.perf_counter() - start)


def batch_steps_per_second(game, batch_size: int, seconds: float) -> float:
    """Env-steps per second of ``BatchEnv.step`` (B games per call), actions jitted."""
    batch = BatchEnv(game, batch_size, seed=0)
    words = seeded_words(1)
    actions = np.zeros(batch_size, dtype=np.int64)
    batch.step(batch.random_actions(words, actions))  # compile
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(max(1, 4096 // batch_size)):
            batch.step(batch.random_actions(words, actions))
            steps += batch_size
    return steps / (time.perf_counter() - start)


def rollout_decisions_per_second(game, seconds: float) -> tuple[float, float]:
    """Decisions and games per second of jitted random rollouts on one core."""
    random_rollouts(game, 2, seed=0)  # compile
    games, decisions = 0, 0
    chunk = 64
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += random_rollouts(game, chunk, seed=1, first_game=games)
        games += chunk
        chunk = min(chunk * 2, 65536)
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed


def openspiel_steps_per_second(name: str, seconds: float) -> float:
    import pyspiel

    game = pyspiel.load_game(name)
    rnd = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rnd.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def measure_peers(seconds: float) -> dict[str, float]:
    from pettingzoo.classic import connect_four_v3, texas_holdem_v4

    peers = {
        "pettingzoo connect_four_v3": aec_steps_per_second(connect_four_v3.env, seconds),
        "pettingzoo texas_holdem_v4": aec_steps_per_second(texas_holdem_v4.env, seconds),
    }
    try:
        peers["openspiel connect_four (python loop)"] = openspiel_steps_per_second(
            "connect_four", seconds)
    except ImportError:
        print("open_spiel is not installed: OpenSpiel is left out of the table")
    return peers


def measure_game(name: str, players: int | None, seconds: float,
                 options: dict[str, Any] | None = None) -> dict[str, float]:
    module = env_module(name)
    players = players or module.Game.min_players
    options = options or {}
    game = module.Game(num_players=players, **options)
    aec_steps_per_second(lambda: module.env(num_players=players, **options), 0.2)  # compile
    result = {"players": players, "options": options,
              "aec": aec_steps_per_second(lambda: module.env(num_players=players, **options),
                                          seconds)}
    for size in BATCH_SIZES:
        result[f"batch_{size}"] = batch_steps_per_second(game, size, seconds)
    result["rollout"], result["rollout_games"] = rollout_decisions_per_second(game, seconds)
    return result


def check_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for (name, figure), (peer, minimum) in TARGETS.items():
        if name not in results["games"]:
            continue
        value = results["games"][name][figure]
        if peer is not None:
            if peer not in results["peers"]:
                continue
            ratio = value / results["peers"][peer]
            rows.append({"game": name, "figure": figure, "value": value, "ratio": ratio,
                         "target": f">= {minimum:g}x {peer}", "met": ratio >= minimum})
        else:
            rows.append({"game": name, "figure": figure, "value": value, "ratio": None,
                         "target": f">= {minimum:,.0f}/s", "met": value >= minimum})
    return rows


def format_table(results: dict[str, Any]) -> str:
    peers = results["peers"]
    c4 = peers.get("pettingzoo connect_four_v3")
    th = peers.get("pettingzoo texas_holdem_v4")
    lines = ["| environment | figure | steps/s | vs connect_four_v3 | vs texas_holdem_v4 |",
             "| --- | --- | ---: | ---: | ---: |"]
    for name, value in peers.items():
        lines.append(f"| {name} | AEC loop | {value:,.0f} | "
                     f"{value / c4:.2f}x | {value / th:.2f}x |" if c4 and th else
                     f"| {name} | AEC loop | {value:,.0f} | | |")
    for name, figures in results["games"].items():
        label = f"{name} ({figures['players']}p)"
        rows = [("AEC loop", figures["aec"])]
        rows += [(f"batch B={b} (env-steps)", figures[f"batch_{b}"]) for b in BATCH_SIZES]
        rows += [("jitted rollout (decisions, 1 core)", figures["rollout"])]
        for figure, value in rows:
            vs_c4 = f"{value / c4:.1f}x" if c4 else ""
            vs_th = f"{value / th:.1f}x" if th else ""
            lines.append(f"| {label} | {figure} | {value:,.0f} | {vs_c4} | {vs_th} |")
    lines.append("")
    lines.append("| game | target | measured | met |")
    lines.append("| --- | --- | ---: | :---: |")
    for row in results["targets"]:
        measured = f"{row['ratio']:.1f}x" if row["ratio"] is not None else f"{row['value']:,.0f}/s"
        lines.append(f"| {row['game']} {row['figure']} | {row['target']} | {measured} | "
                     f"{'yes' if row['met'] else 'NO'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym bench throughput --games loose_caboose --seconds 1 "
                                "--no-peers --out throughput.json")
    parser.add_games()
    parser.add_argument("--players", type=int, default=None,
                        help="player count (default: each game's minimum)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    parser.add_argument("--no-peers", action="store_true", help="skip PettingZoo/OpenSpiel")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="env option of the measured games (VALUE read as JSON when it is "
                             "JSON), e.g. --games automobiles --option 'card_set=\"Shake & "
                             "Bake\"' --option track=tucson --option drivers=true")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/throughput.json"))
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    games = parser.installed_games(args.games)
    try:
        options = parse_options(args.option)
        for g in games:   # a bad option is named before anything is measured
            env_module(g).Game(num_players=args.players or env_module(g).Game.min_players,
                               **options)
    except ConfigError as error:
        parser.error(str(error))
    warm_up(games)  # every compile happens here, outside the timed loops
    results: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "processor": platform.processor(),
                    "platform": platform.platform()},
        "seconds_per_figure": args.seconds,
        "peers": {} if args.no_peers else measure_peers(args.seconds),
        "games": {g: measure_game(g, args.players, args.seconds, options) for g in games},
    }
    results["targets"] = check_targets(results)
    print(format_table(results))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    return results
