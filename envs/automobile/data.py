"""Every number of Automobile: the production track, costs, prices, turn track, characters.

The defaults come from ``data.toml`` beside this module, each value marked CONFIRMED,
INFERRED or RECONSTRUCTED there. Users who own the board pass their own file with
``data=path``; top-level tables it leaves out keep the defaults. Validation errors
name the file, the entry and what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from transit_gym.envs.core.datafile import Entry, open_data
from transit_gym.envs.core.embedded import UserFile, open_source
from transit_gym.envs.core.errors import DataFileError

DEFAULT_FILE = Path(__file__).with_name("data.toml")

SEGMENTS = ("mass", "middle", "premium")     # index = segment id (A, B, C on the board)
MASS, MIDDLE, PREMIUM = 0, 1, 2
NO_SEGMENT = -1
CHARACTERS = ("ford", "kettering", "sloan", "howard", "durant", "chrysler")
FORD, KETTERING, SLOAN, HOWARD, DURANT, CHRYSLER = range(6)

NUM_SPACES = 26        # RB: 26 production spaces
NUM_TURNS = 4          # RB: four turns
NUM_LABELS = 3         # sale-box labels '1-4', '2-4', '3-4'
NUM_LEVELS = 3         # 1, 2 or 3 factories on a space
MAX_TILE_KINDS = 8     # distinct demand-tile values
MAX_ADS = 3            # advertisement markers (action layout: one "buy an ad" action)
MAX_STACKS = 4         # discount display spaces
MAX_STACK = 2          # markers in one discount stack (actions: take a stack of 1 or 2)
MAX_CARS = 28          # production quantities 0..28 are actions
MAX_BOXES = 40         # sale boxes per sales track

#: the default values that are RECONSTRUCTED (for docs and reports)
RECONSTRUCTED = (
    "segment and cost of production spaces 7 and 9-26 (DATA 1c rule)",
    "names of production spaces 7, 9-25 (placeholders)",
    "sale boxes per track: 3 boxes of each label '1-4', '2-4', '3-4' (DATA 2b)",
)
INFERRED = (
    "loss-cube price in turns 2-4: $20, $30, $40 (DATA 3)",
    "Sloan's place (third) in the character order (DATA 4a)",
)


@dataclass(frozen=True)
class AutomobileData:
    """The validated tables of one data file (numpy arrays of int64)."""

    names: tuple[str, ...]
    segment: np.ndarray            # (26,) segment of each space
    cost: np.ndarray               # (26,) factory cost of each space
    prod_cost: np.ndarray          # (3,) cost per car by segment
    prod_min: np.ndarray           # (3, 3) [segment, factories - 1]
    prod_max: np.ndarray           # (3, 3)
    price_top: np.ndarray          # (3,)
    price_low: np.ndarray          # (3,)
    boxes: np.ndarray              # (3, 3) [segment, label]
    loss_price: np.ndarray         # (4,)
    tiles_per_player: np.ndarray   # (4,)
    higher_seg: np.ndarray         # (4,)
    lower_seg: np.ndarray          # (4,) NO_SEGMENT when one tile
    premium_bag: np.ndarray        # (4,)
    mass_bag: np.ndarray           # (4,)
    tile_values: np.ndarray        # (k,)
    tile_counts: np.ndarray        # (k,)
    char_rd: np.ndarray            # (6,)
    ad_costs: np.ndarray           # (a,)
    discount_stacks: np.ndarray    # (d,)
    setup: dict[str, int]
    source: str

    @property
    def total_tiles(self) -> int:
        return int(self.tile_counts.sum())


def _segment(entry: Entry, key: str, value: object, allow_none: bool = False) -> int:
    if allow_none and value == "none":
        return NO_SEGMENT
    if value not in SEGMENTS:
        allowed = list(SEGMENTS) + (["none"] if allow_none else [])
        entry.fail(f"{key!r} must be one of {allowed}, got {value!r}")
    return SEGMENTS.index(value)


def _per_segment(entry: Entry, key: str) -> Entry:
    table = entry.sub(key)
    table.unknown_keys(set(SEGMENTS))
    return table


def _load_setup(entry: Entry) -> dict[str, int]:
    entry.unknown_keys({"money", "rd_by_players", "rd_cubes", "cars", "salesmen", "factories",
                        "parts_factories"})
    rd_table = entry.sub("rd_by_players")
    rd_table.unknown_keys({"3", "4", "5"})
    setup = {
        "money": entry.int_in("money", 0, 1_000_000),
        "rd_cubes": entry.int_in("rd_cubes", 0, 1000),
        "cars": entry.int_in("cars", 1, MAX_CARS),
        "salesmen": entry.int_in("salesmen", 0, 64),
        "factories": entry.int_in("factories", 1, 3 * NUM_SPACES),
        "parts_factories": entry.int_in("parts_factories", 0, 1),
    }
    for players in (3, 4, 5):
        setup[f"rd_{players}"] = rd_table.int_in(str(players), 0, 1000)
    return setup


def _load_loans(entry: Entry) -> dict[str, int]:
    entry.unknown_keys({"max", "amount", "interest", "repay"})
    return {
        "loans_max": entry.int_in("max", 0, 10),
        "loan_amount": entry.int_in("amount", 0, 1_000_000),
        "loan_interest": entry.int_in("interest", 0, 1_000_000),
        "loan_repay": entry.int_in("repay", 0, 1_000_000),
    }


def _load_board(entry: Entry) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, dict[str, int]]:
    entry.unknown_keys({"max_factories_per_space", "parts_cost", "parts_refund",
                        "close_reduction", "spaces"})
    extra = {
        "max_per_space": entry.int_in("max_factories_per_space", 1, NUM_LEVELS),
        "parts_cost": entry.int_in("parts_cost", 0, 1_000_000),
        "parts_refund": entry.int_in("parts_refund", 0, 1_000_000),
        "close_reduction": entry.int_in("close_reduction", 0, 1_000_000),
    }
    spaces = entry.subs("spaces")
    if len(spaces) != NUM_SPACES:
        entry.fail(f"'spaces' must list the {NUM_SPACES} production spaces, got {len(spaces)}")
    names, segs, costs = [], [], []
    for space in spaces:
        space.unknown_keys({"name", "segment", "cost"})
        names.append(space.get("name", str))
        segs.append(_segment(space, "segment", space.get("segment", str)))
        cost = space.int_in("cost", 0, 1_000_000)
        if cost < extra["close_reduction"]:
            space.fail(f"'cost' {cost} is below close_reduction {extra['close_reduction']} "
                       "(closing would cost money)")
        costs.append(cost)
    as_array = lambda xs: np.array(xs, dtype=np.int64)  # noqa: E731
    return tuple(names), as_array(segs), as_array(costs), extra


def _load_production(entry: Entry, cars: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    entry.unknown_keys({"cost", *SEGMENTS, "parts_discount"})
    cost_table = _per_segment(entry, "cost")
    prod_cost = np.array([cost_table.int_in(seg, 0, 1_000_000) for seg in SEGMENTS],
                         dtype=np.int64)
    discount = entry.int_in("parts_discount", 0, 1_000_000)
    if discount > prod_cost.min():
        entry.fail(f"'parts_discount' {discount} exceeds the cheapest car cost {prod_cost.min()}")
    lo = np.zeros((3, NUM_LEVELS), dtype=np.int64)
    hi = np.zeros((3, NUM_LEVELS), dtype=np.int64)
    for s, seg in enumerate(SEGMENTS):
        rows = entry.get(seg, list)
        if len(rows) != NUM_LEVELS:
            entry.fail(f"{seg!r} must list [min, max] for 1, 2 and 3 factories, got {rows!r}")
        for level, row in enumerate(rows):
            ok = (isinstance(row, list) and len(row) == 2
                  and all(isinstance(v, int) and not isinstance(v, bool) for v in row))
            if not ok or not 1 <= row[0] <= row[1] <= cars:
                entry.fail(f"{seg!r}[{level}] must be [min, max] with 1 <= min <= max <= {cars}, "
                           f"got {row!r}")
            lo[s, level], hi[s, level] = row
    return prod_cost, lo, hi, discount


def _load_prices(entry: Entry) -> tuple[np.ndarray, np.ndarray]:
    entry.unknown_keys(set(SEGMENTS))
    top = np.zeros(3, dtype=np.int64)
    low = np.zeros(3, dtype=np.int64)
    for s, seg in enumerate(SEGMENTS):
        pair = entry.int_list(seg, length=2, low=0, high=1_000_000)
        if pair[1] > pair[0]:
            entry.fail(f"{seg!r}: the reduced price {pair[1]} exceeds the standard {pair[0]}")
        top[s], low[s] = pair
    return top, low


def _load_salesroom(entry: Entry) -> tuple[int, np.ndarray]:
    entry.unknown_keys({"per_action", "boxes"})
    per_action = entry.int_in("per_action", 1, 64)
    table = _per_segment(entry, "boxes")
    boxes = np.zeros((3, NUM_LABELS), dtype=np.int64)
    for s, seg in enumerate(SEGMENTS):
        boxes[s] = table.int_list(seg, length=NUM_LABELS, low=0, high=MAX_BOXES)
        if boxes[s].sum() > MAX_BOXES:
            table.fail(f"{seg!r} has {boxes[s].sum()} boxes, at most {MAX_BOXES}")
    return per_action, boxes


def _load_turns(entry: Entry) -> dict[str, np.ndarray]:
    entry.unknown_keys({"loss_price", "tiles_per_player", "higher_tile", "lower_tile",
                        "premium_bag_tiles", "mass_bag_tiles"})
    out = {
        "loss_price": entry.int_list("loss_price", NUM_TURNS, 0, 1_000_000),
        "tiles_per_player": entry.int_list("tiles_per_player", NUM_TURNS, 1, 2),
        "premium_bag": entry.int_list("premium_bag_tiles", NUM_TURNS, 0, 1),
        "mass_bag": entry.int_list("mass_bag_tiles", NUM_TURNS, 0, 1),
    }
    higher = entry.get("higher_tile", list)
    lower = entry.get("lower_tile", list)
    for key, values in (("higher_tile", higher), ("lower_tile", lower)):
        if len(values) != NUM_TURNS:
            entry.fail(f"{key!r} must have {NUM_TURNS} entries, got {len(values)}")
    out["higher_seg"] = [_segment(entry, "higher_tile", v) for v in higher]
    out["lower_seg"] = [_segment(entry, "lower_tile", v, allow_none=True) for v in lower]
    for t in range(NUM_TURNS):
        two = out["tiles_per_player"][t] == 2
        if two != (out["lower_seg"][t] != NO_SEGMENT):
            entry.fail(f"turn {t + 1}: 'lower_tile' must be 'none' exactly when a player "
                       f"draws one tile (tiles_per_player={out['tiles_per_player'][t]}, "
                       f"lower_tile={lower[t]!r})")
    return {k: np.array(v, dtype=np.int64) for k, v in out.items()}


def _load_demand(entry: Entry) -> tuple[np.ndarray, np.ndarray]:
    entry.unknown_keys({"tiles"})
    table = entry.sub("tiles")
    if not 1 <= len(table.table) <= MAX_TILE_KINDS:
        table.fail(f"must list 1..{MAX_TILE_KINDS} tile values, got {len(table.table)}")
    values, counts = [], []
    for key in table.table:
        if not key.isdigit() or not 1 <= int(key) <= 99:
            table.fail(f"tile value keys must be integers 1..99, got {key!r}")
        values.append(int(key))
        counts.append(table.int_in(key, 0, 1000))
    order = np.argsort(values)
    return (np.array(values, dtype=np.int64)[order], np.array(counts, dtype=np.int64)[order])


def _load_characters(entry: Entry) -> tuple[np.ndarray, int]:
    entry.unknown_keys({"rd", "howard_cars"})
    table = entry.sub("rd")
    table.unknown_keys(set(CHARACTERS))
    rd = np.array([table.int_in(c, 0, 100) for c in CHARACTERS], dtype=np.int64)
    return rd, entry.int_in("howard_cars", 0, MAX_CARS)


def _load_executive(entry: Entry) -> tuple[np.ndarray, np.ndarray, int]:
    entry.unknown_keys({"ad_costs", "discount_stacks", "closures"})
    ads = entry.int_list("ad_costs", low=0, high=100)
    if not 0 <= len(ads) <= MAX_ADS:
        entry.fail(f"'ad_costs' must list 0..{MAX_ADS} markers, got {len(ads)}")
    stacks = entry.int_list("discount_stacks", low=1, high=MAX_STACK)
    if not 0 <= len(stacks) <= MAX_STACKS:
        entry.fail(f"'discount_stacks' must list 0..{MAX_STACKS} stacks, got {len(stacks)}")
    closures = entry.int_in("closures", 0, 10)
    return np.array(ads, dtype=np.int64), np.array(stacks, dtype=np.int64), closures


def load(path: str | Path | UserFile | None = None) -> AutomobileData:
    """Load the default data, with the top-level tables of ``path`` replacing them."""
    default = open_data(DEFAULT_FILE)
    user = open_source(path) if path is not None else None
    tables = {"setup", "loans", "board", "production", "prices", "salesroom", "turns", "demand",
              "characters", "executive"}
    if user is not None:
        user.unknown_keys(tables)

    def section(name: str) -> Entry:
        if user is not None and user.has(name):
            return user.sub(name)
        return default.sub(name)

    setup = _load_setup(section("setup"))
    setup.update(_load_loans(section("loans")))
    names, segment, cost, board = _load_board(section("board"))
    setup.update(board)
    prod_cost, prod_min, prod_max, discount = _load_production(section("production"),
                                                                setup["cars"])
    setup["parts_discount"] = discount
    price_top, price_low = _load_prices(section("prices"))
    per_action, boxes = _load_salesroom(section("salesroom"))
    setup["salesmen_per_action"] = per_action
    turns = _load_turns(section("turns"))
    tile_values, tile_counts = _load_demand(section("demand"))
    char_rd, howard_cars = _load_characters(section("characters"))
    setup["howard_cars"] = howard_cars
    ad_costs, stacks, closures = _load_executive(section("executive"))
    setup["closures"] = closures
    source = str(path) if path is not None else str(DEFAULT_FILE)
    needed = 5 * int(turns["tiles_per_player"].max()) + int(
        (turns["premium_bag"] + turns["mass_bag"]).max())
    if tile_counts.sum() < needed:
        raise DataFileError(f"{source}: [demand] tiles: 5 players need {needed} demand tiles in "
                            f"one turn, the bag holds {tile_counts.sum()}")
    for players in (3, 4, 5):
        start = players * setup[f"rd_{players}"] + int(char_rd.sum())
        if start > setup["rd_cubes"]:
            raise DataFileError(f"{source}: [setup] rd_cubes: {players} players start with "
                                f"{start} R&D cubes (players and characters), the stock has "
                                f"{setup['rd_cubes']}")
    return AutomobileData(
        names=names, segment=segment, cost=cost, prod_cost=prod_cost, prod_min=prod_min,
        prod_max=prod_max, price_top=price_top, price_low=price_low, boxes=boxes,
        loss_price=turns["loss_price"], tiles_per_player=turns["tiles_per_player"],
        higher_seg=turns["higher_seg"], lower_seg=turns["lower_seg"],
        premium_bag=turns["premium_bag"], mass_bag=turns["mass_bag"],
        tile_values=tile_values, tile_counts=tile_counts, char_rd=char_rd, ad_costs=ad_costs,
        discount_stacks=stacks, setup=setup, source=source,
    )
