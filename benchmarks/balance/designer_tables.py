"""The designer report's tables, read from the ``--out`` folders of finished runs (a balance
sweep or a ``tuned:markets`` level, ``card_power``, ``skill_levels``): plain JSON that
``flags`` judges and ``summary.json`` keeps.

- ``markets``: per set its five market cards, games, seat win rates with Wilson
  intervals, mean rounds with a 95% normal interval of the mean, and per card its share
  of the spending (cubes bought times the card's cost in the card data) and of the
  activations, with 95% bootstrap intervals (games resampled, seeded).
- ``skill``: the levels, and per set, card and level ``[games in which a seat bought
  the card, games]``.
- ``power``: each restricted-play run's summary (``power.json``), its restriction kinds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.runs.folder import load_csv

Z95 = 1.959964
BOOTSTRAP = 400


def market_colours() -> tuple[str, ...]:
    """The colours whose card is chosen per market (yellow, purple, red, green, blue)."""
    from transit_gym.envs.automobiles.data import CARD_COLOURS, COLOURS

    return tuple(COLOURS[c] for c in CARD_COLOURS)


def card_costs(card_data: str | None) -> dict[str, float]:
    """Each card's cost in the card data file (the game's default file for None)."""
    from transit_gym.envs.automobiles.data import load_cards

    cards = load_cards(card_data)
    return {name: float(cost) for name, cost in zip(cards.names, cards.costs, strict=True)}


def load_rows(folder: Path) -> list[dict[str, Any]]:
    """The games of a sweep folder, or of a ``tuned:markets`` level (one sweep per set in
    its sub-folders)."""
    if (folder / "games.csv").is_file():
        return load_csv(folder / "games.csv")
    return [r for sub in sorted(folder.glob("*/games.csv")) for r in load_csv(sub)]


def sweep_rows(folder: Path, summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows a finished sweep's ``summary`` counted (its sets, its games per set)."""
    return [r for r in load_rows(folder) if r["set"] in summary["sets"]
            and int(r["game"]) < summary["games_per_set"]]


def colour_columns(rows: list[dict[str, Any]]) -> list[str]:
    return [k[len("card_"):] for k in rows[0] if k.startswith("card_")] if rows else []


def shares(rows: list[dict[str, Any]], players: int, costs: dict[str, float],
           seed: int = 0) -> dict[str, dict[str, Any]]:
    """Per card in play: its share of all spending and of all activations over ``rows``
    (one market's games), each with a 95% bootstrap interval."""
    colours = colour_columns(rows)
    cards = sorted({str(r[f"card_{c}"]) for r in rows for c in colours})
    column = {card: k for k, card in enumerate(cards)}
    spend = np.zeros((len(rows), len(cards)))
    active = np.zeros((len(rows), len(cards)))
    for g, r in enumerate(rows):
        for c in colours:
            card = str(r[f"card_{c}"])
            bought = sum(float(r.get(f"s{s}_bought_{c}", 0.0)) for s in range(players))
            spend[g, column[card]] += bought * costs.get(card, 0.0)
            active[g, column[card]] += sum(float(r.get(f"s{s}_activated_{c}", 0.0))
                                           for s in range(players))
    rng = np.random.default_rng(seed)
    picks = [rng.integers(0, len(rows), len(rows)) for _ in range(BOOTSTRAP)]
    out: dict[str, dict[str, Any]] = {card: {} for card in cards}
    for name, table in (("spending", spend), ("activations", active)):
        point = _share(table.sum(axis=0))
        resampled = np.array([_share(table[p].sum(axis=0)) for p in picks])
        low, high = np.quantile(resampled, [0.025, 0.975], axis=0)
        for card, k in column.items():
            out[card][name] = float(point[k])
            out[card][f"{name}_interval"] = [float(low[k]), float(high[k])]
    return out


def _share(totals: np.ndarray) -> np.ndarray:
    whole = totals.sum()
    return totals / whole if whole > 0 else np.zeros_like(totals)


def mean_interval(values: np.ndarray) -> list[float]:
    """95% normal interval of the mean of ``values``."""
    half = Z95 * values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else 0.0
    return [float(values.mean() - half), float(values.mean() + half)]


