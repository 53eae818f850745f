"""The market search's finalists tuned and replayed with their own vectors: one CMA-ES vector
per finalist market through ``training/tune.py``'s optimiser,
cached under ``OUT/tuned/``, and the statistics of a replay in which every seat plays it.

Each finalist is one task for the search's backend (process pool or Ray); inside it the
optimiser runs serially, so a market's vector depends on its options and the settings
alone (not on the backend or the worker count). Tuning stops by its generation count
(no wall budget), so the seed reproduces every vector.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from transit_gym.agents.tuned import vector as tv
from transit_gym.benchmarks.balance import market_race as race
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training import tune
from transit_gym.training.runs.backends import make_backend, run_with_progress
from transit_gym.training.runs.folder import differences
from transit_gym.training.stats import wilson_interval

TUNED_DIR = "tuned"
#: the optimiser's wall budget: large enough never to stop a run (generations decide)
NO_BUDGET = 1e9


@dataclass(frozen=True)
class Tuning:
    """The finalists' tuning settings (stored in the search's ``settings.json``)."""

    generations: int = 40
    games: int = 48          # games per candidate and generation
    eval_games: int = 200    # fresh games of the tuned vector against rule_based

    def optimiser(self, seed: int) -> tune.Settings:
        """``tune.Settings`` of these settings: CMA's population, field and step defaults,
        no wall budget."""
        return tune.Settings(seed=seed, generations=self.generations, games=self.games,
                             eval_games=self.eval_games, budget=NO_BUDGET)

    def check(self) -> None:
        for name, value in asdict(self).items():
            if value < 1:
                raise ConfigError(f"--tune-{name.replace('_', '-')} must be a positive "
                                  f"integer, got {value}")


def market_options(options: Mapping[str, Any], cards: Sequence[str]) -> dict[str, Any]:
    """The options a finalist is tuned on: the race's (seat 0 starts, as in the race)
    with the market's five cards."""
    return {"start_player": 0, **dict(options), "card_set": list(cards)}


def vector_path(out: Path, market: int) -> Path:
    return out / TUNED_DIR / f"market-{market:05d}.json"


def tune_task(job: tuple) -> tuple[int, tv.TunedVector, list[dict[str, Any]]]:
    """Worker task: tune one market serially; (market, vector, per-generation log)."""
    market, cards, options, players, settings = job
    vector, log = tune.tune([market_options(options, cards)], players, settings, workers=1,
                            show=False)
    vector.meta["search_market"] = market
    return market, vector, log


def load_cached(path: Path, settings: tune.Settings) -> tv.TunedVector:
    """A cached finalist vector, checked to be tuned with ``settings``."""
    vector = tv.load(path)
    found = differences(vector.meta.get("settings") or {}, asdict(settings), ignore=())
    if found:
        named = "; ".join(f"{k}: stored {a!r}, now {b!r}" for k, a, b in found)
        raise ConfigError(f"{path} was tuned with other settings ({named}); delete it or "
                          f"choose another --out")
    return vector


def tune_finalists(finalists: Sequence[int], space: race.MarketSpace,
                   options: Mapping[str, Any], players: int, tuning: Tuning, seed: int,
                   out: Path, workers: int | None = None,
                   ray_address: str | None | bool = False,
                   progress: bool = True) -> tuple[dict[int, tv.TunedVector], dict[str, Any]]:
    """A tuned vector for each finalist: cached ones loaded, the missing ones tuned (one
    backend task each) and saved as they finish. Returns the vectors and a run record."""
    settings = tuning.optimiser(seed)
    vectors: dict[int, tv.TunedVector] = {}
    for market in finalists:
        path = vector_path(out, market)
        if path.is_file():
            vectors[market] = load_cached(path, settings)
    missing = [m for m in finalists if m not in vectors]
    tasks = [(tune_task, (m, space.cards(m), dict(options), players, settings))
             for m in missing]
    started = time.perf_counter()
    if tasks:
        if progress:
            print(f"tuning {len(tasks)} finalist market(s) ({len(vectors)} cached): "
                  f"{tuning.generations} generations of CMA-ES, {tuning.games} games a "
                  f"candidate, {tuning.eval_games} evaluation games; vectors in "
                  f"{out / TUNED_DIR}", file=sys.stderr)
        results = run_with_progress(make_backend(workers, ray_address), tasks, len(tasks),
                                    progress, size=lambda _: 1, label="tuning", unit="market")
        for market, vector, log in results:
            path = vector.save(vector_path(out, market))
            path.with_suffix(".log.json").write_text(json.dumps(log, indent=0) + "\n")
            vectors[market] = vector
    record = {"settings": asdict(tuning), "optimiser_settings": asdict(settings),
              "tuned_this_run": len(tasks), "cached": len(finalists) - len(tasks),
              "seconds": round(time.perf_counter() - started, 2),
              "seconds_per_market": [vectors[m].meta.get("tuning_seconds")
                                     for m in finalists]}
    return vectors, record


def replay_statistics(counts: Mapping[str, int], players: int, seed: int) -> dict[str, Any]:
    """A replay's Balance (95% bootstrap interval) and every seat's win rate (95% Wilson
    interval; shared wins split)."""
    games = sum(counts.values())
    rates = race.seat_rates(counts, players)
    low, high = race.balance_interval(counts, players, seed=seed)
    seats = [wilson_interval(float(r) * games, games) for r in rates]
    return {"games": games, "balance": round(race.balance_score(counts, players), 4),
            "balance_low": round(low, 4), "balance_high": round(high, 4),
            "seat_win_rates": [round(float(r), 4) for r in rates],
            "seat_low": [round(lo, 4) for lo, _ in seats],
            "seat_high": [round(hi, 4) for _, hi in seats],
            "first_seat_win_rate": round(float(rates[0]), 4),
            "first_seat_low": round(seats[0][0], 4), "first_seat_high": round(seats[0][1], 4),
            "first_player_advantage": round(float(rates[0]) - 1.0 / players, 4)}


def tuned_entry(counts: Mapping[str, int], players: int, seed: int,
                vector: tv.TunedVector, out: Path, market: int) -> dict[str, Any]:
    """The tuned replay's numbers of one finalist, with its vector's score against
    ``rule_based`` (the optimiser's own evaluation on fresh games)."""
    entry = replay_statistics(counts, players, seed)
    entry["vs_rule_based"] = vector.meta.get("eval_vs_rule_based")
    entry["vector"] = str(vector_path(out, market).relative_to(out))
    entry["generations_run"] = vector.meta.get("generations_run")
    entry["tuning_seconds"] = vector.meta.get("tuning_seconds")
    return entry
