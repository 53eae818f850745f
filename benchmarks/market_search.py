"""Search of the whole Automobiles market by successive halving: the most and the least
balanced of all one-card-per-colour markets (7 cards a colour: 16,807 markets).

    python -m transit_gym.benchmarks.market_search --players 2 --first-games 4 \\
        --finalists 5 --agents rule_based --seed 0 --out reports/market-search-2p

Round 0 plays every market ``--first-games`` games; after each round each side keeps the
better half of its markets (side "most": highest Balance, side "least": lowest) and the
survivors play twice as many games, until each side has at most ``--finalists`` markets.
Both sides share their games (a market alive on both sides is played once). Game ``g`` of
every market uses chance stream ``g`` (common random numbers), seat 0 starts. Every game
is a row of ``games.csv``, and the rounds are recomputed from those rows, so an interrupted
run resumes with nothing lost (``settings.json`` refuses other settings); ``--ray`` runs
the same tasks on a Ray cluster. Finalists are reported with their Balance (95%
bootstrap interval) and seat win rates (95% Wilson intervals): ``search.md``,
``search.json``. ``--cards-per-colour K`` searches the K**5 markets of the first K cards
of each colour in alphabetical order (small runs and tests).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.benchmarks.balance import parse_agents, parse_options
from transit_gym.benchmarks.card_power import automobiles_cards, check_settings, pool_cards
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import cached_game, options_key
from transit_gym.training.runner import (
    WorkerDiedError,
    check_backend,
    check_out,
    make_backend,
    run_with_progress,
)
from transit_gym.training.stats import balance, bootstrap_interval, seat_wins, wilson_interval

SIDES = ("most", "least")


@dataclass(frozen=True)
class Settings:
    players: int
    agent: str
    seed: int
    first_games: int
    finalists: int
    cards_per_colour: int = 7
    options: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Task:
    """Games ``first .. first + count - 1`` of one market."""

    market: int
    cards: tuple[str, ...]
    first: int
    count: int
    players: int
    agent: str
    seed: int
    options: tuple[tuple[str, Any], ...]


def all_markets(settings: Settings) -> list[tuple[str, ...]]:
    """Every market of the first ``cards_per_colour`` cards of each colour, in a fixed order."""
    per_colour = pool_cards(automobiles_cards(dict(settings.options).get("card_data")), "all")
    k = settings.cards_per_colour
    if not 1 <= k <= min(len(c) for c in per_colour):
        raise ConfigError(f"--cards-per-colour must be 1..{min(len(c) for c in per_colour)}, "
                          f"got {k}")
    return list(itertools.product(*[c[:k] for c in per_colour]))


def play_task(task: Task) -> list[dict[str, Any]]:
    """Play one market's games; a row per game with each seat's share of the win."""
    options = {**dict(task.options), "card_set": list(task.cards), "start_player": 0}
    game = cached_game("automobiles", task.players, options_key(options))
    if task.agent in ("rule_based", "random"):
        from transit_gym.agents.registry import policy_kernel
        from transit_gym.envs.core.rollout import play_games

        rewards = play_games(game, policy_kernel(game.name), [task.agent] * task.players,
                             task.count, seed=task.seed, first_game=task.first).rewards
    else:
        from transit_gym.training.tournament import game_seed, load_agent

        agents = [load_agent(task.agent, game, seed=task.seed) for _ in range(task.players)]
        rewards = np.zeros((task.count, task.players), dtype=np.float32)
        for i in range(task.count):
            g = task.first + i
            for seat, agent in enumerate(agents):
                agent.reset(game_seed(task.seed, g, seat))
            state = game.new_state(task.seed, stream=g)
            while (player := game.current_player(state)) >= 0:
                game.apply(state, agents[player].act_state(state, player))
            rewards[i] = game.rewards(state)
    shares = seat_wins(np.asarray(rewards))
    return [{"market": task.market, "game": task.first + i,
             **{f"w{s}": round(float(shares[i, s]), 6) for s in range(task.players)}}
            for i in range(task.count)]


def market_balance(wins: np.ndarray) -> float:
    return balance(wins.mean(axis=0))


class Search:
    """The rounds of one run over the games in ``games`` (market -> {game: shares})."""

    def __init__(self, settings: Settings, markets: list[tuple[str, ...]]):
        self.settings = settings
        self.markets = markets
        self.games: dict[int, dict[int, np.ndarray]] = {}
        self.rounds: list[dict[str, Any]] = []

    def add(self, row: dict[str, Any]) -> None:
        shares = np.array([float(row[f"w{s}"]) for s in range(self.settings.players)])
        self.games.setdefault(int(row["market"]), {})[int(row["game"])] = shares

    def wins(self, market: int, n: int) -> np.ndarray:
        own = self.games.get(market, {})
        return np.array([own[g] for g in range(n)])

    def missing(self, alive: list[int], n: int) -> list[tuple[int, int, int]]:
        """(market, first, count) runs of games not played yet."""
        todo = []
        for m in alive:
            own = self.games.get(m, {})
            need = [g for g in range(n) if g not in own]
            start = None
            for k, g in enumerate(need):
                if start is None:
                    start = g
                if k + 1 == len(need) or need[k + 1] != g + 1:
                    todo.append((m, start, g - start + 1))
                    start = None
        return todo

    def halve(self, sides: dict[str, list[int]], n: int) -> dict[str, list[int]]:
        """Each side's better half (at least ``finalists``) by Balance over ``n`` games."""
        keep = {}
        for side, markets in sides.items():
            if len(markets) <= self.settings.finalists:
                keep[side] = markets
                continue
            value = {m: market_balance(self.wins(m, n)) for m in markets}
            order = sorted(markets, key=lambda m: (-value[m] if side == "most" else value[m], m))
            keep[side] = order[:max(self.settings.finalists, -(-len(markets) // 2))]
        return keep


def run(settings: Settings, out: Path, workers: int | None = None,
        ray_address: str | None | bool = False, progress: bool = True) -> dict[str, Any]:
    """Play (or resume) the search; write ``search.md`` and ``search.json``."""
    check_out(out)
    check_settings(out, settings)
    markets = all_markets(settings)
    search = Search(settings, markets)
    path = out / "games.csv"
    fields = ["market", "game"] + [f"w{s}" for s in range(settings.players)]
    if path.exists():
        raw = path.read_text()
        raw = raw[:raw.rfind("\n") + 1]      # a row cut short by a stop is played again
        path.write_text(raw)
        for row in csv.DictReader(raw.splitlines()):
            search.add(row)
    fresh = not path.exists() or not search.games
    sides = {side: list(range(len(markets))) for side in SIDES}
    n = settings.first_games
    started = time.perf_counter()
    played = 0
    with path.open("w" if fresh else "a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        if fresh:
            writer.writeheader()
        while True:
            alive = sorted(set(sides["most"]) | set(sides["least"]))
            todo = search.missing(alive, n)
            tasks = [(play_task, Task(m, markets[m], first, count, settings.players,
                                      settings.agent, settings.seed, settings.options))
                     for m, first, count in todo]
            total = sum(t[1].count for t in tasks)
            if tasks and not played:   # compile (or load) the game loop before forking
                play_task(Task(**{**tasks[0][1].__dict__, "count": 1}))
            if tasks:
                if progress:
                    print(f"round {len(search.rounds)}: {len(alive)} markets, {n} games each",
                          file=sys.stderr)
                backend = make_backend(workers, ray_address)
                for records in run_with_progress(backend, iter(tasks), total, progress):
                    writer.writerows(records)
                    handle.flush()
                    for row in records:
                        search.add(row)
                played += total
            search.rounds.append({"markets": len(alive), "games_per_market": n,
                                  "most": len(sides["most"]), "least": len(sides["least"])})
            if all(len(m) <= settings.finalists for m in sides.values()):
                break
            sides = search.halve(sides, n)
            n *= 2
    summary = summarise(search, sides, n)
    summary["run"] = {"games_played": played, "seconds": round(time.perf_counter() - started, 2)}
    (out / "search.json").write_text(json.dumps(summary, indent=2))
    (out / "search.md").write_text(markdown(summary))
    return summary


def summarise(search: Search, sides: dict[str, list[int]], n: int) -> dict[str, Any]:
    s = search.settings
    finalists = {}
    for side, markets in sides.items():
        table = []
        for m in markets:
            wins = search.wins(m, n)
            rates = wins.mean(axis=0)
            table.append({
                "market": list(search.markets[m]), "games": len(wins),
                "balance": market_balance(wins),
                "balance_interval": list(bootstrap_interval(wins, market_balance, seed=s.seed)),
                "seat_win_rate": rates.tolist(),
                "seat_win_interval": [list(wilson_interval(float(wins[:, k].sum()), len(wins)))
                                      for k in range(s.players)]})
        table.sort(key=lambda r: -r["balance"] if side == "most" else r["balance"])
        finalists[side] = table
    return {"settings": json.loads(json.dumps(s.__dict__)), "markets": len(search.markets),
            "rounds": search.rounds, "finalists": finalists}


def markdown(summary: dict[str, Any]) -> str:
    s = summary["settings"]
    lines = ["# Market search by successive halving", "",
             f"{summary['markets']} markets, {s['players']} players, agent {s['agent']}, seed "
             f"{s['seed']}; round 0 plays {s['first_games']} games a market, each later round "
             f"the better half of each side twice as many. Balance = 1 - largest gap between "
             f"seat win rates (95% bootstrap interval); seat win rates with 95% Wilson "
             f"intervals.", "", "| round | markets | games a market |", "| ---: | ---: | ---: |"]
    lines += [f"| {i} | {r['markets']} | {r['games_per_market']} |"
              for i, r in enumerate(summary["rounds"])]
    for side, title in (("most", "Most balanced"), ("least", "Least balanced")):
        lines += ["", f"## {title} finalists", "",
                  "| market | games | balance | 95% interval | seat win rates |",
                  "| --- | ---: | ---: | --- | --- |"]
        for r in summary["finalists"][side]:
            low, high = r["balance_interval"]
            seats = ", ".join(f"{100 * x:.0f}% ({100 * a:.0f}-{100 * b:.0f})" for x, (a, b)
                              in zip(r["seat_win_rate"], r["seat_win_interval"], strict=True))
            lines.append(f"| {', '.join(r['market'])} | {r['games']} | {r['balance']:.3f} | "
                         f"{low:.3f}-{high:.3f} | {seats} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m transit_gym.benchmarks.market_search",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first-games", type=int, default=4, help="games a market in round 0")
    parser.add_argument("--finalists", type=int, default=5, help="markets kept on each side")
    parser.add_argument("--cards-per-colour", type=int, default=7)
    parser.add_argument("--agents", default="rule_based", help="the agent at every seat")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--ray", nargs="?", const="", default=False, metavar="ADDRESS")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    try:
        if not 2 <= args.players <= 5:
            raise ConfigError(f"--players must be 2..5, got {args.players}")
        for name in ("first_games", "finalists"):
            if getattr(args, name) < 1:
                raise ConfigError(f"--{name.replace('_', '-')} must be positive, got "
                                  f"{getattr(args, name)}")
        agent = parse_agents(args.agents, args.players)
        if len(set(agent)) != 1:
            raise ConfigError(f"--agents: one agent at every seat, got {args.agents!r}")
        settings = Settings(args.players, agent[0], args.seed, args.first_games,
                            args.finalists, args.cards_per_colour,
                            tuple(sorted(parse_options(args.option).items())))
        all_markets(settings)
        check_backend(args.workers, args.ray)
        out = args.out or Path("reports") / f"market-search-{args.players}p-seed{args.seed}"
        summary = run(settings, out, args.workers, args.ray, progress=not args.quiet)
    except ValueError as exc:
        parser.error(str(exc))
    except WorkerDiedError as exc:
        parser.exit(1, f"{parser.prog}: error: {exc}\n")
    print(markdown(summary))
    return summary


if __name__ == "__main__":
    main()
