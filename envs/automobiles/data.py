"""Every number of Automobiles: cubes, cards, suggested sets, setup numbers and tracks.

The defaults live in TOML files beside this module, each value marked CONFIRMED,
INFERRED or RECONSTRUCTED with its source: ``data.toml`` (cubes, cards, sets, setup)
and ``track_<name>.toml`` (the two base boards and the Racing Season's three, all
RECONSTRUCTED; a space the checkered flag cuts says so with ``flag``, and a starting slot
that is one segment of a longer space with ``own_space``). Users pass their own card
table with ``card_data=path`` (cards matched by name; keys they give replace the
defaults, new names add cards) and their own board with ``track=path``. Every problem
raises ``DataFileError`` naming the file, the entry and what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from transit_gym.envs.automobiles.racing_season import DATA_DIR as EXPANSION_DIR
from transit_gym.envs.core.datafile import Entry, open_data
from transit_gym.envs.core.embedded import UserFile, open_source
from transit_gym.envs.core.errors import DataFileError

HERE = Path(__file__).resolve().parent
DEFAULT_FILE = HERE / "data.toml"
#: the shipped boards: the base game's two, then the Racing Season's three (all RECONSTRUCTED)
BASE_TRACKS = ("daytona", "monza")
EXPANSION_TRACKS = ("talladega", "monte_carlo", "tucson")
TRACKS = {**{name: HERE / f"track_{name}.toml" for name in BASE_TRACKS},
          **{name: EXPANSION_DIR / f"track_{name}.toml" for name in EXPANSION_TRACKS}}
DIRECTIONS = ("counter-clockwise", "clockwise")

# ----- colours ------------------------------------------------------------------------------
COLOURS = ("white", "light_gray", "dark_gray", "black", "wear",
           "yellow", "purple", "red", "green", "blue")
WHITE, LIGHT, DARK, BLACK, WEAR, YELLOW, PURPLE, RED, GREEN, BLUE = range(10)
NUM_COLOURS = len(COLOURS)
GEARS = (WHITE, LIGHT, DARK, BLACK)          # also the four track colours, low to high
NUM_GEARS = len(GEARS)
CARD_COLOURS = (YELLOW, PURPLE, RED, GREEN, BLUE)   # one chosen card per colour
TYPE_NAMES = {YELLOW: "Garage", PURPLE: "Pit", RED: "Handling", GREEN: "Performance",
              BLUE: "Engine"}

# ----- effects (the kernel dispatches on these ids) -------------------------------------------
EFFECTS = ("gear", "wear", "car_chief", "engineer", "manager", "mechanic", "crew_chief",
           "pit_captain", "pit_crew", "pit_team", "aerodynamics", "steering", "suspension",
           "tires", "boost", "gearbox", "nitro", "turbo", "diesel", "hybrid", "rotary",
           "supercharged",
           # Racing Season expansion (R-YUC appendix)
           "factory_support", "maintenance_staff", "performance_testing", "air_jacks",
           "impact_wrench", "pit_mechanic", "burnout", "camber_toe", "redline", "adrenaline",
           "bump_run", "overdrive", "crate_motor", "fuel_injection", "internal_combustion")
(E_GEAR, E_WEAR, E_CAR_CHIEF, E_ENGINEER, E_MANAGER, E_MECHANIC, E_CREW_CHIEF, E_PIT_CAPTAIN,
 E_PIT_CREW, E_PIT_TEAM, E_AERODYNAMICS, E_STEERING, E_SUSPENSION, E_TIRES, E_BOOST,
 E_GEARBOX, E_NITRO, E_TURBO, E_DIESEL, E_HYBRID, E_ROTARY, E_SUPERCHARGED,
 E_FACTORY_SUPPORT, E_MAINTENANCE_STAFF, E_PERFORMANCE_TESTING, E_AIR_JACKS, E_IMPACT_WRENCH,
 E_PIT_MECHANIC, E_BURNOUT, E_CAMBER_TOE, E_REDLINE, E_ADRENALINE, E_BUMP_RUN, E_OVERDRIVE,
 E_CRATE_MOTOR, E_FUEL_INJECTION, E_INTERNAL_COMBUSTION) = range(len(EFFECTS))
#: the first effect of the Racing Season expansion (every later id is one too)
FIRST_EXPANSION_EFFECT = E_FACTORY_SUPPORT
NUM_EFFECTS = len(EFFECTS)
#: effects whose ``count`` is a number of spaces that must be moved exactly (at least 1)
EXACT_MOVES = {"gear", "suspension", "tires"}

# ----- capacities of the state and parameter vectors -------------------------------------------
MAX_PLAYERS = 5
MAX_CARDS = 48
MAX_SPACES = 128
MAX_LANES = 4
MAX_SEGMENTS = 8
MAX_LAP = 512
MAX_ADJ = 3          # same lane, one lane in, one lane out (see ``adjacency``)
MAX_COUNT = 12
MAX_COST = 99

#: what the default files hold that no source confirms (for the docs and reports)
RECONSTRUCTED = (
    "cost and value of every card (data.toml; wear value 0 is INFERRED)",
    "Daytona Beach board: every space, lane, colour and segment count (track_daytona.toml)",
    "Monza board: every space, lane, colour and segment count (track_monza.toml)",
    "grid slots P1-P5 on both boards (their $10-$14 allowances are CONFIRMED)",
    "Talladega, Monte Carlo and Tucson boards (track_<name>.toml): every space, lane, colour,"
    " segment count and grid slot (direction, combo kinds and $10-$14 allowances CONFIRMED)",
)


def colour_index(name: object, entry: Entry, key: str, allowed: tuple[int, ...] = ()) -> int:
    """Index of colour ``name``; fails naming the allowed colours."""
    choices = [COLOURS[c] for c in (allowed or range(NUM_COLOURS))]
    if not isinstance(name, str) or name not in choices:
        entry.fail(f"{key!r} must be one of {choices}, got {name!r}")
    return COLOURS.index(name)


# ===== cards, cubes, sets =====================================================================
@dataclass(frozen=True)
class CardData:
    """The card table (one row per card), the cube supply and the setup numbers."""

    names: tuple[str, ...]
    colours: np.ndarray      # (n,) colour index
    effects: np.ndarray      # (n,) effect id
    costs: np.ndarray
    values: np.ndarray
    wear: np.ndarray
    count: np.ndarray
    bonus: np.ndarray
    expansion: np.ndarray    # (n,) 1 for a Racing Season card
    sets: dict[str, tuple[str, ...]]
    supply: np.ndarray       # (10,)
    starting_bag: np.ndarray  # (10,)
    hand_size: int
    default_laps: int
    max_laps: int
    wear_chart: np.ndarray   # (4,) wear per highest gear colour moved on
    source: str

    @property
    def num_cards(self) -> int:
        return len(self.names)

    def card_id(self, name: str) -> int:
        return self.names.index(name)

    def cards_of(self, colour: int) -> list[str]:
        return [n for n, c in zip(self.names, self.colours, strict=True) if c == colour]

    def is_expansion_set(self, name: str) -> bool:
        """A suggested set holding a Racing Season card (the expansion's six sets)."""
        return any(self.expansion[self.card_id(card)] for card in self.sets[name])

    @property
    def base_sets(self) -> dict[str, tuple[str, ...]]:
        """The base game's suggested sets (only base cards)."""
        return {n: c for n, c in self.sets.items() if not self.is_expansion_set(n)}

    @property
    def expansion_sets(self) -> dict[str, tuple[str, ...]]:
        """The Racing Season's suggested sets (R-YUC "Suggested Card Sets")."""
        return {n: c for n, c in self.sets.items() if self.is_expansion_set(n)}


_CARD_KEYS = {"name", "color", "cost", "value", "effect", "wear", "count", "bonus",
              "expansion"}


def _card_row(entry: Entry, base: dict | None) -> dict:
    """One validated card; ``base`` is the default row a user entry overrides."""
    entry.unknown_keys(_CARD_KEYS)
    row = dict(base or {})
    row["name"] = entry.get("name", str)
    if base is None:
        for key in ("color", "cost", "value", "effect"):
            if not entry.has(key):
                entry.fail(f"a new card needs {key!r} (known cards may give only what changes)")
    if entry.has("color"):
        row["color"] = colour_index(entry.get("color", str), entry, "color")
    if entry.has("effect"):
        effect = entry.get("effect", str)
        if effect not in EFFECTS:
            entry.fail(f"'effect' must be one of {list(EFFECTS)}, got {effect!r}")
        row["effect"] = EFFECTS.index(effect)
    row["cost"] = entry.int_in("cost", 0, MAX_COST, row.get("cost", ...))
    row["value"] = entry.int_in("value", 0, MAX_COST, row.get("value", ...))
    row["wear"] = entry.int_in("wear", 0, MAX_COUNT, row.get("wear", 0))
    row["count"] = entry.int_in("count", 0, MAX_COUNT, row.get("count", 0))
    row["bonus"] = entry.int_in("bonus", 0, MAX_COUNT, row.get("bonus", 0))
    row["expansion"] = int(entry.get("expansion", bool)) if entry.has("expansion") \
        else row.get("expansion", 0)
    effect_name = EFFECTS[row["effect"]]
    if effect_name in EXACT_MOVES and row["count"] < 1:
        entry.fail(f"a {effect_name!r} card moves 'count' spaces exactly: count must be >= 1")
    if effect_name == "nitro" and row["count"] < 1:
        entry.fail("a 'nitro' card draws 'count' cubes and keeps one: count must be >= 1")
    if effect_name == "gear" and row["color"] not in GEARS:
        entry.fail(f"a 'gear' card must be a gear colour {[COLOURS[g] for g in GEARS]}")
    if (effect_name == "wear") != (row["color"] == WEAR):
        entry.fail("the 'wear' effect belongs to the card of colour 'wear', and only to it")
    if row["color"] in GEARS and effect_name != "gear":
        entry.fail("a card of a gear colour must have effect 'gear'")
    return row


def _colour_counts(entry: Entry, key: str, default: dict | None) -> np.ndarray:
    table = entry.sub(key) if entry.has(key) else None
    out = np.zeros(NUM_COLOURS, dtype=np.int64)
    if table is None:
        if default is None:
            entry.fail(f"missing table {key!r}")
        return default
    table.unknown_keys(set(COLOURS))
    for c, name in enumerate(COLOURS):
        out[c] = table.int_in(name, 0, 999, 0)
    return out


def load_cards(path: str | Path | UserFile | None = None) -> CardData:
    """The default tables, with the cards/sets/cubes/setup of ``path`` laid over them."""
    default = open_data(DEFAULT_FILE)
    user = open_source(path) if path is not None else None
    source = str(path) if path is not None else str(DEFAULT_FILE)
    if user is not None:
        user.unknown_keys({"cubes", "setup", "cards", "sets"})

    rows: dict[str, dict] = {}
    for card in default.subs("cards"):
        row = _card_row(card, None)
        rows[row["name"]] = row
    if user is not None and user.has("cards"):
        for card in user.subs("cards"):
            name = card.get("name", str)
            row = _card_row(card, rows.get(name))
            rows[name] = row
    if len(rows) > MAX_CARDS:
        raise DataFileError(f"{source}: at most {MAX_CARDS} cards, got {len(rows)}")
    names = tuple(rows)
    for colour in (*GEARS, WEAR):
        owners = [n for n in names if rows[n]["color"] == colour]
        if len(owners) != 1:
            raise DataFileError(
                f"{source}: [[cards]]: colour {COLOURS[colour]!r} needs exactly one card, "
                f"got {owners}")
    for colour in CARD_COLOURS:
        if not any(rows[n]["color"] == colour for n in names):
            raise DataFileError(f"{source}: [[cards]]: no card of colour {COLOURS[colour]!r}")

    def column(key: str) -> np.ndarray:
        return np.array([rows[n][key] for n in names], dtype=np.int64)

    sets = _load_sets(default.sub("sets"), rows, source)
    if user is not None and user.has("sets"):
        sets.update(_load_sets(user.sub("sets"), rows, source))

    def section(name: str) -> Entry:
        return user.sub(name) if user is not None and user.has(name) else default.sub(name)

    cubes = section("cubes")
    cubes.unknown_keys({"supply", "starting_bag"})
    supply = _colour_counts(cubes, "supply", None)
    starting = _colour_counts(cubes, "starting_bag", None)
    setup = section("setup")
    setup.unknown_keys({"hand_size", "default_laps", "max_laps", "wear_chart"})
    hand = setup.int_in("hand_size", 1, 30)
    max_laps = setup.int_in("max_laps", 1, 20)
    default_laps = setup.int_in("default_laps", 1, max_laps)
    chart_table = setup.sub("wear_chart")
    chart_table.unknown_keys({COLOURS[g] for g in GEARS})
    chart = np.array([chart_table.int_in(COLOURS[g], 0, MAX_COUNT) for g in GEARS],
                     dtype=np.int64)
    for c in range(NUM_COLOURS):
        if starting[c] * MAX_PLAYERS > supply[c]:
            raise DataFileError(
                f"{source}: [cubes]: {MAX_PLAYERS} starting bags need "
                f"{starting[c] * MAX_PLAYERS} {COLOURS[c]} cubes, the supply has {supply[c]}")
    if starting.sum() < 1:
        raise DataFileError(f"{source}: [cubes]: the starting bag is empty")
    return CardData(
        names=names, colours=column("color"), effects=column("effect"), costs=column("cost"),
        values=column("value"), wear=column("wear"), count=column("count"),
        bonus=column("bonus"), expansion=column("expansion"), sets=sets, supply=supply,
        starting_bag=starting,
        hand_size=hand, default_laps=default_laps, max_laps=max_laps, wear_chart=chart,
        source=source,
    )


def _load_sets(entry: Entry, rows: dict[str, dict], source: str) -> dict[str, tuple[str, ...]]:
    sets = {}
    for name, cards in entry.table.items():
        if not isinstance(cards, list):
            entry.fail(f"set {name!r} must be a list of 5 card names")
        problem = set_problem(cards, rows)
        if problem:
            entry.fail(f"set {name!r}: {problem}")
        sets[name] = tuple(cards)
    return sets


def set_problem(cards: object, rows: dict[str, dict]) -> str | None:
    """Why ``cards`` is not a card set (five known names, one per colour), or None."""
    if not isinstance(cards, (list, tuple)) or len(cards) != len(CARD_COLOURS):
        return (f"a card set is a list of {len(CARD_COLOURS)} card names, one per colour "
                f"{[COLOURS[c] for c in CARD_COLOURS]}; got {cards!r}")
    unknown = [c for c in cards if not isinstance(c, str) or c not in rows]
    if unknown:
        known = sorted(n for n, r in rows.items() if r["color"] in CARD_COLOURS)
        return f"unknown card name(s) {unknown}; known cards: {known}"
    colours = [COLOURS[rows[c]["color"]] for c in cards]
    for colour in CARD_COLOURS:
        if colours.count(COLOURS[colour]) != 1:
            return (f"needs exactly one {COLOURS[colour]} card, got "
                    f"{[c for c, k in zip(cards, colours, strict=True) if k == COLOURS[colour]]}"
                    f" (cards and colours: "
                    f"{', '.join(f'{c} ({k})' for c, k in zip(cards, colours, strict=True))})")
    return None


# ===== tracks ===================================================================================
@dataclass(frozen=True)
class TrackData:
    """A board: spaces (lane, end, length, colours), computed adjacency and the grid."""

    name: str
    lap_length: int
    lanes: int
    direction: str
    lane: np.ndarray         # (n,) 0 = innermost
    start: np.ndarray        # (n,) rear edge, 0 <= start < lap_length
    end: np.ndarray          # (n,) front edge in (0, lap_length]
    length: np.ndarray       # (n,) segments
    colours: np.ndarray      # (n,) bit mask over the 4 gear colours
    adj: np.ndarray          # (n, MAX_ADJ) forward neighbours, -1 = none
    adj_dist: np.ndarray     # (n, MAX_ADJ) how far the neighbour's front edge is ahead
    adj_same: np.ndarray     # (n, MAX_ADJ) 1 when the neighbour is in the same lane
    next_same: np.ndarray    # (n,) next space of the same lane, -1 = none
    cover: np.ndarray        # (lanes, lap_length) space covering unit [x, x+1) of a lane, -1
    grid: np.ndarray         # (slots,) space of P1, P2, ...
    allowance: np.ndarray    # (slots,)
    source: str
    #: (n,) -1 for a space of the board; for an own-space start slot (R-YUC start/finish
    #: note) the space it is cut from. Slots follow the board's spaces and are in no
    #: ``cover`` row: nothing moves into them, their car only leaves.
    parent: np.ndarray
    #: (n,) segments of the space past the finish line when the checkered flag cuts it
    flag: np.ndarray

    @property
    def num_spaces(self) -> int:
        """Spaces including own-space start slots (the ids of the parameter vector)."""
        return int(self.lane.shape[0])

    @property
    def board_spaces(self) -> int:
        """Spaces of the board itself (the slots come after them)."""
        return int(np.count_nonzero(self.parent < 0))

    @property
    def slot_of(self) -> np.ndarray:
        """(n,) 1 + id of the own-space start slot cut from each space, 0 = none."""
        out = np.zeros(self.num_spaces, dtype=np.int64)
        for slot in np.flatnonzero(self.parent >= 0):
            out[self.parent[slot]] = slot + 1
        return out


def load_track(track: str | Path | UserFile,
               patch: str | Path | UserFile | None = None) -> TrackData:
    """A shipped board by name (``TRACKS``) or a TOML file by path; ``patch`` (the
    ``track_data`` file) changes a shipped board's grid slots (``patch_track``)."""
    if isinstance(track, UserFile):
        path: Path | UserFile = track
    else:
        path = TRACKS[track] if isinstance(track, str) and track in TRACKS else Path(track)
    top = open_source(path)
    source = str(path)
    if patch is not None:
        top = patch_track(top, track if isinstance(track, str) else "", patch)
        source = top.source
    top.unknown_keys({"track", "spaces", "grid"})
    head = top.sub("track")
    head.unknown_keys({"name", "lap_length", "lanes", "direction"})
    name = head.get("name", str)
    lap = head.int_in("lap_length", 4, MAX_LAP)
    lanes = head.int_in("lanes", 1, MAX_LANES)
    direction = head.get("direction", str, "counter-clockwise")
    if direction not in DIRECTIONS:
        head.fail(f"'direction' must be one of {list(DIRECTIONS)}, got {direction!r}")
    lane_l, start_l, len_l, col_l, flag_l, cover = _load_spaces(top, lap, lanes)
    n = len(lane_l)
    if n < 2:
        top.fail("a track needs at least 2 spaces")
    lane_a = np.array(lane_l, dtype=np.int64)
    start_a = np.array(start_l, dtype=np.int64)
    len_a = np.array(len_l, dtype=np.int64)
    end_a = (start_a + len_a) % lap
    end_a[end_a == 0] = lap
    adj, dist, same, nxt = adjacency(lane_a, end_a, len_a, lap)
    for space in range(n):
        if adj[space, 0] < 0:
            raise DataFileError(
                f"{source}: [[spaces]]: space {space} (lane {lane_a[space]}, positions "
                f"{start_a[space]}-{end_a[space]}) has no space ahead of it: a car there "
                f"could never move")
    flag_a = np.array(flag_l, dtype=np.int64)
    grid, allowance, slots = _load_grid(top, source, lap, lanes, cover, end_a, lane_a, len_a,
                                        flag_a)
    parent = -np.ones(n + len(slots), dtype=np.int64)
    for k, (at, space) in enumerate(slots):
        slot = n + k
        parent[slot] = space
        lane_a = np.append(lane_a, lane_a[space])
        start_a = np.append(start_a, at)
        len_a = np.append(len_a, 1)
        end_a = np.append(end_a, at + 1)
        col_l.append(col_l[space])
        flag_a = np.append(flag_a, 0)
        rows = _slot_adjacency(int(lane_a[slot]), at + 1, cover, end_a, lap)
        adj, dist, same = (np.vstack([adj, rows[0]]), np.vstack([dist, rows[1]]),
                           np.vstack([same, rows[2]]))
        nxt = np.append(nxt, cover[lane_a[slot], (at + 1) % lap])
    if len(parent) > MAX_SPACES:
        top.fail(f"a track holds at most {MAX_SPACES} spaces (own-space grid slots count), "
                 f"got {len(parent)}")
    return TrackData(
        name=name, lap_length=lap, lanes=lanes, direction=direction, lane=lane_a,
        start=start_a, end=end_a, length=len_a, colours=np.array(col_l, dtype=np.int64),
        adj=adj, adj_dist=dist, adj_same=same, next_same=nxt, cover=cover, grid=grid,
        allowance=allowance, source=source, parent=parent, flag=flag_a,
    )


#: the keys of one grid slot of a ``track_data`` patch
GRID_PATCH_KEYS = {"slot", "lane", "at", "allowance", "own_space"}


def patch_track(top: Entry, board: str, patch: str | Path | UserFile) -> Entry:
    """The board ``top`` (the shipped board named ``board``) with the ``track_data`` patch
    laid over it: tables named after shipped boards, each with ``[[<board>.grid]]`` rows
    matched by ``slot`` (1 = P1) whose keys replace the slot's. A board the game does not
    play is left alone; a name that is no shipped board is an error."""
    user = open_source(patch, "track_data")
    user.unknown_keys(set(TRACKS))
    if not user.has(board):
        return top
    table = user.sub(board)
    table.unknown_keys({"grid"})
    grid = [dict(slot) for slot in top.get("grid", list)]
    seen: set[int] = set()
    for row in table.subs("grid"):
        row.unknown_keys(GRID_PATCH_KEYS)
        slot = row.int_in("slot", 1, len(grid))
        if slot in seen:
            row.fail(f"grid slot {slot} is listed twice")
        seen.add(slot)
        grid[slot - 1].update({k: v for k, v in row.table.items() if k != "slot"})
    return Entry(f"{patch} (over {top.source})", "<top>", {**top.table, "grid": grid})


def _load_spaces(top: Entry, lap: int, lanes: int):
    """The ``[[spaces]]`` rows (``count`` expanded) and the ``cover`` table. A space may
    run across the finish line only when it says where the checkered flag cuts it:
    ``flag`` = its segments past the line (R-YUC start/finish note)."""
    gear_names = tuple(COLOURS[g] for g in GEARS)
    lane_l, start_l, len_l, col_l, flag_l = [], [], [], [], []
    cover = -np.ones((lanes, lap), dtype=np.int64)
    for entry in top.subs("spaces"):
        entry.unknown_keys({"lane", "start", "length", "colors", "count", "flag"})
        lane = entry.int_in("lane", 0, lanes - 1)
        start = entry.int_in("start", 0, lap - 1)
        length = entry.int_in("length", 1, min(MAX_SEGMENTS, lap))
        count = entry.int_in("count", 1, MAX_SPACES, 1)
        names = entry.get("colors", list)
        if not 1 <= len(names) <= 3 or len(set(map(str, names))) != len(names):
            entry.fail(f"'colors' must list 1-3 different colours of {list(gear_names)}, "
                       f"got {names!r}")
        mask = 0
        for colour in names:
            mask |= 1 << colour_index(colour, entry, "colors", GEARS)
        flag = 0
        if entry.has("flag"):
            flag = entry.int_in("flag", 1, max(1, length - 1))
            if length < 2:
                entry.fail("'flag' needs a space of 2 or more segments (the checkered flag "
                           "cuts it between two of them)")
            if count != 1:
                entry.fail("'flag' describes one space: give it without 'count'")
            if start + length != lap + flag:
                entry.fail(f"'flag' = {flag}: the checkered flag at position 0 leaves {flag} "
                           f"of the {length} segments past the line, so 'start' must be "
                           f"{lap - (length - flag)}, got {start}")
        for k in range(count):
            space = len(lane_l)
            if space >= MAX_SPACES:
                entry.fail(f"a track holds at most {MAX_SPACES} spaces")
            s0 = start + k * length
            if flag == 0 and s0 % lap + length > lap:
                entry.fail(f"space {space} (lane {lane}, positions {s0 % lap}-"
                           f"{(s0 + length) % lap}) runs across the finish line: say where "
                           f"the checkered flag cuts it with 'flag' (its segments past the "
                           f"line)")
            for u in range(s0, s0 + length):
                other = cover[lane, u % lap]
                if other >= 0:
                    entry.fail(f"space {space} (lane {lane}, positions {s0 % lap}-"
                               f"{(s0 + length) % lap}) overlaps space {other} at position "
                               f"{u % lap}")
                cover[lane, u % lap] = space
            lane_l.append(lane)
            start_l.append(s0 % lap)
            len_l.append(length)
            col_l.append(mask)
            flag_l.append(flag)
    return lane_l, start_l, len_l, col_l, flag_l, cover


def _load_grid(top: Entry, source: str, lap: int, lanes: int, cover: np.ndarray,
               end: np.ndarray, lane: np.ndarray, length: np.ndarray, flag: np.ndarray):
    """The ``[[grid]]`` slots: ``(grid, allowance, own-space slots)``. A slot is a whole
    space, or with ``own_space = true`` the one segment at ``at`` of a longer space: its
    car treats it as a space of its own until it leaves (R-YUC start/finish note: P1 in
    space A). Every slot lies behind the line, each behind the one before in race order.
    Own-space slot ids are given after the board's spaces, in grid order."""
    n = len(end)
    grid_l, allowance_l, fronts, slots, used = [], [], [], [], {}
    for entry in top.subs("grid"):
        entry.unknown_keys({"lane", "at", "allowance", "own_space"})
        slot_lane = entry.int_in("lane", 0, lanes - 1)
        at = entry.int_in("at", 0, lap - 1)
        own = entry.get("own_space", bool, False)
        space = int(cover[slot_lane, at])
        if space < 0:
            entry.fail(f"no space of lane {slot_lane} covers position {at}")
        if space in used:
            entry.fail(f"space {space} already holds grid slot P{used[space] + 1}")
        past_line = flag[space] > 0 and at < end[space]
        if own:
            if length[space] < 2:
                entry.fail(f"'own_space' cuts one segment out of a longer space, but space "
                           f"{space} (lane {slot_lane}, position {at}) has 1 segment: drop "
                           f"'own_space'")
            if past_line:
                entry.fail(f"position {at} of space {space} lies past the finish line (the "
                           f"checkered flag leaves {flag[space]} segment(s) of it past the "
                           f"line): a starting slot must be behind the line")
            grid_l.append(n + len(slots))
            slots.append((at, space))
            fronts.append(at + 1)
        else:
            if flag[space] > 0:
                entry.fail(f"space {space} is cut by the checkered flag, so its front lies "
                           f"past the finish line: start in it with 'own_space = true' on a "
                           f"segment behind the line")
            grid_l.append(space)
            fronts.append(int(end[space]))
        used[space] = len(grid_l) - 1
        allowance_l.append(entry.int_in("allowance", 0, 999))
    if not 1 <= len(grid_l) <= MAX_PLAYERS:
        top.fail(f"[[grid]] must list 1-{MAX_PLAYERS} starting slots, got {len(grid_l)}")
    order = [(lap - f, int(lane[space])) for f, space in zip(fronts, used, strict=True)]
    for i in range(1, len(order)):
        if not order[i - 1] < order[i]:
            raise DataFileError(
                f"{source}: [[grid]]: slot P{i + 1} must be behind P{i} in race order "
                f"(farther from the line, or level with it in an outer lane)")
    return (np.array(grid_l, dtype=np.int64), np.array(allowance_l, dtype=np.int64), slots)


def _slot_adjacency(lane: int, front: int, cover: np.ndarray, end: np.ndarray, lap: int):
    """Forward neighbours of an own-space slot whose front edge is at ``front``: in each
    lane the space covering the point just past it (as ``board.neighbour``)."""
    adj = -np.ones((1, MAX_ADJ), dtype=np.int64)
    dist = np.zeros((1, MAX_ADJ), dtype=np.int64)
    same = np.zeros((1, MAX_ADJ), dtype=np.int64)
    k = 0
    for other in (lane, lane - 1, lane + 1):
        if 0 <= other < cover.shape[0] and cover[other, front % lap] >= 0:
            to = int(cover[other, front % lap])
            adj[0, k] = to
            dist[0, k] = (int(end[to]) - front - 1) % lap + 1
            same[0, k] = int(other == lane)
            k += 1
    return adj, dist, same


def adjacency(lane: np.ndarray, end: np.ndarray, length: np.ndarray, lap: int):
    """Forward neighbours of every space from its front segment (R-BASE "How to Move on
    the Track"); the kernels apply the same rule from any segment with the ``cover`` table
    (``board.neighbour``).

    B is ahead of A when its front edge is ``d`` segments past A's front edge with
    ``0 < d < lap``; it is adjacent when the lanes differ by at most one (diagonals count)
    and B reaches back to A's front edge (``d <= length[B]``: B covers the point just
    past A). Spaces of one lane never overlap, so each lane offers at most one neighbour.
    """
    n = lane.shape[0]
    adj = -np.ones((n, MAX_ADJ), dtype=np.int64)
    dist = np.zeros((n, MAX_ADJ), dtype=np.int64)
    same = np.zeros((n, MAX_ADJ), dtype=np.int64)
    nxt = -np.ones(n, dtype=np.int64)
    for a in range(n):
        k = 0
        for b in range(n):
            if b == a or abs(int(lane[a]) - int(lane[b])) > 1:
                continue
            d = (int(end[b]) - int(end[a]) - 1) % lap + 1
            if d < lap and d <= length[b]:
                adj[a, k] = b
                dist[a, k] = d
                same[a, k] = int(lane[a] == lane[b])
                if lane[a] == lane[b]:
                    nxt[a] = b
                k += 1
    return adj, dist, same, nxt


def suggested_sets() -> dict[str, tuple[str, ...]]:
    """The rulebook's suggested card sets (name -> Garage, Pit, Handling, Performance,
    Engine card names), from the default data file."""
    return dict(load_cards().sets)


SUGGESTED_SETS: dict[str, tuple[str, ...]] = suggested_sets()
COLOUR_NAMES: tuple[str, ...] = COLOURS
