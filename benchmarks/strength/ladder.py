"""A ladder of agents for one game: every pair's score rate with its interval, and each
agent's CPU per move and training time.

    transit-gym ladder \\
        --game planes --agents random rule_based mcts \\
        mcts:1000 --games 200 --games-for mcts=100 mcts:1000=20 --seed 0 \\
        --out docs/ladders/planes.md

The games are ``training.tournament``'s round robin (seats alternated, or rotated with 3+
players; game i of every pair seeded by ``(--seed, i)``), so every cell equals that
tournament's score rate for the same seed. ``--games-for SPEC=N`` gives the pairs of an
expensive agent fewer games (the smaller count applies when both agents have one); each
cell shows its game count and 95% Wilson interval. CPU per move is measured in the same
run, before the games, as the mean process CPU time of ``act_state`` over ``--cpu-moves``
positions along random games where the mover has a real choice; the first move of each
agent (numba compilation, loading) is timed apart. Training time is read from what the
agent ships with: the ``ppo`` checkpoint's report, the tuned vector's ``meta``, a network's
record when it holds one; otherwise the table says "see docs". ``--out FILE.md`` (or
``.json``) writes both the markdown ladder and the JSON report beside it.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from transit_gym.agents.base import Agent
from transit_gym.agents.learned.specs import parse_network_spec
from transit_gym.agents.registry import make_agent
from transit_gym.agents.search.mcts import is_search_spec
from transit_gym.agents.tuned import is_tuned_spec, spec_path
from transit_gym.benchmarks.speed.net_speed import positions
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.envs.registry import cached_game
from transit_gym.training.runs.backends import check_backend, check_out
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.folder import check_settings
from transit_gym.training.runs.specs import is_checkpoint_spec, is_network_spec
from transit_gym.training.tool_parser import ToolParser
from transit_gym.training.tournament import (
    add_pair_arguments,
    check_arguments,
    run_tournament,
    tournament_settings,
)

SEE_DOCS = "see docs"


def cpu_per_move(agent: Agent, game: Game, states: list) -> dict[str, float]:
    """Seconds of the first move (compiling, loading: wall clock) and the mean process CPU
    milliseconds of one ``act_state`` over ``states`` after it."""
    start = time.perf_counter()
    agent.act_state(states[0], game.current_player(states[0]))
    first = time.perf_counter() - start
    cpu = time.process_time()
    for state in states:
        agent.act_state(state, game.current_player(state))
    return {"first_move_seconds": first,
            "cpu_ms_per_move": 1000 * (time.process_time() - cpu) / len(states)}


def _seconds_in(path: Path, *keys: str) -> float | None:
    """The number at ``keys`` in the JSON file ``path`` (None when absent)."""
    if not path.is_file():
        return None
    value: Any = json.loads(path.read_text(encoding="utf-8"))
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return float(value) if isinstance(value, (int, float)) else None


def training_seconds(spec: str, game: Game) -> float | str | None:
    """The recorded training wall time of a learned agent in seconds, ``"see docs"`` when
    the agent does not record it, None for an agent that is not trained."""
    if spec == "ppo" or is_checkpoint_spec(spec):
        if spec == "ppo":
            from transit_gym.agents.learned.ppo import shipped_checkpoint

            zip_path = Path(shipped_checkpoint(game))
        else:
            zip_path = Path(spec).with_suffix(".zip")
        found = _seconds_in(zip_path.with_suffix(".json"), "train_seconds")
        return SEE_DOCS if found is None else found
    if is_tuned_spec(spec):
        found = _seconds_in(spec_path(spec, game.name), "meta", "tuning_seconds")
        return SEE_DOCS if found is None else found
    if is_network_spec(spec):
        from transit_gym.agents.learned.net_agent import load_network

        _, _, path = parse_network_spec(spec)
        extra = load_network(path, game).record.extra
        found = extra.get("train_seconds")
        return float(found) if isinstance(found, (int, float)) else SEE_DOCS
    return None


def hint_note(spec: str, game: Game, agent: Agent) -> str:
    """Where an agent's play uses hand-written rules, in a few words."""
    if spec == "rule_based":
        return "hand-written rules"
    if is_tuned_spec(spec):
        return "hand-written rules, constants tuned by CMA-ES"
    if is_search_spec(spec):
        config = agent.config
        guide = "tuned" if config.rollout == "tuned" else "rule-based"   # the prior's hint
        used = [*([f"{guide} rollouts"] if config.rollout != "random" else []),
                *([f"{guide} prior"] if config.prior > 0 else [])]
        return " and ".join(used) if used else "none (random rollouts)"
    if spec == "ppo" or is_checkpoint_spec(spec):
        hinted = _checkpoint_hint(spec, game)
        return ("adds the rule-based choice to its logits" if hinted
                else "none (observation only)")
    if is_network_spec(spec):
        teacher = agent.network.record.extra.get("teacher")
        return ("none when playing (observation only); learned from "
                + (f"`{teacher}`" if teacher else "a teacher, see docs/learning.md"))
    return "none"


