"""Every number of Planes: components, setup counts, the 15 cards and the airports.

Defaults come from ``data.toml`` (components, cards) and ``airports/*.toml`` beside
this module; each value is marked CONFIRMED, INFERRED or RECONSTRUCTED there. Users
pass their own airport with ``airport=path`` and their own card table with
``cards=path``; both are validated against every rule the rulebook puts on them, and
errors name the file, the entry and what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.core.datafile import Entry, open_data
from transit_gym.envs.core.embedded import UserFile, open_source
from transit_gym.envs.core.errors import ConfigError

HERE = Path(__file__).resolve().parent
DEFAULT_FILE = HERE / "data.toml"
AIRPORTS = {
    "flying_cloud": HERE / "airports" / "flying_cloud.toml",
    "zephyr": HERE / "airports" / "zephyr.toml",
}

# ----- colours, points of interest, kinds -----------------------------------------------------
NUM_PARTY_COLORS = 4                 # red, blue, green, yellow: always all four on the board
GREY = 4                             # the neutral cubes' colour
NUM_COLORS = 5
COLOR_NAMES = ("red", "blue", "green", "yellow", "grey")

POI_NAMES = ("blank", "restroom", "fast_food", "gift_shop", "help_desk", "fine_dining")
BLANK, RESTROOM, FAST_FOOD, GIFT_SHOP, HELP_DESK, FINE_DINING = range(6)
NUM_POI = len(POI_NAMES)

ACTION_KINDS = ("draw", "gather", "choose_one", "skip", "draw_discard", "regroup", "send",
                "ignore_neutrals", "backwards", "own_only", "move_twice")
(ACT_DRAW, ACT_GATHER, ACT_CHOOSE_ONE, ACT_SKIP, ACT_DRAW_DISCARD, ACT_REGROUP, ACT_SEND,
 ACT_IGNORE_NEUTRALS, ACT_BACKWARDS, ACT_OWN_ONLY, ACT_MOVE_TWICE) = range(len(ACTION_KINDS))
#: which action kinds take ``n`` and ``poi`` arguments
ACTION_ARGS = {"draw": {"n"}, "gather": {"poi"}, "draw_discard": {"n"}, "send": {"poi", "n"}}

# ----- capacities (the rulebook's components bound them) --------------------------------------
MAX_SPACES = 14      # 4 start spaces + 20 neutral cubes / 2 per other space (Setup 3-4)
MAX_GATES = 8        # G1-G4 and up to 4 neutral gates
MAX_NEUTRAL_GATES = MAX_GATES - NUM_PARTY_COLORS
MAX_ARROWS = 4       # one-way arrows out of (or into) one space
MAX_TYPES = 15       # unique cards
COPIES = 4           # copies of each card, one per player dot
MAX_CUBES = 40
SOLE_MINE, SOLE_NEUTRAL = 1, 2   # goal_sole: whose cubes must be alone in the space
NO_LIMIT = 40        # upper bound of a "mine"/"neutral" range that means "no upper limit"

#: values marked RECONSTRUCTED in the shipped files (for docs and reports)
RECONSTRUCTED = (
    "Flying Cloud airport: every space, arrow, start, gate and point of interest",
    "Zephyr airport: every space, arrow, start, gate and point of interest",
    "point-of-interest token split (6 of each non-blank kind)",
)
INFERRED = ("which action is printed with which goal on each card (data 1.3)",)


@dataclass(frozen=True)
class Components:
    """Component counts and rule numbers from ``data.toml``."""

    party_cubes: int
    neutral_cubes: int
    plane_slots: int
    cones: int
    hand_size: int
    neutral_per_space: int
    track_end: int
    blockage_threshold: int
    vp_per_cube: int
    neutral_board_draw: int
    empty_hand_draw: int
    poi_tokens: dict[str, int]


@dataclass(frozen=True)
class Cards:
    """The card table: one row per unique card (each has ``COPIES`` copies)."""

    names: tuple[str, ...]
    action: np.ndarray        # (T,) action kind
    action_n: np.ndarray      # (T,) draw count / cubes sent (0 when unused)
    action_poi: np.ndarray    # (T,) point of interest (-1 when unused)
    goal_poi: np.ndarray      # (T,) required point of interest, -1 any
    goal_cubes: np.ndarray    # (T,) exact total, -1 any
    goal_colors: np.ndarray   # (T,) exact number of distinct colours, -1 any
    goal_mine: np.ndarray     # (T, 2) min, max cubes of the scorer's colour
    goal_neutral: np.ndarray  # (T, 2) min, max neutral cubes
    goal_sole: np.ndarray     # (T,) strict Q3 reading: 1 only your cubes, 2 only neutrals, 0 -
    vp: np.ndarray            # (T,)
    source: str

    @property
    def num_types(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class Airport:
    """An airport board: spaces, arrows, starts, gates and points of interest."""

    name: str
    space_ids: tuple[str, ...]
    gate_ids: tuple[str, ...]
    next: list[list[int]]        # one-way arrows out of each space
    poi: np.ndarray              # (S,) point of interest per space
    start: np.ndarray            # (4,) space of P1..P4
    gate_access: np.ndarray      # (G,) space in front of each gate
    gate_start: np.ndarray       # (G,) 0..3 for G1..G4 (matches P1..P4), -1 for neutral gates
    at: np.ndarray               # (S, 2) drawing position
    source: str
    reconstructed: bool = False  # a layout that fits the rules, not the printed board

    @property
    def num_spaces(self) -> int:
        return len(self.space_ids)

    @property
    def num_gates(self) -> int:
        return len(self.gate_ids)

    def prev(self) -> list[list[int]]:
        """Arrows reversed: the spaces whose arrows point into each space."""
        back: list[list[int]] = [[] for _ in self.space_ids]
        for a, targets in enumerate(self.next):
            for b in targets:
                back[b].append(a)
        return back

    def space_index(self, space_id: str) -> int:
        return self.space_ids.index(space_id)


# ----- components -----------------------------------------------------------------------------
def load_components() -> Components:
    """Components and rule numbers of ``data.toml`` (checked against the capacities)."""
    top = open_data(DEFAULT_FILE)
    comp = top.sub("components")
    setup = top.sub("setup")
    rules = top.sub("rules")
    tokens = top.sub("poi_tokens")
    tokens.unknown_keys(set(POI_NAMES))
    result = Components(
        party_cubes=comp.int_in("party_cubes_per_color", 1, 10),
        neutral_cubes=comp.int_in("neutral_cubes", 0, 2 * (MAX_SPACES - NUM_PARTY_COLORS)),
        plane_slots=comp.int_in("plane_slots", 1, 10),
        cones=comp.int_in("blockage_cones", 0, 20),
        hand_size=setup.int_in("hand_size", 0, 15),
        neutral_per_space=setup.int_in("neutral_per_space", 1, 10),
        track_end=setup.int_in("track_end", 1, 40),
        blockage_threshold=rules.int_in("blockage_threshold", 1, MAX_CUBES),
        vp_per_cube=rules.int_in("vp_per_cube", 0, 100),
        neutral_board_draw=rules.int_in("neutral_board_draw", 0, 10),
        empty_hand_draw=rules.int_in("empty_hand_draw", 0, 10),
        poi_tokens={name: tokens.int_in(name, 0, 100) for name in POI_NAMES},
    )
    if comp.int_in("copies_per_card", 1, 10) != COPIES:
        comp.fail(f"'copies_per_card' must be {COPIES} (one per player dot)")
    cubes = NUM_PARTY_COLORS * result.party_cubes + result.neutral_cubes
    if cubes > MAX_CUBES:
        comp.fail(f"at most {MAX_CUBES} cubes fit the state, got {cubes}")
    return result


COMPONENTS = load_components()


# ----- cards ----------------------------------------------------------------------------------
def _poi_value(entry: Entry, key: str) -> int:
    name = entry.get(key, str)
    if name not in POI_NAMES:
        entry.fail(f"{key!r} must be one of {list(POI_NAMES)}, got {name!r}")
    return POI_NAMES.index(name)


def _range(entry: Entry, key: str) -> tuple[int, int]:
    low, high = entry.int_list(key, length=2, low=0, high=NO_LIMIT)
    if low > high:
        entry.fail(f"{key!r} must be [min, max] with min <= max, got {[low, high]}")
    return low, high


def _load_card(card: Entry) -> dict[str, Any]:
    card.unknown_keys({"name", "action", "goal", "vp"})
    name = card.get("name", str)
    if not name.strip():
        card.fail("'name' must not be empty")
    action = card.sub("action")
    kind = action.get("kind", str)
    if kind not in ACTION_KINDS:
        action.fail(f"'kind' must be one of {list(ACTION_KINDS)}, got {kind!r}")
    allowed = ACTION_ARGS.get(kind, set())
    action.unknown_keys({"kind"} | allowed)
    n = action.int_in("n", 1, 5) if "n" in allowed else 0
    if kind == "send" and n > 2:
        action.fail(f"'n' of a send action must be 1 or 2, got {n}")
    poi = _poi_value(action, "poi") if "poi" in allowed else -1
    if poi == BLANK:
        action.fail("'poi' of an action cannot be 'blank'")
    goal = card.sub("goal")
    goal.unknown_keys({"poi", "cubes", "colors", "mine", "neutral", "sole"})
    row = {
        "name": name, "action": ACTION_KINDS.index(kind), "action_n": n, "action_poi": poi,
        "goal_poi": _poi_value(goal, "poi") if goal.has("poi") else -1,
        "goal_cubes": goal.int_in("cubes", 0, MAX_CUBES) if goal.has("cubes") else -1,
        "goal_colors": goal.int_in("colors", 1, NUM_COLORS) if goal.has("colors") else -1,
        "goal_mine": _range(goal, "mine") if goal.has("mine") else (0, NO_LIMIT),
        "goal_neutral": _range(goal, "neutral") if goal.has("neutral") else (0, NO_LIMIT),
        "goal_sole": 0,
        "vp": card.int_in("vp", 0, 20),
    }
    if goal.get("sole", bool, False):
        if goal.has("mine") == goal.has("neutral"):
            goal.fail("'sole' needs exactly one of 'mine' or 'neutral' to apply to")
        row["goal_sole"] = SOLE_MINE if goal.has("mine") else SOLE_NEUTRAL
    if not goal.table:
        goal.fail("a goal needs at least one condition")
    return row


def load_cards(path: str | Path | UserFile | None = None) -> Cards:
    """The card table of ``data.toml``, or of the user file ``path`` (its ``[[cards]]``)."""
    source = str(path) if path is not None else str(DEFAULT_FILE)
    top = open_source(path if path is not None else DEFAULT_FILE)
    if path is not None:
        top.unknown_keys({"cards"})
    entries = top.subs("cards")
    if not 1 <= len(entries) <= MAX_TYPES:
        top.fail(f"'cards' must list 1..{MAX_TYPES} unique cards, got {len(entries)}")
    rows = [_load_card(card) for card in entries]
    names = [r["name"] for r in rows]
    for i, name in enumerate(names):
        if names.index(name) != i:
            entries[i].fail(f"card name {name!r} is used twice")

    def column(key: str) -> np.ndarray:
        return np.array([r[key] for r in rows], dtype=np.int64)

    return Cards(
        names=tuple(names), action=column("action"), action_n=column("action_n"),
        action_poi=column("action_poi"), goal_poi=column("goal_poi"),
        goal_cubes=column("goal_cubes"), goal_colors=column("goal_colors"),
        goal_mine=column("goal_mine").reshape(-1, 2),
        goal_neutral=column("goal_neutral").reshape(-1, 2),
        goal_sole=column("goal_sole"), vp=column("vp"), source=source,
    )


# ----- airports -------------------------------------------------------------------------------
def _strongly_connected(next_: list[list[int]]) -> bool:
    n = len(next_)
    back: list[list[int]] = [[] for _ in range(n)]
    for a, targets in enumerate(next_):
        for b in targets:
            back[b].append(a)
    for graph in (next_, back):
        seen = {0}
        todo = [0]
        while todo:
            for b in graph[todo.pop()]:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        if len(seen) != n:
            return False
    return True


def _load_spaces(top: Entry) -> tuple[list[str], list[Entry]]:
    entries = top.subs("spaces")
    if not 1 <= len(entries) <= MAX_SPACES:
        top.fail(f"'spaces' must list 1..{MAX_SPACES} spaces (4 start spaces and at most "
                 f"10 others, which take the 20 neutral cubes 2 each: Setup 4), "
                 f"got {len(entries)}")
    ids: list[str] = []
    for space in entries:
        space.unknown_keys({"id", "start", "poi", "next", "at"})
        sid = space.get("id", str)
        if not sid.strip():
            space.fail("'id' must not be empty")
        if sid in ids:
            space.fail(f"space id {sid!r} is used twice")
        ids.append(sid)
    return ids, entries


def load_airport(name_or_path: str | Path | UserFile = "flying_cloud") -> Airport:
    """A shipped airport by name (``flying_cloud``, ``zephyr``) or a user's TOML file.

    Checked: four start spaces P1-P4; gates G1-G4 matching them and at least one
    neutral gate, each in front of a space; one-way arrows to existing spaces; two
    neutral cubes fit on every space that is not a start (Setup 3-4); and every space
    reachable from every other along the arrows (so a move, forwards or backwards,
    is always possible and every party can reach its gate).
    """
    path: Path | UserFile
    if isinstance(name_or_path, UserFile):
        path = name_or_path
    elif isinstance(name_or_path, str) and name_or_path in AIRPORTS:
        path = AIRPORTS[name_or_path]
    else:
        path = Path(name_or_path)
    source = str(path)
    top = open_source(path)
    top.unknown_keys({"airport", "spaces", "gates"})
    head = top.sub("airport")
    head.unknown_keys({"name", "reconstructed"})
    name = head.get("name", str)
    reconstructed = head.get("reconstructed", bool, False)
    ids, entries = _load_spaces(top)
    n = len(ids)
    next_: list[list[int]] = []
    poi = np.zeros(n, dtype=np.int64)
    start = -np.ones(NUM_PARTY_COLORS, dtype=np.int64)
    at = np.zeros((n, 2), dtype=np.float64)
    for i, space in enumerate(entries):
        poi[i] = _poi_value(space, "poi")
        targets = space.get("next", list)
        if not 1 <= len(targets) <= MAX_ARROWS:
            space.fail(f"'next' must list 1..{MAX_ARROWS} spaces (one-way arrows), "
                       f"got {len(targets)}")
        row = []
        for target in targets:
            if not isinstance(target, str) or target not in ids:
                space.fail(f"'next' entry {target!r} is not a space id; spaces: {ids}")
            j = ids.index(target)
            if j == i:
                space.fail(f"an arrow cannot lead from {target!r} back to itself")
            if j in row:
                space.fail(f"the arrow to {target!r} is listed twice")
            row.append(j)
        next_.append(row)
        if space.has("start"):
            k = space.int_in("start", 1, NUM_PARTY_COLORS)
            if start[k - 1] >= 0:
                space.fail(f"start space P{k} is already {ids[start[k - 1]]!r}")
            start[k - 1] = i
        if space.has("at"):
            xy = space.get("at", list)
            if len(xy) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                       for v in xy):
                space.fail(f"'at' must be [column, row] numbers, got {xy!r}")
            at[i] = xy
        else:
            angle = 2 * np.pi * i / n
            at[i] = (2 + 2 * np.cos(angle), 2 + 2 * np.sin(angle))
    missing = [f"P{k + 1}" for k in range(NUM_PARTY_COLORS) if start[k] < 0]
    if missing:
        top.fail(f"spaces must include start spaces P1-P4 (key 'start'); missing {missing}")
    gate_ids, access, gate_start = _load_gates(top, ids)
    into = [sum(i in row for row in next_) for i in range(n)]
    for i, count in enumerate(into):
        if count > MAX_ARROWS:
            entries[i].fail(f"at most {MAX_ARROWS} arrows may lead into one space, got {count}")
    if not _strongly_connected(next_):
        top.fail("every space must be reachable from every other along the arrows "
                 "(a space without a way out, or in, would make moves impossible)")
    return Airport(
        name=name, space_ids=tuple(ids), gate_ids=tuple(gate_ids), next=next_, poi=poi,
        start=start, gate_access=np.array(access, dtype=np.int64),
        gate_start=np.array(gate_start, dtype=np.int64), at=at, source=source,
        reconstructed=reconstructed,
    )


def _load_gates(top: Entry, ids: list[str]) -> tuple[list[str], list[int], list[int]]:
    entries = top.subs("gates")
    gate_ids: list[str] = []
    access: list[int] = []
    gate_start: list[int] = []
    for gate in entries:
        gate.unknown_keys({"id", "start", "neutral", "access"})
        gid = gate.get("id", str)
        if not gid.strip():
            gate.fail("'id' must not be empty")
        if gid in gate_ids or gid in ids:
            gate.fail(f"gate id {gid!r} is already used by a gate or a space")
        neutral = gate.get("neutral", bool, False)
        if neutral == gate.has("start"):
            gate.fail("a gate needs either 'start' (the P number it matches) or neutral = true")
        k = -1 if neutral else gate.int_in("start", 1, NUM_PARTY_COLORS) - 1
        if k >= 0 and k in gate_start:
            gate.fail(f"gate G{k + 1} (matching P{k + 1}) is listed twice")
        target = gate.get("access", str)
        if target not in ids:
            gate.fail(f"'access' {target!r} is not a space id; spaces: {ids}")
        gate_ids.append(gid)
        access.append(ids.index(target))
        gate_start.append(k)
    missing = [f"G{k + 1}" for k in range(NUM_PARTY_COLORS) if k not in gate_start]
    if missing:
        top.fail(f"gates must include G1-G4, one per start space; missing {missing}")
    neutral_count = gate_start.count(-1)
    if not 1 <= neutral_count <= MAX_NEUTRAL_GATES:
        top.fail(f"an airport needs 1..{MAX_NEUTRAL_GATES} neutral gates for the grey planes, "
                 f"got {neutral_count}")
    return gate_ids, access, gate_start


def custom_poi(airport: Airport, tokens: dict[str, str]) -> np.ndarray:
    """Points of interest after placing tokens (optional rule "Point of Interest Tokens").

    ``tokens`` maps space ids to a kind (``"blank"`` covers a printed one). Raises
    ``ConfigError`` naming a bad space or kind, or a kind used more often than the box
    holds tokens of it.
    """
    poi = airport.poi.copy()
    used = dict.fromkeys(POI_NAMES, 0)
    for space_id, kind in tokens.items():
        if space_id not in airport.space_ids:
            raise ConfigError(f"poi: {space_id!r} is not a space of {airport.name}; "
                             f"spaces: {list(airport.space_ids)}")
        if kind not in POI_NAMES:
            raise ConfigError(f"poi: {space_id!r} -> {kind!r}; kinds: {list(POI_NAMES)}")
        used[kind] += 1
        poi[airport.space_index(space_id)] = POI_NAMES.index(kind)
    for kind, count in used.items():
        if count > COMPONENTS.poi_tokens[kind]:
            raise ConfigError(f"poi: {count} {kind} tokens placed, the box holds "
                             f"{COMPONENTS.poi_tokens[kind]}")
    return poi
