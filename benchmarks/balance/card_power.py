"""Per-card power by restricted play (Jaffe et al., AIIDE 2012): what a seat loses when it
may not buy a card, take a driver or take a sponsor; and forced play: what a seat gains
when its parameter vector buys a card first and always activates it.

    transit-gym balance power --kinds cards,drivers,sponsors \\
        --players 2 --games 200 --agents rule_based --seed 0 --out reports/power-2p

For each item (the 35 Automobiles market cards, the 10 drivers, the 18 sponsor cards) one
seat is restricted (``transit_gym.envs.core.restrict``) and plays against unrestricted
seats of the same agent; the restricted seat rotates over every seat. A card is played in
``--markets`` random markets that contain it (the other four cards drawn from
``--pool``); drivers in random markets with ``drivers="all"`` (every driver on offer);
sponsors in season campaigns (``automobiles_season``). The score rate is the restricted
seat's mean share of the win, with a 95% Wilson interval. A restriction whose interval
contains the fair share ``1 / players`` costs nothing measurable: the item is "unused" by
this agent; the lower the rate, the stronger the item. For cards, each game also records
the cubes of the card bought and played by the restricted seat and by the others (the
agent's card usage in those markets).

Kind ``forced`` (cards; vector agents: ``rule_based``, ``tuned``, ``tuned:FILE``): in the
same markets and deals as ``cards``, one seat plays the agent's vector changed so that the
card is bought first (buy priority 50, up to ``--forced-want`` cubes, default 10),
activated first and without its gate, against unmodified seats. Verdicts: **forcing wins
more** (interval above the fair share), **forcing costs** (below) or **nothing
measurable**. A card the agent does not buy and whose forcing wins nothing is not a card
the agent overlooks. ``--card-set NAME`` plays every market as that named set (its five
cards the items), e.g. with the vector tuned on it.

Results: ``games.csv`` (one row per game; an interrupted run resumes from it, refusing
other settings), ``power.md``, ``power.csv``, ``power.json`` and ``power_<kind>.png``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.agents.registry import is_jit_spec
from transit_gym.benchmarks.balance import figures
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.restrict import forbid
from transit_gym.envs.registry import cached_game, game_class, options_key
from transit_gym.training.runs.backends import (
    check_backend,
    check_out,
    make_backend,
    run_with_progress,
)
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.folder import CsvSink, check_settings
from transit_gym.training.runs.options import (
    add_data_arguments,
    add_run_arguments,
    check_counts,
    data_options,
    options_for,
    parse_options,
)
from transit_gym.training.runs.seating import play_seated, restrict_agents
from transit_gym.training.runs.specs import load_agent, parse_agents
from transit_gym.training.stats import seat_wins, wilson_interval
from transit_gym.training.tool_parser import ToolParser

KINDS = ("cards", "drivers", "sponsors", "forced")
GAME_OF_KIND = {"cards": "automobiles", "drivers": "automobiles",
                "sponsors": "automobiles_season", "forced": "automobiles"}
#: kinds whose items are market cards (their games record the card's cubes)
CARD_KINDS = ("cards", "forced")
#: the forced seat's vector: the card bought first, up to this many cubes, activated first
FORCED_BUY, FORCED_ORDER = 50.0, 1.0
#: games of one (item, market, seat) cell per task; search agents play through Python
CHUNK = 100
PYTHON_CHUNK = 5
#: chance stream of game ``g`` in market ``m``: ``m * STRIDE + g``, the same whichever seat
#: is restricted (common random numbers: an item the agent never uses scores exactly the
#: fair share, since the restricted seats' games are then the unrestricted ones)
STRIDE = 1 << 20
FIELDS = ["kind", "item", "market", "seat", "game", "score", "bought", "played",
          "others_bought", "others_played"]
#: cubes of the item per game: the restricted (forced) seat's, the other seats' mean
USAGE = FIELDS[6:]


@dataclass(frozen=True)
class Settings:
    """What a run measures; an ``--out`` folder holds the games of one Settings only."""

    kinds: tuple[str, ...]
    players: int
    games: int
    agent: str
    seed: int
    markets: int
    pool: str
    options: tuple[tuple[str, Any], ...] = ()
    items: tuple[str, ...] = ()        # restrict the run to these item names (empty: all)
    forced_want: float = 10.0          # forced play: most cubes of the card the seat buys
    card_set: str = ""                 # every market this named set ("": random markets)


@dataclass(frozen=True)
class Cell:
    """``count`` games (from ``first``) of one item, market and restricted seat."""

    kind: str
    item: str
    market: int
    options: tuple[tuple[str, Any], ...]
    seat: int
    first: int
    count: int
    players: int
    agent: str
    seed: int
    forced_want: float = 10.0


@dataclass
class Plan:
    settings: Settings
    items: dict[str, list[str]] = field(default_factory=dict)            # kind -> names
    markets: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)

    def per_cell(self) -> int:
        """Games per (market, seat) cell: ``--games`` split evenly, rounded up."""
        s = self.settings
        return -(-s.games // (s.markets * s.players))


# ----- what is measured ------------------------------------------------------------------
def automobiles_cards(card_data: str | None = None):
    from transit_gym.envs.automobiles.data import load_cards

    return load_cards(card_data)


def pool_cards(cards, pool: str) -> list[list[str]]:
    """The market cards of each colour in ``pool`` (``all``: 7 a colour; ``base``: 4)."""
    from transit_gym.envs.automobiles.data import CARD_COLOURS

    if pool not in ("all", "base"):
        raise ConfigError(f"--pool must be 'all' or 'base', got {pool!r}")
    return [sorted(n for n in cards.cards_of(c)
                   if pool == "all" or not cards.expansion[cards.card_id(n)])
            for c in CARD_COLOURS]


def random_market(per_colour: list[list[str]], rng: np.random.Generator,
                  fixed: str | None = None) -> list[str]:
    """One card per colour, uniformly from ``per_colour``; ``fixed`` keeps its colour's."""
    return [fixed if fixed in options else options[int(rng.integers(len(options)))]
            for options in per_colour]


