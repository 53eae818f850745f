"""Track options of Automobiles (Racing Season, rs_tracks): which board, the Weaving
variant, and the board's own-space start slots and Weaving flag in the parameter vector.

``track`` is a shipped board's name (``data.TRACKS``: the base game's ``daytona`` and
``monza``, the Racing Season's ``talladega``, ``monte_carlo`` and ``tucson``), a path to a
TOML file, or a random draw for a single race (R-YUC "Track Cards"; BGA's three random
options): ``"random"`` (base boards), ``"random_expansion"`` or ``"random_all"``, drawn
from ``track_seed`` (same seed, same board; without one a fresh seed is drawn and kept
in the options, so a saved state restores the same board). ``weaving`` switches the
official Variant Weaving on (R-YUC; see docs/racing_season/tracks_weaving.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.rng import fresh_seed, split_seed

#: the random draws of ``track`` and the boards each draws from
RANDOM_TRACKS = {
    "random": auto_data.BASE_TRACKS,
    "random_expansion": auto_data.EXPANSION_TRACKS,
    "random_all": auto_data.BASE_TRACKS + auto_data.EXPANSION_TRACKS,
}


def resolve_track(track: Any, track_seed: Any) -> tuple[Any, int | None]:
    """``(board, seed)``: a random ``track`` becomes the board its seed draws (``seed`` is
    the one used, drawn fresh when ``track_seed`` is None); any other ``track`` comes back
    as it is, with ``seed`` None."""
    if not (isinstance(track, str) and track in RANDOM_TRACKS):
        if track_seed is not None:
            raise ConfigError(f"track_seed only applies to a random track "
                              f"{sorted(RANDOM_TRACKS)}, got track={track!r}")
        return track, None
    if track_seed is None:
        track_seed = fresh_seed()
    if isinstance(track_seed, bool) or not isinstance(track_seed, (int, np.integer)):
        raise ConfigError(f"track_seed must be a non-negative integer or None, "
                          f"got {track_seed!r}")
    try:
        split_seed(int(track_seed))
    except ValueError as exc:
        raise ConfigError(f"track_seed: {exc}") from exc
    pool = RANDOM_TRACKS[track]
    return pool[int(np.random.default_rng(int(track_seed)).integers(len(pool)))], \
        int(track_seed)


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