def _checkpoint_hint(spec: str, game: Game) -> bool:
    """Whether a MaskablePPO checkpoint's training report records a ``--hint``."""
    from transit_gym.agents.learned.ppo import shipped_checkpoint

    zip_path = Path(shipped_checkpoint(game)) if spec == "ppo" else Path(spec)
    report = zip_path.with_suffix(".json")
    if not report.is_file():
        return False
    return bool(json.loads(report.read_text(encoding="utf-8")).get("hint"))


def run_ladder(game: str, players: int, specs: list[str], games: int, seed: int,
               games_for: dict[str, int] | None = None, cpu_moves: int = 30,
               workers: int = 1, progress: bool = True,
               games_dir: Path | None = None, stored_only: bool = False) -> dict[str, Any]:
    """The tournament's report plus, per agent, CPU per move, first-move seconds, training
    time and hint note. ``games_dir``: the tournament's resumable folder (larger counts
    later play only the missing games; ``stored_only`` plays none and rates what it holds)."""
    built = cached_game(game, players, ())
    if games_dir is not None:   # a folder of other settings is refused before the timing
        games_dir.mkdir(parents=True, exist_ok=True)
        check_settings(games_dir, tournament_settings(game, players, specs, games, seed, {}),
                       "tournament")
    states = positions(built, cpu_moves, seed=seed + 3)
    agents: dict[str, dict[str, Any]] = {}
    if progress:
        print(f"timing {len(specs)} agents on {cpu_moves} positions (the first move of each "
              "compiles and is timed apart) ...", flush=True)
    for i, spec in enumerate(specs):
        start = time.perf_counter()
        agent = make_agent(spec, built, seed=seed + i)
        loading = time.perf_counter() - start
        timed = cpu_per_move(agent, built, states)
        timed["first_move_seconds"] += loading
        agents[spec] = {**timed, "training_seconds": training_seconds(spec, built),
                        "hints": hint_note(spec, built, agent)}
    report = run_tournament(game, players, specs, games, seed, workers=workers,
                            progress=progress, games_for=games_for, out=games_dir,
                            stored_only=stored_only)
    return {**report, "cpu_moves": cpu_moves, "agent_info": agents,
            "stored_only": stored_only}