def sponsor_names(players: int, options: dict[str, Any]) -> list[str]:
    cls = game_class("automobiles_season")
    game = cls(num_players=players, **options_for(options, cls))
    return list(game.sponsor_data.names)


def make_plan(settings: Settings) -> Plan:
    """Every item and its markets (drawn from the seed, so a resumed run draws the same)."""
    plan = Plan(settings)
    options = dict(settings.options)
    cards = automobiles_cards(options.get("card_data"))
    per_colour = pool_cards(cards, settings.pool)
    named = named_set(settings.card_set, cards)
    for kind in settings.kinds:
        if kind not in KINDS:
            raise ConfigError(f"--kinds: unknown kind {kind!r}; known: {list(KINDS)}")
        if kind in CARD_KINDS:
            names = [n for colour in per_colour for n in colour
                     if named is None or n in named]
        elif kind == "drivers":
            names = [f"Driver {d:02d}" for d in range(1, 11)]
        else:
            names = sponsor_names(settings.players, options)
        if settings.items:
            names = [n for n in names if n in settings.items]
        plan.items[kind] = names
        for k, name in enumerate(names):
            # forced play uses the markets of the restriction run (same cards, same deals)
            stream = KINDS.index("cards" if kind == "forced" else kind)
            rng = np.random.default_rng([settings.seed, stream, k, 0xC0DE])
            if kind == "sponsors":
                plan.markets[(kind, name)] = [{} for _ in range(settings.markets)]
                continue
            fixed = name if kind in CARD_KINDS else None
            extra = {"drivers": "all"} if kind == "drivers" else {}
            plan.markets[(kind, name)] = [
                {"card_set": list(named) if named else random_market(per_colour, rng, fixed),
                 **extra} for _ in range(settings.markets)]
    if settings.items and not any(plan.items.values()):
        raise ConfigError(f"--items {list(settings.items)}: none is an item of "
                          f"{list(settings.kinds)}")
    return plan


def named_set(name: str, cards) -> tuple[str, ...] | None:
    """The five cards of the named set ``name`` (None for ""; ConfigError naming the sets
    for an unknown name)."""
    if not name:
        return None
    from transit_gym.envs.automobiles.options import resolve_set

    if name == "random":
        raise ConfigError("--card-set takes a named set; leave it out for random markets")
    return resolve_set(name, cards)


