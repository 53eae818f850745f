"""Card-set balance by self-play: seat win rates, balance, race statistics, colour use.

    transit-gym balance sweep automobiles --sets suggested --players 4 \\
        --games 2000 --agents rule_based --seed 1 --out reports/suggested-4p

``--sets`` takes ``suggested`` (the base game's named sets), ``expansion`` (the Racing
Season's six), ``random:N`` (N random sets of base cards drawn from
the seed), a file listing sets (one per line: ``name: card, card, card, card, card``),
or ``none`` (the game's default configuration; any game). ``--agents`` takes the
built-in agents, the search agent (``mcts``, ``mcts:N``, ``mcts:N:rule_based``) or a
MaskablePPO checkpoint (played in ``training.runs.seating``). Game ``i`` of every set is
seeded by ``(--seed, i)`` (agents with a random stream are reseeded from
``(--seed, i, seat)``: ``training.runs.seeds``), so sets are compared on
the same chance streams, and any backend or worker count gives the same games. Results
go to ``games.csv`` (one row per game; an interrupted run resumes from it),
``report.md``, ``summary.json`` and PNG plots. ``settings.json`` keeps what decides the
games: a run into a folder of another sweep stops before any game, naming each difference
(``training.runs.folder``); only ``--games`` may change.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from transit_gym.agents.registry import is_jit_spec
from transit_gym.benchmarks.balance import balance_report, card_sets
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import cached_game, game_class, game_for_cli, options_key
from transit_gym.training.runs.backends import (
    check_backend,
    check_out,
    make_backend,
    run_with_progress,
)
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.folder import (
    CsvSink,
    check_settings,
    data_file_settings,
    load_csv,
)
from transit_gym.training.runs.options import (
    add_data_arguments,
    add_run_arguments,
    check_counts,
    data_options,
    parse_options,
)
from transit_gym.training.runs.seating import play_seated
from transit_gym.training.runs.specs import (
    agent_fingerprints,
    check_agents,
    load_agent,
    parse_agents,
)
from transit_gym.training.runs.tasks import TaskGame
from transit_gym.training.tool_parser import ToolParser

CHUNK = 200
#: games per chunk when an agent plays through Python (search agents: seconds a game),
#: so an interrupted run loses little and the workers share the load evenly
PYTHON_CHUNK = 10


@dataclass(frozen=True)
class Chunk(TaskGame):
    """Games ``first .. first + count - 1`` of one set: one task for a worker."""

    agents: tuple[str, ...]
    seed: int
    set_name: str
    first: int
    count: int


@dataclass
class Sweep:
    game: str
    players: int
    sets: list[tuple[str, dict[str, Any]]]
    agents: list[str]
    games: int
    seed: int
    base_options: dict[str, Any] = field(default_factory=dict)


def run_chunk(chunk: Chunk) -> list[dict[str, Any]]:
    """Play one chunk and return a record per game (the worker's whole job)."""
    options = {k: list(v) if isinstance(v, tuple) else v for k, v in chunk.options}
    game = cached_game(chunk.game, chunk.players, options_key(options))
    if all(is_jit_spec(a) for a in chunk.agents):
        return _jitted_records(game, chunk)
    return _python_records(game, chunk)


def _jitted_records(game, chunk: Chunk) -> list[dict[str, Any]]:
    from transit_gym.agents.registry import play_specs

    results = play_specs(game, list(chunk.agents), chunk.count, seed=chunk.seed,
                         first_game=chunk.first)
    return [
        balance_report.game_record(game, results.state(game, i), results.rewards[i],
                                   int(results.decisions[i]), chunk.set_name, chunk.first + i)
        for i in range(chunk.count)
    ]


def _python_records(game, chunk: Chunk) -> list[dict[str, Any]]:
    """Games played through the rules API by ``training.runs.seating`` (one agent per seat,
    reseeded from ``(seed, game, seat)`` before every game, so a game's result never
    depends on the chunk it was played in)."""
    agents = [load_agent(spec, game, seed=chunk.seed) for spec in chunk.agents]
    records = []
    for g in range(chunk.first, chunk.first + chunk.count):
        played = play_seated(game, agents, range(game.num_players), chunk.seed, stream=g)
        records.append(balance_report.game_record(game, played.state, played.rewards,
                                                  played.decisions, chunk.set_name, g))
    return records


def chunks(sweep: Sweep, done: set[tuple[str, int]]) -> Iterator[Chunk]:
    """Chunks covering exactly the games not yet in ``done`` (runs of at most CHUNK
    games, PYTHON_CHUNK when an agent plays through Python),
    made lazily: memory grows with ``done``, never with ``--games``.

    Seat 0 starts every game (the game's start option is set to 0 unless the sweep's
    options say otherwise), so that seats are turn-order positions."""
    seat_zero_starts = {game_class(sweep.game).start_option: 0}
    size = CHUNK if all(is_jit_spec(a) for a in sweep.agents) else PYTHON_CHUNK
    for set_name, set_options in sweep.sets:
        options = options_key({**seat_zero_starts, **sweep.base_options, **set_options})
        played = sorted(g for name, g in done if name == set_name and 0 <= g < sweep.games)
        start = 0
        for stop in [*played, sweep.games]:     # the gaps between games already played
            for first in range(start, stop, size):
                yield Chunk(sweep.game, sweep.players, options, tuple(sweep.agents),
                            sweep.seed, set_name, first, min(size, stop - first))
            start = stop + 1


def games_to_play(sweep: Sweep, done: set[tuple[str, int]]) -> int:
    """How many games :func:`chunks` covers (counted without making them)."""
    names = {name for name, _ in sweep.sets}
    played = sum(1 for name, g in done if name in names and 0 <= g < sweep.games)
    return sweep.games * len(sweep.sets) - played


def sweep_settings(sweep: Sweep) -> dict[str, Any]:
    """What decides a sweep's games, as stored in ``--out/settings.json``: game, players,
    agents (a checkpoint with its SHA-256), seed, options, sets, data files' SHA-256, and
    the games per set (which may grow on resume)."""
    game = game_class(sweep.game)(num_players=sweep.players, **sweep.base_options,
                                  **(sweep.sets[0][1] if sweep.sets else {}))
    files = data_file_settings(game)
    return {"game": sweep.game, "players": sweep.players, "agents": list(sweep.agents),
            "checkpoints": agent_fingerprints(sweep.agents, game), "seed": sweep.seed,
            "options": {k: v for k, v in sweep.base_options.items()
                        if k not in files["data_files"]},
            "sets": {name: options for name, options in sweep.sets},
            **files, "games": sweep.games}


def run_sweep(sweep: Sweep, out: Path, workers: int | None = None,
              ray_address: str | None | bool = False, plots: bool = True,
              progress: bool = True) -> dict[str, Any]:
    """Play (or resume) the sweep, then write the CSV, report, summary and plots.

    ``out`` keeps the sweep's settings: a folder holding another sweep's games is a
    ``SettingsMismatchError`` before any game (see ``training.runs.folder``)."""
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "games.csv"
    check_settings(out, sweep_settings(sweep), "balance")
    rows = load_csv(csv_path)
    wanted = {name for name, _ in sweep.sets}
    done = {(r["set"], int(r["game"])) for r in rows if r["set"] in wanted}
    total = games_to_play(sweep, done)
    sink = CsvSink(csv_path, rows)
    backend = make_backend(workers, ray_address)
    first = next(chunks(sweep, done), None)
    if first is not None:  # compile (and fill the disk cache) before forking and the clock
        run_chunk(Chunk(**{**first.__dict__, "count": 1}))
    tasks = ((run_chunk, c) for c in chunks(sweep, set(done)))
    started = time.perf_counter()
    for records in run_with_progress(backend, tasks, total, progress):
        fresh = [r for r in records if (r["set"], r["game"]) not in done]
        done.update((r["set"], r["game"]) for r in fresh)
        sink.write(fresh)
        rows.extend(fresh)
    elapsed = time.perf_counter() - started
    rows = [r for r in rows if r["set"] in wanted and int(r["game"]) < sweep.games]
    rows.sort(key=lambda r: ([n for n, _ in sweep.sets].index(r["set"]), int(r["game"])))
    summary = balance_report.summarise(sweep, rows)
    summary["run"] = {"games_played": total, "games_resumed": len(rows) - total,
                      "seconds": round(elapsed, 2),
                      # three significant digits: search sweeps play well under 1 game/s
                      "games_per_second": float(f"{total / elapsed:.3g}") if elapsed > 0
                      else None,
                      "backend": backend.name, "workers": workers}
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=float))
    (out / "report.md").write_text(balance_report.markdown(sweep, summary))
    if plots:
        balance_report.plots(sweep, rows, summary, out)
    return summary


