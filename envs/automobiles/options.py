"""Automobiles options checked and turned into what the parameter tables take (the
options themselves are listed in :mod:`transit_gym.envs.automobiles.rules`; the track
options in :mod:`~transit_gym.envs.automobiles.track_options`). Each function raises a
``ConfigError`` naming the option, the bad value and what is allowed."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import CARD_COLOURS, COLOURS, NUM_COLOURS
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.options import check_flag, check_int


def slug(name: str) -> str:
    """A set name with case and punctuation ignored (``"First Game"`` -> ``firstgame``)."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def flag(name: str, value: Any) -> int:
    """A True/False option as 1/0 (the shared checker of ``envs/core/options``)."""
    return check_flag(name, value)


def int_option(name: str, value: Any, low: int, high: int) -> int:
    """An integer option in ``low..high`` (the shared checker of ``envs/core/options``)."""
    return check_int(name, value, low, high)


def laps_option(laps: Any, cards: auto_data.CardData) -> int:
    """``laps`` (None: the data file's default), 1 to the data file's maximum."""
    if laps is None:
        laps = cards.default_laps
    return int_option("laps", laps, 1, cards.max_laps)


def check_grid(board: auto_data.TrackData, num_players: int) -> None:
    """The board must have a grid slot per player."""
    if len(board.grid) < num_players:
        raise ConfigError(
            f"track {board.name!r} has {len(board.grid)} grid slots, too few "
            f"for {num_players} players")


def start_seat(start_player: Any, num_players: int) -> int:
    """``start_player``: a seat number, or -1 for ``"random"`` (drawn from the seed)."""
    if start_player == "random":
        return -1
    return int_option("start_player (or 'random')", start_player, 0, num_players - 1)


def resolve_set(card_set: Any, cards: auto_data.CardData) -> tuple[str, ...] | None:
    """Five card names (Garage, Pit, Handling, Performance, Engine), or None: random."""
    if isinstance(card_set, str):
        if card_set == "random":
            return None
        by_slug = {slug(name): name for name in cards.sets}
        if slug(card_set) not in by_slug:
            raise ConfigError(
                f"card_set {card_set!r} is not a suggested set; use one of "
                f"{sorted(cards.sets)}, 'random', or a list of five card names")
        chosen = cards.sets[by_slug[slug(card_set)]]
    elif isinstance(card_set, (list, tuple)):
        rows = {n: {"color": int(c)} for n, c in zip(cards.names, cards.colours,
                                                      strict=True)}
        problem = auto_data.set_problem(list(card_set), rows)
        if problem:
            raise ConfigError(f"card_set: {problem}")
        chosen = tuple(card_set)
    else:
        raise ConfigError(f"card_set must be a set name, 'random' or a list of five "
                          f"card names, got {card_set!r}")
    by_colour = {int(cards.colours[cards.card_id(n)]): n for n in chosen}
    return tuple(by_colour[c] for c in CARD_COLOURS)


def resolve_pool(card_pool: Any, cards: auto_data.CardData) -> np.ndarray:
    """1 per card that ``card_set="random"`` may draw."""
    pools = {"base": cards.expansion == 0, "expansion": cards.expansion == 1,
             "all": np.ones(cards.num_cards, dtype=bool)}
    if not isinstance(card_pool, str) or card_pool not in pools:
        raise ConfigError(f"card_pool must be one of {sorted(pools)}, got {card_pool!r}")
    pool = pools[card_pool]
    for colour in CARD_COLOURS:
        if not pool[cards.colours == colour].any():
            raise ConfigError(
                f"card_pool {card_pool!r} has no {COLOURS[colour]} card")
    return pool.astype(np.int64)


