"""Text and picture of an Automobiles table: the track (unrolled, one row per lane, the
finish line at position 0), the cars, this turn's cubes, and every player sheet.

A clockwise board (Monte Carlo) is drawn mirrored, so that travel runs right to left;
a space the checkered flag cuts shows the line inside it (``:`` in the text), and an
own-space start slot is drawn as the segment of its space it is cut from."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from transit_gym.envs.automobiles import board
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import COLOURS, GEARS, NUM_COLOURS
from transit_gym.envs.automobiles.encode import (
    A_ACTIVE,
    A_ALL_WEAR,
    A_DISCARD,
    A_DRAW,
    A_PIT_STOP,
    A_SPACE,
    A_STOCK,
    A_STOP,
    A_USE_DRIVER,
)
from transit_gym.envs.core.datafile import load_toml
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.render import BLACK, GREY, WHITE, Canvas, fit, text_width
from transit_gym.envs.core.text import WIDTH, decision_help, fold

SHORT = ("W", "L", "D", "B", "w", "Y", "P", "R", "G", "U")   # U = blue (B is black)
TRACK_LETTERS = ("w", "l", "d", "b")
GEAR_RGB = ((235, 235, 235), (170, 170, 170), (95, 95, 95), (25, 25, 25))
SEAT_RGB = ((220, 50, 50), (60, 110, 220), (240, 200, 40), (60, 170, 80), (160, 80, 200))


def _pile(s: np.ndarray, base: int, seat: int) -> str:
    counts = s[base + seat * NUM_COLOURS:base + (seat + 1) * NUM_COLOURS]
    return " ".join(f"{SHORT[c]}{int(counts[c])}" for c in range(NUM_COLOURS) if counts[c]) or "-"


def clockwise(game: Game, s: np.ndarray) -> bool:
    """The board of the game in ``s`` is driven clockwise (drawn mirrored: travel right
    to left)."""
    return game.track_of(s).direction == "clockwise"


def _cells(game: Game, state: State) -> list[list[str]]:
    """Characters per lane and position: space colours, '|' at a space's rear edge, ':'
    where the checkered flag cuts a space."""
    track = game.track_of(state.data)
    lap = track.lap_length
    rows = [["  "] * lap for _ in range(track.lanes)]
    for sp in range(track.num_spaces):
        if track.parent[sp] >= 0:
            continue   # an own-space start slot is drawn as part of its space
        colours = [g for g in GEARS if track.colours[sp] & (1 << g)]
        letter = TRACK_LETTERS[max(colours)]
        if len(colours) > 1:
            letter = letter.upper()
        for u in range(track.length[sp]):
            pos = (track.start[sp] + u) % lap
            edge = "|" if u == 0 else (":" if pos == 0 else " ")
            rows[track.lane[sp]][pos] = edge + letter
    s = state.data
    for i in range(int(s[st.PLACED_N])):
        sp = int(s[st.PLACED_SPACE + i])
        pos = (track.end[sp] - 1 - int(s[st.PLACED_SEG + i])) % lap
        rows[track.lane[sp]][pos] = rows[track.lane[sp]][pos][0] + "*"
    for seat in range(game.num_players):
        sp = int(s[st.CAR_SPACE + seat])
        pos = (track.end[sp] - 1 - int(s[st.CAR_SEG + seat])) % lap
        rows[track.lane[sp]][pos] = rows[track.lane[sp]][pos][0] + str(seat)
    return rows


def driver_label(game: Game, s: np.ndarray, seat: int) -> str:
    """The seat's Racing Season driver ("" without drivers), marked when its once-a-turn
    ability was used this turn."""
    number = int(s[st.DRIVER_OF + seat])
    if number == 0:
        return ""
    used = s[st.DRIVER_USED] and seat == int(s[st.TURN_SEAT]) and s[st.PHASE] != st.PH_OVER
    return game.drivers.names[number - 1] + (" (used this turn)" if used else "")


def turn_effects(game: Game, s: np.ndarray) -> list[str]:
    """The Racing Season effects in force this turn, as short phrases (none: [])."""
    effects = []
    if s[st.REDLINE]:
        effects.append(f"Redline (white cubes on any gear colour, wear "
                       f"{int(s[st.REDLINE_WEAR])} each)")
    if s[st.FUEL] > 0:
        effects.append(f"Fuel Injection (gear moves x{int(s[st.FUEL])})")
    if s[st.ADR_LEFT] > 0:
        effects.append(f"Adrenaline ({int(s[st.ADR_LEFT])} light gray spaces left)")
    if s[st.CRATE_AWARD] > 0:
        effects.append(f"Crate Motor ({int(s[st.CRATE_AWARD])} spaces to each car behind)")
    owed = [f"player_{seat} {int(s[st.CRATE_SPACES + seat])}"
            for seat in range(game.num_players) if s[st.CRATE_SPACES + seat] > 0]
    if owed:
        effects.append("Crate Motor spaces still to move: " + ", ".join(owed))
    return effects


def driver_pool(game: Game, s: np.ndarray) -> str:
    """The drivers revealed in the draft and not taken yet ("" when none)."""
    pool = np.flatnonzero(s[st.DRIVER_POOL:st.DRIVER_POOL + len(game.drivers.names)])
    return ", ".join(game.drivers.names[k] for k in pool)


def card_help(game: Game) -> dict[str, str]:
    """What each card does, in our own words (``card_texts.toml``), by card name; with the
    Racing Season drivers on, what each driver does too."""
    texts = load_toml(Path(__file__).with_name("card_texts.toml"))
    out = {name: texts["cards"].get(name, "no description") for name in game.cards.names}
    if any(row[st.P_DRIVERS] for row in game.param_table):
        out.update({name: texts["drivers"].get(name, "no description")
                    for name in game.drivers.names})
    return out


#: the kind of each fixed action (``action_kind``), the ranges following
FIXED_KINDS = {A_STOP: "stop", A_PIT_STOP: "pit stop", A_DRAW: "draw",
               A_ALL_WEAR: "remove all wear", A_USE_DRIVER: "driver ability"}


def help_texts() -> dict[str, dict[str, str]]:
    """``decision_help.toml``: what each decision (``phases``) and kind of action
    (``kinds``) is, in our own words."""
    return load_toml(Path(__file__).with_name("decision_help.toml"))


def action_kind(phase: int, action: int) -> str:
    """The kind of ``action`` in decision ``phase`` (a key of the ``kinds`` help)."""
    if action in FIXED_KINDS:
        return FIXED_KINDS[action]
    if A_ACTIVE <= action < A_DISCARD:
        return "activate a cube" if phase == st.PH_ACTION else "active-pile cube"
    if A_DISCARD <= action < A_STOCK:
        return "discard-pile cube"
    if A_STOCK <= action < A_SPACE:
        return "stock cube"
    if A_SPACE <= action < A_USE_DRIVER:
        return "track space"
    return "take a driver"


def phase_help(game: Game, state: State) -> list[tuple[str, str]]:
    """What the pending decision of ``state`` is and what each kind of its legal actions
    does (``h`` in human play)."""
    texts = help_texts()
    phase = int(state.data[st.PHASE])
    kinds = (action_kind(phase, int(a)) for a in game.legal_actions(state))
    return decision_help(texts["phases"][st.PHASE_NAMES[phase]], kinds, texts["kinds"])


def track_lines(game: Game, state: State, width: int = WIDTH) -> list[str]:
    """The lanes as text, cut into blocks of positions so that no line passes ``width``
    columns (each block: its lanes, outer lane on top, and a position ruler)."""
    track = game.track_of(state.data)
    rows = _cells(game, state)
    order = list(range(track.lap_length))
    if clockwise(game, state.data):
        order.reverse()
        rows = [[cell[1] + cell[0] for cell in row] for row in rows]
    per_block = max((width - len("lane 0 ")) // 2, 5)
    lines = []
    for first in range(0, len(order), per_block):
        block = order[first:first + per_block]
        for lane in reversed(range(track.lanes)):
            lines.append(f"lane {lane} " + "".join(rows[lane][pos] for pos in block))
        lines.append("pos    " + "".join(f"{pos:<2d}" if pos % 5 == 0 else "  "
                                         for pos in block).rstrip())
    return lines


def render_text(game: Game, state: State, viewer: int | None = None) -> str:
    """The table as text. Nothing in it is hidden from any seat (bags show counts only),
    so ``viewer`` changes nothing."""
    s = state.data
    p = game.params_of(s)
    phase = int(s[st.PHASE])
    track = game.track_of(s)
    if phase == st.PH_OVER:
        status = "game over"
    else:
        status = (f"player_{int(s[st.CURRENT])} to decide ({st.PHASE_NAMES[phase]}), "
                  f"turn of player_{int(s[st.TURN_SEAT])}")
    market = "  ".join(
        f"{COLOURS[c]}: {game.cards.names[int(s[st.CARD_OF + c])]} "
        f"${int(s[st.COST + c])}/v{int(s[st.VALUE + c])}" for c in range(NUM_COLOURS))
    lines = [
        f"Automobiles on {track.name}: {game.laps} laps of {track.lap_length}, "
        f"round {int(s[st.ROUNDS]) + 1}: {status}"
        + (" - last round" if s[st.END_TRIGGERED] and phase != st.PH_OVER else ""),
        f"market: {market}",
        "stock: " + _pile(s, st.STOCK, 0),
        "track (w/l/d/b colours, upper case = combo, '|' space edge, ':' flag inside a space, "
        "digits = cars, * = cubes placed this turn; finish line at position 0; "
        + ("clockwise: travel right to left):" if clockwise(game, s)
           else "counter-clockwise: travel left to right):"),
    ]
    lines.extend(track_lines(game, state))
    for seat in range(game.num_players):
        rank = int(board.rank(s, p, seat))
        lines.append(
            f"player_{seat}: place {rank}, lap {int(board.crossings(s, p, seat))}/{game.laps}, "
            f"space {int(s[st.CAR_SPACE + seat])} seg {int(s[st.CAR_SEG + seat])} | "
            f"bag {int(s[st.BAG + seat * NUM_COLOURS:st.BAG + (seat + 1) * NUM_COLOURS].sum())}"
            f" | active {_pile(s, st.ACTIVE, seat)} | used {_pile(s, st.USED, seat)} | "
            f"discard {_pile(s, st.DISCARD, seat)} | wear gained "
            f"{int(s[st.STAT_WEAR + seat])}"
            + (f" | driver {label}" if (label := driver_label(game, s, seat)) else ""))
    if pool := driver_pool(game, s):
        lines.append(f"drivers to draft: {pool}")
    if effects := turn_effects(game, s):
        lines.append("this turn: " + "; ".join(effects))
    if s[st.PLACED_N]:
        lines.append("on the track: " + _pile(s, st.ON_TRACK, 0))
    if phase == st.PH_BUY or phase == st.PH_SETUP_BUY:
        lines.append(f"money: ${int(s[st.MONEY])}")
    return fold(lines)


CUBE_RGB = ((240, 240, 240), (175, 175, 175), (95, 95, 95), (25, 25, 25), (130, 80, 40),
            (240, 210, 50), (140, 70, 170), (210, 50, 50), (60, 160, 70), (50, 100, 210))
LIGHT_CUBES = (0, 1, 5)          # colours that take dark digits
CELL_W, CELL_H, MARGIN = 20, 22, 10
CARD_W, CARD_H, CARD_GAP = 82, 54, 4
PLAYER_H = 34


def _cube(canvas: Canvas, x: int, y: int, colour: int, count: int) -> None:
    """A 12-pixel cube of ``colour`` with its count written on it."""
    canvas.rect(x, y, 12, 12, CUBE_RGB[colour])
    canvas.frame(x, y, 12, 12, BLACK)
    canvas.text(x + 3 if count < 10 else x + 1, y + 4, str(count),
                BLACK if colour in LIGHT_CUBES else WHITE, 1)


def _cubes(canvas: Canvas, x: int, y: int, label: str, counts: np.ndarray) -> int:
    """``label`` then one counted cube per colour present; returns the x after it."""
    canvas.text(x, y + 3, label, WHITE, 1)
    x += text_width(label, 1) + 4
    for c in range(NUM_COLOURS):
        if counts[c]:
            _cube(canvas, x, y, c, int(counts[c]))
            x += 14
    return x + 10


def _track(canvas: Canvas, game: Game, s: np.ndarray, top: int) -> None:
    """The unrolled track (outer lane on top), cubes placed this turn, the cars."""
    track = game.track_of(s)
    mirrored = clockwise(game, s)
    lap = track.lap_length

    def cell(lane: int, pos: int) -> tuple[int, int]:
        column = lap - 1 - pos if mirrored else pos
        return MARGIN + column * CELL_W, top + (track.lanes - 1 - lane) * CELL_H

    for sp in range(track.num_spaces):
        if track.parent[sp] >= 0:
            continue   # an own-space start slot is drawn as part of its space
        colours = [g for g in GEARS if track.colours[sp] & (1 << g)]
        for u in range(track.length[sp]):
            x, y = cell(int(track.lane[sp]), int((track.start[sp] + u) % track.lap_length))
            band = CELL_H // len(colours)
            for k, g in enumerate(colours):
                canvas.rect(x, y + k * band, CELL_W, band if k < len(colours) - 1
                            else CELL_H - k * band, GEAR_RGB[g])
            if u == 0:
                canvas.rect(x + (CELL_W - 2 if mirrored else 0), y, 2, CELL_H, (200, 40, 40))
    line_x = MARGIN + (lap * CELL_W - 2 if mirrored else 0)
    for k in range(0, track.lanes * CELL_H + 6, 4):   # the checkered flag across every lane
        canvas.rect(line_x, top - 3 + k, 2, 2, WHITE)
        canvas.rect(line_x, top - 1 + k, 2, 2, BLACK)
    for pos in range(0, lap, 5):
        x, _ = cell(0, pos)
        canvas.text(x + 2, top + track.lanes * CELL_H + 3, str(pos), WHITE, 1)

    def centre(sp: int, seg: int) -> tuple[int, int]:
        pos = (int(track.end[sp]) - 1 - seg) % track.lap_length
        x, y = cell(int(track.lane[sp]), pos)
        return x + CELL_W // 2, y + CELL_H // 2

    mover = SEAT_RGB[int(s[st.TURN_SEAT]) % len(SEAT_RGB)]
    for i in range(int(s[st.PLACED_N])):
        cx, cy = centre(int(s[st.PLACED_SPACE + i]), int(s[st.PLACED_SEG + i]))
        canvas.rect(cx - 5, cy - 5, 10, 10, mover)
        canvas.rect(cx - 3, cy - 3, 6, 6, CUBE_RGB[int(s[st.PLACED_COLOUR + i])])
    for seat in range(game.num_players):
        cx, cy = centre(int(s[st.CAR_SPACE + seat]), int(s[st.CAR_SEG + seat]))
        canvas.disc(cx, cy, 7, BLACK)
        canvas.disc(cx, cy, 6, SEAT_RGB[seat % len(SEAT_RGB)])
        canvas.text(cx - 1, cy - 2, str(seat), BLACK, 1)


def _market(canvas: Canvas, game: Game, s: np.ndarray, top: int) -> None:
    """The card row: one card per cube colour with its name, cost, value and stock."""
    for c in range(NUM_COLOURS):
        x = MARGIN + c * (CARD_W + CARD_GAP)
        canvas.rect(x, top, CARD_W, CARD_H, (235, 235, 225))
        canvas.rect(x, top, CARD_W, 12, CUBE_RGB[c])
        canvas.frame(x, top, CARD_W, CARD_H, BLACK)
        name = game.cards.names[int(s[st.CARD_OF + c])]
        canvas.text(x + 3, top + 4, fit(name, CARD_W - 6, 1),
                    BLACK if c in LIGHT_CUBES else WHITE, 1)
        canvas.text(x + 4, top + 18, f"${int(s[st.COST + c])} V{int(s[st.VALUE + c])}", BLACK)
        canvas.text(x + 4, top + 38, f"STOCK {int(s[st.STOCK + c])}", GREY, 1)


def render_rgb(game: Game, state: State) -> np.ndarray:
    """The unrolled track with the cars and this turn's cubes, the card row (cost, value,
    stock per colour), then per player: place, lap, and the bag, active, used and discard
    cubes (counts, and the active and discarded cubes by colour)."""
    s = state.data
    p = game.params_of(s)
    track = game.track_of(s)
    width = max(track.lap_length * CELL_W, NUM_COLOURS * (CARD_W + CARD_GAP)) + 2 * MARGIN
    track_top = 30
    market_top = track_top + track.lanes * CELL_H + 18
    players_top = market_top + CARD_H + 12
    height = players_top + PLAYER_H * game.num_players + MARGIN
    canvas = Canvas(height, width)
    phase = int(s[st.PHASE])
    status = ("GAME OVER" if phase == st.PH_OVER else
              f"P{int(s[st.CURRENT])}: {st.PHASE_NAMES[phase].replace('_', ' ')}")
    last = " LAST ROUND" if s[st.END_TRIGGERED] and phase != st.PH_OVER else ""
    canvas.text(MARGIN, 8, fit(f"{track.name} {game.laps} LAPS  ROUND {int(s[st.ROUNDS]) + 1}"
                               f"{last}  {status}", width - 2 * MARGIN), WHITE)
    _track(canvas, game, s, track_top)
    _market(canvas, game, s, market_top)
    for seat in range(game.num_players):
        y = players_top + seat * PLAYER_H
        own = slice(seat * NUM_COLOURS, (seat + 1) * NUM_COLOURS)
        bag, active = s[st.BAG:][own], s[st.ACTIVE:][own]
        used, discard = s[st.USED:][own], s[st.DISCARD:][own]
        current = seat == int(s[st.CURRENT]) and phase != st.PH_OVER
        canvas.rect(MARGIN, y, 12, 12, SEAT_RGB[seat % len(SEAT_RGB)])
        canvas.text(MARGIN + 16, y + 1,
                    f"{'>' if current else ' '}P{seat} PLACE {int(board.rank(s, p, seat))} LAP "
                    f"{int(board.crossings(s, p, seat))}/{game.laps}  BAG {int(bag.sum())} "
                    f"ACTIVE {int(active.sum())} USED {int(used.sum())} DISCARD "
                    f"{int(discard.sum())}  WEAR GAINED {int(s[st.STAT_WEAR + seat])}"
                    + (f"  {label.upper()}" if (label := driver_label(game, s, seat))
                       else ""),
                    WHITE if current else (215, 215, 215))
        x = _cubes(canvas, MARGIN + 24, y + 16, "ACTIVE", active)
        _cubes(canvas, max(x, width // 2), y + 16, "DISCARD", discard)
    return canvas.image()
