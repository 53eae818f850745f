"""Text and picture of the Loose Caboose! table (the railway, piles and hands)."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.render import BLACK, GREY, WHITE, Canvas
from transit_gym.envs.loose_caboose import state as st

VALUE_COLORS = {1: (70, 130, 220), 2: (90, 190, 90), 3: (230, 180, 40), 4: (220, 70, 60)}
CABOOSE_COLOR = (200, 30, 30)


def card_label(game: Game, card: int) -> str:
    """Short label: value, ``x`` for a Broken Track, ``|`` straight or ``~`` curve."""
    p = game.params
    broken = "x" if p[st.P_BROKEN + card] else ""
    shape = "~" if p[st.P_SHAPES + card] else "|"
    return f"{p[st.P_VALUES + card]}{broken}{shape}"


def _cards(game: Game, cards: list[int]) -> str:
    return " ".join(card_label(game, c) for c in cards) or "-"


def render_text(game: Game, state: State) -> str:
    """The table as text: railway (back to front, caboose in brackets), then each seat."""
    s = state.data
    lo, hi, caboose = int(s[st.RAIL_LO]), int(s[st.RAIL_HI]), int(s[st.CABOOSE])
    rail = []
    for i in range(lo, hi):
        label = card_label(game, int(s[st.RAIL + i]))
        rail.append(f"[{label}]" if i == caboose else label)
    phase = int(s[st.PHASE])
    if phase == st.PHASE_OVER:
        status = "game over"
    else:
        status = f"player_{s[st.CURRENT]} to {'choose' if phase == st.PHASE_CHOOSE else 'continue'}"
        if s[st.TURN_VALUE]:
            status += f" (laying {s[st.TURN_VALUE]}s, {s[st.TURN_CARDS]} laid)"
    places = game.card_places(state)
    lines = [
        f"Loose Caboose! turn {s[st.TURNS] + 1}: {status}",
        f"railway (back -> front): {' '.join(rail)}",
        f"draw pile {s[st.DECK_LEN]}, discard {len(places['discard'])}, "
        f"removed {len(places['removed'])}"
        + (", last card drawn" if s[st.END_TRIGGERED] else "")
        + (f", last roll {s[st.LAST_WHEELS]} wheels" if s[st.LAST_WHEELS] >= 0 else ""),
    ]
    scores = game.scores(state)
    for seat in range(game.num_players):
        line = (f"player_{seat}: hand {_cards(game, places[f'hand_{seat}'])}"
                f" | pile {_cards(game, places[f'penalty_{seat}'])}"
                f" | banked {len(places[f'bank_{seat}']) + len(places[f'bank_hidden_{seat}'])}"
                f" | {scores[seat][0]} points")
        if places[f"hand_final_{seat}"]:
            line += f" (hand added: {_cards(game, places[f'hand_final_{seat}'])})"
        lines.append(line)
    return "\n".join(lines)


def render_rgb(game: Game, state: State) -> np.ndarray:
    """The railway drawn on its grid (or as a line), the caboose, and per-seat piles."""
    s = state.data
    lo, hi, caboose = int(s[st.RAIL_LO]), int(s[st.RAIL_HI]), int(s[st.CABOOSE])
    geometry = bool(game.params[st.P_GEOMETRY])
    if geometry:
        cells = s[st.RAIL_CELL + lo:st.RAIL_CELL + hi]
        xs = (cells & 0xFF) - st.CELL_BIAS
        ys = ((cells >> 8) & 0xFF) - st.CELL_BIAS
    else:
        xs = np.arange(hi - lo)
        ys = np.zeros(hi - lo, dtype=np.int64)
    cell = 28
    cols = int(xs.max() - xs.min() + 1)
    rows = int(ys.max() - ys.min() + 1)
    board_w = max(cols * cell, 360)
    canvas = Canvas(rows * cell + 40 + 28 * game.num_players, board_w + 20)
    for i in range(hi - lo):
        card = int(s[st.RAIL + lo + i])
        x = 10 + int(xs[i] - xs.min()) * cell
        y = 10 + int(ys.max() - ys[i]) * cell
        color = VALUE_COLORS.get(int(game.params[st.P_VALUES + card]), GREY)
        canvas.rect(x + 1, y + 1, cell - 2, cell - 2, color)
        if game.params[st.P_BROKEN + card]:
            canvas.frame(x + 1, y + 1, cell - 2, cell - 2, BLACK, thickness=3)
        canvas.text(x + 4, y + 4, str(int(game.params[st.P_VALUES + card])), WHITE)
        if lo + i == caboose:
            canvas.disc(x + cell // 2 + 4, y + cell // 2 + 4, 6, CABOOSE_COLOR)
    top = rows * cell + 24
    places = game.card_places(state)
    for seat, (points, cards) in enumerate(game.scores(state)):
        y = top + seat * 28
        marker = ">" if seat == s[st.CURRENT] and s[st.PHASE] != st.PHASE_OVER else " "
        canvas.text(10, y, f"{marker}P{seat} HAND {len(places[f'hand_{seat}'])} PTS {points} "
                           f"CARDS {cards}", WHITE)
    return canvas.image()
