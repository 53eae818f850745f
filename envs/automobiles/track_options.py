"""Track options of Automobiles (Racing Season, rs_tracks): which board, the Weaving
variant, and the board's own-space start slots and Weaving flag in the parameter vector.

``track`` is a shipped board's name (``data.TRACKS``: the base game's ``daytona`` and
``monza``, the Racing Season's ``talladega``, ``monte_carlo`` and ``tucson``) or a path
to a TOML file; ``weaving`` switches the official Variant Weaving on (R-YUC; see
docs/racing_season/tracks_weaving.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.core.errors import ConfigError


def check_track(track: Any) -> None:
    """``track`` names a shipped board or a ``.toml`` path; else a ``ConfigError``."""
    names = list(auto_data.TRACKS)
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
