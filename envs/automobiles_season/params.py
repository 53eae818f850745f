"""The parameters of a configured Racing Season: the season header (players, races, the
track order, the sponsor module and table, the points chart) followed by each pool
track's race parameters (``state.race_params`` slices them back out)."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.automobiles_season.data import MAX_RACES, PointsData, SponsorData


def season_params(num_players: int, num_races: int, pool_size: int, random_order: bool,
                  order: list[int] | None, sponsors_on: bool, sponsor_data: SponsorData,
                  points: PointsData, race_params: list[np.ndarray]) -> np.ndarray:
    """The season header, then every race game's parameters, as one ``int64`` array."""
    header = np.zeros(ss.HEADER_SIZE, dtype=np.int64)
    header[ss.Q_NUM_PLAYERS] = num_players
    header[ss.Q_NUM_RACES] = num_races
    header[ss.Q_POOL] = pool_size
    header[ss.Q_RANDOM] = int(random_order)
    if order is not None:
        header[ss.Q_FIXED:ss.Q_FIXED + len(order)] = order
    header[ss.Q_SPONSORS] = int(sponsors_on)
    sp = sponsor_data
    header[ss.Q_NUM_SPONSORS] = len(sp.names)
    header[ss.Q_STANDARD:ss.Q_STANDARD + 3] = sp.standard
    for r in range(MAX_RACES):
        first, middle, last = points.row(r)
        header[ss.Q_FIRST + r] = first
        header[ss.Q_MIDDLE + r] = middle
        header[ss.Q_LAST + r] = last
    table = sp.table.reshape(-1)
    header[ss.Q_TABLE:ss.Q_TABLE + table.size] = table
    return np.concatenate([header, *race_params])
