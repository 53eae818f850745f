"""Balance sweep records and what is made of them: statistics, Markdown, plots.

A record is one flat row per game: ``set``, ``game``, ``decisions``, per seat
``reward_s{i}`` and ``win_s{i}`` (share of the win), then whatever the game reports:
``Game.game_summary(state)`` scalars (e.g. ``rounds``, ``last_lead_change_round``) and
``Game.final_info(state)`` per seat, flattened as ``s{i}_{key}`` and
``s{i}_{key}_{sub}`` (e.g. ``s0_bought_red``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.benchmarks.balance import figures
from transit_gym.training.stats import balance, bootstrap_interval, seat_wins, wilson_interval
from transit_gym.training.tool_parser import ToolParser

SKIP_INFO = {"rank", "winner"}


def game_record(game, state, rewards: np.ndarray, decisions: int, set_name: str,
                index: int) -> dict[str, Any]:
    """The CSV row of one finished game."""
    shares = seat_wins(np.asarray(rewards)[None, :])[0]
    record: dict[str, Any] = {"set": set_name, "game": int(index), "decisions": int(decisions)}
    for seat in range(game.num_players):
        record[f"reward_s{seat}"] = round(float(rewards[seat]), 6)
        record[f"win_s{seat}"] = round(float(shares[seat]), 6)
    summary = getattr(game, "game_summary", None)
    if summary is not None:
        for key, value in summary(state).items():
            if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
                    value, bool):
                record[key] = value
            elif key == "market" and isinstance(value, dict):   # card of each colour
                record.update({f"card_{colour}": name for colour, name in value.items()})
    for seat, info in enumerate(game.final_info(state)):
        for key, value in info.items():
            if key in SKIP_INFO:
                continue
            if isinstance(value, dict):
                for sub, number in value.items():
                    record[f"s{seat}_{key}_{sub}"] = number
            elif isinstance(value, bool):
                record[f"s{seat}_{key}"] = int(value)
            elif isinstance(value, (int, float, np.integer, np.floating)):
                record[f"s{seat}_{key}"] = value
    return record


def _column(rows: list[dict[str, Any]], key: str) -> np.ndarray | None:
    if not rows or key not in rows[0]:
        return None
    return np.array([float(r[key]) for r in rows])


def _colours(rows: list[dict[str, Any]]) -> list[str]:
    prefix = "s0_bought_"
    return [k[len(prefix):] for k in rows[0] if k.startswith(prefix)] if rows else []


def set_statistics(rows: list[dict[str, Any]], players: int, seed: int) -> dict[str, Any]:
    """Every statistic of one set's games."""
    n = len(rows)
    wins = np.array([[float(r[f"win_s{s}"]) for s in range(players)] for r in rows])
    rates = wins.mean(axis=0)
    intervals = [wilson_interval(float(wins[:, s].sum()), n) for s in range(players)]
    stats: dict[str, Any] = {
        "games": n,
        "seat_win_rate": rates.tolist(),
        "seat_win_interval": intervals,
        "balance": balance(rates),
        "balance_interval": bootstrap_interval(wins, lambda w: balance(w.mean(axis=0)),
                                               seed=seed),
        "first_player_advantage": float(rates[0] - 1.0 / players),
        "decisions_mean": float(np.mean([r["decisions"] for r in rows])),
    }
    rounds = _column(rows, "rounds")
    if rounds is not None:
        stats["rounds_mean"] = float(rounds.mean())
        stats["rounds_std"] = float(rounds.std())
        last_change = _column(rows, "last_lead_change_round")
        if last_change is not None:
            stats["decisiveness_mean"] = float((rounds - last_change).mean())
    wear = [_column(rows, f"s{s}_wear_gained") for s in range(players)]
    if all(w is not None for w in wear):
        stats["wear_gained_mean"] = float(np.mean([w.mean() for w in wear]))
    colours = {}
    for colour in _colours(rows):
        bought = np.array([[float(r[f"s{s}_bought_{colour}"]) for s in range(players)]
                           for r in rows])
        activated = np.array([[float(r.get(f"s{s}_activated_{colour}", 0.0))
                               for s in range(players)] for r in rows])
        top = (bought == bought.max(axis=1, keepdims=True)) & (bought > 0)
        top_count = int(top.sum())
        colours[colour] = {
            "bought_per_game": float(bought.sum(axis=1).mean()),
            "activated_per_game": float(activated.sum(axis=1).mean()),
            "top_buyer_win_rate": float(wins[top].sum() / top_count) if top_count else None,
            "top_buyer_seats": top_count,
        }
    if colours:
        stats["colours"] = colours
    cards = card_usage(rows, players)
    if cards:
        stats["cards"] = cards
    return stats


