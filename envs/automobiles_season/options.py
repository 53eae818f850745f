"""Racing Season campaign options checked (the options themselves are listed in
:mod:`transit_gym.envs.automobiles_season.rules`): the season's tracks and races, its
modules, and the options handed on to every race. Each function raises a ``ConfigError``
naming the option, the bad value and what is allowed."""

from __future__ import annotations

from typing import Any

import numpy as np

from transit_gym.envs.automobiles.data import BASE_TRACKS, EXPANSION_TRACKS
from transit_gym.envs.automobiles_season.data import MAX_RACES, MIN_RACES
from transit_gym.envs.core.errors import ConfigError

RANDOM_POOLS = {"random": BASE_TRACKS, "random_expansion": EXPANSION_TRACKS,
                "random_all": BASE_TRACKS + EXPANSION_TRACKS}
MAX_RANDOM_RACES = 5      # BGA offers 3-, 4- and 5-race seasons
#: the race options a season passes on unchanged to every race
RACE_OPTIONS = ("card_set", "card_pool", "start_player", "open_bags", "accelerated_play",
                "branch_from_car", "draft_behind_space", "grid_crossing_counts", "buy_wear",
                "max_rounds")


def resolve_tracks(tracks: Any, races: Any) -> tuple[list[str], list[int] | None, bool]:
    """The pool of track names, the fixed order (pool indexes) or None, random?"""
    if isinstance(tracks, str):
        if tracks not in RANDOM_POOLS:
            raise ConfigError(f"tracks must be a list of {MIN_RACES}-{MAX_RACES} track "
                              f"names or one of {sorted(RANDOM_POOLS)}, got {tracks!r}")
        if races is None:
            races = MIN_RACES
        if isinstance(races, bool) or not isinstance(races, (int, np.integer)) \
                or not MIN_RACES <= races <= MAX_RANDOM_RACES:
            raise ConfigError(f"races must be an integer in {MIN_RACES}.."
                              f"{MAX_RANDOM_RACES} with tracks={tracks!r}, got {races!r}")
        return list(RANDOM_POOLS[tracks]), None, True
    if not isinstance(tracks, (list, tuple)) or not all(isinstance(t, str) for t in tracks):
        raise ConfigError(f"tracks must be a list of track names or one of "
                          f"{sorted(RANDOM_POOLS)}, got {tracks!r}")
    if not MIN_RACES <= len(tracks) <= MAX_RACES:
        raise ConfigError(f"a season has {MIN_RACES}-{MAX_RACES} tracks, got "
                          f"{len(tracks)}: {list(tracks)}")
    if races is not None and races != len(tracks):
        raise ConfigError(f"races={races!r} disagrees with the {len(tracks)} tracks given")
    for name in tracks:
        if name.endswith(".toml"):
            raise ConfigError(f"season tracks must be built-in track names, got {name!r}")
    pool = list(dict.fromkeys(tracks))
    return pool, [pool.index(t) for t in tracks], False


def check_modules(sponsors: Any, drivers: Any) -> None:
    """``sponsors`` True/False; ``drivers`` True (the rule), ``"all"`` (Board Game Arena's
    table option) or False."""
    if not isinstance(sponsors, bool):
        raise ConfigError(f"sponsors must be True or False, got {sponsors!r}")
    if not (isinstance(drivers, bool) or drivers == "all"):
        raise ConfigError(f"drivers must be True (the rule), 'all' (the BGA table option: "
                          f"draft from all ten) or False (no drivers, not a rule), "
                          f"got {drivers!r}")