def build_parser() -> argparse.ArgumentParser:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym balance sweep loose_caboose --games 100 --out "
                                "reports/caboose")
    parser.add_argument("game", help="environment name, e.g. automobiles")
    parser.add_argument("--sets", default=None,
                        help="suggested | expansion | random:N | FILE | none (default: "
                             "suggested for "
                             "games with card sets, else none)")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=1000, help="games per set")
    parser.add_argument("--agents", default="rule_based",
                        help="rule_based | random | mcts | mcts:N | mcts:N:rule_based | checkpoint "
                             "path; one or one per seat")
    add_run_arguments(parser)
    add_data_arguments(parser)
    parser.add_argument("--track", default=None,
                        help="track name or file (passed to the env)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="any other env option, e.g. drivers=true, weaving=true, "
                             "accelerated_play=true, laps=5 (VALUE read as JSON, else text); "
                             "repeatable")
    parser.add_argument("--no-plots", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = build_parser()
    args = parser.parse_args(argv)
    with tool_errors(parser):  # ConfigError, DataFileError: bad arguments or files
        cls, players = game_for_cli(args.game, args.players)
        check_counts(args.seed, games=args.games)
        base: dict[str, Any] = data_options(args, cls)
        if args.track:
            base["track"] = args.track
        base.update(parse_options(args.option))
        sets = card_sets.parse_sets(args.game, args.sets, args.seed, base)
        sweep = Sweep(args.game, players, sets, parse_agents(args.agents, players), args.games,
                      args.seed, base)
        game = cls(num_players=players, **base, **sets[0][1])  # options valid?
        check_agents(sorted(set(sweep.agents)), game)   # checkpoints, tuned vectors fit?
        check_backend(args.workers, args.ray)
        out = args.out or Path("reports") / f"balance-{args.game}-{players}p-seed{args.seed}"
        check_out(out)
    with tool_errors(parser, ConfigError):  # a damaged games.csv, Ray not starting
        summary = run_sweep(sweep, out, workers=args.workers, ray_address=args.ray,
                            plots=not args.no_plots, progress=not args.quiet)
    print(balance_report.markdown(sweep, summary))
    print(f"written: {out}/report.md, games.csv, summary.json"
          + ("" if args.no_plots else ", seat_win_rates.png, race_length.png"), file=sys.stderr)
    return summary