def card_usage(rows: list[dict[str, Any]], players: int) -> dict[str, dict[str, Any]]:
    """Per card of the market (``card_<colour>`` columns): its colour, the games it was in
    play, and cubes bought and activated per seat and game in those games."""
    usage: dict[str, dict[str, Any]] = {}
    for colour in _colours(rows):
        if f"card_{colour}" not in rows[0]:
            continue
        for name in sorted({str(r[f"card_{colour}"]) for r in rows}):
            own = [r for r in rows if str(r[f"card_{colour}"]) == name]
            per_seat = [
                [float(np.mean([float(r.get(f"s{s}_{kind}_{colour}", 0.0)) for r in own]))
                 for s in range(players)] for kind in ("bought", "activated")]
            usage[name] = {"colour": colour, "games": len(own), "bought_per_seat": per_seat[0],
                           "played_per_seat": per_seat[1]}
    return usage


def reconstructed_notes(game_name: str) -> list[str]:
    """What the game's default data holds that no source confirms: the ``RECONSTRUCTED``
    (and ``INFERRED``) notes of its data module, read, not restated."""
    import importlib

    from transit_gym.envs.registry import game_class

    package = game_class(game_name).__module__.rsplit(".", 1)[0]
    try:
        data = importlib.import_module(f"{package}.data")
    except ImportError:
        return []
    notes = [f"RECONSTRUCTED: {n}" for n in getattr(data, "RECONSTRUCTED", ())]
    return notes + [f"INFERRED: {n}" for n in getattr(data, "INFERRED", ())]


def reconstructed_markdown(game_name: str) -> list[str]:
    """The report section stating which data are reconstructed (empty when none)."""
    notes = reconstructed_notes(game_name)
    if not notes:
        return []
    return ["", "## Reconstructed data", "",
            "These results rest on the game's default data files; no source confirms the "
            "following, so every verdict holds for these values only:", "",
            *[f"- {n}" for n in notes], ""]


