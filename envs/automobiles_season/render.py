"""Pictures of a Racing Season state: the current race's picture with the season standings
below it (race number, races done, each seat's points and sponsor), and the season lines."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles import render as race_render
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.render import WHITE, Canvas, fit, zoom
from transit_gym.envs.core.text import fold

STANDINGS_ROW = 18


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
    return race + "\n" + fold(season_lines(game, state)) + "\n"


def card_help(game: Game) -> dict[str, str]:
    """The cards of the races (every race uses the same card set)."""
    return race_render.card_help(game.race_game(game.new_state(0)))


def standings_lines(game: Game, state: State) -> list[tuple[str, int | None]]:
    """The season standings as short picture labels, each with its seat (None for the
    heading): the race and races done, then per seat (most points first) its points and
    sponsor."""
    s = state.data
    names = game.sponsor_data.names
    order = sorted(range(game.num_players), key=lambda k: -int(s[ss.POINTS + k]))
    lines = [(f"SEASON RACE {game.race_no(state) + 1}/{game.num_races}, "
             f"{game.races_finished(state)} DONE: STANDINGS", None)]
    for place, k in enumerate(order, start=1):
        owned = int(s[ss.OWNED + k])
        lines.append((f"{place}. P{k} {int(s[ss.POINTS + k])} PTS"
                      + (f"  SPONSOR {names[owned]}" if owned >= 0 else ""), k))
    return lines


def render_rgb(game: Game, state: State) -> np.ndarray:
    """The current race's picture with the season standings strip below it."""
    race = race_render.render_rgb(game.race_game(state), game.race_state(state))
    height, width = race.shape[0] // zoom(), race.shape[1] // zoom()
    lines = standings_lines(game, state)
    canvas = Canvas(height + STANDINGS_ROW * len(lines) + 6, width)
    canvas.paste(0, 0, race)
    for i, (line, seat) in enumerate(lines):
        color = WHITE if seat is None else race_render.SEAT_RGB[seat % len(race_render.SEAT_RGB)]
        canvas.text(8, height + 4 + i * STANDINGS_ROW, fit(line, width - 16), color)
    return canvas.image()
