"""Track options of Automobiles (Racing Season, rs_tracks): which board, the Weaving
variant, and the board's own-space start slots and Weaving flag in the parameter vector.

``track`` is a shipped board's name (``data.TRACKS``: the base game's ``daytona`` and
``monza``, the Racing Season's ``talladega``, ``monte_carlo`` and ``tucson``), a path to a
TOML file, or a random draw for a single race (R-YUC "Track Cards"; BGA's three random
options): ``"random"`` (base boards), ``"random_expansion"`` or ``"random_all"``, or a
list of boards (e.g. four of the five, the fifth held out of training). A random
board is drawn at every reset from the reset seed (the state's own generator), so the
same seed gives the same board in any env built with the same options: the game holds
one parameter row per board of the pool (``Game.param_table``) and the state records the
row it plays (``envs.core.variants``). ``track_seed=N`` pins the board instead: the one
board ``N`` draws (the same board for every ``N`` as before the per-reset draw, so states
saved with a ``track_seed`` restore unchanged). ``weaving`` switches the official Variant
Weaving on (R-YUC; see docs/racing_season/tracks_weaving.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.rng import split_seed

#: the random draws of ``track`` and the boards each draws from
RANDOM_TRACKS = {
    "random": auto_data.BASE_TRACKS,
    "random_expansion": auto_data.EXPANSION_TRACKS,
    "random_all": auto_data.BASE_TRACKS + auto_data.EXPANSION_TRACKS,
}


def resolve_track(track: Any, track_seed: Any) -> list[Any]:
    """The boards a game plays, one parameter row each: every board of a random
    ``track``'s pool or of a list of boards (drawn per reset), or the one board
    ``track_seed`` pins, or ``track`` itself (a shipped name or a path)."""
    if isinstance(track, (list, tuple)):
        pool = track_pool(track)
    elif isinstance(track, str) and track in RANDOM_TRACKS:
        pool = list(RANDOM_TRACKS[track])
    else:
        if track_seed is not None:
            raise ConfigError(f"track_seed only applies to a random track "
                              f"{sorted(RANDOM_TRACKS)} or a list of boards, "
                              f"got track={track!r}")
        return [track]
    if track_seed is None:
        return pool
    if isinstance(track_seed, bool) or not isinstance(track_seed, (int, np.integer)):
        raise ConfigError(f"track_seed must be a non-negative integer (pins the board) or "
                          f"None (a board drawn at every reset), got {track_seed!r}")
    try:
        split_seed(int(track_seed))
    except ValueError as exc:
        raise ConfigError(f"track_seed: {exc}") from exc
    return [pinned_board(pool, int(track_seed))]


def track_pool(track: list[Any] | tuple[Any, ...]) -> list[Any]:
    """``track`` given as a list of boards (one drawn per reset, e.g. four boards for
    training with the fifth held out): at least one, each a shipped name or a ``.toml``
    path, none twice."""
    if not track:
        raise ConfigError("track as a list needs at least one board, got []")
    for name in track:
        if isinstance(name, str) and name in RANDOM_TRACKS:
            raise ConfigError(f"track as a list names boards, not random draws: got "
                              f"{name!r} in {list(track)!r}")
        check_track(name)
    names = [str(name) for name in track]
    if len(set(names)) < len(names):
        raise ConfigError(f"track lists a board twice: {names}")
    return list(track)


def pinned_board(pool: list[str], track_seed: int) -> str:
    """The board ``track_seed`` pins among ``pool`` (a seeded numpy ``Generator`` of its
    own, never the global one: the mapping saved states with a ``track_seed`` rely on)."""
    return pool[int(np.random.default_rng(track_seed).integers(len(pool)))]


def check_track(track: Any) -> None:
    """``track`` names a shipped board or a ``.toml`` path; else a ``ConfigError``."""
    names = list(auto_data.TRACKS) + list(RANDOM_TRACKS)
    if not isinstance(track, (str, Path)):
        raise ConfigError(f"track must be one of {names} or a path to a .toml file, "
                          f"got {track!r}")
    if isinstance(track, str) and track not in auto_data.TRACKS and not track.endswith(".toml"):
        raise ConfigError(f"track must be one of {names} or a path to a .toml file, "
                          f"got {track!r}")


def weaving_flag(weaving: Any) -> int:
    """1 with Variant Weaving, 0 without; anything but a bool is a ``ConfigError``."""
    if not isinstance(weaving, bool):
        raise ConfigError(f"weaving must be True or False (Variant Weaving), got {weaving!r}")
    return int(weaving)


def fill_track_params(p: np.ndarray, board_data: auto_data.TrackData, weaving: int) -> None:
    """The own-space start slots (``slot_of``) and the Weaving flag of the parameters."""
    p[st.P_SLOT_OF:st.P_SLOT_OF + st.MAX_SPACES] = 0
    p[st.P_SLOT_OF:st.P_SLOT_OF + board_data.num_spaces] = board_data.slot_of
    p[st.P_WEAVING] = weaving
