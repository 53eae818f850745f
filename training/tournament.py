"""Round-robin tournament between agents, rated with Bradley-Terry Elo (95% intervals).

    transit-gym tournament --game loose_caboose --players 2 \\
        --agents random rule_based checkpoints/loose_caboose_2p_ppo.zip --games 200

Every pair of agents plays ``--games`` games. In a game the seats alternate between
the two agents (A, B, A, ...), starting with A in even games and B in odd ones, so
both sit everywhere; an agent's score in a game is its seats' share of the win.
Built-in agents play inside numba; the others in the run layer's Python game loop
(``training.runs.seating``). Game i of every pair is seeded by ``(--seed, i)``;
``--workers`` and ``--ray`` change the speed, never the results. With ``--out`` the
settings go to ``settings.json`` and every game to ``games.csv`` as it finishes: a
stopped tournament resumes from it (a larger ``--games`` plays only the missing games),
and a folder holding a tournament with other settings is refused before any game (exit
status 2, each difference named). A checkpoint agent is checked against the game (its
recorded game and observation layout) before any game too.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.agents.registry import is_jit_spec, play_specs
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import game_class, game_for_cli, options_key
from transit_gym.training.runs.backends import (
    check_backend,
    check_out,
    make_backend,
    run_with_progress,
)
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.folder import CsvSink, check_settings, data_file_settings, load_csv
from transit_gym.training.runs.options import add_run_arguments, check_counts, parse_options
from transit_gym.training.runs.seating import play_seated
from transit_gym.training.runs.specs import agent_fingerprints, check_agents, load_agent
from transit_gym.training.runs.tasks import TaskGame
from transit_gym.training.stats import elo_ratings, seat_wins, wilson_interval
from transit_gym.training.tool_parser import ToolParser

CHUNK = 100


@dataclass(frozen=True)
class PairChunk(TaskGame):
    """Games ``first .. first + count - 1`` between agents ``specs[a]`` and ``specs[b]``."""

    a: int
    b: int
    specs: tuple[str, ...]
    seed: int
    first: int
    count: int


def seating(players: int, game_index: int) -> list[int]:
    """0 for agent A, 1 for agent B at each seat, alternating, flipped every game."""
    return [(seat + game_index) % 2 for seat in range(players)]


def play_pair(chunk: PairChunk) -> list[tuple[int, int, int, float]]:
    """Results ``(a, b, game, score of a)`` of one chunk of games between agents a and b."""
    game = chunk.build()
    spec_a, spec_b = chunk.specs[chunk.a], chunk.specs[chunk.b]
    results = []
    if is_jit_spec(spec_a) and is_jit_spec(spec_b):   # built-in and tuned: inside numba
        for g in range(chunk.first, chunk.first + chunk.count):
            sides = seating(chunk.players, g)
            names = [spec_a if side == 0 else spec_b for side in sides]
            out = play_specs(game, names, 1, seed=chunk.seed, first_game=g)
            share = seat_wins(out.rewards)[0]
            results.append((chunk.a, chunk.b, g, float(share[np.array(sides) == 0].sum())))
        return results
    agents = [load_agent(spec_a, game, chunk.seed), load_agent(spec_b, game, chunk.seed + 1)]
    for g in range(chunk.first, chunk.first + chunk.count):
        sides = seating(chunk.players, g)   # each game fixed by (seed, g): any chunking
        played = play_seated(game, agents, sides, chunk.seed, stream=g)
        share = seat_wins(played.rewards[None, :])[0]
        results.append((chunk.a, chunk.b, g, float(share[np.array(sides) == 0].sum())))
    return results


def parse_games_for(items: list[str] | None) -> dict[str, int]:
    """``["mcts:1000=40", ...]`` as ``{"mcts:1000": 40}`` (``ConfigError`` when malformed)."""
    found: dict[str, int] = {}
    for item in items or []:
        spec, sep, count = item.rpartition("=")
        if not sep or not spec or not count.isdigit() or int(count) < 1:
            raise ConfigError(f"--games-for takes SPEC=N with N a positive integer, got "
                              f"{item!r}")
        found[spec] = int(count)
    return found


def pair_game_count(spec_a: str, spec_b: str, games: int,
                    games_for: dict[str, int] | None = None) -> int:
    """Games of the pair: ``games``, or the smallest ``games_for`` entry of its agents."""
    counts = [n for spec, n in (games_for or {}).items() if spec in (spec_a, spec_b)]
    return min(counts) if counts else games


def pair_chunks(players: int, game: str, key: tuple, specs: list[str], games: int, seed: int,
                done: set[tuple[str, int]], games_for: dict[str, int] | None = None):
    """Chunks of at most CHUNK games covering exactly the games of every pair not yet in
    ``done`` (``(pair, game)`` with pair ``"a-b"``), made lazily (``--games`` may be huge);
    a pair holding an agent of ``games_for`` plays that many games instead."""
    for a, b in combinations(range(len(specs)), 2):
        count = pair_game_count(specs[a], specs[b], games, games_for)
        played = sorted(g for pair, g in done if pair == f"{a}-{b}" and 0 <= g < count)
        start = 0
        for stop in [*played, count]:    # the gaps between games already played
            for first in range(start, stop, CHUNK):
                yield PairChunk(game, players, key, a, b, tuple(specs), seed, first,
                                min(CHUNK, stop - first))
            start = stop + 1


def tournament_settings(game: str, players: int, specs: list[str], games: int, seed: int,
                        options: dict[str, Any]) -> dict[str, Any]:
    """What decides a tournament's games, as stored in ``--out/settings.json``. Game i of a
    pair is the same game whatever the counts, so ``--games-for``, like ``--games``, may
    change between runs on one folder (games beyond a pair's count are kept, not rated)."""
    built = game_class(game)(num_players=players, **options)
    files = data_file_settings(built)
    return {"game": game, "players": players, "agents": list(specs),
            "checkpoints": agent_fingerprints(specs, built), "seed": seed,
            "options": {k: v for k, v in options.items() if k not in files["data_files"]},
            **files, "games": games}


def run_tournament(game: str, players: int, specs: list[str], games: int, seed: int,
                   options: dict[str, Any] | None = None, workers: int | None = None,
                   ray_address: str | None | bool = False, progress: bool = True,
                   out: Path | None = None,
                   games_for: dict[str, int] | None = None,
                   stored_only: bool = False) -> dict[str, Any]:
    """Play every pair and rate the agents; returns ratings, the score matrix, each
    cell's game count and 95% Wilson interval. A pair holding an agent of ``games_for``
    (spec: games) plays that many games instead of ``games``. With ``out``, resume from
    (and append to) ``out/games.csv``, after checking the settings stored there
    (``training.runs.folder``); ``stored_only`` plays nothing and rates the games stored
    there (a cell counts the games it has)."""
    if stored_only and out is None:
        raise ConfigError("rating the stored games only needs the folder that holds them")
    if len(specs) < 2:
        raise ConfigError("a tournament needs at least two agents")
    if len(set(specs)) != len(specs):
        raise ConfigError(f"agents must be distinct, got {specs}")
    unknown = sorted(set(games_for or {}) - set(specs))
    if unknown:
        raise ConfigError(f"--games-for names {unknown}, which are not among the agents "
                          f"{specs}")
    options = dict(options or {})
    key = options_key(options)
    results: list[tuple[int, int, float]] = []
    done: set[tuple[str, int]] = set()
    sink = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        check_settings(out, tournament_settings(game, players, specs, games, seed, options),
                       "tournament")
        rows = load_csv(out / "games.csv", key=("pair", "game"))
        for row in rows:
            a, _, b = str(row["pair"]).partition("-")
            if int(row["game"]) < pair_game_count(specs[int(a)], specs[int(b)], games,
                                                  games_for):
                results.append((int(a), int(b), float(row["score_a"])))
            done.add((row["pair"], int(row["game"])))
        sink = CsvSink(out / "games.csv", rows)
    total = 0 if stored_only else sum(pair_game_count(specs[a], specs[b], games, games_for)
                                      for a, b in combinations(range(len(specs)), 2)
                                      ) - len(results)
    tasks = iter(()) if stored_only else pair_chunks(players, game, key, specs, games, seed,
                                                      done, games_for)
    backend = make_backend(workers, ray_address)
    for chunk_results in run_with_progress(backend, ((play_pair, t) for t in tasks), total,
                                           progress):
        if sink is not None:
            sink.write([{"pair": f"{a}-{b}", "game": g, "agent_a": specs[a],
                         "agent_b": specs[b], "score_a": score}
                        for a, b, g, score in chunk_results])
        results.extend((a, b, score) for a, b, _, score in chunk_results)
    results.sort()
    ratings = elo_ratings(specs, results, seed=seed)
    scores = np.zeros((len(specs), len(specs)))
    counts = np.zeros((len(specs), len(specs)))
    for a, b, score in results:
        scores[a, b] += score
        scores[b, a] += 1.0 - score
        counts[a, b] += 1
        counts[b, a] += 1
    order = list(np.argsort(-ratings.elo))
    return {
        "game": game, "players": players, "options": options, "games_per_pair": games,
        "games_for": dict(games_for or {}), "seed": seed,
        "agents": specs, "games_played": total,
        "elo": {specs[i]: {"elo": float(ratings.elo[i]), "low": float(ratings.low[i]),
                           "high": float(ratings.high[i])} for i in order},
        "score_rate": {specs[a]: {specs[b]: (float(scores[a, b] / counts[a, b])
                                             if counts[a, b] else None)
                                  for b in range(len(specs)) if b != a}
                       for a in range(len(specs))},
        "pair_games": {specs[a]: {specs[b]: int(counts[a, b]) for b in range(len(specs))
                                  if b != a} for a in range(len(specs))},
        "score_interval": {specs[a]: {specs[b]: (list(wilson_interval(scores[a, b],
                                                                      int(counts[a, b])))
                                                 if counts[a, b] else None)
                                      for b in range(len(specs)) if b != a}
                           for a in range(len(specs))},
    }


def _games_for_text(report: dict[str, Any]) -> str:
    """`` (mcts:1000: 40)`` for the pairs that played another count, else empty."""
    extra = report.get("games_for") or {}
    return f" ({', '.join(f'{k}: {v}' for k, v in extra.items())})" if extra else ""


def _options_text(report: dict[str, Any]) -> str:
    """``options airport="zephyr"; `` for a tournament played with env options, else
    empty."""
    options = report.get("options") or {}
    return ("options " + ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items())
            + "; ") if options else ""