def wall_text(value: float | str | None) -> str:
    """Seconds as ``"17.1 min"`` or ``"141 s"``; text as it is; None as ``"-"``."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    return f"{value / 60:.1f} min" if value >= 120 else f"{value:.0f} s"


def markdown(report: dict[str, Any], command: str = "") -> str:
    """The ladder as markdown: the score matrix (rows in the order given) and the agents."""
    names = list(report["agents"])
    games_for = report.get("games_for") or {}
    lines = [f"# Ladder: {report['game']}, {report['players']} players", ""]
    if command:
        lines += ["```", command, "```", ""]
    seats = ("seats alternated" if report["players"] == 2
             else "seats alternated between the two agents, flipped every game")
    extra = "".join(f", {n} for pairs with `{s}`" for s, n in games_for.items())
    if report.get("stored_only"):
        lines += ["**Stored games only:** this page rates the games its folder held when it "
                  "was written (the run was stopped before every pair had its count); each "
                  "cell gives its own count.", ""]
    lines += [f"Each cell: the row agent's score rate against the column agent (a win "
              f"counts 1, a shared win its share), its 95% Wilson interval and the games "
              f"played; {report['games_per_pair']} games a pair{extra}; {seats}; seed "
              f"{report['seed']}. Game i of every pair is seeded by (seed, i), as in "
              "`training.tournament`.", "",
              "| row vs column | " + " | ".join(f"`{n}`" for n in names) + " |",
              "| --- |" + " ---: |" * len(names)]
    for a in names:
        cells = []
        for b in names:
            if a == b:
                cells.append("-")
                continue
            if report["score_rate"][a][b] is None:
                cells.append("not played")
                continue
            low, high = report["score_interval"][a][b]
            cells.append(f"{100 * report['score_rate'][a][b]:.1f}% "
                         f"({100 * low:.0f}-{100 * high:.0f}, {report['pair_games'][a][b]})")
        lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
    lines += ["", f"CPU per move: mean process CPU time of one move over "
              f"{report['cpu_moves']} positions from random games, measured in this run on "
              "a loaded shared machine; the first move (compilation, loading) is wall "
              "time, timed apart.", "",
              "| agent | Elo (95%) | CPU ms/move | first move s | training wall time | "
              "hand-written hints |", "| --- | ---: | ---: | ---: | ---: | --- |"]
    for name in names:
        info, elo = report["agent_info"][name], report["elo"][name]
        lines.append(f"| `{name}` | {elo['elo']:.0f} ({elo['low']:.0f}-{elo['high']:.0f}) "
                     f"| {info['cpu_ms_per_move']:.2f} | {info['first_move_seconds']:.1f} "
                     f"| {wall_text(info['training_seconds'])} | {info['hints']} |")
    return "\n".join(lines) + "\n"


def out_paths(out: Path) -> tuple[Path, Path]:
    """The markdown and JSON files of ``--out FILE.md`` or ``--out FILE.json``."""
    if out.suffix not in (".md", ".json"):
        raise ConfigError(f"--out must end in .md or .json, got {str(out)!r}")
    return out.with_suffix(".md"), out.with_suffix(".json")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym ladder --game loose_caboose --agents random "
                                "rule_based --games 20 --out ladder.md")
    add_pair_arguments(parser, {"required": True,
                                "help": "agent specs, as training.tournament takes them"},
                       "games a pair", "games for every pair holding agent SPEC, e.g. "
                                       "mcts:1000=40")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu-moves", type=int, default=30,
                        help="positions timed for CPU per move")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="FILE.md or FILE.json")
    parser.add_argument("--games-dir", type=Path, default=None,
                        help="keep every game in this folder (training.tournament's --out): "
                             "a rerun with larger counts plays only the missing games")
    parser.add_argument("--stored-only", action="store_true",
                        help="play no game: rate the games --games-dir holds (each cell "
                             "shows its count; pairs without games say 'not played')")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    with tool_errors(parser):   # ConfigError: bad game, agent, count or file
        if args.stored_only and args.games_dir is None:
            raise ConfigError("--stored-only rates the games of --games-dir: give it")
        if len(args.agents) < 2 or len(set(args.agents)) != len(args.agents):
            raise ConfigError(f"a ladder needs at least two distinct agents, got {args.agents}")
        if args.cpu_moves < 1:
            raise ConfigError(f"--cpu-moves must be positive, got {args.cpu_moves}")
        players, games_for = check_arguments(args.game, args.players, args.agents,
                                             args.games, args.seed, args.games_for)
        check_backend(args.workers, False)
        paths = out_paths(args.out) if args.out is not None else None
        if args.games_dir is not None:
            check_out(args.games_dir)
    if any(spec == "ppo" or is_checkpoint_spec(spec) for spec in args.agents):
        import torch

        torch.set_num_threads(1)   # one core: the ladder's CPU times are one thread's
    with tool_errors(parser, ConfigError):   # --games-dir holds other settings' games
        report = run_ladder(args.game, players, args.agents, args.games, args.seed,
                            games_for, args.cpu_moves, args.workers, not args.quiet,
                            args.games_dir, args.stored_only)
    command = "transit-gym ladder " + " ".join(
        argv if argv is not None else sys.argv[1:])
    text = markdown(report, command)
    print(text)
    if paths is not None:
        paths[0].parent.mkdir(parents=True, exist_ok=True)
        paths[0].write_text(text, encoding="utf-8")
        paths[1].write_text(json.dumps({**report, "command": command}, indent=2) + "\n",
                            encoding="utf-8")
    return report
