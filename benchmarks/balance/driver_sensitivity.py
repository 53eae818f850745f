"""How Driver 08's win share depends on the RECONSTRUCTED numbers of Automobiles, and on the
agent.

    transit-gym balance drivers --players 2,4 --games 800 \\
        --seed 2026 --out reports/driver-sensitivity

Every variant is one change to the data the game already accepts: a ``card_data=`` TOML
file (card ``cost``/``value`` numbers marked RECONSTRUCTED in ``data.toml``), a board
(``track=`` a TOML file or another shipped board, every board RECONSTRUCTED), or an agent
change (``agent_use_all``: the tuned vector with every driver ability switched on;
``agent_no_08``: never using Driver 08's, what the ability itself is worth). The
files are written to ``OUT/variants/`` and loaded by the game's own validation first (a
variant that is not a legal data file stops the run before any game). Every variant plays
the same games (``--seed`` and the game index fix the market, the start player, the
revealed or dealt drivers: common random numbers), mirror games of ``--agent`` at every
seat, random markets of all 35 cards on Daytona.

``--deal draft`` lets the agents draft (players + 1 revealed drivers, each agent's own
preference: the games of ``driver_shares``); ``--deal random`` deals every seat a
different driver at random from all ten (the draft restricted to the dealt driver with
``envs.core.restrict``), so every driver, 05 included, is held equally often.

Reported per variant and player count: Driver 08's holder win share with its 95% Wilson
interval, and the change from the baseline with a 95% interval over the paired holder
seats (the same seats hold Driver 08 in every variant of a draft run when the draft
does not change); ranked by the largest change. Every driver's share is reported too (the
JSON: every variant; the table: the baseline, the agent variants and the top variant; in a
draft run a driver's seats are the agents' picks, in a random deal a tenth each).

Results: ``games.csv`` (resumable: the same command plays only what is missing, a larger
``--games`` adds games, other settings are refused before any game), ``sensitivity.md``,
``sensitivity.json``, ``sensitivity.png``.

``--card-data``, ``--driver-data``, ``--track-data`` move the baseline itself to patched
data (every variant is then one change from the patched game: a card variant's file holds
the patch and its own rows after it, a shifted board the patched grid); their SHA-256 are
settings, so a resumed run refuses changed files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.benchmarks.balance import figures
from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles.data import CARD_COLOURS, EFFECTS, GEARS, WEAR
from transit_gym.envs.core.datafile import open_data
from transit_gym.envs.core.errors import ConfigError, DataFileError
from transit_gym.training.runs.backends import (
    check_backend,
    check_out,
    make_backend,
    run_with_progress,
)
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.folder import CsvSink, check_settings, load_csv
from transit_gym.training.runs.options import add_data_arguments, check_counts, data_options
from transit_gym.training.stats import Z95, seat_wins, wilson_interval
from transit_gym.training.tool_parser import ToolParser

TOOL = "driver_sensitivity"
NUM_DRIVERS = 10
FOCUS = 8            # the driver whose dominance is measured
BASE_TRACK = "daytona"   # the baseline board (the shifted-board variants are made from it)
DEALS = ("draft", "random")
#: chance stream of the random deal of game ``g`` (apart from the game's own seed)
DEAL_STREAM = 0xDEA1
CHUNK = 100

#: cleaning cards: their effect removes cubes (wear among them) from the piles
CLEANING = ("engineer", "manager", "mechanic", "crew_chief", "pit_captain", "pit_crew",
            "pit_team", "factory_support", "maintenance_staff", "air_jacks", "impact_wrench",
            "pit_mechanic")
GEAR_SHIFT = {"down": {"white": "white", "light_gray": "white", "dark_gray": "light_gray",
                       "black": "dark_gray"},
              "up": {"white": "light_gray", "light_gray": "dark_gray",
                     "dark_gray": "black", "black": "black"}}


# ----- variants --------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """One change from the shipped game: card numbers, a board, or the agent."""

    name: str
    group: str
    description: str
    kind: str                                  # "baseline", "cards", "track", "agent"
    cards: tuple[str, ...] = ()                # card names whose ``key`` changes
    key: str = ""                              # "cost" or "value"
    delta: int = 0
    board: str = ""                            # a shipped board name, or a colour shift
    uses: tuple[tuple[int, float], ...] = ()   # (driver, new ``use`` flag) of the agent


def _cards_where(test: Callable[[int, int], bool]) -> tuple[str, ...]:
    cards = auto_data.load_cards()
    return tuple(n for n, c, e in zip(cards.names, cards.colours, cards.effects, strict=True)
                 if test(int(c), int(e)))


@lru_cache(maxsize=1)
def catalogue() -> dict[str, Variant]:
    """Every variant by name, the baseline first."""
    gears = _cards_where(lambda c, e: c in GEARS)
    market = _cards_where(lambda c, e: c in CARD_COLOURS)
    cleaning = _cards_where(lambda c, e: c in CARD_COLOURS and EFFECTS[e] in CLEANING)
    others = tuple(n for n in market if n not in cleaning)
    wear = _cards_where(lambda c, e: c == WEAR)
    out = [Variant("baseline", "baseline", "the shipped data and the shipped agent",
                   "baseline")]
    groups = (("gear_values", gears, "value", "value of the 3rd-6th Gear cubes (money in "
               "hand)"),
              ("card_values", market, "value", "value of every market card's cubes"),
              ("gear_costs", gears, "cost", "cost of the 3rd-6th Gear cubes"),
              ("cleaning_costs", cleaning, "cost", "cost of the cleaning cards (remove "
               "cubes: Mechanic, Pit Crew, Pit Team, ...)"),
              ("other_costs", others, "cost", "cost of the other market cards (movers, "
               "drawers)"))
    for group, names, key, text in groups:
        for delta in (-1, 1):
            out.append(Variant(f"{group}_{'minus' if delta < 0 else 'plus'}1", group,
                               f"{text} {delta:+d}", "cards", names, key, delta))
    for delta in (1, 2):
        out.append(Variant(f"wear_cost_plus{delta}", "wear_cost",
                           f"cost of a wear cube {delta:+d} (Pit Team counts it)", "cards",
                           wear, "cost", delta))
    for shift, effect in (("down", "less wear, shorter reach"), ("up", "more wear")):
        out.append(Variant(f"daytona_gears_{shift}", "board",
                           f"Daytona with every space one gear colour {shift} ({effect})",
                           "track", board=shift))
    for name in ("monza", "talladega", "monte_carlo", "tucson"):
        out.append(Variant(f"board_{name}", "board", f"the {name} board instead of Daytona",
                           "track", board=name))
    out.append(Variant("agent_use_all", "agent", "the agent's vector with every driver's "
                       "ability switched on (the generalist never uses 03's and 05's)",
                       "agent", uses=tuple((d, 1.0) for d in range(1, NUM_DRIVERS + 1))))
    out.append(Variant(f"agent_no_{FOCUS:02d}", "agent", f"the agent's vector never using "
                       f"Driver {FOCUS:02d}'s ability (what the ability itself is worth)",
                       "agent", uses=((FOCUS, 0.0),)))
    return {v.name: v for v in out}


def card_variant_toml(variant: Variant, card_data: str | None = None) -> str:
    """The ``card_data`` file of a card variant: only the changed numbers (ConfigError
    when a number would leave its legal range; nothing is clamped), after the text of the
    ``card_data`` patch it starts from (a later row of a card overrides an earlier one)."""
    cards = auto_data.load_cards(card_data)
    column = cards.costs if variant.key == "cost" else cards.values
    lines = [f"# {TOOL} variant {variant.name}: {variant.description}.",
             "# Only these numbers differ from the shipped data.toml"
             + (f" patched by {card_data}:" if card_data else "."), ""]
    if card_data:
        lines += [Path(card_data).read_text(), ""]
    for name in variant.cards:
        new = int(column[cards.card_id(name)]) + variant.delta
        if not 0 <= new <= auto_data.MAX_COST:
            raise ConfigError(f"variant {variant.name!r}: {name} {variant.key} would be {new}, "
                              f"outside the legal range 0..{auto_data.MAX_COST}")
        lines += ["[[cards]]", f"name = {json.dumps(name)}", f"{variant.key} = {new}", ""]
    return "\n".join(lines)


def track_variant_toml(base: str, shift: str, track_data: str | None = None) -> str:
    """A shipped board with every space's colours moved one gear ``shift`` ("down" or
    "up"); lengths, lanes and grid are unchanged (the grid patched by ``track_data``)."""
    table = tomllib.loads(auto_data.TRACKS[base].read_text())
    if track_data:
        table = auto_data.patch_track(open_data(auto_data.TRACKS[base]), base,
                                      track_data).table
    mapping = GEAR_SHIFT[shift]
    head = table["track"]
    lines = [f"# {TOOL}: {base} with every space one gear colour {shift}.", "[track]"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in head.items()]
    for space in table["spaces"]:
        colours = list(dict.fromkeys(mapping[c] for c in space["colors"]))
        row = {**space, "colors": colours}
        lines += ["", "[[spaces]]"] + [f"{k} = {json.dumps(v)}" for k, v in row.items()]
    for slot in table["grid"]:
        lines += ["", "[[grid]]"] + [f"{k} = {json.dumps(v)}" for k, v in slot.items()]
    return "\n".join(lines) + "\n"


def agent_variant_json(agent: str, variant: Variant) -> dict[str, Any]:
    """``agent``'s tuned vector with the ``use`` flags of ``variant.uses``."""
    from transit_gym.agents.tuned import is_tuned_spec, spec_vector
    from transit_gym.agents.tuned.vector import DRIVER_PARAMS, TunedVector, driver_param

    if not is_tuned_spec(agent):
        raise ConfigError(f"variant {variant.name!r} changes a tuned vector; --agent "
                          f"{agent!r} is not tuned or tuned:FILE")
    values = spec_vector(agent, "automobiles")
    for d, flag in variant.uses:
        values[driver_param(d, DRIVER_PARAMS.index("use"))] = flag
    return TunedVector(values, meta={"made_by": TOOL, "from": agent,
                                     "change": variant.description}).to_json()