def market_table(summary: dict[str, Any], rows: list[dict[str, Any]],
                 costs: dict[str, float]) -> dict[str, dict[str, Any]]:
    """The ``markets`` table of one finished sweep (its ``summary.json`` and rows)."""
    players, seed = summary["players"], summary.get("seed", 0)
    wanted = market_colours()
    out = {}
    for name, stats in summary["sets"].items():
        own = [r for r in rows if r["set"] == name]
        if not own:
            continue
        entry: dict[str, Any] = {
            "cards": [str(own[0][f"card_{c}"]) for c in colour_columns(own) if c in wanted],
            "games": len(own), "seat_win_rate": stats["seat_win_rate"],
            "seat_win_interval": stats["seat_win_interval"]}
        if "rounds" in own[0]:
            rounds = np.array([float(r["rounds"]) for r in own])
            entry["rounds_mean"] = float(rounds.mean())
            entry["rounds_interval"] = mean_interval(rounds)
        if colour_columns(own):
            entry["shares"] = shares(own, players, costs, seed)
        out[name] = entry
    return out


def skill_table(folder: Path) -> dict[str, Any]:
    """The ``skill`` table of a finished ``skill_levels`` run (its ``skill.json`` and the
    levels' games)."""
    from transit_gym.benchmarks.balance.skill_levels import level_folder

    result = _read_json(folder / "skill.json", "--skill")
    wanted = market_colours()
    markets: dict[str, dict[str, dict[str, list[int]]]] = {}
    for level in result["levels"]:
        count = result.get("games", {}).get(level)
        for r in load_rows(level_folder(folder, level)):
            if count is not None and int(r["game"]) >= count:
                continue
            players = sum(1 for k in r if k.startswith("win_s"))
            for c in (c for c in colour_columns([r]) if c in wanted):
                cell = markets.setdefault(r["set"], {}).setdefault(
                    str(r[f"card_{c}"]), {}).setdefault(level, [0, 0])
                cell[0] += any(float(r.get(f"s{s}_bought_{c}", 0.0)) > 0
                               for s in range(players))
                cell[1] += 1
    return {"levels": result["levels"], "markets": markets}


def _read_json(path: Path, flag: str) -> dict[str, Any]:
    if not path.is_file():
        raise ConfigError(f"{flag} {path.parent}: no {path.name}; give the --out folder of a "
                          f"finished run")
    return json.loads(path.read_text())


def power_table(folder: Path) -> dict[str, Any]:
    """A restricted-play run's ``power.json`` (its forced-play kind left out)."""
    from transit_gym.benchmarks.balance.flags import POWER_KINDS

    summary = _read_json(folder / "power.json", "--power")
    return {"fair_share": summary["fair_share"], "settings": summary["settings"],
            "kinds": {k: v for k, v in summary["kinds"].items() if k in POWER_KINDS}}


def recorded_card_data(folder: Path) -> str | None:
    """The card data file a sweep folder (or its first per-set sweep) was played with."""
    for path in [folder / "settings.json", *sorted(folder.glob("*/settings.json"))]:
        if path.is_file():
            return json.loads(path.read_text()).get("data_file_paths", {}).get("card_data")
    return None


def tables(folders: dict[str, list[Path]], card_data: str | None = None) -> dict[str, Any]:
    """Every table the given folders' JSON holds (``folders``: kind -> folders, kinds as
    in ``designer_report.PARTS``; a folder without its JSON adds no table); the card costs
    from ``card_data`` or, when None, the balance sweep's recorded card data file."""
    out: dict[str, Any] = {}
    for folder in [f for f in folders.get("balance", []) if (f / "summary.json").is_file()][:1]:
        summary = json.loads((folder / "summary.json").read_text())
        if card_data is None:
            card_data = recorded_card_data(folder)
        rows = sweep_rows(folder, summary)
        out["players"] = summary["players"]
        out["markets"] = market_table(summary, rows, card_costs(card_data))
    for folder in [f for f in folders.get("skill", []) if (f / "skill.json").is_file()][:1]:
        out["skill"] = skill_table(folder)
    power = [power_table(f) for f in folders.get("power", [])
             if (f / "power.json").is_file()]
    if power:
        out["power"] = power
        out.setdefault("players", power[0]["settings"]["players"])
    return out

