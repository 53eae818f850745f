"""Tune a game's parameter-vector agent (its decision procedure with every constant read
from a vector) by CMA-ES self-play: Automobiles for one market or a generalist over random
markets, or any other game with a tuned layout (``--game``).

    transit-gym tune --card-set "Rinse & Repeat" --players 2 --out reports/tune
    transit-gym tune --game planes --vary airport='["flying_cloud", "zephyr"]'
    transit-gym tune --cards "Factory Support,Air Jacks,Burnout,\
        Overdrive,Crate Motor"
    transit-gym tune --generalist --generations 200 --out reports/tune
    transit-gym tune --season --players 2 --out reports/tune-season

A candidate vector is the rule-based vector plus a scaled step per searched entry (the
entries that matter in the market: the four gears, the market's five cards and their
choices, the scalars, the drivers when they are in play; every card for the generalist);
``--start`` begins the search at another vector (``generalist`` or a FILE) instead of the
rule-based one. Each generation, every
candidate plays ``--games`` games (seats alternated, the same deals for every candidate)
against a field: the rule-based agent for half the games and the last ``--field``
snapshots of the search's mean for the rest (with ``--opponent`` FILE, that vector joins
the snapshots for the whole run: a fixed, stronger opponent than the rule-based agent).
The tuned vector is the final mean; it is then scored against the rule-based agent on
``--eval-games`` fresh games, with a 95% Wilson interval. The same seed and settings
reproduce the vector (when the run ends by its generation count, not by ``--budget``
seconds of wall time; the file says which:
``--budget 0`` sets no wall-time limit).

``--game G`` for another game moves every entry of G's layout
(``agents/tuned/<game>_layout.py``) by its ``scales()``, over the markets its ``--option``
and ``--vary`` flags make (``--vary KEY=JSON_LIST``: one market per value, the games spread
over them); the file is ``<game>-<players>p[-options].json``.

``--season`` tunes only the sponsor entries of the Racing Season campaign
(``automobiles_season``), the race entries fixed at ``--race-vector`` (the shipped
generalist unless given): every candidate plays ``--games`` seasons against seats with the
same race entries and the rule-based sponsor entries, seats alternated (no field of
snapshots: ``--field`` is unused), and the result is scored the same way over
``--eval-games`` fresh seasons. The search starts at the sponsor entries of ``--start``
(rule-based unless a FILE with other sponsor entries is given).

Results are cached in ``--out``: one ``<market>.json`` vector per market, and
``settings.json`` with the optimiser's settings. A second run with the same settings
loads the cached vector; a run with other settings into the same folder stops (exit 2)
naming the differences.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.agents.tuned import vector as tv
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import cached_game, game_class, options_key
from transit_gym.training.runs.backends import make_backend
from transit_gym.training.runs.folder import SETTINGS_FILE, differences, read_settings
from transit_gym.training.runs.options import (
    DATA_OPTIONS,
    add_data_arguments,
    data_options,
    data_tag,
    parse_options,
)
from transit_gym.training.runs.progress import Progress
from transit_gym.training.stats import seat_wins, wilson_interval
from transit_gym.training.tool_parser import ToolParser

GAME = "automobiles"
TRACKS = ("daytona", "monza", "talladega", "monte_carlo", "tucson")
#: game index of the first evaluation game (far from the games used while tuning)
EVAL_FIRST = 50_000_000

#: step scale of each card parameter (one CMA unit), and of the scalars and drivers
CARD_SCALE = {tv.K_KEEP: 2.0, tv.K_BUY: 2.0, tv.K_ORDER: 15.0, tv.K_WANT: 1.0,
              tv.K_BUY_WEAR: 0.3, tv.K_GATE: 1.0}
SCALAR_SCALE = {"pit_stop_wear": 1.5, "cost_weight": 0.01}
DRIVER_SCALE = (3.0, 1.0)   # draft score, use flag
CHOICE_SCALE = {"diesel_min_dark": 1.5}   # the gear scores: 1.0; Pit Team's keep: see below
#: ``pit_team_remove_keep`` is off (rule-based) below 0.5, then a keep bound rising by 2 a unit
PIT_TEAM_KEEP = tv.CHOICE_BASE + tv.C_PIT_TEAM_REMOVE_KEEP


@dataclass(frozen=True)
class Settings:
    """What decides the tuned vector besides the market (compared on a cached folder)."""

    seed: int = 0
    generations: int = 60
    popsize: int = 0          # 0: CMA's default for the dimension
    games: int = 48           # games per candidate and generation
    field: int = 3            # snapshots of the mean kept as opponents
    field_every: int = 5      # generations between snapshots
    sigma: float = 0.5        # CMA's initial step (in scale units)
    eval_games: int = 200
    budget: float = 300.0     # wall seconds: tuning stops early past this (0: no limit)
    start: str = "rule_based"  # the search's first mean: rule_based, generalist or a FILE
    opponent: str = ""        # a vector (generalist or a FILE) always in the field; "": none


# ----- markets -------------------------------------------------------------------------------
def market_options(card_set: str | None, cards: list[str] | None, track: str,
                   drivers: str, laps: int | None) -> dict[str, Any]:
    """Game options of one market (checked by building the game)."""
    options: dict[str, Any] = {"track": track}
    if cards:
        if len(cards) != 5:
            raise ConfigError(f"--cards needs five card names (one per colour), got {cards}")
        options["card_set"] = list(cards)
    else:
        options["card_set"] = card_set or "First Game"
    if drivers not in ("off", "on", "all"):
        raise ConfigError(f"--drivers must be off, on or all, got {drivers!r}")
    options["drivers"] = {"off": False, "on": True, "all": "all"}[drivers]
    if laps is not None:
        options["laps"] = laps
    return options


def generalist_markets() -> list[dict[str, Any]]:
    """Random markets of all 35 cards on each of the five boards, drivers off and on."""
    return [{"card_set": "random", "card_pool": "all", "track": t, "drivers": d}
            for t in TRACKS for d in (False, True)]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def market_name(markets: list[dict[str, Any]], players: int) -> str:
    """A file name for the market(s)."""
    if len(markets) > 1:
        return f"generalist-{players}p"
    m = markets[0]
    cards = m["card_set"] if isinstance(m["card_set"], str) else "+".join(m["card_set"])
    drivers = {False: "off", True: "on", "all": "all"}[m["drivers"]]
    laps = f"-laps{m['laps']}" if "laps" in m else ""
    return slug(f"{cards}-{m['track']}-{players}p-drivers-{drivers}{laps}")


def searched_entries(markets: list[dict[str, Any]], players: int) -> np.ndarray:
    """Vector indices the search moves: what can matter in these markets."""
    cards: set[int] = set(range(4))
    any_random = False
    for m in markets:
        game = cached_game(GAME, players, options_key(m))
        if game.card_set is None:
            any_random = True
        else:
            cards.update(tv.card_of_name(name) for name in game.card_set)
    if any_random:
        cards = set(range(tv.NUM_CARDS))
    idx = [tv.card_param(tv.WEAR_CARD, tv.K_KEEP)]
    for card in sorted(cards - {tv.WEAR_CARD}):
        idx += [tv.card_param(card, k) for k in range(tv.NUM_CARD_PARAMS)]
    idx += [tv.SCALAR_BASE + i for i in range(len(tv.SCALARS))]
    if any(m.get("drivers") for m in markets):
        idx += [tv.driver_param(d, k) for d in range(1, 11) for k in range(2)]
    idx += [tv.CHOICE_BASE + i for i, card in enumerate(tv.CHOICE_CARD)
            if tv.CARDS.index(card) in cards]
    return np.array(sorted(set(idx)), dtype=np.int64)


def scales(entries: np.ndarray) -> np.ndarray:
    """One CMA unit of each searched entry."""
    out = np.ones(entries.shape[0])
    for j, i in enumerate(entries):
        if i < tv.SCALAR_BASE:
            out[j] = CARD_SCALE[int(i) % tv.NUM_CARD_PARAMS]
        elif i < tv.DRIVER_BASE:
            out[j] = SCALAR_SCALE.get(tv.SCALARS[i - tv.SCALAR_BASE], 1.0)
        elif i < tv.CHOICE_BASE:
            out[j] = DRIVER_SCALE[(i - tv.DRIVER_BASE) % 2]
        else:
            out[j] = CHOICE_SCALE.get(tv.CHOICES[i - tv.CHOICE_BASE], 1.0)
    return out


def _is_want(i: int) -> bool:
    return i < tv.SCALAR_BASE and i % tv.NUM_CARD_PARAMS == tv.K_WANT


def to_vector(x: np.ndarray, entries: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """The policy vector of search point ``x`` (0: the rule-based vector). A ``want``
    entry is unlimited (99) below 0.5 and a cap falling from 8 cubes above it; Pit Team's
    removal bound is off (-99) below 0.5 and a keep value rising from 0.5 above it."""
    v = tv.rule_based_vector()
    for j, i in enumerate(entries):
        if _is_want(int(i)):
            v[i] = 99.0 if x[j] < 0.5 else max(1.0, 8.0 - 4.0 * (x[j] - 0.5))
        elif i == PIT_TEAM_KEEP:
            v[i] = v[i] if x[j] < 0.5 else 0.5 + 2.0 * (x[j] - 0.5)
        else:
            v[i] = v[i] + scale[j] * x[j]
    return v


def to_point(values: np.ndarray, entries: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """The search point whose vector is closest to ``values`` on the searched entries
    (``to_vector``'s inverse there; a cap above 8 cubes becomes 8): where a search can
    start from another vector."""
    base = tv.rule_based_vector()
    x = np.zeros(entries.shape[0])
    for j, i in enumerate(entries):
        value = float(values[i])
        if _is_want(int(i)):
            x[j] = 0.0 if value >= 99.0 else 0.5 + (8.0 - min(8.0, value)) / 4.0
        elif i == PIT_TEAM_KEEP:
            x[j] = 0.0 if value <= base[i] else max(0.5, 0.5 + (value - 0.5) / 2.0)
        else:
            x[j] = (value - base[i]) / scale[j]
    return x


def start_vector(start: str, game: str = GAME) -> np.ndarray:
    """The vector a search of ``game`` starts from: ``rule_based``, ``generalist`` (the
    shipped ``tuned`` vector) or a vector file saved by this tool."""
    if start == "rule_based":
        return tv.layout(game).rule_based_vector()
    if start == "generalist":
        from transit_gym.agents.tuned import SHIPPED

        if game not in SHIPPED:
            raise ConfigError(f"no shipped tuned vector for game {game!r}")
        return tv.load(SHIPPED[game], game).values
    return tv.load(start, game).values   # ConfigError naming a missing or foreign file


@dataclass(frozen=True)
class Space:
    """The entries a search of ``game`` moves and one optimiser unit of each: a search
    point ``x`` is a vector (0: the rule-based one). Automobiles has its own steps
    (:func:`to_vector`); any other game moves every entry of its layout linearly, by the
    layout's ``scales()``."""

    game: str
    entries: np.ndarray
    scale: np.ndarray

    def to_vector(self, x: np.ndarray) -> np.ndarray:
        if self.game == GAME:
            return to_vector(x, self.entries, self.scale)
        v = tv.layout(self.game).rule_based_vector()
        v[self.entries] += self.scale * np.asarray(x, dtype=np.float64)
        return v

    def to_point(self, values: np.ndarray) -> np.ndarray:
        if self.game == GAME:
            return to_point(values, self.entries, self.scale)
        base = tv.layout(self.game).rule_based_vector()
        return (np.asarray(values, dtype=np.float64)[self.entries] - base[self.entries]) \
            / self.scale


def search_space(game: str, markets: list[dict[str, Any]], players: int) -> Space:
    """What a search of ``game`` over ``markets`` moves (Automobiles: what can matter in
    the markets; another game: its whole layout)."""
    if game == GAME:
        entries = searched_entries(markets, players)
        return Space(game, entries, scales(entries))
    lay = tv.layout(game)
    scale = np.asarray(lay.scales(), dtype=np.float64)
    if scale.shape != (lay.VECTOR_SIZE,) or not np.all(scale > 0):
        raise ConfigError(f"the {game} layout's scales() must give {lay.VECTOR_SIZE} "
                          f"positive steps")
    return Space(game, np.arange(lay.VECTOR_SIZE), scale)


# ----- games (in worker processes) -----------------------------------------------------------
def match_score(game, cand: np.ndarray, opponent: np.ndarray | None, games: int, seed: int,
                first: int) -> tuple[float, int]:
    """Win share of ``cand`` against ``opponent`` (None: the rule-based agent) over
    ``games`` deals, each played with the candidate in every seat in turn (the other
    seats held by the opponent). Returns (win shares summed, games played)."""
    from transit_gym.agents.tuned import tuned_module
    from transit_gym.envs.core.rollout import play_games

    tk = tuned_module(game.name)   # the race policy, or the season one for a season game

    vectors = [cand] if opponent is None else [cand, opponent]
    params = tk.params_with_vectors(game.param_table, vectors)
    codes = {"cand": tk.TUNED_CODE, "opp": 1 if opponent is None else tk.TUNED_CODE + 1}
    players = game.num_players
    deals = max(1, games // players)
    total = 0.0
    for seat in range(players):
        names = ["cand" if s == seat else "opp" for s in range(players)]
        out = play_games(game, tk.policy, names, deals, seed=seed, first_game=first,
                         params=params, codes=codes)
        total += float(seat_wins(out.rewards)[:, seat].sum())
    return total, deals * players


def _evaluate(task: tuple) -> tuple[Any, float, int]:
    """Worker task: (its key, win shares, games) over the markets and opponents."""
    index, cand, opponents, markets, players, games, seed, first, name = task
    wins, played = 0.0, 0
    per = max(1, games // (len(opponents) * len(markets)))
    for k, market in enumerate(markets):
        game = cached_game(name, players, options_key(market))
        for j, opp in enumerate(opponents):
            w, n = match_score(game, cand, opp, per, seed,
                               first + (k * len(opponents) + j) * per)
            wins += w
            played += n
    return index, wins, played


# ----- the search ----------------------------------------------------------------------------
def cma_search(x0: np.ndarray, settings: Settings, evaluate, label: str, show: bool,
               told=None, **options) -> tuple[Any, list[dict[str, Any]], str, float]:
    """The one CMA-ES loop of the tuner: from ``x0`` (step ``settings.sigma``, seeded by
    ``settings.seed + 1``), at most ``settings.generations`` generations within
    ``settings.budget`` seconds counted from the end of the first generation (which
    compiles the kernels on first use; a budget of 0 sets no limit, so the run is
    reproducible). ``evaluate(gen, xs)`` scores a generation's points:
    ``(scores, extra log fields, games)``; ``told(gen, es)`` runs after each update.
    Returns the strategy, the per-generation log, what stopped it and its seconds."""
    import cma

    opts = {"seed": settings.seed + 1, "verbose": -9, "maxiter": settings.generations,
            **options}
    if settings.popsize:
        opts["popsize"] = settings.popsize
    es = cma.CMAEvolutionStrategy(x0, settings.sigma, opts)
    log: list[dict[str, Any]] = []
    bar = Progress(settings.generations, label=label, unit="gen") if show else None
    started = time.perf_counter()
    clock = started   # the budget's clock starts after the first generation (it compiles)
    stopped_by = "generations"
    try:
        for gen in range(settings.generations):
            if settings.budget > 0 and time.perf_counter() - clock > settings.budget:
                stopped_by = "budget"
                break
            xs = es.ask()
            scores, extra, games = evaluate(gen, xs)
            if gen == 0:
                clock = time.perf_counter()
            es.tell(xs, list(-scores))
            if told is not None:
                told(gen, es)
            log.append({"generation": gen, "best": round(float(scores.max()), 4),
                        "mean": round(float(scores.mean()), 4), **extra, "games": games,
                        "seconds": round(time.perf_counter() - started, 1)})
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return es, log, stopped_by, time.perf_counter() - started


def tune(markets: list[dict[str, Any]], players: int, settings: Settings, workers: int = 2,
         show: bool = True, game: str = GAME) -> tuple[tv.TunedVector, list[dict[str, Any]]]:
    """Run CMA-ES for ``game`` in ``markets`` (each a dict of env options); the tuned
    vector and the per-generation log."""
    import cma

    space = search_space(game, markets, players)
    dim = space.entries.shape[0]
    fixed = [start_vector(settings.opponent, game)] if settings.opponent else []
    field: list[np.ndarray] = []   # the snapshots of the mean
    backend = make_backend(workers)

    def evaluate(gen: int, xs: list) -> tuple[np.ndarray, dict[str, Any], int]:
        # rule-based for half of the games, the field for the other half
        first = gen * 100_000
        tasks = []
        for i, x in enumerate(xs):
            cand = space.to_vector(np.asarray(x))
            if field or fixed:
                tasks.append((_evaluate, ((i, 0), cand, [None], markets, players,
                                          settings.games // 2, settings.seed, first, game)))
                tasks.append((_evaluate, ((i, 1), cand, fixed + field, markets, players,
                                          settings.games // 2, settings.seed,
                                          first + 50_000, game)))
            else:
                tasks.append((_evaluate, ((i, 0), cand, [None], markets, players,
                                          settings.games, settings.seed, first, game)))
        wins = np.zeros((len(xs), 2))     # against the rule-based agent, the field
        played = np.zeros((len(xs), 2))
        for (i, kind), w, n in backend.run(tasks):
            wins[i, kind] += w
            played[i, kind] += n
        vs_rule = wins[:, 0] / np.maximum(played[:, 0], 1)
        return (wins.sum(axis=1) / np.maximum(played.sum(axis=1), 1),
                {"mean_vs_rule_based": round(float(vs_rule.mean()), 4),
                 "best_vs_rule_based": round(float(vs_rule.max()), 4),
                 "field": len(fixed) + len(field)}, int(played.sum()))

    def told(gen: int, es) -> None:
        if (gen + 1) % settings.field_every == 0:
            field.append(space.to_vector(np.asarray(es.mean)))
            del field[:-settings.field]

    try:
        es, log, stopped_by, seconds = cma_search(
            space.to_point(start_vector(settings.start, game)), settings, evaluate,
            "tune ", show, told, CMA_diagonal=dim > 60)
    finally:
        backend.close()
    values = space.to_vector(np.asarray(es.mean))
    evaluation = evaluate_vs_rule_based(values, markets, players, settings.eval_games,
                                        settings.seed, workers, game)
    meta = {"optimiser": f"cma {cma.__version__} (CMA-ES)", "settings": asdict(settings),
            "searched_entries": int(dim), "generations_run": len(log),
            "stopped_by": stopped_by, "tuning_seconds": round(seconds, 1),
            "workers": workers, "eval_vs_rule_based": evaluation}
    market = {"game": game, "players": players,
              "markets": markets if len(markets) > 1 else markets[0]}
    return tv.TunedVector(values, market=market, meta=meta, game=game), log


def evaluate_vs_rule_based(values: np.ndarray, markets: list[dict[str, Any]], players: int,
                           games: int, seed: int, workers: int = 2,
                           game: str = GAME) -> dict[str, Any]:
    """Win share of ``values`` against the rule-based agent on fresh games (seats
    alternated, games spread over the markets), with a 95% Wilson interval."""
    chunks = max(1, min(2 * workers, games // max(1, players)))
    per = max(1, games // chunks)
    tasks = [(_evaluate, (c, values, [None], markets, players, per, seed,
                          EVAL_FIRST + c * 1_000_000, game)) for c in range(chunks)]
    wins, played = 0.0, 0
    backend = make_backend(workers)
    try:
        for _, w, n in backend.run(tasks):
            wins += w
            played += n
    finally:
        backend.close()
    low, high = wilson_interval(wins, played)
    return {"games": played, "score": round(wins / played, 4), "low": round(low, 4),
            "high": round(high, 4), "fair_share": round(1 / players, 4)}


# ----- the season campaign's sponsor entries -------------------------------------------------
SEASON_GAME = "automobiles_season"
#: one CMA unit of each sponsor entry (``tv.SPONSOR_PARAMS`` order)
SPONSOR_SCALE = np.array([1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 3.0, 1.0, 3.0, 2.0, 1.0])


def race_vector(spec: str) -> tuple[np.ndarray, str]:
    """The race entries of a season tuning: ``tuned`` (the shipped generalist),
    ``rule_based`` or a vector file. Returns (vector, a name for file names)."""
    if spec == "rule_based":
        return tv.rule_based_vector(), "rule-based"
    from transit_gym.agents import tuned

    path = tuned.SHIPPED[SEASON_GAME] if spec == "tuned" else Path(spec)
    return tv.load(path).values, slug(path.stem)


def season_market_name(options: dict[str, Any], players: int, races: str) -> str:
    """A file name for a season tuning: players, race entries and the season options."""
    extra = "".join(f"-{k}-{v}" for k, v in sorted(options.items()) if k not in DATA_OPTIONS)
    return slug(f"season-{players}p-races-{races}{extra}{data_tag(options)}")


def season_to_point(values: np.ndarray) -> np.ndarray:
    """The search point of ``values``' sponsor entries (``season_to_vector``'s inverse)."""
    return (np.asarray(values)[tv.SPONSOR_BASE:] - tv.rule_based_sponsor_entries()) \
        / SPONSOR_SCALE


def season_to_vector(x: np.ndarray, base: np.ndarray) -> np.ndarray:
    """``base`` with its sponsor block at the rule-based entries plus ``x`` scale units
    (``x = 0``: the rule-based sponsor decisions)."""
    v = np.array(base, dtype=np.float64)
    v[tv.SPONSOR_BASE:] = tv.rule_based_sponsor_entries() + SPONSOR_SCALE * np.asarray(x)
    return v


def _season_evaluate(task: tuple) -> tuple[Any, float, int]:
    """Worker task: (its key, win shares, seasons) of ``cand`` against ``opponent``."""
    index, cand, opponent, options, players, games, seed, first = task
    game = cached_game(SEASON_GAME, players, options_key(options))
    wins, played = match_score(game, cand, opponent, games, seed, first)
    return index, wins, played


def _season_scores(backend, vectors: list[np.ndarray], opponent: np.ndarray,
                   options: dict[str, Any], players: int, games: int, seed: int,
                   first: int, chunks: int) -> tuple[np.ndarray, np.ndarray]:
    """Win shares and seasons of each vector against ``opponent``, each vector's seasons
    split in ``chunks`` tasks (the same deals for every vector)."""
    per = max(1, games // chunks)
    tasks = [(_season_evaluate, ((i, c), v, opponent, options, players, per, seed,
                                 first + c * 100_000))
             for i, v in enumerate(vectors) for c in range(chunks)]
    wins = np.zeros(len(vectors))
    played = np.zeros(len(vectors))
    for (i, _), w, n in backend.run(tasks):
        wins[i] += w
        played[i] += n
    return wins, played


def tune_season(base: np.ndarray, races: str, options: dict[str, Any], players: int,
                settings: Settings, workers: int = 2, show: bool = True
                ) -> tuple[tv.TunedVector, list[dict[str, Any]]]:
    """CMA-ES over the sponsor entries, race entries fixed at ``base``, by seasons against
    ``base`` with the rule-based sponsor entries; the tuned vector and the log."""
    import cma

    opponent = season_to_vector(np.zeros(tv.NUM_SPONSOR_PARAMS), base)
    backend = make_backend(workers)

    def evaluate(gen: int, xs: list) -> tuple[np.ndarray, dict[str, Any], int]:
        cands = [season_to_vector(x, base) for x in xs]
        wins, played = _season_scores(backend, cands, opponent, options, players,
                                      settings.games, settings.seed, gen * 1_000_000,
                                      chunks=1)
        return wins / np.maximum(played, 1), {}, int(played.sum())

    try:
        es, log, stopped_by, seconds = cma_search(
            season_to_point(start_vector(settings.start)), settings, evaluate,
            "tune season ", show)
        values = season_to_vector(np.asarray(es.mean), base)
        chunks = max(1, min(2 * workers, settings.eval_games // max(1, players)))
        wins, played = _season_scores(backend, [values], opponent, options, players,
                                      settings.eval_games, settings.seed, EVAL_FIRST, chunks)
    finally:
        backend.close()
    low, high = wilson_interval(float(wins[0]), int(played[0]))
    evaluation = {"games": int(played[0]), "score": round(float(wins[0] / played[0]), 4),
                  "low": round(low, 4), "high": round(high, 4),
                  "fair_share": round(1 / players, 4),
                  "opponent": f"race entries {races}, rule-based sponsor entries"}
    meta = {"optimiser": f"cma {cma.__version__} (CMA-ES)", "settings": asdict(settings),
            "searched_entries": tv.NUM_SPONSOR_PARAMS, "generations_run": len(log),
            "stopped_by": stopped_by, "tuning_seconds": round(seconds, 1), "workers": workers,
            "eval_vs_rule_based_sponsors": evaluation}
    market = {"game": SEASON_GAME, "players": players, "options": options,
              "race_vector": races}
    return tv.TunedVector(values, market=market, meta=meta), log


# ----- the cache and the CLI -----------------------------------------------------------------
def check_settings(out: Path, settings: Settings) -> list[str]:
    """The differences between ``settings`` and those a folder was made with (the one
    comparison of ``training.runs.folder``; settings newer than the folder: defaults)."""
    path = out / SETTINGS_FILE
    if not path.is_file():
        return []
    found = differences(read_settings(path), asdict(settings), ignore=(),
                        defaults=asdict(Settings()))
    return [f"{k}: {old!r} in the folder, {new!r} now" for k, old, new in found]


def _refuse(parser: argparse.ArgumentParser, out: Path, settings: Settings) -> None:
    """Exit 2 naming the differences when ``out`` holds vectors tuned with other settings."""
    found = check_settings(out, settings)
    if found:
        parser.exit(2, f"tune: {out} holds vectors tuned with other settings; use "
                       f"another --out or the same settings. Differences: "
                       f"{'; '.join(found)}\n")


def _keep(out: Path, settings: Settings) -> None:
    """Store ``settings`` in ``out`` before its first vector."""
    out.mkdir(parents=True, exist_ok=True)
    (out / SETTINGS_FILE).write_text(json.dumps(asdict(settings), indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example='transit-gym tune --card-set "Rinse & Repeat" --generations 2 '
                                '--games 20 --eval-games 100 --out reports/tune')
    parser.add_argument("--game", default=GAME,
                        help="the game whose vector is tuned: automobiles (default) or "
                             "another game with a tuned layout (agents/tuned/<game>_layout.py)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="an env option of every game played (VALUE read as JSON, "
                             "else text); repeatable")
    parser.add_argument("--vary", action="append", default=[], metavar="KEY=JSON_LIST",
                        help="one market per value of an env option, games spread over "
                             "them, e.g. airport='[\"flying_cloud\", \"zephyr\"]'")
    parser.add_argument("--card-set", default=None, help="a suggested set's name")
    parser.add_argument("--cards", default=None,
                        help="five card names, comma-separated (one per colour)")
    parser.add_argument("--track", default=None,
                        help=f"one of {', '.join(TRACKS)} (default daytona)")
    parser.add_argument("--players", type=int, default=None,
                        help="default 2 (3 in Automobile, its least)")
    parser.add_argument("--drivers", default=None, help="off (default), on or all")
    parser.add_argument("--laps", type=int, default=None)
    parser.add_argument("--generalist", action="store_true",
                        help="random markets of all 35 cards, five boards, drivers off/on")
    parser.add_argument("--season", action="store_true",
                        help="tune the Racing Season sponsor entries (automobiles_season "
                             "defaults, --laps and --card-set passed on), race entries fixed")
    parser.add_argument("--race-vector", default=None,
                        help="--season: race entries from tuned (the shipped generalist, "
                             "default), rule_based or a vector file")
    defaults = Settings()
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--generations", type=int, default=defaults.generations)
    parser.add_argument("--popsize", type=int, default=defaults.popsize)
    parser.add_argument("--games", type=int, default=defaults.games,
                        help="games per candidate and generation")
    parser.add_argument("--field", type=int, default=defaults.field)
    parser.add_argument("--field-every", type=int, default=defaults.field_every)
    parser.add_argument("--sigma", type=float, default=defaults.sigma)
    parser.add_argument("--eval-games", type=int, default=defaults.eval_games)
    parser.add_argument("--budget", type=float, default=defaults.budget,
                        help="wall seconds of tuning at most, after the first generation "
                             "(which compiles the kernels; default 300); 0: no limit, the "
                             "run stops on --generations and is reproducible")
    parser.add_argument("--start", default=defaults.start,
                        help="the search's start: rule_based (default), generalist (the "
                             "shipped tuned vector) or a vector FILE")
    parser.add_argument("--opponent", default=defaults.opponent,
                        help="a vector always in the field besides the snapshots: "
                             "generalist (the shipped tuned vector) or a vector FILE "
                             "(default: none)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("reports") / "tune")
    parser.add_argument("--quiet", action="store_true")
    add_data_arguments(parser)
    args = parser.parse_args(argv)
    try:
        settings = Settings(args.seed, args.generations, args.popsize, args.games, args.field,
                            args.field_every, args.sigma, args.eval_games, args.budget,
                            args.start, args.opponent)
        for name in ("generations", "games", "field", "field_every", "eval_games"):
            if getattr(settings, name) < 1:
                raise ConfigError(f"--{name.replace('_', '-')} must be positive, "
                                  f"got {getattr(settings, name)}")
        if settings.seed < 0 or settings.popsize < 0 or settings.budget < 0 \
                or settings.sigma <= 0:
            raise ConfigError("--seed, --popsize and --budget must be non-negative, "
                              "--sigma positive")
        if args.workers < 1:
            raise ConfigError(f"--workers must be positive, got {args.workers}")
        if args.players is None:
            args.players = max(2, game_class(args.game).min_players)
        extra = parse_options(args.option)
        vary = parse_vary(args.vary)
        if args.game != GAME:
            markets, name = _game_setup(args, extra, vary)
            data: dict[str, str] = {}
        else:
            data = data_options(args, game_class(SEASON_GAME if args.season else GAME))
            if args.season:
                season = _season_setup(args, data)
            elif args.race_vector is not None:
                raise ConfigError("--race-vector goes with --season")
            elif args.generalist:
                markets = generalist_markets()
            else:
                cards = [c.strip() for c in args.cards.split(",")] if args.cards else None
                markets = [market_options(args.card_set, cards, args.track or "daytona",
                                          args.drivers or "off", args.laps)]
            if (extra or vary) and (args.season or args.generalist):
                raise ConfigError("--option and --vary go with one market, not --season or "
                                  "--generalist")
            if not args.season:
                name = market_name(markets, args.players) + options_tag(extra, vary)
                markets = [{**m, **data} for m in vary_markets([{**m, **extra} for m in markets],
                                                              vary)]
                for m in markets:
                    cached_game(GAME, args.players, options_key(m))   # options valid?
        start_vector(settings.start, args.game)   # a readable start?
        if settings.opponent:
            if args.season:
                raise ConfigError("--opponent goes with a field, not --season")
            start_vector(settings.opponent, args.game)   # a readable opponent?
    except ValueError as exc:   # ConfigError: bad arguments
        parser.error(str(exc))
    if args.season:
        return _main_season(parser, args, settings, *season)
    return _tune_cached(parser, args, settings, name + data_tag(data),
                        f"{len(markets)} market(s)", RACE_REPORT,
                        lambda: tune(markets, args.players, settings, args.workers,
                                     show=not args.quiet, game=args.game), game=args.game)


#: the flags that choose an Automobiles market or season (refused with another --game)
AUTOMOBILES_FLAGS = ("card_set", "cards", "track", "drivers", "laps", "race_vector",
                     *DATA_OPTIONS)


def parse_vary(items: list[str]) -> dict[str, list[Any]]:
    """``--vary KEY=JSON_LIST`` pairs: each option's values (a list of two or more)."""
    vary: dict[str, list[Any]] = {}
    for key, values in parse_options(items).items():
        if not isinstance(values, list) or len(values) < 2:
            raise ConfigError(f"--vary {key}= needs a JSON list of two or more values, "
                              f"got {values!r}")
        vary[key] = values
    return vary


def vary_markets(markets: list[dict[str, Any]], vary: dict[str, list[Any]]
                 ) -> list[dict[str, Any]]:
    """Every market with every combination of the ``vary`` values."""
    for key, values in vary.items():
        markets = [{**m, key: v} for m in markets for v in values]
    return markets


def options_tag(options: dict[str, Any], vary: dict[str, list[Any]]) -> str:
    """A file-name suffix naming the extra options and the varied ones."""
    parts = [f"{k}-{v}" for k, v in sorted(options.items())]
    parts += [f"{k}-{'+'.join(map(str, v))}" for k, v in sorted(vary.items())]
    return "-" + slug("-".join(parts)) if parts else ""


def _game_setup(args: argparse.Namespace, extra: dict[str, Any], vary: dict[str, list[Any]]
                ) -> tuple[list[dict[str, Any]], str]:
    """The markets and the file name of ``--game G`` (not Automobiles: G's whole layout is
    tuned over the markets of ``--option`` and ``--vary``), checked."""
    given = [f"--{f.replace('_', '-')}" for f in AUTOMOBILES_FLAGS
             if getattr(args, f, None) is not None]
    given += [f"--{f}" for f in ("generalist", "season") if getattr(args, f)]
    if given:
        raise ConfigError(f"{', '.join(given)} choose an Automobiles market; "
                          f"--game {args.game} takes --option and --vary")
    markets = vary_markets([dict(extra)], vary)
    for m in markets:
        cached_game(args.game, args.players, options_key(m))   # options valid?
    return markets, slug(f"{args.game}-{args.players}p") + options_tag(extra, vary)


def _season_setup(args: argparse.Namespace, data: dict[str, str]
                  ) -> tuple[dict[str, Any], np.ndarray, str]:
    """The season options (``data``: the data files), the race entries and their name of
    ``--season`` (checked)."""
    if args.generalist or args.cards:
        raise ConfigError("--season takes --players, --laps, --card-set and --race-vector; "
                          "not --generalist or --cards")
    options: dict[str, Any] = dict(data)
    if args.laps is not None:
        options["laps"] = args.laps
    if args.card_set is not None:
        options["card_set"] = args.card_set
    cached_game(SEASON_GAME, args.players, options_key(options))   # options valid?
    base, races = race_vector(args.race_vector or "tuned")
    return options, base, races


def _main_season(parser: argparse.ArgumentParser, args: argparse.Namespace,
                 settings: Settings, options: dict[str, Any], base: np.ndarray,
                 races: str) -> int:
    """``--season``: tune (or load from the cache) the sponsor entries."""
    name = season_market_name(options, args.players, races)
    return _tune_cached(parser, args, settings, name, "sponsor entries", SEASON_REPORT,
                        lambda: tune_season(base, races, options, args.players, settings,
                                            args.workers, show=not args.quiet))


@dataclass(frozen=True)
class Report:
    """How a tuned vector's evaluation is printed: its ``meta`` key, the rival named when
    it is loaded from the cache and when it is fresh, the unit of its games."""

    key: str
    cached_rival: str
    rival: str
    unit: str


RACE_REPORT = Report("eval_vs_rule_based", "rule_based", "rule_based", "games")
SEASON_REPORT = Report("eval_vs_rule_based_sponsors", "rule-based sponsors",
                       "rule-based sponsor choices", "seasons")


def _tune_cached(parser: argparse.ArgumentParser, args: argparse.Namespace,
                 settings: Settings, name: str, what: str, report: Report,
                 run: Callable[[], tuple[tv.TunedVector, Any]], game: str = GAME) -> int:
    """Vector ``name`` of ``--out``: loaded when tuned before, else tuned by ``run`` (``what``:
    the entries or markets tuned, for the progress line) and saved with its log; either way
    its evaluation printed."""
    _refuse(parser, args.out, settings)
    path = args.out / f"{name}.json"
    if path.is_file():
        cached = tv.load(path, game)
        print(f"cached: {path} (vs {report.cached_rival}: {cached.meta.get(report.key)})")
        return 0
    _keep(args.out, settings)
    if not args.quiet:
        print(f"tuning {name}: {what}, {args.players} players, "
              f"{settings.generations} generations of CMA-ES, {args.workers} workers "
              f"(compiling the kernels first if needed)", file=sys.stderr)
    vector, log = run()
    vector.save(path)
    (args.out / f"{name}.log.json").write_text(json.dumps(log, indent=0) + "\n")
    ev = vector.meta[report.key]
    print(f"{path}: {ev['score']:.1%} vs {report.rival} over {ev['games']} {report.unit} "
          f"[{ev['low']:.1%}, {ev['high']:.1%}], tuned in {vector.meta['tuning_seconds']} s "
          f"({vector.meta['generations_run']} generations, stopped by "
          f"{vector.meta['stopped_by']})")
    return 0
