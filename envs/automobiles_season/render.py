"""Pictures of a Racing Season state: the current race's picture plus the season lines."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles import render as race_render
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.core.game import Game, State


def season_lines(game: Game, state: State) -> list[str]:
    """Race number and tracks, seat order, points, sponsors and the market."""
    s = state.data
    n = game.num_players
    names = game.sponsor_data.names
    r = game.race_no(state)
    lines = [f"Season race {r + 1}/{game.num_races}: {' > '.join(game.track_names(state))} "
             f"({ss.SEASON_PHASES[int(s[ss.SEASON_PHASE])]})",
             "race seats: " + ", ".join(f"player_{k} = seat {seat}"
                                        for seat, k in enumerate(game.player_of(state)))]
    for k in range(n):
        owned = int(s[ss.OWNED + k])
        lines.append(f"player_{k}: {int(s[ss.POINTS + k])} points, sponsor "
                     f"{names[owned] if owned >= 0 else '-'}")
    market = [names[int(v)] for v in s[ss.MARKET:ss.MARKET + n] if v >= 0]
    lines.append("sponsors available: " + (", ".join(market) if market else "-"))
    return lines


def render_text(game: Game, state: State, viewer: int | None = None) -> str:
    """The race's text (nothing hidden) and the season lines."""
    race = race_render.render_text(game.race_game(state), game.race_state(state))
    return race + "\n" + "\n".join(season_lines(game, state)) + "\n"


def render_rgb(game: Game, state: State) -> np.ndarray:
    """The current race's picture."""
    return race_render.render_rgb(game.race_game(state), game.race_state(state))