def markdown(report: dict[str, Any]) -> str:
    lines = [f"# Tournament: {report['game']}, {report['players']} players",
             "", f"{report['games_per_pair']} games per pair{_games_for_text(report)}, "
             f"seed {report['seed']}; {_options_text(report)}"
             "Bradley-Terry Elo (mean 1500) with 95% bootstrap intervals.", "",
             "| rank | agent | Elo | 95% interval |", "| ---: | --- | ---: | --- |"]
    for rank, (name, r) in enumerate(report["elo"].items(), 1):
        lines.append(f"| {rank} | {name} | {r['elo']:.0f} | {r['low']:.0f}-{r['high']:.0f} |")
    names = list(report["elo"])
    lines += ["", "Score rate of the row agent against the column agent:", "",
              "| | " + " | ".join(names) + " |", "| --- |" + " ---: |" * len(names)]
    for a in names:
        cells = ["-" if a == b else "not played" if report["score_rate"][a][b] is None
                 else f"{100 * report['score_rate'][a][b]:.1f}%" for b in names]
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def check_arguments(game: str, players: int | None, specs: list[str], games: int, seed: int,
                    games_for_items: list[str] | None, options: dict[str, Any] | None = None
                    ) -> tuple[int, dict[str, int]]:
    """The player count and ``--games-for`` of a command line's tournament, after checking
    the game, counts, seed, env options and agents (``ConfigError`` naming what is
    wrong)."""
    cls, players = game_for_cli(game, players)
    check_counts(seed, games=games)
    games_for = parse_games_for(games_for_items)
    unknown = sorted(set(games_for) - set(specs))
    if unknown:
        raise ConfigError(f"--games-for names {unknown}, which are not among the agents "
                          f"{specs}")
    check_agents(specs, cls(num_players=players, **(options or {})))
    return players, games_for