def summarise(sweep, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Statistics per set and the ranking by balance."""
    per_set = {}
    for name, options in sweep.sets:
        own = [r for r in rows if r["set"] == name]
        if own:
            per_set[name] = {"options": options,
                             **set_statistics(own, sweep.players, sweep.seed)}
    ranking = sorted(per_set, key=lambda name: -per_set[name]["balance"])
    best_low = per_set[ranking[0]]["balance_interval"][0] if ranking else 0.0
    for name in ranking:
        low, high = per_set[name]["balance_interval"]
        per_set[name]["distinguishable_from_best"] = name != ranking[0] and high < best_low
    return {"game": sweep.game, "players": sweep.players, "agents": sweep.agents,
            "seed": sweep.seed, "games_per_set": sweep.games, "sets": per_set,
            "ranking": ranking}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def markdown(sweep, summary: dict[str, Any]) -> str:
    """The report a person reads."""
    sets = summary["sets"]
    players = summary["players"]
    title = "card sets" if len(sets) > 1 or "default" not in sets else "seats"
    lines = [
        f"# Balance of {summary['game']} {title}",
        "",
        f"{players} players, agents {', '.join(summary['agents'])}, {summary['games_per_set']} "
        f"games per set, seed {summary['seed']} (game i of every set uses the same chance "
        f"stream).",
    ]
    run = summary.get("run")
    if run:
        lines.append(f"Played {run['games_played']} games in {run['seconds']} s "
                     f"({run['games_per_second']} games/s, backend {run['backend']})"
                     + (f"; {run['games_resumed']} more from earlier runs with the same "
                        f"settings (games.csv, settings.json)." if run.get("games_resumed")
                        else "."))
    lines += ["", "## Ranking by balance", "",
              "Balance = 1 - largest gap between seat win rates; interval: 95% bootstrap. "
              "Sets whose interval overlaps the best set's are marked ~ (not distinguishable).",
              "", "| rank | set | balance | 95% interval | first-player advantage | |",
              "| ---: | --- | ---: | --- | ---: | --- |"]
    for rank, name in enumerate(summary["ranking"], 1):
        s = sets[name]
        low, high = s["balance_interval"]
        mark = "" if rank == 1 else ("" if s["distinguishable_from_best"] else "~")
        lines.append(f"| {rank} | {name} | {s['balance']:.3f} | {low:.3f}-{high:.3f} | "
                     f"{100 * s['first_player_advantage']:+.1f} pts | {mark} |")
    lines += ["", "## Seat win rates (95% Wilson intervals)", "",
              "| set | " + " | ".join(f"seat {i}" for i in range(players)) + " |",
              "| --- |" + " ---: |" * players]
    for name in summary["ranking"]:
        s = sets[name]
        cells = [f"{_pct(r)} ({_pct(lo)}-{_pct(hi)})"
                 for r, (lo, hi) in zip(s["seat_win_rate"], s["seat_win_interval"], strict=True)]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if any("rounds_mean" in s for s in sets.values()):
        lines += ["", "## Race length and decisiveness", "",
                  "| set | rounds (mean +- sd) | rounds after the last lead change | "
                  "wear gained per player | decisions |", "| --- | ---: | ---: | ---: | ---: |"]
        for name in summary["ranking"]:
            s = sets[name]
            lines.append(
                f"| {name} | {s.get('rounds_mean', float('nan')):.1f} +- "
                f"{s.get('rounds_std', float('nan')):.1f} | "
                f"{s.get('decisiveness_mean', float('nan')):.2f} | "
                f"{s.get('wear_gained_mean', float('nan')):.2f} | {s['decisions_mean']:.0f} |")
    if any("colours" in s for s in sets.values()):
        lines += ["", "## Colours", "",
                  "Cubes bought and activated per game (all players), and the win rate of the "
                  "player(s) who bought the most of that colour.", ""]
        for name in summary["ranking"]:
            colours = sets[name].get("colours", {})
            lines += [f"### {name}", "", "| colour | bought | activated | top buyer wins |",
                      "| --- | ---: | ---: | ---: |"]
            for colour, c in colours.items():
                top = "-" if c["top_buyer_win_rate"] is None else _pct(c["top_buyer_win_rate"])
                lines.append(f"| {colour} | {c['bought_per_game']:.2f} | "
                             f"{c['activated_per_game']:.2f} | {top} |")
            lines.append("")
    if any("cards" in s for s in sets.values()):
        agents = summary["agents"]
        seats = " | ".join(f"s{i} ({agents[i]})" for i in range(players))
        lines += ["", "## Card usage", "",
                  "Cubes of each market card bought and played (activated) per seat and game, "
                  "in the games where the card was in play.", ""]
        for name in summary["ranking"]:
            cards = sets[name].get("cards", {})
            lines += [f"### {name}", "", f"| card | colour | games | bought: {seats} | "
                      f"played: {seats} |", "| --- | --- | ---: |" + " ---: |" * (2 * players)]
            for card, c in cards.items():
                bought = " | ".join(f"{x:.2f}" for x in c["bought_per_seat"])
                played = " | ".join(f"{x:.2f}" for x in c["played_per_seat"])
                lines.append(f"| {card} | {c['colour']} | {c['games']} | {bought} | {played} |")
            lines.append("")
    lines += reconstructed_markdown(summary["game"])
    return "\n".join(lines) + "\n"


def plots(sweep, rows: list[dict[str, Any]], summary: dict[str, Any], out: Path) -> list[Path]:
    """Seat win rates with intervals per set, and race-length distributions (PNG)."""
    plt = figures.pyplot()
    sets = summary["sets"]
    names = summary["ranking"]
    players = summary["players"]
    written = []
    fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(names) * players / 2), 4.5))
    width = 0.8 / players
    x = np.arange(len(names))
    for seat in range(players):
        rates = np.array([sets[n]["seat_win_rate"][seat] for n in names])
        lows = np.array([sets[n]["seat_win_interval"][seat][0] for n in names])
        highs = np.array([sets[n]["seat_win_interval"][seat][1] for n in names])
        ax.bar(x + (seat - (players - 1) / 2) * width, rates, width,
               # clipped: at a rate of 0 or 1 the interval's end may round past it
               yerr=[np.maximum(rates - lows, 0), np.maximum(highs - rates, 0)], capsize=2,
               label=f"seat {seat}")
    ax.axhline(1.0 / players, color="black", linewidth=0.8, linestyle="--", label="fair share")
    ax.set_xticks(x, names, rotation=30, ha="right")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(f"{summary['game']}: seat win rates by set ({players} players)")
    ax.legend(fontsize=8, ncol=min(players + 1, 6))
    written.append(figures.save(fig, out / "seat_win_rates.png", 110))
    key = "rounds" if rows and "rounds" in rows[0] else "decisions"
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(names)), 4.5))
    data = [[float(r[key]) for r in rows if r["set"] == n] for n in names]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(np.arange(1, len(names) + 1), names, rotation=30, ha="right")
    ax.set_ylabel(f"race length ({key})")
    ax.set_title(f"{summary['game']}: race length by set")
    written.append(figures.save(fig, out / "race_length.png", 110))
    return written


# ----- comparing two sweeps' rankings (e.g. rule_based against mcts self-play) -----------------
#: what a set is ranked on, and whether a higher value ranks first
RANK_METRICS = {
    "balance": True,                         # the report's own ranking
    "first_player_edge": False,              # |first-player advantage|: smaller is fairer
    "rounds_mean": False,                    # shorter races first
    "decisiveness_mean": True,               # rounds after the last lead change
}


def metric_values(summary: dict[str, Any], metric: str) -> dict[str, float]:
    """The value of ``metric`` for every set of a summary (``first_player_edge`` is the
    size of the first-player advantage)."""
    out = {}
    for name, stats in summary["sets"].items():
        if metric == "first_player_edge":
            out[name] = abs(float(stats["first_player_advantage"]))
        elif metric in stats:
            out[name] = float(stats[metric])
    return out


def ranks(values: np.ndarray, higher_first: bool = True) -> np.ndarray:
    """Ranks 1..n (ties share their mean rank), best first."""
    x = -np.asarray(values, dtype=float) if higher_first else np.asarray(values, dtype=float)
    order = np.argsort(x, kind="stable")
    out = np.empty(len(x), dtype=float)
    out[order] = np.arange(1, len(x) + 1)
    for value in np.unique(x):
        tied = x == value
        out[tied] = out[tied].mean()
    return out


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation (Pearson correlation of the mid-ranks)."""
    ra, rb = ranks(a), ranks(b)
    if len(ra) < 2 or ra.std() == 0 or rb.std() == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


def kendall(a: np.ndarray, b: np.ndarray) -> float:
    """Kendall's tau-b (ties in either ranking reduce the denominator)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    concordant = discordant = ties_a = ties_b = 0
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            da, db = np.sign(a[i] - a[j]), np.sign(b[i] - b[j])
            if da == 0 and db == 0:
                continue
            if da == 0:
                ties_a += 1
            elif db == 0:
                ties_b += 1
            elif da == db:
                concordant += 1
            else:
                discordant += 1
    denominator = np.sqrt((concordant + discordant + ties_a)
                          * (concordant + discordant + ties_b))
    return float((concordant - discordant) / denominator) if denominator else float("nan")


def compare_rankings(first: dict[str, Any], second: dict[str, Any],
                     metrics: dict[str, bool] | None = None) -> dict[str, Any]:
    """Per metric: each set's value and rank in both summaries, Spearman and Kendall rank
    correlations over the sets both hold, and the sets whose ranks differ by 2 or more."""
    result = {}
    for metric, higher_first in (metrics or RANK_METRICS).items():
        va, vb = metric_values(first, metric), metric_values(second, metric)
        names = [n for n in va if n in vb]
        if len(names) < 2:
            continue
        xa = np.array([va[n] for n in names])
        xb = np.array([vb[n] for n in names])
        ra, rb = ranks(xa, higher_first), ranks(xb, higher_first)
        result[metric] = {
            "sets": {n: {"first": float(xa[i]), "second": float(xb[i]),
                         "rank_first": float(ra[i]), "rank_second": float(rb[i])}
                     for i, n in enumerate(names)},
            "spearman": spearman(xa, xb),
            "kendall": kendall(xa, xb),
            "disagree": [n for i, n in enumerate(names) if abs(ra[i] - rb[i]) >= 2],
        }
    return result


def comparison_markdown(comparison: dict[str, Any], first: str, second: str) -> str:
    """The comparison as Markdown tables, one per metric."""
    lines = []
    for metric, c in comparison.items():
        interval = c.get("spearman_interval")
        extra = f" (95% bootstrap {interval[0]:+.2f} to {interval[1]:+.2f})" if interval else ""
        lines += [f"### {metric}: Spearman {c['spearman']:+.2f}{extra}, Kendall "
                  f"{c['kendall']:+.2f}", "", f"| set | {first} | rank | {second} | rank |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        for name, s in sorted(c["sets"].items(), key=lambda item: item[1]["rank_first"]):
            lines.append(f"| {name} | {s['first']:.3f} | {s['rank_first']:g} | "
                         f"{s['second']:.3f} | {s['rank_second']:g} |")
        lines += ["", "Ranks 2 or more apart: " + ("; ".join(c["disagree"]) or "none"), ""]
    return "\n".join(lines)


def _metric_columns(rows: list[dict[str, Any]], players: int) -> np.ndarray:
    """Per game: the seats' win shares, then the race length (NaN when not reported)."""
    return np.array([[float(r[f"win_s{s}"]) for s in range(players)]
                     + [float(r.get("rounds", "nan"))] for r in rows])


def _set_metric(columns: np.ndarray, players: int, metric: str) -> float:
    if metric == "balance":
        return balance(columns[:, :players].mean(axis=0))
    if metric == "first_player_edge":
        return abs(float(columns[:, 0].mean()) - 1.0 / players)
    if metric == "rounds_mean":
        return float(columns[:, players].mean())
    raise ValueError(f"no bootstrap for metric {metric!r}; use balance, first_player_edge "
                     f"or rounds_mean")


def bootstrap_spearman(rows_a: list[dict[str, Any]], rows_b: list[dict[str, Any]],
                       players: int, metric: str, rounds: int = 400, seed: int = 0,
                       level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of the Spearman correlation of two sweeps' set rankings on
    ``metric``, resampling each set's games (with replacement) in both sweeps."""
    names = sorted({r["set"] for r in rows_a} & {r["set"] for r in rows_b})
    sweeps = [[_metric_columns([r for r in rows if r["set"] == n], players) for n in names]
              for rows in (rows_a, rows_b)]
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(rounds):
        xa, xb = ([_set_metric(c[rng.integers(0, len(c), len(c))], players, metric)
                   for c in sets] for sets in sweeps)
        values.append(spearman(np.array(xa), np.array(xb)))
    values = np.array([v for v in values if np.isfinite(v)])
    tail = (1.0 - level) / 2.0
    return float(np.quantile(values, tail)), float(np.quantile(values, 1.0 - tail))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """``transit-gym balance compare DIR_A DIR_B``: compare the set
    rankings of two finished sweeps (their ``summary.json`` and ``games.csv``)."""
    import json

    from transit_gym.envs.core.errors import ConfigError
    from transit_gym.training.runs.folder import load_csv

    parser = ToolParser(description="compare the set rankings of two sweeps",
                        example="transit-gym balance compare reports/rb-2p reports/mcts-2p "
                                "--bootstrap 400")
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--bootstrap", type=int, default=400,
                        help="bootstrap rounds for the Spearman intervals (0: none)")
    args = parser.parse_args(argv)
    try:
        summaries = []
        for folder in (args.first, args.second):
            path = folder / "summary.json"
            if not path.is_file():
                raise ConfigError(f"{path} not found: give the --out folder of a finished sweep")
            summaries.append(json.loads(path.read_text()))
        games = [s.get("game") for s in summaries]
        if games[0] != games[1]:
            raise ConfigError(f"the sweeps are of different games ({games[0]} and "
                              f"{games[1]})")
        if summaries[0]["players"] != summaries[1]["players"]:
            raise ConfigError(f"the sweeps have different player counts "
                              f"({summaries[0]['players']} and {summaries[1]['players']})")
    except ValueError as exc:
        parser.error(str(exc))
    comparison = compare_rankings(*summaries)
    names = [" ".join(sorted(set(s["agents"]))) for s in summaries]
    if args.bootstrap:
        rows = []
        for folder, summary in zip((args.first, args.second), summaries, strict=True):
            wanted = summary["games_per_set"]
            rows.append([r for r in load_csv(folder / "games.csv")
                         if int(r["game"]) < wanted and r["set"] in summary["sets"]])
        for metric in ("balance", "first_player_edge", "rounds_mean"):
            if metric in comparison:
                comparison[metric]["spearman_interval"] = bootstrap_spearman(
                    *rows, summaries[0]["players"], metric, rounds=args.bootstrap)
    print(comparison_markdown(comparison, *names))
    return comparison
