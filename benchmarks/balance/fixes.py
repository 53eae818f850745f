"""Propose the smallest data change that brings a flagged item into its fair band.

    transit-gym balance fix --kind card --item "Crate Motor" --players 2 --games 1000 \\
        --seed 0 --workers 2 --out reports/fixes/crate-motor

The numbers a designer may change (``fixes_data``: a card's cost, value and effect
numbers, each within a documented step of today's value; ``--wide`` adds its every number,
the supply of its cubes and the other cards of its markets; a driver's numbers over the
loader's range and the other drivers'; a board's grid allowances; a sponsor's lists of
three) make candidates, fewest numbers first, then the smallest steps. Each market is
played by its shipped tuned vector (``tuned:markets``). A driver or sponsor is judged where
restricted play flagged it (the designer report's ``balance power`` run: its random markets,
every driver on offer, or its seasons; the shipped generalist ``tuned``, whose driver and
sponsor entries are tuned); the flag carries that setting, else it is drawn as that run
draws it from the seed. The search:

1. screens every one-number candidate with today's vectors on ``--screen-games`` games a
   market, then the combinations (up to ``--numbers`` changes) of the ``PAIR_POOL``
   closest one-number changes; a candidate whose screened figures equal today's data's
   (the same games: it changes nothing the agents play today) is named in the report
   (``no_op``) and keeps its place (re-tuned agents may play it differently);
2. re-tunes the market vectors to the changed data for ``--retune`` candidates (the
   closest of each count of numbers, then the closest others)
   (``fixes_measure``: warm start from today's vector, a short CMA-ES run, cached on disk
   by the hash of the data files' contents) and measures them again;
3. picks the smallest candidate whose re-tuned figures reach the band (``fixes_band``),
   else the closest one, and verifies it on fresh seeds (``--seed + 1``) with ``--games``
   games a market: before and after, with and without re-tuning, and the five checks on
   every market that holds a changed card.

Every measured candidate is cached in ``--out`` (a stopped run resumes); the result is
``fix.json``, ``fix.md`` and the patch file the env takes (``card_data=FILE``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from transit_gym.benchmarks.balance import fixes_band as band
from transit_gym.benchmarks.balance import fixes_data as fd
from transit_gym.benchmarks.balance import fixes_measure as fm
from transit_gym.benchmarks.balance import fixes_report
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.runs.backends import check_backend, check_out, make_backend
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.folder import check_settings
from transit_gym.training.runs.options import add_run_arguments, check_counts
from transit_gym.training.runs.progress import Progress
from transit_gym.training.tool_parser import ToolParser
from transit_gym.training.tune import slug

KINDS = ("card", "market", "driver", "sponsor", "board")
#: kinds this search can change
SEARCHED = KINDS
#: options of the markets a driver is judged in (every driver on offer, as in card_power)
DRIVER_OPTIONS = {"drivers": "all"}
#: the restricted-play run a driver is judged in when its flag carries no setting: the
#: designer report's defaults (``balance power``: random markets a driver, the generalist)
POWER_MARKETS = 4
POWER_AGENT = "tuned"
POWER_GAMES = 200
#: the one-number changes whose pairs are tried
PAIR_POOL = 8
#: the candidates verified at most, smallest first, until one is verified in the band
VERIFY_TRIES = 3


@dataclass
class Search:
    """One item's search: what is judged, where it is cached, how it is played."""

    kind: str
    item: str
    setup: dict[str, Any]
    out: Path
    backend: Any
    today: dict[str, Path]
    markets: list[str]
    screen_games: int = 200
    retune: int = 4
    numbers: int = 2
    #: markets judged that are not named sets (a driver's random markets): name -> cards
    extra_sets: dict[str, list[str]] = field(default_factory=dict)
    #: the power flag's own figure and interval (the report's), to check it is reproduced
    flagged: dict[str, Any] | None = None

    @property
    def players(self) -> int:
        return int(self.setup["players"])

    @property
    def card(self) -> str | None:
        """The item whose power is measured (a card or driver; a market: none)."""
        return None if self.kind == "market" else self.item

    def cards(self, name: str) -> list[str]:
        """The five cards of market ``name`` (a named set or one of ``extra_sets``)."""
        return self.extra_sets[name] if name in self.extra_sets else self.setup["sets"][name]

    def options(self) -> dict[str, Any]:
        """The env options every market is played with (a sponsor: the season's)."""
        if self.kind == "sponsor":
            return dict(self.setup.get("season_options", {}))
        extra = {"driver": DRIVER_OPTIONS, "board": {"track": self.item}}.get(self.kind, {})
        return {**self.setup.get("options", {}), **extra}

    def market(self, name: str, data: dict[str, str]) -> dict[str, Any]:
        """The env options of market ``name`` with the patch files ``data`` (a sponsor's
        season: no card set, the season plays its own)."""
        if self.kind == "sponsor":
            return {**self.options(), **data}
        return fm.market_options(self.options(), self.cards(name), data)

    def data(self, candidate: fd.Candidate) -> dict[str, str]:
        """The env options of ``candidate``'s patch files (one folder per candidate, so a
        path always holds the same data)."""
        if not candidate:
            return {}
        return fd.write_patch(list(candidate),
                              self.out / "patches" / fd.candidate_key(candidate))

    def vectors(self, names: list[str], candidate: fd.Candidate,
                retuned: bool) -> dict[str, tuple[dict[str, Any], Path]]:
        """(options, vector) of markets ``names`` under ``candidate``; re-tuned vectors
        when ``retuned`` and the data changed."""
        data = self.data(candidate)
        out = {}
        for name in names:
            options = self.market(name, data)
            vector = self.today[name]
            if retuned and candidate and self.kind != "sponsor":   # the tuner tunes races
                vector = fm.retuned_vector(options, self.players, vector, self.out / "tuned",
                                           int(self.setup.get("workers", 2)),
                                           replace(fm.RETUNE, **self.setup.get("tune", {})))
            out[name] = (options, vector)
        return out

    def figures(self, candidate: fd.Candidate, retuned: bool, games: int, seed: int,
                names: list[str] | None = None, card: str | None = "") -> dict[str, Any]:
        """Figures of ``candidate`` in markets ``names`` (default: the item's), with the
        power of ``card`` ("": the item's card; None: none), cached in ``out/candidates``
        under the candidate, the games, the seed, the markets, the options, the contents
        of today's vectors and the re-tuning's settings."""
        names = names or self.markets
        card = self.card if card == "" else card
        starts = [hashlib.sha256(Path(self.today[n]).read_bytes()).hexdigest() for n in names]
        tuning = self.setup.get("tune", {}) if retuned else {}
        record = [names, card, starts, self.options(), tuning]
        if any(n in self.extra_sets for n in names):   # a random market: its cards too
            record.append([self.cards(n) for n in names])
        which = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()[:12]
        key = (f"{fd.candidate_key(candidate)}-{'retuned' if retuned else 'today'}-g{games}"
               f"-s{seed}-{which}")
        path = self.out / "candidates" / f"{key}.json"
        if path.is_file():
            return json.loads(path.read_text())
        figures = fm.measure(self.backend, card, self.vectors(names, candidate, retuned),
                             self.players, games, seed)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=1))
        return figures

    def lengths(self, games: int, seed: int) -> dict[str, float]:
        """Race length of every market judged (the named sets and ``extra_sets``), today's
        data and vectors (a sponsor's seasons: none)."""
        if self.kind == "sponsor":
            return {}
        figures = self.figures((), False, games, seed,
                               names=[*sorted(self.setup["sets"]), *self.extra_sets],
                               card=None)
        return {n: m["rounds"] for n, m in figures["markets"].items()}


