"""Text and picture of an Automobiles table: the track (unrolled, one row per lane, the
finish line at position 0), the cars, this turn's cubes, and every player sheet."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles import board
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import COLOURS, GEARS, NUM_COLOURS
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.render import BLACK, WHITE, Canvas

SHORT = ("W", "L", "D", "B", "w", "Y", "P", "R", "G", "U")   # U = blue (B is black)
TRACK_LETTERS = ("w", "l", "d", "b")
GEAR_RGB = ((235, 235, 235), (170, 170, 170), (95, 95, 95), (25, 25, 25))
SEAT_RGB = ((220, 50, 50), (60, 110, 220), (240, 200, 40), (60, 170, 80), (160, 80, 200))


def _pile(s: np.ndarray, base: int, seat: int) -> str:
    counts = s[base + seat * NUM_COLOURS:base + (seat + 1) * NUM_COLOURS]
    return " ".join(f"{SHORT[c]}{int(counts[c])}" for c in range(NUM_COLOURS) if counts[c]) or "-"


def _cells(game: Game, state: State) -> list[list[str]]:
    """Characters per lane and position: space colours, '|' at a space's rear edge."""
    track = game.track
    lap = track.lap_length
    rows = [["  "] * lap for _ in range(track.lanes)]
    for sp in range(track.num_spaces):
        colours = [g for g in GEARS if track.colours[sp] & (1 << g)]
        letter = TRACK_LETTERS[max(colours)]
        if len(colours) > 1:
            letter = letter.upper()
        for u in range(track.length[sp]):
            pos = (track.start[sp] + u) % lap
            rows[track.lane[sp]][pos] = ("|" if u == 0 else " ") + letter
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


def render_text(game: Game, state: State) -> str:
    s = state.data
    p = game.params
    phase = int(s[st.PHASE])
    track = game.track
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
        "track (w/l/d/b colours, upper case = combo, | space edge, digits = cars, "
        "* = cubes placed this turn; finish line at position 0):",
    ]
    rows = _cells(game, state)
    for lane in reversed(range(track.lanes)):
        lines.append(f"lane {lane} " + "".join(rows[lane]))
    ruler = "".join(f"{pos:<2d}" if pos % 5 == 0 else "  " for pos in range(track.lap_length))
    lines.append("pos    " + ruler)
    for seat in range(game.num_players):
        rank = int(board.rank(s, p, seat))
        lines.append(
            f"player_{seat}: place {rank}, lap {int(board.crossings(s, p, seat))}/{game.laps}, "
            f"space {int(s[st.CAR_SPACE + seat])} seg {int(s[st.CAR_SEG + seat])} | "
            f"bag {int(s[st.BAG + seat * NUM_COLOURS:st.BAG + (seat + 1) * NUM_COLOURS].sum())}"
            f" | active {_pile(s, st.ACTIVE, seat)} | used {_pile(s, st.USED, seat)} | "
            f"discard {_pile(s, st.DISCARD, seat)} | wear gained "
            f"{int(s[st.STAT_WEAR + seat])}")
    if s[st.PLACED_N]:
        lines.append("on the track: " + _pile(s, st.ON_TRACK, 0))
    if phase == st.PH_BUY or phase == st.PH_SETUP_BUY:
        lines.append(f"money: ${int(s[st.MONEY])}")
    return "\n".join(lines)


def render_rgb(game: Game, state: State) -> np.ndarray:
    """The unrolled track (outer lane on top), cars as discs, cubes as small squares,
    then one status line per player."""
    s = state.data
    p = game.params
    track = game.track
    cell_w, cell_h, margin = 14, 22, 10
    width = max(track.lap_length * cell_w + 2 * margin, 420)
    top = margin + 14
    height = top + track.lanes * cell_h + 20 + 18 * game.num_players + margin
    canvas = Canvas(height, width)
    canvas.text(margin, 4, f"{track.name.upper()} ROUND {int(s[st.ROUNDS]) + 1}", WHITE, 1)

    def cell(lane: int, pos: int) -> tuple[int, int]:
        return margin + pos * cell_w, top + (track.lanes - 1 - lane) * cell_h

    for sp in range(track.num_spaces):
        colours = [g for g in GEARS if track.colours[sp] & (1 << g)]
        for u in range(track.length[sp]):
            x, y = cell(int(track.lane[sp]), int((track.start[sp] + u) % track.lap_length))
            band = cell_h // len(colours)
            for k, g in enumerate(colours):
                canvas.rect(x, y + k * band, cell_w, band if k < len(colours) - 1
                            else cell_h - k * band, GEAR_RGB[g])
            if u == 0:
                canvas.rect(x, y, 2, cell_h, (200, 40, 40))
    canvas.rect(margin, top - 3, 2, track.lanes * cell_h + 6, WHITE)

    def centre(sp: int, seg: int) -> tuple[int, int]:
        pos = (int(track.end[sp]) - 1 - seg) % track.lap_length
        x, y = cell(int(track.lane[sp]), pos)
        return x + cell_w // 2, y + cell_h // 2

    for i in range(int(s[st.PLACED_N])):
        cx, cy = centre(int(s[st.PLACED_SPACE + i]), int(s[st.PLACED_SEG + i]))
        canvas.rect(cx - 3, cy - 3, 6, 6, SEAT_RGB[int(s[st.TURN_SEAT]) % len(SEAT_RGB)])
        canvas.frame(cx - 3, cy - 3, 6, 6, BLACK)
    for seat in range(game.num_players):
        cx, cy = centre(int(s[st.CAR_SPACE + seat]), int(s[st.CAR_SEG + seat]))
        canvas.disc(cx, cy, 6, SEAT_RGB[seat % len(SEAT_RGB)])
        canvas.text(cx - 1, cy - 2, str(seat), BLACK, 1)
    y0 = top + track.lanes * cell_h + 12
    for seat in range(game.num_players):
        marker = ">" if seat == int(s[st.CURRENT]) and s[st.PHASE] != st.PH_OVER else " "
        canvas.rect(margin, y0 + seat * 18, 8, 8, SEAT_RGB[seat % len(SEAT_RGB)])
        canvas.text(margin + 12, y0 + seat * 18,
                    f"{marker}P{seat} PLACE {int(board.rank(s, p, seat))} LAP "
                    f"{int(board.crossings(s, p, seat))}/{game.laps} WEAR "
                    f"{int(s[st.STAT_WEAR + seat])}", WHITE, 1)
    return canvas.image()