def restriction(game, kind: str, item: str, seat: int) -> np.ndarray | None:
    """The forbidden array of ``seat`` for one item (None for forced play)."""
    from transit_gym.envs.automobiles import restrictions as auto

    if kind == "forced":
        return None
    if kind == "cards":
        ids = auto.buy_card(game.cards, item)
    elif kind == "drivers":
        ids = auto.take_driver(int(item.split()[-1]))
    else:
        ids = auto.take_sponsor(game.sponsor_data.names, item)
    return forbid(game.num_players, game.num_actions, {seat: ids})


# ----- playing ---------------------------------------------------------------------------
def base_vector(agent: str) -> np.ndarray:
    """The parameter vector of a vector agent: ``rule_based`` (its point of the tuned
    strategy space), ``tuned`` or ``tuned:FILE``; any other spec is a ConfigError."""
    from transit_gym.agents.tuned import is_tuned_spec, spec_vector
    from transit_gym.agents.tuned import vector as tv

    if agent == "rule_based":
        return tv.rule_based_vector()
    if is_tuned_spec(agent):
        return spec_vector(agent, "automobiles")
    raise ConfigError(f"forced play changes a parameter vector: --agents must be rule_based, "
                      f"tuned or tuned:FILE, got {agent!r}")


def forced_vector(vector: np.ndarray, card: str, want: float = 10.0) -> np.ndarray:
    """``vector`` changed so that ``card`` is bought first (until the seat owns ``want``
    cubes of it, the start bag included), activated first and always (gate off)."""
    from transit_gym.agents.tuned import vector as tv

    out = np.array(vector, dtype=np.float64)
    c = tv.card_of_name(card)
    out[tv.card_param(c, tv.K_BUY)] = FORCED_BUY
    out[tv.card_param(c, tv.K_WANT)] = want
    out[tv.card_param(c, tv.K_ORDER)] = FORCED_ORDER
    out[tv.card_param(c, tv.K_GATE)] = 0.0
    return out


def _jitted_games(game, cell: Cell, forbidden: np.ndarray | None, first: int):
    """``GameResults`` of one cell played inside numba (built-in and vector agents)."""
    from transit_gym.agents.registry import policy_kernel
    from transit_gym.agents.tuned import is_tuned_spec, jit_setup, tuned_module
    from transit_gym.envs.core.rollout import play_games

    specs = [cell.agent] * cell.players
    if cell.kind == "forced":
        module = tuned_module(game.name)
        vector = base_vector(cell.agent)
        params = module.params_with_vectors(game.param_table,
                                            [vector, forced_vector(vector, cell.item,
                                                                          cell.forced_want)])
        codes = {"agent": module.TUNED_CODE, "forced": module.TUNED_CODE + 1}
        specs = ["forced" if s == cell.seat else "agent" for s in range(cell.players)]
        return play_games(game, module.policy, specs, cell.count, seed=cell.seed,
                          first_game=first, params=params, codes=codes)
    if is_tuned_spec(cell.agent):
        policy, params, codes = jit_setup(game, specs)
        return play_games(game, policy, specs, cell.count, seed=cell.seed, first_game=first,
                          forbidden=forbidden, params=params, codes=codes)
    return play_games(game, policy_kernel(game.name), specs, cell.count, seed=cell.seed,
                      first_game=first, forbidden=forbidden)


def card_cubes(game, state, card: str) -> tuple[list[int], list[int]] | None:
    """Cubes of market card ``card`` bought and activated per seat in a finished game
    (None when the card is not in the game's market)."""
    colour = next((c for c, name in game.market(state).items() if name == card), None)
    if colour is None:
        return None
    info = game.final_info(state)
    return ([int(i["bought"][colour]) for i in info],
            [int(i["activated"][colour]) for i in info])


def _usage(cubes: tuple[list[int], list[int]] | None, seat: int) -> dict[str, Any]:
    if cubes is None:
        return dict.fromkeys(USAGE)
    bought, played = cubes
    others = [s for s in range(len(bought)) if s != seat]
    return {"bought": bought[seat], "played": played[seat],
            "others_bought": round(float(np.mean([bought[s] for s in others])), 6),
            "others_played": round(float(np.mean([played[s] for s in others])), 6)}