# ----- the search --------------------------------------------------------------------------
def fields(kind: str, item: str, sets: dict[str, list[str]], players: int = 2,
           markets: list[str] | None = None) -> list[tuple[str, str, str, Any]]:
    """The numbers a fix of ``item`` may change: a card's (``card+``, the wide search: all
    its numbers, the supply of its cubes and the other cards of its ``markets``), a
    market's five cards', a driver's and the other drivers', a board's grid allowances of
    the ``players`` seats, a sponsor's lists of three."""
    markets = markets or []
    if kind == "card":
        return fd.card_fields(item)
    if kind == "card+":   # the card's every number, its cubes' supply, its markets' cards
        return [*fd.card_fields(item, every=True), fd.supply_field(item),
                *(f for card in sorted({c for n in markets for c in sets[n]} - {item})
                  for f in fd.card_fields(card))]
    if kind == "market":
        if item not in sets:
            raise ConfigError(f"market {item!r} is not among the markets judged: {sorted(sets)}")
        return [f for card in sets[item] for f in fd.card_fields(card)]
    if kind == "driver":
        return fd.driver_fields(item) + fd.rival_fields(item)
    if kind == "board":
        return fd.board_fields(item, players)
    if kind == "sponsor":
        return fd.sponsor_fields(item)
    raise ConfigError(f"fix kind must be one of {list(SEARCHED)}, got {kind!r}")