def rule_flags(open_bags: Any, accelerated_play: Any, branch_from_car: Any,
               draft_behind_space: Any, buy_wear: Any) -> dict[int, int]:
    """The True/False rule options by the parameter they set."""
    return {
        st.P_OPEN_BAGS: flag("open_bags", open_bags),
        st.P_ACCELERATED: flag("accelerated_play", accelerated_play),
        st.P_BRANCH: flag("branch_from_car", branch_from_car),
        st.P_DRAFT_SPACE: flag("draft_behind_space", draft_behind_space),
        st.P_BUY_WEAR: flag("buy_wear", buy_wear),
    }


def grid_offset(grid_crossing_counts: Any, board: auto_data.TrackData) -> int:
    """Segments the grid start counts before the line: 0 when the first crossing moves the
    lap marker, else a lap (``grid_crossing_counts``)."""
    return 0 if flag("grid_crossing_counts", grid_crossing_counts) else board.lap_length


def resolve_exclusions(exclude_sets: Any, card_set: tuple[str, ...] | None,
                       card_pool: np.ndarray, cards: auto_data.CardData) -> np.ndarray:
    """``exclude_sets``: markets ``card_set="random"`` never draws (a drawn one is drawn
    again), each a suggested set's name or five card names; as a card id per colour, one
    row per market (the gear and wear colours hold their fixed cards)."""
    if not isinstance(exclude_sets, (list, tuple)):
        raise ConfigError(f"exclude_sets must be a list of suggested set names or of "
                          f"five-card lists, got {exclude_sets!r}")
    if exclude_sets and card_set is not None:
        raise ConfigError(f"exclude_sets only applies to card_set='random' (it keeps "
                          f"markets out of the random draw), got exclude_sets="
                          f"{list(exclude_sets)!r} with a fixed card_set")
    if len(exclude_sets) > st.MAX_EXCLUDED_SETS:
        raise ConfigError(f"exclude_sets holds at most {st.MAX_EXCLUDED_SETS} markets, "
                          f"got {len(exclude_sets)}")
    fixed = [int(np.flatnonzero(cards.colours == c)[0]) for c in range(NUM_COLOURS)]
    rows = []
    for item in exclude_sets:
        if isinstance(item, str) and item == "random":
            raise ConfigError("exclude_sets names markets to keep out; 'random' is not one")
        try:
            chosen = resolve_set(list(item) if isinstance(item, tuple) else item, cards)
        except ConfigError as exc:
            raise ConfigError(f"exclude_sets: {exc}") from None
        row = list(fixed)
        for k, colour in enumerate(CARD_COLOURS):
            row[colour] = cards.card_id(chosen[k])
        if row not in rows:
            rows.append(row)
    markets = 1
    for colour in CARD_COLOURS:
        markets *= int(card_pool[cards.colours == colour].sum())
    drawable = [r for r in rows if all(card_pool[r[c]] for c in CARD_COLOURS)]
    if card_set is None and len(drawable) >= markets:
        raise ConfigError(f"exclude_sets keeps out every market the card_pool can draw "
                          f"({markets})")
    return np.asarray(rows, dtype=np.int64).reshape(-1, NUM_COLOURS)


def drivers_modes(drivers: Any) -> list[int]:
    """The driver modes a game draws among at reset: one (``drivers_mode``), or off and
    on (``"random"``: each reset drawn from the seed)."""
    if isinstance(drivers, str) and drivers == "random":
        return [0, 1]
    return [drivers_mode(drivers)]


def drivers_mode(drivers: Any) -> int:
    """The Racing Season ``drivers`` option: 0 off (False), 1 draft from players + 1
    (True), 2 draft from all ten (``"all"``, Board Game Arena's table option)."""
    modes = {False: 0, True: 1, "all": 2}
    if not (isinstance(drivers, bool) or (isinstance(drivers, str) and drivers == "all")):
        raise ConfigError(f"drivers must be False, True, 'all' (the BGA table option: "
                          f"draft from all ten) or 'random' (off or on, drawn at every "
                          f"reset), got {drivers!r}")
    return modes[drivers]