def run_cell(cell: Cell) -> list[dict[str, Any]]:
    """Play one cell's games; a row per game (the worker's whole job)."""
    options = {k: list(v) if isinstance(v, tuple) else v for k, v in cell.options}
    game = cached_game(GAME_OF_KIND[cell.kind], cell.players, options_key(options))
    forbidden = restriction(game, cell.kind, cell.item, cell.seat)
    base = cell.market * STRIDE
    usage = [dict.fromkeys(USAGE)] * cell.count   # None: written as an empty cell
    if is_jit_spec(cell.agent):
        results = _jitted_games(game, cell, forbidden, base + cell.first)
        rewards = results.rewards
        if cell.kind in CARD_KINDS:
            usage = [_usage(card_cubes(game, results.state(game, i), cell.item), cell.seat)
                     for i in range(cell.count)]
    else:
        rewards = _python_games(game, cell, forbidden, base)
    shares = seat_wins(np.asarray(rewards))
    return [{"kind": cell.kind, "item": cell.item, "market": cell.market, "seat": cell.seat,
             "game": cell.first + i, "score": round(float(shares[i, cell.seat]), 6),
             **usage[i]} for i in range(cell.count)]


def _python_games(game, cell: Cell, forbidden: np.ndarray, base: int) -> np.ndarray:
    """Games through the rules API (search agents) by ``training.runs.seating``, every
    agent told the restriction and reseeded per game from ``(seed, stream, seat)``."""
    agents = [load_agent(cell.agent, game, seed=cell.seed) for _ in range(cell.players)]
    restrict_agents(agents, forbidden, game)
    out = np.zeros((cell.count, cell.players), dtype=np.float32)
    for i in range(cell.count):
        out[i] = play_seated(game, agents, range(cell.players), cell.seed,
                             stream=base + cell.first + i).rewards
    return out


def cells(plan: Plan, done: set[tuple[str, str, int, int, int]]) -> Iterator[Cell]:
    """Cells covering exactly the games not yet in ``done`` (kind, item, market, seat, game)."""
    s = plan.settings
    size = CHUNK if is_jit_spec(s.agent) else PYTHON_CHUNK
    n = plan.per_cell()
    for kind, names in plan.items.items():
        cls = game_class(GAME_OF_KIND[kind])
        start = cls.start_option                    # seat 0 starts: the rotation
        seat_zero = {start: 0} if start else {}     # covers every position
        kind_options = options_for(dict(s.options), cls)
        for name in names:
            for m, market in enumerate(plan.markets[(kind, name)]):
                options = options_key({**seat_zero, **kind_options, **market})
                for seat in range(s.players):
                    todo = [g for g in range(n) if (kind, name, m, seat, g) not in done]
                    for run in _runs(todo, size):
                        yield Cell(kind, name, m, options, seat, run[0], len(run), s.players,
                                   s.agent, s.seed, s.forced_want)


def _runs(numbers: list[int], size: int) -> Iterator[list[int]]:
    """Consecutive runs of ``numbers`` of at most ``size``."""
    run: list[int] = []
    for g in numbers:
        if run and (g != run[-1] + 1 or len(run) == size):
            yield run
            run = []
        run.append(g)
    if run:
        yield run


# ----- the run folder --------------------------------------------------------------------
def settings_record(settings: Settings) -> dict[str, Any]:
    """What ``settings.json`` keeps (``forced_want`` only for runs with forced play, so
    folders of restriction runs from before it existed still resume)."""
    record = asdict(settings)
    if "forced" not in settings.kinds:
        del record["forced_want"]
    if not settings.card_set:
        del record["card_set"]
    return json.loads(json.dumps(record))


def _optional_number(text: str | None) -> float | None:
    return None if text in (None, "") else float(text)