def wide(kind: str, item: str) -> set[tuple[str, str]]:
    """The entries whose numbers take every value the loader accepts (a driver's own)."""
    return {(fd.DRIVER_FILE, fd.driver_entry(item))} if kind == "driver" else set()


def point(search: Search, candidate: fd.Candidate, figures: dict[str, Any],
          lengths: dict[str, float]) -> dict[str, Any]:
    """A measured candidate: its changes, size, distance and headline figure."""
    measured = band.distance(search.kind, search.item, figures, lengths, search.players,
                             search.extra_sets)
    return {"changes": list(candidate), "numbers": len(candidate), "size": fd.size(candidate),
            "text": fd.describe(candidate), **headline(search, figures), **measured}


def headline(search: Search, figures: dict[str, Any]) -> dict[str, Any]:
    """The item's figure and interval: a card's power, a market's balance, a board's
    lowest balance over its markets."""
    if search.kind in ("market", "board"):
        name = search.item if search.kind == "market" else \
            min(figures["markets"], key=lambda n: figures["markets"][n]["balance"])
        m = figures["markets"][name]
        return {"figure": m["balance"], "interval": m["balance_interval"],
                "rounds": {n: x["rounds"] for n, x in figures["markets"].items()
                           if search.kind == "board" or n == name}}
    return {"figure": figures["power"]["rate"], "interval": figures["power"]["interval"],
            "rounds": {n: m["rounds"] for n, m in figures["markets"].items() if "rounds" in m}}


def search_item(search: Search, progress: bool = True) -> dict[str, Any]:
    """Screen, re-tune and choose; the chosen candidate and both fronts."""
    seed, games = int(search.setup["seed"]), search.screen_games
    lengths = search.lengths(games, seed)
    kind = "card+" if search.kind == "card" and search.setup.get("wide") else search.kind
    singles = fd.single_changes(fields(kind, search.item, search.setup["sets"],
                                       search.players, search.markets),
                                wide(search.kind, search.item))
    pool_size = min(PAIR_POOL, len(singles))
    combos = [fd.combine(singles[:pool_size], k) for k in range(2, search.numbers + 1)]
    bar = Progress(1 + len(singles) + sum(map(len, combos)) + search.retune,
                   label=f"fix {search.item} ", unit="cand") if progress else None

    today = search.figures((), False, games, seed)
    no_op: list[str] = []   # the candidates that play as today's data

    def screen(candidates: list[fd.Candidate]) -> list[dict[str, Any]]:
        out = []
        for candidate in candidates:
            figures = search.figures(candidate, False, games, seed)
            out.append(point(search, candidate, figures, lengths))
            if candidate and same_games(figures, today):
                no_op.append(out[-1]["text"])
            if bar is not None:
                bar.update(1)
        return out

    try:
        baseline = screen([()])[0]
        screened = screen([(c,) for c in singles])
        pool = [p["changes"][0] for p in sorted(screened, key=_rank)[:PAIR_POOL]]
        for k in range(2, search.numbers + 1):
            screened += screen(fd.combine(pool, k))
        retuned = []
        for p in to_retune(screened, search.retune):
            candidate = tuple(p["changes"])
            again = point(search, candidate, search.figures(candidate, True, games, seed),
                          lengths)
            retuned.append({**again, "without_retune": _brief(p)})
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    retuned.sort(key=lambda p: fd.order_key(tuple(p["changes"])))   # the front's ties
    reached = sorted((p for p in [baseline, *retuned] if p["distance"] == 0),
                     key=lambda p: fd.order_key(tuple(p["changes"])))
    # none in the band: the closest, today's data when no candidate comes closer
    chosen = reached[0] if reached else min([baseline, *retuned], key=_rank)
    return {"baseline": baseline, "screened": screened, "retuned": retuned,
            "chosen": chosen, "reached": reached, "no_op": no_op,
            "front": band.pareto_front([{**baseline, "without_retune": _brief(baseline)},
                                        *retuned]),
            "front_without_retune": band.pareto_front([baseline, *screened])}