def variant_files(names: list[str], agent: str, data: dict[str, str] | None = None
                  ) -> dict[str, tuple[str, str]]:
    """``{variant: (file name, content)}`` of every variant that needs a file (made over
    the ``data`` options' patches)."""
    data = data or {}
    known = catalogue()
    files = {}
    for name in names:
        variant = known[name]
        if variant.kind == "cards":
            files[name] = (f"{name}.toml", card_variant_toml(variant, data.get("card_data")))
        elif variant.kind == "track" and variant.board not in auto_data.TRACKS:
            files[name] = (f"{name}.toml", track_variant_toml(BASE_TRACK, variant.board,
                                                              data.get("track_data")))
        elif variant.kind == "agent":
            files[name] = (f"{name}.json", json.dumps(agent_variant_json(agent, variant),
                                                          indent=1)
                           + "\n")
    return files


def write_variants(names: list[str], agent: str, folder: Path,
                   data: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """Write every variant's file into ``folder`` and load it with the game's own checks
    (ConfigError naming the variant when it is not a legal data file); return per variant
    its game options and agent spec."""
    known = catalogue()
    files = variant_files(names, agent, data)
    folder.mkdir(parents=True, exist_ok=True)
    setups = {}
    for name in names:
        variant = known[name]
        options: dict[str, Any] = {}
        spec = agent
        path = folder / files[name][0] if name in files else None
        if path is not None:
            path.write_text(files[name][1])
            path = path.resolve()
        if variant.kind == "cards":
            _check_loads(name, lambda p=path: auto_data.load_cards(p))
            options["card_data"] = str(path)
        elif variant.kind == "track" and path is None:
            options["track"] = variant.board
        elif variant.kind == "track":
            _check_loads(name, lambda p=path: auto_data.load_track(p))
            options["track"] = str(path)
        elif variant.kind == "agent":
            spec = f"tuned:{path}"
        setups[name] = {"options": options, "agent": spec}
    return setups


def _check_loads(name: str, load: Callable[[], Any]) -> None:
    try:
        load()
    except DataFileError as exc:
        raise ConfigError(f"variant {name!r} is not a legal data file: {exc}") from None


# ----- playing ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Chunk:
    """``count`` games (from ``first``) of one variant at one player count."""

    variant: str
    options: tuple[tuple[str, Any], ...]
    agent: str
    players: int
    deal: str
    seed: int
    first: int
    count: int


def game_options(deal: str, track: str = BASE_TRACK) -> dict[str, Any]:
    """The options every variant starts from (random all-35 markets)."""
    return {"card_set": "random", "card_pool": "all", "track": track,
            "drivers": True if deal == "draft" else "all"}


def dealt_drivers(seed: int, players: int, game: int) -> np.ndarray:
    """The random deal of game ``game``: a different driver (1-10) per seat, the same in
    every variant."""
    rng = np.random.default_rng([seed, players, game, DEAL_STREAM])
    return rng.permutation(NUM_DRIVERS)[:players] + 1


def deal_restriction(game, drivers: np.ndarray) -> np.ndarray:
    """Forbid every seat each driver but its dealt one (the draft then is the deal)."""
    from transit_gym.envs.automobiles import restrictions as auto
    from transit_gym.envs.core.restrict import forbid

    return forbid(game.num_players, game.num_actions, {
        seat: [a for d in range(1, NUM_DRIVERS + 1) if d != int(mine)
               for a in auto.take_driver(d)]
        for seat, mine in enumerate(drivers)})


def run_chunk(chunk: Chunk) -> list[dict[str, Any]]:
    """Play one chunk; a row per game (drivers and win shares per seat)."""
    from transit_gym.agents.tuned import jit_setup
    from transit_gym.envs.automobiles import state as st
    from transit_gym.envs.core.rollout import AGENT_CODES, play_games
    from transit_gym.envs.registry import cached_game

    game = cached_game("automobiles", chunk.players, chunk.options)
    specs = [chunk.agent] * chunk.players
    if chunk.agent in AGENT_CODES:
        from transit_gym.agents.registry import policy_kernel

        policy, params, codes = policy_kernel(game.name), None, None
    else:
        policy, params, codes = jit_setup(game, specs)

    def play(first: int, count: int, forbidden: np.ndarray | None):
        return play_games(game, policy, specs, count, seed=chunk.seed, first_game=first,
                          forbidden=forbidden, params=params, codes=codes)

    if chunk.deal == "draft":
        results = [play(chunk.first, chunk.count, None)]
    else:
        results = [play(g, 1, deal_restriction(game, dealt_drivers(chunk.seed, chunk.players,
                                                                    g)))
                   for g in range(chunk.first, chunk.first + chunk.count)]
    rows = []
    for k, result in enumerate(results):
        shares = seat_wins(result.rewards)
        for i in range(result.rewards.shape[0]):
            held = result.final_states[i][st.DRIVER_OF:st.DRIVER_OF + chunk.players]
            rows.append({"variant": chunk.variant, "players": chunk.players,
                         "game": chunk.first + k + i,
                         "drivers": "-".join(str(int(d)) for d in held),
                         "shares": "-".join(f"{x:.4g}" for x in shares[i])})
    return rows


def chunks(settings: dict[str, Any], setups: dict[str, dict[str, Any]],
           done: set[tuple[str, int, int]]) -> Iterator[Chunk]:
    """Chunks covering exactly the games not in ``done`` (variant, players, game)."""
    from transit_gym.envs.registry import options_key

    for players in settings["players"]:
        for name in settings["variants"]:
            options = {**game_options(settings["deal"], settings["track"]),
                       **settings.get("data", {}), **setups[name]["options"]}
            todo = [g for g in range(settings["games"]) if (name, players, g) not in done]
            while todo:
                run = [todo[0]]
                for g in todo[1:]:
                    if g != run[-1] + 1 or len(run) == CHUNK:
                        break
                    run.append(g)
                todo = todo[len(run):]
                yield Chunk(name, options_key(options), setups[name]["agent"], players,
                            settings["deal"], settings["seed"], run[0], len(run))


# ----- the run -----------------------------------------------------------------------------
def make_settings(players: list[int], games: int, seed: int, agent: str, deal: str,
                  variants: list[str], data: dict[str, str] | None = None
                  ) -> dict[str, Any]:
    """The settings of a run (checked: ConfigError naming the bad value). A tuned agent's
    vector and the ``data`` files (options ``card_data``...) are pinned by their SHA-256,
    so a resumed run refuses a changed vector or file."""
    from transit_gym.agents.registry import is_jit_spec
    from transit_gym.agents.tuned import is_tuned_spec, spec_vector

    known = catalogue()
    if not players or any(isinstance(p, bool) or not 2 <= p <= 5 for p in players):
        raise ConfigError(f"--players must list player counts in 2..5, got {players!r}")
    check_counts(seed, games=games)
    if deal not in DEALS:
        raise ConfigError(f"--deal must be one of {list(DEALS)}, got {deal!r}")
    if not is_jit_spec(agent):
        raise ConfigError(f"--agent must be a jitted agent (rule_based, random, tuned, "
                          f"tuned:FILE), got {agent!r}")
    vector = None
    if is_tuned_spec(agent):
        vector = hashlib.sha256(spec_vector(agent, "automobiles").tobytes()).hexdigest()
    unknown = [v for v in variants if v not in known]
    if unknown:
        raise ConfigError(f"unknown variant(s) {unknown}; known: {list(known)}")
    if "baseline" not in variants:
        variants = ["baseline", *variants]
    settings = {"players": sorted(set(players)), "games": games, "seed": seed,
                "agent": agent, "agent_vector_sha256": vector, "deal": deal,
                "track": BASE_TRACK, "variants": list(dict.fromkeys(variants))}
    if data:   # absent without files: folders made before these flags still resume
        from transit_gym.envs.registry import game_class

        game = game_class("automobiles")(num_players=2, **data)   # the files valid?
        settings["data"] = dict(sorted(data.items()))
        settings["data_sha256"] = {k: f.sha256 for k, f in sorted(game.data_files.items())}
    return settings


def run(settings: dict[str, Any], out: Path, workers: int | None = None,
        plots: bool = True, progress: bool = True) -> dict[str, Any]:
    """Write the variants, play (or resume) the games, then write the table, JSON and PNG."""
    check_out(out)
    files = {name: hashlib.sha256(text.encode()).hexdigest()
             for name, (_, text) in variant_files(settings["variants"], settings["agent"],
                                                  settings.get("data")).items()}
    check_settings(out, {**settings, "variant_files": files}, TOOL)   # before any write
    setups = write_variants(settings["variants"], settings["agent"], out / "variants",
                            settings.get("data"))
    csv_path = out / "games.csv"
    rows = load_csv(csv_path, key=("variant", "players", "game"))
    done = {(r["variant"], int(r["players"]), int(r["game"])) for r in rows}
    todo = list(chunks(settings, setups, done))
    total = sum(c.count for c in todo)
    if todo:   # compile (and fill the disk cache) before forking
        run_chunk(Chunk(**{**todo[0].__dict__, "count": 1}))
    sink = CsvSink(csv_path, rows)
    backend = make_backend(workers)
    for records in run_with_progress(backend, ((run_chunk, c) for c in todo), total,
                                     progress):
        fresh = [r for r in records if (r["variant"], r["players"], r["game"]) not in done]
        done.update((r["variant"], r["players"], r["game"]) for r in fresh)
        sink.write(fresh)
        rows.extend(fresh)
    summary = summarise(settings, rows)
    (out / "sensitivity.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "sensitivity.md").write_text(markdown(summary))
    if plots:
        plot(summary, out / "sensitivity.png")
    return summary


# ----- what is made of the games -------------------------------------------------------------
def seat_records(settings: dict[str, Any], rows: list[dict[str, Any]]
                 ) -> dict[tuple[str, int], dict[tuple[int, int], tuple[int, float]]]:
    """Per (variant, players): {(game, seat): (driver, win share)} of the wanted games."""
    out: dict[tuple[str, int], dict[tuple[int, int], tuple[int, float]]] = {}
    for r in rows:
        if int(r["game"]) >= settings["games"] or r["variant"] not in settings["variants"]:
            continue
        drivers = [int(x) for x in str(r["drivers"]).split("-")]
        shares = [float(x) for x in str(r["shares"]).split("-")]
        table = out.setdefault((r["variant"], int(r["players"])), {})
        for seat, (d, s) in enumerate(zip(drivers, shares, strict=True)):
            table[(int(r["game"]), seat)] = (d, s)
    return out


def share(seats: dict[tuple[int, int], tuple[int, float]], driver: int) -> dict[str, Any]:
    """Holder seats, win share and 95% Wilson interval of ``driver``."""
    wins = [s for d, s in seats.values() if d == driver]
    n = len(wins)
    low, high = wilson_interval(float(sum(wins)), n)
    return {"seats": n, "share": float(np.mean(wins)) if n else None, "interval": [low, high]}


def paired_change(base: dict[tuple[int, int], tuple[int, float]],
                  other: dict[tuple[int, int], tuple[int, float]], driver: int
                  ) -> dict[str, Any]:
    """Change of ``driver``'s holder win share from ``base`` to ``other``, paired over the
    seats holding it in both (same game and seat: common random numbers), with a 95%
    normal interval of the mean paired difference; ``unpaired`` seats are ignored."""
    keys = [k for k, (d, _) in base.items() if d == driver and other.get(k, (0,))[0] == driver]
    held = sum(1 for d, _ in base.values() if d == driver) + \
        sum(1 for d, _ in other.values() if d == driver)
    diff = np.array([other[k][1] - base[k][1] for k in keys])
    n = len(diff)
    if n == 0:
        return {"paired": 0, "unpaired": held, "change": None, "interval": [None, None]}
    mean = float(diff.mean())
    half = Z95 * float(diff.std(ddof=1)) / np.sqrt(n) if n > 1 else float("inf")
    return {"paired": n, "unpaired": held - 2 * n, "change": mean,
            "interval": [mean - half, mean + half]}


def summarise(settings: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Driver 08 per variant and player count, ranked by the largest change; and every
    driver's share per variant."""
    seats = seat_records(settings, rows)
    known = catalogue()
    table = []
    for name in settings["variants"]:
        entry = {"variant": name, "group": known[name].group,
                 "description": known[name].description, "players": {}}
        for p in settings["players"]:
            mine = seats.get((name, p), {})
            base = seats.get(("baseline", p), {})
            entry["players"][str(p)] = {**share(mine, FOCUS),
                                        "change": paired_change(base, mine, FOCUS)}
        changes = [abs(v["change"]["change"]) for v in entry["players"].values()
                   if v["change"]["change"] is not None]
        entry["largest_change"] = max(changes) if changes else 0.0
        table.append(entry)
    # the data variants ranked, then the agent variants (not reconstructed numbers)
    table[1:] = sorted(table[1:], key=lambda e: (e["group"] == "agent", -e["largest_change"],
                                                 e["variant"]))
    data_rank = 0
    for e in table:
        if e["group"] not in ("baseline", "agent"):
            data_rank += 1
        e["rank"] = data_rank if e["group"] not in ("baseline", "agent") else None
    drivers = {name: {str(p): [{"driver": d, **share(seats.get((name, p), {}), d)}
                               for d in range(1, NUM_DRIVERS + 1)]
                      for p in settings["players"]}
               for name in settings["variants"]}
    return {"settings": settings, "focus_driver": FOCUS, "variants": table,
            "drivers": drivers,
            "fair_share": {str(p): 1.0 / p for p in settings["players"]}}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def markdown(summary: dict[str, Any]) -> str:
    s = summary["settings"]
    players = [str(p) for p in s["players"]]
    deal = ("drafted by the agents (players + 1 revealed)" if s["deal"] == "draft"
            else "dealt at random from all ten")
    lines = [f"# Driver {FOCUS:02d}: sensitivity to the reconstructed numbers", "",
             f"Mirror games of `{s['agent']}`, random all-35 markets, {s['track']}, drivers "
             f"{deal}; {s['games']} games per variant and player count, seed {s['seed']}, "
             f"the same games in every variant. Share: the win share of the seats holding "
             f"Driver {FOCUS:02d} (95% Wilson interval; seats in brackets). Change: from the "
             f"baseline, paired over the same seats (95% interval). Fair share: "
             + ", ".join(f"{1 / int(p):.2f} ({p}p)" for p in players) + ". Ranked by the "
             "largest change; the agent variants (not data) come last. Every card cost and "
             "value and every board is RECONSTRUCTED (not the printed numbers).", ""]
    head = "| rank | variant | what changes |"
    rule = "| ---: | --- | --- |"
    for p in players:
        head += f" {p}p share | {p}p change |"
        rule += " ---: | ---: |"
    lines += [head, rule]
    for e in summary["variants"]:
        rank = e["rank"] or ("agent" if e["group"] == "agent" else "-")
        row = f"| {rank} | {e['variant']} | {e['description']} |"
        for p in players:
            v = e["players"][p]
            low, high = v["interval"]
            c = v["change"]
            row += f" {_pct(v['share'])} ({v['seats']}) {low:.2f}-{high:.2f} |"
            if e["variant"] == "baseline":
                row += " |"
            elif c["change"] is None:
                row += " - |"
            else:
                row += (f" {c['change']:+.3f} ({c['interval'][0]:+.3f} to "
                        f"{c['interval'][1]:+.3f}) |")
        lines.append(row)
    lines.append("")
    shown = [e["variant"] for e in summary["variants"]
             if e["variant"] in ("baseline", "agent_use_all", f"agent_no_{FOCUS:02d}")] + \
        [e["variant"] for e in summary["variants"][1:2]]
    for name in dict.fromkeys(shown):
        per_players = summary["drivers"][name]
        how = "drafted" if s["deal"] == "draft" else "dealt at random"
        lines += [f"## Every driver's win share, drivers {how}: {name}", "",
                  "| driver | " + " | ".join(f"{p}p share (seats) | {p}p 95% interval"
                                             for p in players) + " |",
                  "| --- |" + " ---: | --- |" * len(players)]
        for d in range(NUM_DRIVERS):
            row = f"| {d + 1:02d} |"
            for p in players:
                v = per_players[p][d]
                row += (f" {_pct(v['share'])} ({v['seats']}) | {v['interval'][0]:.2f}-"
                        f"{v['interval'][1]:.2f} |")
            lines.append(row)
        lines.append("")
    return "\n".join(lines)


def plot(summary: dict[str, Any], path: Path) -> Path:
    """Driver 08's holder win share per variant (95% Wilson intervals), one marker per
    player count, the baseline and the fair shares marked."""
    plt = figures.pyplot()
    table = summary["variants"]
    players = [str(p) for p in summary["settings"]["players"]]
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(table) + 1.8))
    y = np.arange(len(table), dtype=float)
    for k, p in enumerate(players):
        rates = np.array([e["players"][p]["share"] if e["players"][p]["share"] is not None
                          else np.nan for e in table])
        low = np.array([e["players"][p]["interval"][0] for e in table])
        high = np.array([e["players"][p]["interval"][1] for e in table])
        offset = (k - (len(players) - 1) / 2) * 0.25
        line = ax.errorbar(rates, y + offset, xerr=[np.maximum(rates - low, 0),
                                                    np.maximum(high - rates, 0)],
                           fmt="o", capsize=3, label=f"{p} players")
        colour = line[0].get_color()
        ax.axvline(table[0]["players"][p]["share"] or np.nan, color=colour, alpha=0.4)
        ax.axvline(summary["fair_share"][p], color=colour, linestyle=":", alpha=0.6)
    ax.set_yticks(y, [e["variant"] for e in table])
    ax.invert_yaxis()
    ax.set_xlabel(f"win share of Driver {FOCUS:02d}'s holder (95% Wilson interval); solid: "
                  f"baseline, dotted: fair share")
    how = "drafted" if summary["settings"]["deal"] == "draft" else "dealt at random"
    ax.set_title(f"Driver {FOCUS:02d} under `{summary['settings']['agent']}`, drivers {how}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return figures.save(fig, path, 100)


# ----- command line ------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym balance drivers --list")
    parser.add_argument("--players", default="2,4", help="comma-separated player counts")
    parser.add_argument("--games", type=int, default=800,
                        help="games per variant and player count")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--agent", default="tuned", help="tuned, tuned:FILE or rule_based")
    parser.add_argument("--deal", default="draft", choices=DEALS,
                        help="draft: the agents draft; random: drivers dealt at random")
    parser.add_argument("--variants", default="all",
                        help="comma-separated variant names, or all (see --list)")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=None, help="default: all cores")
    parser.add_argument("--list", action="store_true", help="list the variants and exit")
    parser.add_argument("--no-plots", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_data_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> dict[str, Any] | None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list:
        for v in catalogue().values():
            print(f"{v.name:24s} {v.group:15s} {v.description}")
        return None
    try:
        players = [int(p) for p in args.players.split(",") if p.strip()]
    except ValueError:
        parser.error(f"--players must be comma-separated integers, got {args.players!r}")
    names = list(catalogue()) if args.variants == "all" else \
        [v.strip() for v in args.variants.split(",") if v.strip()]
    with tool_errors(parser):   # ConfigError, SettingsMismatchError, DataFileError
        from transit_gym.envs.registry import game_class

        settings = make_settings(players, args.games, args.seed, args.agent, args.deal,
                                 names, data_options(args, game_class("automobiles")))
        check_backend(args.workers)
        out = args.out or Path("reports") / f"{TOOL}-{args.deal}-seed{args.seed}"
        summary = run(settings, out, workers=args.workers, plots=not args.no_plots,
                      progress=not args.quiet)
    print(markdown(summary))
    print(f"written: {out}/sensitivity.md, sensitivity.json, games.csv"
          + ("" if args.no_plots else ", sensitivity.png"), file=sys.stderr)
    return summary