def load_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of ``games.csv`` (an incomplete last line, from a stopped run, is dropped; a
    file written before the card-usage columns gets them, empty)."""
    if not path.exists():
        return []
    raw = path.read_text()
    complete = raw.rfind("\n") + 1
    rows = []
    reader = csv.DictReader(raw[:complete].splitlines())
    for number, row in enumerate(reader, 2):
        try:
            rows.append({"kind": row["kind"], "item": row["item"], "market": int(row["market"]),
                         "seat": int(row["seat"]), "game": int(row["game"]),
                         "score": float(row["score"]),
                         **{k: _optional_number(row.get(k)) for k in USAGE}})
        except (KeyError, TypeError, ValueError):
            raise ConfigError(f"{path} line {number} is damaged; delete that line to resume"
                              ) from None
    if reader.fieldnames and reader.fieldnames != FIELDS:
        with path.open("w", newline="") as handle:   # the header this version appends to
            writer = csv.DictWriter(handle, fieldnames=FIELDS)
            writer.writeheader()
            writer.writerows(rows)
    elif complete < len(raw):
        path.write_text(raw[:complete])
    return rows


def run(settings: Settings, out: Path, workers: int | None = None,
        ray_address: str | None | bool = False, plots: bool = True,
        progress: bool = True) -> dict[str, Any]:
    """Play (or resume) the run, then write the tables, summary and plots."""
    check_out(out)
    check_settings(out, settings_record(settings), None, growable=())
    plan = make_plan(settings)
    path = out / "games.csv"
    rows = load_rows(path)
    done = {(r["kind"], r["item"], r["market"], r["seat"], r["game"]) for r in rows}
    todo = list(cells(plan, done))
    total = sum(c.count for c in todo)
    if todo:   # compile (and fill the disk cache) before forking
        run_cell(Cell(**{**todo[0].__dict__, "count": 1}))
    backend = make_backend(workers, ray_address)
    sink = CsvSink(path, rows)
    for records in run_with_progress(backend, ((run_cell, c) for c in todo), total, progress):
        sink.write(records)
        rows.extend(records)
    summary = summarise(plan, rows)
    (out / "power.json").write_text(json.dumps(summary, indent=2))
    (out / "power.md").write_text(markdown(summary))
    write_table(summary, out / "power.csv")
    if plots:
        plot(summary, out)
    return summary


# ----- what is made of the games ---------------------------------------------------------
def summarise(plan: Plan, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per item: games, score rate, Wilson interval, cost and verdict; ranked per kind."""
    s = plan.settings
    fair = 1.0 / s.players
    n_cell = plan.per_cell()
    kinds: dict[str, list[dict[str, Any]]] = {}
    for kind, names in plan.items.items():
        table = []
        for name in names:
            scores = [r["score"] for r in rows if r["kind"] == kind and r["item"] == name
                      and r["market"] < s.markets and r["game"] < n_cell]
            n = len(scores)
            if not n:
                continue
            rate = float(np.mean(scores))
            low, high = wilson_interval(float(np.sum(scores)), n)
            table.append({"item": name, "games": n, "score_rate": rate,
                          "interval": [low, high], "cost": fair - rate,
                          "verdict": item_verdict(kind, low, high, fair),
                          "markets": [m.get("card_set") for m in plan.markets[(kind, name)]],
                          **usage_means([r for r in rows if r["kind"] == kind
                                         and r["item"] == name and r["market"] < s.markets
                                         and r["game"] < n_cell])})
        # strongest first: restriction costs most / forcing wins most
        sign = -1.0 if kind == "forced" else 1.0
        table.sort(key=lambda row: (sign * row["score_rate"], row["item"]))
        for rank, row in enumerate(table, 1):
            row["rank"] = rank
        kinds[kind] = table
    return {"settings": settings_record(s), "fair_share": fair, "games_per_item":
            n_cell * s.markets * s.players, "kinds": kinds}


def item_verdict(kind: str, low: float, high: float, fair: float) -> str:
    """Restriction: costs / unused / trap; forced play: forcing wins more / forcing costs /
    nothing measurable (by where the Wilson interval lies against the fair share)."""
    if kind == "forced":
        return ("nothing measurable" if low <= fair <= high
                else "forcing wins more" if low > fair else "forcing costs")
    return "unused" if low <= fair <= high else "costs" if high < fair else "trap"


def usage_means(rows: list[dict[str, Any]]) -> dict[str, float | None]:
    """Mean cubes of the item per game: ``bought`` / ``played`` by the restricted (forced)
    seat, ``others_*`` per other seat (None when the games did not record them)."""
    out: dict[str, float | None] = {}
    for key in USAGE:
        values = [r[key] for r in rows if r.get(key) is not None]
        out[key] = float(np.mean(values)) if values and len(values) == len(rows) else None
    return out