def same_games(figures: dict[str, Any], today: dict[str, Any]) -> bool:
    """Whether a candidate's screened figures equal today's data's on the same games and
    seeds, to the last digit (race lengths, seat win rates, the item's power and the cubes
    bought): the change alters no game today's vectors play (a rival driver nobody takes,
    a card nobody buys, a number the card's effect does not read). Such a candidate keeps
    its place in the search: agents re-tuned to the changed data may play it."""
    return json.dumps(figures, sort_keys=True) == json.dumps(today, sort_keys=True)


def to_retune(screened: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """The candidates measured again with re-tuned vectors: the closest of each count of
    numbers (so the front covers every count), then the closest others, ``count`` in all
    (at least one a count)."""
    ranked = sorted(screened, key=_rank)
    chosen = []
    for numbers in sorted({p["numbers"] for p in ranked}):
        chosen.append(next(p for p in ranked if p["numbers"] == numbers))
    chosen += [p for p in ranked if p not in chosen][:max(0, count - len(chosen))]
    return chosen


def _rank(p: dict[str, Any]) -> tuple:
    return (p["distance"], fd.order_key(tuple(p["changes"])))


def _brief(p: dict[str, Any]) -> dict[str, Any]:
    return {k: p[k] for k in ("figure", "interval", "distance", "rounds")}


# ----- verification ------------------------------------------------------------------------
def checks(search: Search, figures: dict[str, Any], name: str, lengths: dict[str, float],
           card: str) -> dict[str, bool]:
    """The five checks of one market: balance, every seat fair, race length, the changed
    card's power in the band and the card still bought."""
    m = figures["markets"][name]
    fair = 1.0 / search.players
    _, held = band.reference_lengths(lengths, figures["markets"], search.extra_sets)
    power = m.get("power", figures.get("power"))
    return {"balance": m["balance"] >= band.MIN_BALANCE,
            "seats fair": all(lo <= fair <= hi for lo, hi in m["seat_win_interval"]),
            "race length": band.length_distance(m["rounds"], held[name]) == 0,
            "card power": band.power_in_band(power["interval"], fair),
            "card bought": power["bought"] is None or power["bought"] >= band.MIN_BOUGHT}


def verify(search: Search, candidate: fd.Candidate) -> dict[str, Any]:
    """Fresh seeds, ``setup["games"]`` games a market: the item before and after (with and
    without re-tuning), and the five checks on every market holding a changed card."""
    games, seed = int(search.setup["games"]), int(search.setup["seed"]) + 1
    lengths = search.lengths(games, seed)
    before = search.figures((), False, games, seed)
    after = search.figures(candidate, True, games, seed)
    without = search.figures(candidate, False, games, seed)
    verified = {**_verified(search, after, lengths), "games": games, "seed": seed,
                "before": _verified(search, before, lengths),
                "without_retune": _verified(search, without, lengths), "other_markets": []}
    for card in sorted({fd.item_name(c) for c in candidate}):
        for name in holders(search, card):
            was = search.figures((), False, games, seed, [name], card)
            now = search.figures(candidate, True, games, seed, [name], card)
            verified["other_markets"].append({
                "market": name, "card": card,
                "before": {**checks(search, was, name, lengths, card),
                           **_market_figures(was["markets"][name])},
                "after": {**checks(search, now, name, lengths, card),
                          **_market_figures(now["markets"][name])}})
    return verified


def holders(search: Search, item: str) -> list[str]:
    """The markets judged that use ``item``: the sets holding a card; for a driver or a
    board, the markets it was judged in (every driver is on offer there); a sponsor's
    seasons have no market checks (its power is the item's own figure)."""
    if search.kind == "sponsor":
        return []
    if item.startswith("Driver ") or search.kind == "board":
        return list(search.markets)
    if item == fd.SUPPLY:   # every market buys cubes from the supply
        return sorted(search.setup["sets"])
    return sorted(n for n, cards in search.setup["sets"].items() if item in cards)


def _verified(search: Search, figures: dict[str, Any], lengths: dict[str, float]
              ) -> dict[str, Any]:
    measured = band.distance(search.kind, search.item, figures, lengths, search.players,
                             search.extra_sets)
    return {**headline(search, figures), "distance": measured["distance"],
            "median": measured["median"],
            "in_band": band.in_band(search.kind, search.item, figures, lengths,
                                    search.players, search.extra_sets)}


def _market_figures(m: dict[str, Any]) -> dict[str, Any]:
    power = m.get("power", {})
    return {"rounds": m["rounds"], "balance_value": m["balance"],
            "power_rate": power.get("rate"), "power_interval": power.get("interval"),
            "bought_per_game": power.get("bought")}


# ----- the public entry ----------------------------------------------------------------------
def item_markets(flag: dict[str, Any], sets: dict[str, list[str]]) -> list[str]:
    """The named markets a flag's item is judged in: the flag's, else every set holding
    the card (a market: itself; a board: every set; a driver or sponsor: none, see
    :func:`power_markets`)."""
    if flag["kind"] == "sponsor" and flag.get("markets"):
        raise ConfigError(f"sponsor {flag['item']!r} is judged in the season campaign; "
                          f"named race markets ({flag['markets']}) do not apply")
    if flag.get("markets"):
        unknown = [m for m in flag["markets"] if m not in sets]
        if unknown:
            raise ConfigError(f"flag {flag['item']!r}: markets {unknown} are not among the "
                              f"markets judged: {sorted(sets)}")
        return list(flag["markets"])
    if flag["kind"] == "market":
        return [flag["item"]]
    if flag["kind"] in ("driver", "sponsor"):
        return []
    if flag["kind"] == "board":
        return sorted(sets)
    found = sorted(n for n, cards in sets.items() if flag["item"] in cards)
    if not found:
        raise ConfigError(f"card {flag['item']!r} is in none of the markets judged")
    return found


def power_setting(flag: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
    """Where restricted play measured a driver or sponsor: the flag's ``setting`` (the
    report's run), else the markets ``card_power`` draws for it from ``setup``'s seed
    (``setup["markets"]`` of them, ``POWER_MARKETS`` by default; a sponsor's: seasons) and
    agent (``power_agent``, the generalist)."""
    if flag.get("setting", {}).get("markets"):
        return flag["setting"]
    from transit_gym.benchmarks.balance import card_power

    count = setup.get("markets", POWER_MARKETS)
    count = count if isinstance(count, int) else POWER_MARKETS
    agent = setup.get("power_agent", POWER_AGENT)
    if flag["kind"] == "sponsor":
        return {"agent": agent, "seed": int(setup["seed"]), "games": POWER_GAMES,
                "markets": [None] * count}
    settings = card_power.Settings(("drivers",), int(setup["players"]), POWER_GAMES, agent,
                                   int(setup["seed"]), count, "all")
    plan = card_power.make_plan(settings)   # every driver: its markets' draw depends on it
    if ("drivers", flag["item"]) not in plan.markets:
        raise ConfigError(f"no driver {flag['item']!r}; drivers: {plan.items['drivers']}")
    return {"agent": agent, "seed": settings.seed, "games": settings.games,
            "markets": [m["card_set"] for m in plan.markets[("drivers", flag["item"])]]}


def power_markets(flag: dict[str, Any], setup: dict[str, Any]
                  ) -> tuple[dict[str, list[str]], Path]:
    """The markets (``"<item> market <k>"`` -> cards; a sponsor's ``"<item> season <k>"``
    -> no cards) and the vector of the restricted-play run that flagged a driver or sponsor
    (:func:`power_setting`)."""
    setting = power_setting(flag, setup)
    agent = setting.get("agent", POWER_AGENT)
    if agent == "tuned":
        vector = fm.generalist_vector()
    elif agent.startswith("tuned:"):
        vector = Path(agent.split(":", 1)[1])
    else:
        raise ConfigError(f"flag {flag['item']!r} was measured by {agent!r}; a fix search "
                          f"re-tunes a tuned vector (tuned or tuned:FILE)")
    if flag["kind"] == "sponsor":
        return {f"{flag['item']} season {k}": []
                for k in range(1, len(setting["markets"]) + 1)}, vector
    markets = {f"{flag['item']} market {k}": list(cards)
               for k, cards in enumerate(setting["markets"], 1) if cards}
    if not markets:
        raise ConfigError(f"flag {flag['item']!r}: its setting names no market")
    return markets, vector


def propose_fixes(flags: list[dict[str, Any]], setup: dict[str, Any],
                  out_dir: str | Path, per_item: bool = True) -> list[dict[str, Any]]:
    """A fix dict per flag (see the module's docstring): the chosen change, its
    verification and the Pareto front; files in ``out_dir/<item>/`` (``per_item=False``:
    in ``out_dir`` itself, for one flag)."""
    if not per_item and len(flags) != 1:
        raise ConfigError(f"one folder holds one item's fix; got {len(flags)} flags")
    out_dir = Path(out_dir)
    backend = make_backend(int(setup.get("workers", 2)), setup.get("ray", False))
    fixes = []
    try:
        today = fm.today_vectors(int(setup["players"]), setup["sets"], setup.get("options", {}))
        for flag in flags:
            if flag["kind"] not in KINDS:
                raise ConfigError(f"flag kind must be one of {list(KINDS)}, got "
                                  f"{flag['kind']!r}")
            fields(flag["kind"], flag["item"], setup["sets"],
                   int(setup["players"]))   # a known item?
            folder = out_dir / slug(flag["item"]) if per_item else out_dir
            markets, vectors, extra = item_markets(flag, setup["sets"]), today, {}
            if flag["kind"] in ("driver", "sponsor"):   # judged where restricted play was
                vector = fm.generalist_vector()
                if not markets:
                    extra, vector = power_markets(flag, setup)
                    markets = list(extra)
                vectors = {name: vector for name in [*today, *extra]}
            search = Search(flag["kind"], flag["item"], setup, folder, backend, vectors,
                            markets, int(setup.get("screen_games", 200)),
                            int(setup.get("retune", 4)), int(setup.get("numbers", 2)), extra,
                            flagged(flag))
            fixes.append(fix_item(search, bool(setup.get("progress", True))))
    finally:
        backend.close()
    return fixes


def fix_item(search: Search, progress: bool = True) -> dict[str, Any]:
    """Search, verify and write one item's fix (``fix.json``, ``fix.md``, the patch)."""
    found = search_item(search, progress)
    candidate, verified, tried = verify_first(search, found)
    patch = []
    for option, source in search.data(candidate).items():
        patch.append(search.out / f"{option}.toml")
        shutil.copyfile(source, patch[-1])
    fix = {"item": search.item, "kind": search.kind, "changes": list(candidate),
           "markets": search.markets, "market_cards": search.extra_sets,
           "verified": verified, "tried": tried,
           "flagged": search.flagged,
           "reproduced": reproduced(search.flagged, verified["before"]),
           "proposed": bool(candidate and verified["in_band"] and verified["games"] >= 1000),
           "status": status(candidate, verified),
           "front": found["front"], "front_without_retune": found["front_without_retune"],
           "screened": len(found["screened"]), "no_op": found["no_op"],
           "retuned": found["retuned"], "patch": [str(p) for p in patch],
           "setup": {k: v for k, v in search.setup.items() if k not in ("ray",)}}
    (search.out / "fix.json").write_text(json.dumps(fix, indent=1, default=str) + "\n")
    (search.out / "fix.md").write_text(fixes_report.markdown(fix))
    return fix


def flagged(flag: dict[str, Any]) -> dict[str, Any] | None:
    """A power flag's figure and interval (the figure the search measures again), else
    None (other rules flag other figures)."""
    if flag.get("rule") != "power" or "interval" not in flag:
        return None
    return {"figure": flag["figure"], "interval": list(flag["interval"])}


def reproduced(flag: dict[str, Any] | None, before: dict[str, Any]) -> bool | None:
    """Whether today's figure on the verification games lies within the flag's interval
    (the item judged in the setting that flagged it); None without a power flag."""
    if flag is None:
        return None
    low, high = flag["interval"]
    return bool(low <= before["figure"] <= high)


def verify_first(search: Search, found: dict[str, Any]
                 ) -> tuple[fd.Candidate, dict[str, Any], list[dict[str, Any]]]:
    """Verify the candidates whose search figures reached the band, smallest first, until
    one is verified in the band (``VERIFY_TRIES`` at most; 200 games a market can pass a
    candidate the 1000 fresh ones put just outside); else the verified one closest to the
    band. Without such a candidate: the closest one. Also the ones tried before it."""
    order = [tuple(p["changes"]) for p in found["reached"][:VERIFY_TRIES]] or \
        [tuple(found["chosen"]["changes"])]
    tried = []
    for candidate in order:
        tried.append((candidate, verify(search, candidate)))
        if tried[-1][1]["in_band"]:
            break
    candidate, verified = min(tried, key=lambda t: (not t[1]["in_band"], t[1]["distance"]))
    others = [{"changes": list(c), "text": fd.describe(c), "figure": v["figure"],
               "interval": v["interval"], "distance": v["distance"], "in_band": v["in_band"]}
              for c, v in tried if c != candidate]
    return candidate, verified, others


def status(candidate: fd.Candidate, verified: dict[str, Any]) -> str:
    """``in band today`` (no change needed), ``fix`` (verified in the band with 1000 games
    or more), ``unverified`` (in the band on fewer games), ``closest`` (outside) or ``none
    closer`` (no candidate came closer to the band than today's data)."""
    if not candidate:
        return "in band today" if verified["in_band"] else "none closer"
    if verified["in_band"]:
        return "fix" if verified["games"] >= 1000 else "unverified"
    return "closest"


# ----- command line ----------------------------------------------------------------------------
def shipped_sets(players: int) -> dict[str, list[str]]:
    """The named sets with a shipped per-market vector for ``players``."""
    from transit_gym.agents.tuned import markets
    from transit_gym.agents.tuned import vector as tv
    from transit_gym.envs.automobiles.data import load_cards

    named = load_cards().sets
    out = {}
    for path in sorted(Path(markets.__file__).parent.glob("*.json")):
        market = tv.load(path).market
        name = market["markets"].get("card_set")
        if market.get("players") == players and isinstance(name, str) and name in named:
            out[name] = list(named[name])
    if not out:
        raise ConfigError(f"no shipped per-market tuned vectors for {players} players")
    return out


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example='transit-gym balance fix --kind card --item "Crate Motor" '
                                "--games 20 --screen-games 10 --numbers 1 --retune 1 "
                                "--out reports/fix")
    parser.add_argument("--kind", required=True, help=f"one of {', '.join(KINDS)}")
    parser.add_argument("--item", required=True,
                        help="a card's, market's, driver's (Driver 01) or sponsor's (A1) name, "
                             "or a board (daytona)")
    parser.add_argument("--markets", default="",
                        help="comma-separated named sets the item is judged in (default: the "
                             "sets holding the card, the market itself; for a driver the "
                             f"{POWER_MARKETS} random markets restricted play draws for it "
                             "from --seed, as the designer report measures it)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=1000,
                        help="verification games a market (fresh seeds); a fix is proposed "
                             "only from 1000")
    parser.add_argument("--screen-games", type=int, default=200,
                        help="games a market for each candidate while searching")
    parser.add_argument("--retune", type=int, default=4,
                        help="closest candidates measured again with re-tuned vectors")
    parser.add_argument("--wide", action="store_true",
                        help="a card: also every number of its entry the loader takes, the "
                             "supply of its cubes and the numbers of the other cards of its "
                             "markets")
    parser.add_argument("--numbers", type=int, default=2,
                        help="most numbers changed together (combinations of the "
                             f"{PAIR_POOL} closest one-number changes)")
    add_run_arguments(parser, out_help="the folder of fix.md, fix.json, the patch and the "
                                        "caches a stopped run resumes from (required)")
    args = parser.parse_args(argv)
    with tool_errors(parser):
        if args.kind not in KINDS:
            raise ConfigError(f"--kind must be one of {list(KINDS)}, got {args.kind!r}")
        if args.out is None:
            raise ConfigError("--out is required (the fix's folder)")
        check_counts(args.seed, games=args.games, screen_games=args.screen_games,
                     retune=args.retune, numbers=args.numbers)
        check_backend(args.workers, args.ray)
        workers = args.workers or os.cpu_count() or 1
        check_out(args.out)
        setup = {"players": args.players, "games": args.games, "seed": args.seed,
                 "options": {}, "season_options": {}, "sets": shipped_sets(args.players),
                 "workers": workers,
                 "ray": args.ray, "screen_games": args.screen_games, "retune": args.retune,
                 "numbers": args.numbers, "wide": args.wide,
                 "progress": not args.quiet}
        flag = {"kind": args.kind, "item": args.item,
                "markets": [m.strip() for m in args.markets.split(",") if m.strip()]}
        out = args.out
        out.mkdir(parents=True, exist_ok=True)
        check_settings(out, {k: setup[k] for k in ("players", "games", "seed", "screen_games",
                                                   "retune", "numbers", "wide")}, "balance fix",
                       games_file="fix.json")
        fixes = propose_fixes([flag], setup, args.out, per_item=False)
    print(fixes_report.markdown(fixes[0]))
    print(f"written: {out}/fix.md, fix.json " + " ".join(fixes[0]["patch"]), file=sys.stderr)
    return fixes
