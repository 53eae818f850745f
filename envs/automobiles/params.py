"""The parameter tables of a configured Automobiles race (the ``P_*`` fields of
``state.PARAMS``), filled from the checked options and the data files: the race itself,
the board, the cards, then the Racing Season's weaving and driver tables."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import CARD_COLOURS, GEARS, NUM_COLOURS, WEAR
from transit_gym.envs.automobiles.racing_season import driver_data as drv_data
from transit_gym.envs.automobiles.track_options import fill_track_params


def race_params(num_players: int, cards: auto_data.CardData, board: auto_data.TrackData,
                laps: int, first: int, max_rounds: int, flags: dict[int, int],
                grid_offset: int, card_set: tuple[str, ...] | None, card_pool: np.ndarray,
                weaving: int, drivers_mode: int,
                drivers: drv_data.DriverData, excluded: np.ndarray | None = None
                ) -> np.ndarray:
    """Every parameter of one race (``int64``, ``state.PARAMS.size``)."""
    p = np.zeros(st.PARAMS.size, dtype=np.int64)
    fill_race(p, num_players, cards, board, laps, first, max_rounds, flags, grid_offset)
    fill_board(p, board)
    fill_cards(p, cards, card_set, card_pool)
    if excluded is not None:
        fill_excluded(p, excluded)
    fill_track_params(p, board, weaving)   # Racing Season
    fill_drivers(p, drivers_mode, drivers)   # Racing Season drivers
    return p


def fill_race(p: np.ndarray, num_players: int, cards: auto_data.CardData,
              board: auto_data.TrackData, laps: int, first: int, max_rounds: int,
              flags: dict[int, int], grid_offset: int) -> None:
    """Players, laps, start seat, rule flags, the engine's round limit and the cube
    supply, starting bag and wear chart."""
    p[st.P_NUM_PLAYERS] = num_players
    p[st.P_LAPS] = laps
    p[st.P_LAP] = board.lap_length
    p[st.P_NUM_SPACES] = board.num_spaces
    p[st.P_START] = first
    for offset, value in flags.items():
        p[offset] = value
    p[st.P_MAX_ROUNDS] = max_rounds
    p[st.P_GRID_OFFSET] = grid_offset
    p[st.P_HAND] = cards.hand_size
    p[st.P_SUPPLY:st.P_SUPPLY + NUM_COLOURS] = cards.supply
    p[st.P_STARTING_BAG:st.P_STARTING_BAG + NUM_COLOURS] = cards.starting_bag
    p[st.P_WEAR_CHART:st.P_WEAR_CHART + len(GEARS)] = cards.wear_chart


def fill_board(p: np.ndarray, board: auto_data.TrackData) -> None:
    """The board: grid and allowances, each space's lane, end, length and colours, the
    next space of the same lane and which spaces cover each lap position."""
    slots = len(board.grid)
    p[st.P_ALLOWANCE:st.P_ALLOWANCE + slots] = board.allowance
    p[st.P_GRID:st.P_GRID + slots] = board.grid
    n = board.num_spaces
    p[st.P_SPACE_LANE:st.P_SPACE_LANE + n] = board.lane
    p[st.P_SPACE_END:st.P_SPACE_END + n] = board.end
    p[st.P_SPACE_LEN:st.P_SPACE_LEN + n] = board.length
    p[st.P_SPACE_COLOURS:st.P_SPACE_COLOURS + n] = board.colours
    tops = np.array([max(g for g in GEARS if m & (1 << g)) for m in board.colours],
                    dtype=np.int64)
    p[st.P_SPACE_TOP:st.P_SPACE_TOP + n] = tops
    p[st.P_NEXT_SAME:st.P_NEXT_SAME + st.MAX_SPACES] = -1
    p[st.P_NEXT_SAME:st.P_NEXT_SAME + n] = board.next_same
    p[st.P_COVER:st.P_COVER + auto_data.MAX_LANES * auto_data.MAX_LAP] = -1
    for lane in range(board.lanes):
        start = st.P_COVER + lane * auto_data.MAX_LAP
        p[start:start + board.lap_length] = board.cover[lane]


def fill_cards(p: np.ndarray, cards: auto_data.CardData, card_set: tuple[str, ...] | None,
               card_pool: np.ndarray) -> None:
    """The card table (colour, effect, cost, value, wear, count, bonus), the card in play
    per colour (-1: drawn at setup) and the pool a random set draws from."""
    m = cards.num_cards
    p[st.P_NUM_CARDS] = m
    for table, values in ((st.P_CARD_COLOUR, cards.colours),
                          (st.P_CARD_EFFECT, cards.effects), (st.P_CARD_COST, cards.costs),
                          (st.P_CARD_VALUE, cards.values), (st.P_CARD_WEAR, cards.wear),
                          (st.P_CARD_COUNT, cards.count), (st.P_CARD_BONUS, cards.bonus)):
        p[table:table + m] = values
    for colour in (*GEARS, WEAR):
        p[st.P_CARD_SET + colour] = int(np.flatnonzero(cards.colours == colour)[0])
    for k, colour in enumerate(CARD_COLOURS):
        p[st.P_CARD_SET + colour] = -1 if card_set is None else cards.card_id(card_set[k])
    p[st.P_CARD_IN_POOL:st.P_CARD_IN_POOL + m] = card_pool


def fill_excluded(p: np.ndarray, excluded: np.ndarray) -> None:
    """The markets ``card_set="random"`` draws again (``exclude_sets``): a card id per
    colour, one row each."""
    p[st.P_NUM_EXCLUDED] = len(excluded)
    p[st.P_EXCLUDED_SETS:st.P_EXCLUDED_SETS + excluded.size] = excluded.ravel()


def fill_drivers(p: np.ndarray, mode: int, drivers: drv_data.DriverData) -> None:
    """Racing Season drivers: the module's mode and the driver table."""
    p[st.P_DRIVERS] = mode
    p[st.P_DRIVER_EXTRA] = drivers.extra
    p[st.P_DRIVER_AMOUNT:st.P_DRIVER_AMOUNT + drv_data.NUM_DRIVERS] = drivers.amounts
    p[st.P_DRIVER_PRICE:st.P_DRIVER_PRICE + drv_data.NUM_DRIVERS] = drivers.prices