KIND_TITLES = {"cards": "Market cards (may not buy it)",
               "drivers": "Drivers (may not take it in the draft; drivers=\"all\")",
               "sponsors": "Sponsors (may not take it; season campaign)",
               "forced": "Forced play (one seat's vector buys the card first, activates it "
                         "first and always)"}


#: shorter titles where the table's would not fit a plot
PLOT_TITLES = {"drivers": "Drivers (may not take it in the draft)",
               "forced": "Forced play (card bought first, always activated)"}


def markdown(summary: dict[str, Any]) -> str:
    s = summary["settings"]
    fair = summary["fair_share"]
    lines = ["# Per-item power by restricted play", "",
             f"{s['players']} players, agent {s['agent']} at every seat, one seat restricted "
             f"(forced, for forced play; rotated over the seats), "
             f"{summary['games_per_item']} games per item "
             f"({s['markets']} markets), seed {s['seed']}, card pool {s['pool']}. Score rate: "
             f"that seat's mean share of the win, 95% Wilson interval; fair share "
             f"{fair:.3f}. Ranked strongest first (the restriction costs most).", "",
             "Verdicts: **costs** (interval below the fair share: the item is worth having), "
             "**unused** (interval contains the fair share: forbidding it costs nothing "
             "measurable, the agent does not need it), **trap** (interval above: the agent "
             "does better without it).", ""]
    for kind, table in summary["kinds"].items():
        usage = any(row.get("others_bought") is not None for row in table)
        seat = "forced seat" if kind == "forced" else "restricted seat"
        gain = "gain (pts)" if kind == "forced" else "cost (pts)"
        head = f"| rank | item | score rate | 95% interval | {gain} | verdict | games |"
        rule = "| ---: | --- | ---: | --- | ---: | --- | ---: |"
        if usage:
            head += f" {seat}: bought, played | other seats: bought, played |"
            rule += " ---: | ---: |"
        title = KIND_TITLES[kind]
        if kind == "forced":
            title += f", up to {s.get('forced_want', 10.0):g} cubes"
        lines += [f"## {title}", ""]
        if usage:
            lines += ["Cubes of the card per seat and game (the other seats play the "
                      "unchanged agent: its own use of the card in these markets).", ""]
        lines += [head, rule]
        for row in table:
            low, high = row["interval"]
            points = -row["cost"] if kind == "forced" else row["cost"]
            line = (f"| {row['rank']} | {row['item']} | {100 * row['score_rate']:.1f}% | "
                    f"{100 * low:.1f}-{100 * high:.1f}% | {100 * points:+.1f} | "
                    f"{row['verdict']} | {row['games']} |")
            if usage:
                line += (f" {_cubes(row.get('bought'))}, {_cubes(row.get('played'))} | "
                         f"{_cubes(row.get('others_bought'))}, "
                         f"{_cubes(row.get('others_played'))} |")
            lines.append(line)
        lines.append("")
    return "\n".join(lines)


def _cubes(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def write_table(summary: dict[str, Any], path: Path) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["kind", "rank", "item", "games", "score_rate", "low", "high", "cost",
                         "verdict", *USAGE])
        for kind, table in summary["kinds"].items():
            for row in table:
                writer.writerow([kind, row["rank"], row["item"], row["games"],
                                 round(row["score_rate"], 6), round(row["interval"][0], 6),
                                 round(row["interval"][1], 6), round(row["cost"], 6),
                                 row["verdict"],
                                 *("" if row.get(k) is None else round(row[k], 6)
                                   for k in USAGE)])


def plot(summary: dict[str, Any], out: Path) -> list[Path]:
    """One PNG per kind: score rate with its interval per item, the fair share marked."""
    plt = figures.pyplot()
    written = []
    for kind, table in summary["kinds"].items():
        if not table:
            continue
        rates = np.array([r["score_rate"] for r in table])
        low = np.maximum(rates - np.array([r["interval"][0] for r in table]), 0)
        high = np.maximum(np.array([r["interval"][1] for r in table]) - rates, 0)
        fig, ax = plt.subplots(figsize=(7, 0.28 * len(table) + 1.5))
        y = np.arange(len(table))
        ax.errorbar(rates, y, xerr=[low, high], fmt="o", capsize=3)
        ax.axvline(summary["fair_share"], color="grey", linestyle="--", label="fair share")
        ax.set_yticks(y, [r["item"] for r in table])
        ax.invert_yaxis()
        who = "forced" if kind == "forced" else "restricted"
        ax.set_xlabel(f"score rate of the {who} seat (95% Wilson interval)")
        ax.set_title(PLOT_TITLES.get(kind, KIND_TITLES[kind]), fontsize=10)
        ax.legend(loc="lower right")
        written.append(figures.save(fig, out / f"power_{kind}.png", 100))
    return written


