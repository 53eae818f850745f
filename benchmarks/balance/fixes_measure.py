"""What a fix search measures of one data version: race length, seat balance and a card's
(or driver's) power per market, played by each market's tuned vector, today's or one
re-tuned to the data.

Figures are played by the existing tools' workers: a card's power by restricted play
(``card_power.run_cell``: the seat that may not buy it, the seat rotated), a market's
seats and race length by balance-sweep chunks (``sweep.run_chunk``: seat 0 starts). A
re-tuned vector is ``training.tune.tune`` warm-started from today's vector, cached on disk
under the hash of the data files' contents, the market and the tuner's settings.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.benchmarks.balance import balance_report, card_power, sweep
from transit_gym.benchmarks.balance.fixes_data import data_hash
from transit_gym.envs.registry import game_class, options_key
from transit_gym.training import tune
from transit_gym.training.stats import wilson_interval

GAME = "automobiles"
#: the short re-tuning of a market to changed data (from today's vector): a few
#: generations of the tuner's CMA-ES; no wall-time budget, so the generations decide
RETUNE = tune.Settings(generations=12, games=24, eval_games=20, budget=1e12)


def market_options(base: dict[str, Any], cards: list[str],
                   data: dict[str, str]) -> dict[str, Any]:
    """Env options of a market: the run's options, its five cards, the patch files."""
    return {**base, "card_set": list(cards), **data}


def today_vectors(players: int, sets: dict[str, list[str]],
                  base: dict[str, Any]) -> dict[str, Path]:
    """The shipped per-market vector of each set (``tuned:markets``)."""
    from transit_gym.benchmarks.balance import skill_levels

    folder = skill_levels.markets_folder(skill_levels.MARKETS_LEVEL)
    return {name: skill_levels.market_vector(GAME, players, market_options(base, cards, {}),
                                             name, folder)
            for name, cards in sets.items()}


def generalist_vector() -> Path:
    """The shipped generalist vector (spec ``tuned``): its driver entries are tuned."""
    from transit_gym.agents.tuned import SHIPPED

    return SHIPPED[GAME]


# ----- re-tuning -------------------------------------------------------------------------------
def retune_key(options: dict[str, Any], players: int, start: Path,
               settings: tune.Settings) -> str:
    """The cache name of a re-tuned vector: data files' contents, market, players, the
    start vector's contents and the tuner's settings."""
    market = {k: v for k, v in options.items() if not k.endswith("_data")}
    record = json.dumps({"market": market, "players": players, "data": data_hash(options),
                         "start": hashlib.sha256(Path(start).read_bytes()).hexdigest(),
                         "settings": {**asdict(settings), "start": ""}}, sort_keys=True)
    return hashlib.sha256(record.encode()).hexdigest()[:20]


def retuned_vector(options: dict[str, Any], players: int, start: Path, cache: Path,
                   workers: int, settings: tune.Settings = RETUNE) -> Path:
    """The vector file of ``start`` re-tuned on the market ``options`` (from the cache
    when the same data, market and settings were tuned before)."""
    path = Path(cache) / f"{retune_key(options, players, start, settings)}.json"
    if not path.is_file():
        vector, _ = tune.tune([options], players, replace(settings, start=str(start)),
                              workers, show=False)
        path.parent.mkdir(parents=True, exist_ok=True)
        vector.save(path)
    return path


# ----- playing ---------------------------------------------------------------------------------
def _tagged(task: tuple) -> tuple[Any, Any]:
    """Worker task: ``(tag, function(argument))``."""
    tag, function, argument = task
    return tag, function(argument)


def _seat_zero() -> dict[str, Any]:
    return {game_class(GAME).start_option: 0}


def tasks(card: str | None, markets: dict[str, tuple[dict[str, Any], Path]],
          players: int, games: int, seed: int) -> list[tuple]:
    """Backend tasks: per market ``games`` sweep games (race, seats) and, with ``card``,
    ``games`` restricted-play games (its power), spread over the seats."""
    out = []
    per_seat = max(1, games // players)
    for k, (name, (options, vector)) in enumerate(sorted(markets.items())):
        spec = f"tuned:{vector}"
        if card is None or restricted_kind(card) != "sponsors":   # the season: no race
            chunk = sweep.Chunk(GAME, players, options_key({**options, **_seat_zero()}),
                                (spec,) * players, seed, name, 0, games)
            out.append((_tagged, (("race", name), sweep.run_chunk, chunk)))
        if card is not None:
            cell_options = tuple(sorted((key, tuple(v) if isinstance(v, list) else v)
                                        for key, v in options.items()))
            for seat in range(players):
                cell = card_power.Cell(restricted_kind(card), card, k, cell_options, seat, 0,
                                       per_seat, players, spec, seed)
                out.append((_tagged, (("power", name), card_power.run_cell, cell)))
    return out


def restricted_kind(item: str) -> str:
    """``card_power``'s kind of an item: ``drivers`` for ``Driver NN``, ``sponsors`` for a
    sponsor (``A1``..``F3``, played in the season campaign), else ``cards``."""
    if item.startswith("Driver "):
        return "drivers"
    return "sponsors" if re.fullmatch(r"[A-F][1-3]", item) else "cards"


def measure(backend, card: str | None, markets: dict[str, tuple[dict[str, Any], Path]],
            players: int, games: int, seed: int) -> dict[str, Any]:
    """Figures of ``markets`` (name -> (options, vector file)): per market its race length,
    seat win rates and balance (``balance_report.set_statistics``) and ``card``'s bought
    cubes; with ``card`` its power pooled over the markets (and per market)."""
    races: dict[str, list] = {name: [] for name in markets}
    power: dict[str, list] = {name: [] for name in markets}
    for (kind, name), rows in backend.run(tasks(card, markets, players, games, seed)):
        (races if kind == "race" else power)[name].extend(rows)
    out: dict[str, Any] = {"markets": {name: {} for name in markets}}
    for name, rows in races.items():
        if rows:   # a sponsor's seasons have no race part: their power only
            stats = balance_report.set_statistics(rows, players, seed)
            out["markets"][name] = {
                "games": stats["games"], "rounds": stats["rounds_mean"],
                "balance": stats["balance"],
                "balance_interval": list(stats["balance_interval"]),
                "seat_win_rate": stats["seat_win_rate"],
                "seat_win_interval": [list(i) for i in stats["seat_win_interval"]]}
        if power[name]:
            out["markets"][name]["power"] = power_figure(power[name])
    if card is not None:
        out["power"] = power_figure([r for rows in power.values() for r in rows])
    return out


def power_figure(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Score rate of the restricted seats with its Wilson interval, and the cubes of the
    card the unrestricted seats bought per game (None for a driver)."""
    scores = np.array([r["score"] for r in rows])
    low, high = wilson_interval(float(scores.sum()), len(scores))
    bought = [r["others_bought"] for r in rows if r.get("others_bought") is not None]
    return {"rate": float(scores.mean()), "interval": [low, high], "games": len(scores),
            "bought": float(np.mean(bought)) if bought else None}