def add_pair_arguments(parser: argparse.ArgumentParser, agents: dict[str, Any],
                       games_help: str, games_for_help: str) -> None:
    """The flags of a tool that plays every pair of agents: ``--game``, ``--players``,
    ``--agents`` (``agents``: its default or ``required``, and its help), ``--games`` (a
    pair's) and ``--games-for``."""
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--agents", nargs="+", **agents)
    parser.add_argument("--games", type=int, default=200, help=games_help)
    parser.add_argument("--games-for", nargs="+", default=None, metavar="SPEC=N",
                        help=games_for_help)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym tournament --game planes --agents random rule_based "
                                "--games 100")
    add_pair_arguments(
        parser, {"default": ["random", "rule_based"],
                 "help": "random, rule_based, mcts (information-set MCTS, default budget), "
                         "mcts:N (N simulations a move), ppo (the game's shipped checkpoint), "
                         "tuned (shipped parameter vector), tuned:FILE (a vector saved by "
                         "transit-gym tune), or MaskablePPO checkpoint paths"},
        "games per pair", "fewer (or more) games for every pair holding agent SPEC, e.g. "
                          "mcts:1000=40 (the smallest applies when both agents have one)")
    add_run_arguments(parser, out_help="folder for settings.json, games.csv (resumable) "
                                       "and report.md/json", options=True)
    args = parser.parse_args(argv)
    with tool_errors(parser):  # ConfigError, DataFileError: bad arguments or files
        options = parse_options(args.option)
        players, games_for = check_arguments(args.game, args.players, args.agents, args.games,
                                             args.seed, args.games_for, options)
        check_backend(args.workers, args.ray)
        if args.out is not None:
            check_out(args.out)   # before the games, not after them
    # too few or repeated agents, other settings in --out, Ray
    with tool_errors(parser, ConfigError):
        report = run_tournament(args.game, players, args.agents, args.games, args.seed,
                                options=options, workers=args.workers, ray_address=args.ray,
                                progress=not args.quiet, out=args.out, games_for=games_for)
    text = markdown(report)
    print(text)
    if args.out:
        (args.out / "report.md").write_text(text)
        (args.out / "report.json").write_text(json.dumps(report, indent=2))
    return report