# ----- command line ----------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym balance power --kinds drivers --games 20 --markets 1 "
                                "--out reports/power")
    parser.add_argument("--kinds", default="cards,drivers,sponsors",
                        help="comma-separated: cards, drivers, sponsors, forced (a seat "
                             "whose vector buys the card first; vector agents only)")
    parser.add_argument("--items", default="",
                        help="only these item names (comma-separated; default: all)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200, help="games per item")
    parser.add_argument("--markets", type=int, default=4,
                        help="random markets per item (sponsors: seeds of the season)")
    parser.add_argument("--pool", default="all", help="all (35 cards) | base (20)")
    parser.add_argument("--card-set", default=None, metavar="NAME",
                        help="play every market as this named set (e.g. 'Rinse & Repeat'; "
                             "its five cards are the card items), e.g. with the set's own "
                             "tuned vector")
    parser.add_argument("--agents", default="rule_based",
                        help="the agent at every seat: rule_based, random, tuned, tuned:FILE, "
                             "mcts, mcts:N, ...")
    parser.add_argument("--forced-want", type=float, default=10.0,
                        help="forced play: the seat buys the card until it owns this many "
                             "cubes of it, the start bag included (default 10)")
    add_run_arguments(parser, options=True)
    add_data_arguments(parser)
    parser.add_argument("--no-plots", action="store_true")
    return parser


def parse_settings(args: argparse.Namespace) -> Settings:
    kinds = tuple(k.strip() for k in args.kinds.split(",") if k.strip())
    unknown = [k for k in kinds if k not in KINDS]
    if not kinds or unknown:
        raise ConfigError(f"--kinds must list some of {list(KINDS)}, got {args.kinds!r}")
    if args.players < 2 or args.players > 5:
        raise ConfigError(f"--players must be 2..5, got {args.players}")
    check_counts(args.seed, games=args.games, markets=args.markets)
    agent = parse_agents(args.agents, args.players)
    if len(set(agent)) != 1:
        raise ConfigError(f"--agents: restricted play compares one agent with itself; got "
                          f"{args.agents!r}")
    from transit_gym.agents.tuned import is_tuned_spec, spec_vector

    if is_tuned_spec(agent[0]):   # the vector file exists, each kind's game has a policy
        for kind in kinds:
            spec_vector(agent[0], GAME_OF_KIND[kind])
    if "forced" in kinds:
        base_vector(agent[0])   # a vector agent?
    if not 1 <= args.forced_want <= 50:
        raise ConfigError(f"--forced-want must be 1..50 cubes, got {args.forced_want}")
    games = {game_class(GAME_OF_KIND[kind]) for kind in kinds}
    options = {**data_options(args, *sorted(games, key=lambda g: g.name)),
               **parse_options(args.option)}
    items = tuple(i.strip() for i in args.items.split(",") if i.strip())
    return Settings(kinds, args.players, args.games, agent[0], args.seed, args.markets,
                    args.pool, tuple(sorted(options.items())), items, args.forced_want,
                    args.card_set or "")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = build_parser()
    args = parser.parse_args(argv)
    with tool_errors(parser):   # ConfigError, DataFileError, ForbiddenError
        settings = parse_settings(args)
        make_plan(settings)   # items, pool and options valid?
        check_backend(args.workers, args.ray)
        out = args.out or Path("reports") / f"power-{settings.players}p-seed{settings.seed}"
        check_out(out)
        summary = run(settings, out, workers=args.workers, ray_address=args.ray,
                      plots=not args.no_plots, progress=not args.quiet)
    print(markdown(summary))
    print(f"written: {out}/power.md, power.csv, power.json, games.csv"
          + ("" if args.no_plots else ", power_<kind>.png"), file=sys.stderr)
    return summary
