"""Pictures of a Racing Season state: the current race's picture with the season standings
below it (race number, races done, each seat's points and sponsor), and the season lines."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles import render as race_render
from transit_gym.envs.automobiles.encode import A_DISCARD, A_STOCK, A_STOP
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.render import WHITE, Canvas, fit, zoom
from transit_gym.envs.core.text import decision_help, fold

STANDINGS_ROW = 18

#: what each decision between the races is, in our own words (the Season Campaign section of
#: the Racing Season rules: Sponsors, Sponsor Clarifications, Awarding Points)
SEASON_PHASE_HELP = {
    ss.S_PICK: "Sponsors after a race, best finisher first: take one of the available "
               "sponsors (from the second race on you may instead keep yours; taking a new "
               "one removes your old one from the game). Its effect for your finishing place "
               "follows at once.",
    ss.S_DROP: "You kept your sponsor, so remove one of the available sponsors from the game.",
    ss.S_STANDARD: "Every sponsor's effect starts with the standard removal: remove cubes of "
                   "any kind from your cubes (up to 3 after first place, 6 in the middle, 12 "
                   "last), one at a time. Stop when done; wear is usually the best to remove.",
    ss.S_EXTRA: "Your sponsor lets you remove more cubes of any kind, one at a time. Stop "
                "when done.",
    ss.S_WEAR: "Your sponsor lets you remove wear cubes, one at a time. Stop when done.",
    ss.S_GAIN: "Your sponsor gives you cubes from the stock for free, one at a time (they go "
               "into your bag for the next race). Stop when done.",
    ss.S_SPEND: "Your sponsor gives you money for cubes of the stock: buy them one at a time "
                "(they go into your bag for the next race). Stop when done; money left is lost.",
}
#: what each kind of action between the races does
SEASON_KIND_HELP = {
    "take a sponsor": "Take this sponsor; its effect for your finishing place applies now "
                      "and at the end of later races while you keep it.",
    "keep your sponsor": "Keep the sponsor you have; you then remove one available sponsor.",
    "remove a sponsor": "Remove this available sponsor from the game.",
    "stop": "Stop: use no more of this step of your sponsor.",
    "remove a cube": "Remove one of your cubes of this colour (the card it stands for is in "
                     "brackets) back to the stock.",
    "stock cube": "Take one cube of this colour from the stock (its card in brackets) into "
                  "your bag, free or paid as the step says.",
}


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


def season_action_kind(action: int) -> str:
    """The kind of a season decision's ``action`` (a key of :data:`SEASON_KIND_HELP`)."""
    if ss.A_SPONSOR <= action < ss.A_KEEP:
        return "take a sponsor"
    if action == ss.A_KEEP:
        return "keep your sponsor"
    if action >= ss.A_DROP:
        return "remove a sponsor"
    if action == A_STOP:
        return "stop"
    return "remove a cube" if A_DISCARD <= action < A_STOCK else "stock cube"


def phase_help(game: Game, state: State) -> list[tuple[str, str]]:
    """What the pending decision is and what each kind of its legal actions does: a race's
    decisions as in Automobiles, the sponsor steps between races."""
    phase = int(state.data[ss.SEASON_PHASE])
    if phase == ss.S_RACE:
        return race_render.phase_help(game.race_game(state), game.race_state(state))
    kinds = (season_action_kind(int(a)) for a in game.legal_actions(state))
    return decision_help(SEASON_PHASE_HELP[phase], kinds, SEASON_KIND_HELP)


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
