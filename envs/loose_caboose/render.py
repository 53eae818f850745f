"""Text and picture of the Loose Caboose! table (the railway, piles and hands)."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.render import BLACK, GREY, WHITE, Canvas, fit
from transit_gym.envs.core.text import decision_help, fold
from transit_gym.envs.loose_caboose import state as st
from transit_gym.envs.loose_caboose.encode import A_PASS, A_ROLL

VALUE_COLORS = {1: (70, 130, 220), 2: (90, 190, 90), 3: (230, 180, 40), 4: (220, 70, 60)}
CABOOSE_COLOR = (200, 30, 30)


#: what each decision is, in our own words (rulebook: How to Play, Add Tracks & Move the
#: Caboose, If the Caboose Derails, Taking Penalty Cards, Broken Tracks, Pass)
PHASE_HELP = {
    st.PHASE_CHOOSE: "Your turn (you have drawn a card): lay one card at the front of the "
                     "railway, or pass. Passing moves the caboose one card back and you take "
                     "one penalty card from the back of the railway. The fewest penalty "
                     "points win.",
    st.PHASE_CONTINUE: "You are laying cards: lay another card of the same value, or stop and "
                       "roll one die per value point (two 3s: three dice). The caboose moves "
                       "forward as many cards as the wheels rolled; past the front it derails "
                       "and you take a penalty card from the back for every card it could not "
                       "move.",
}
#: what each kind of action does
KIND_HELP = {
    "pass": "Pass: the caboose moves one card towards the back and you take one penalty card "
            "from the back of the railway (a card equal to your pile's top one cancels it).",
    "roll": "Stop laying and roll: dice as many as the value of the cards you laid; the "
            "caboose moves forward by the wheels shown, and derails past the front.",
    "lay a card": "Lay a card of your hand at the front of the railway, straight or turning "
                  "(the railway may not overlap or loop). Higher values roll more dice. A "
                  "Broken Track costs whoever moves the caboose over it a banked penalty card.",
}


def action_kind(action: int) -> str:
    """The kind of ``action`` (a key of :data:`KIND_HELP`)."""
    return {A_PASS: "pass", A_ROLL: "roll"}.get(action, "lay a card")


def phase_help(game: Game, state: State) -> list[tuple[str, str]]:
    """What the pending decision is and what each kind of its legal actions does."""
    kinds = (action_kind(int(a)) for a in game.legal_actions(state))
    return decision_help(PHASE_HELP[int(state.data[st.PHASE])], kinds, KIND_HELP)


def card_label(game: Game, card: int) -> str:
    """Short label: value, ``x`` for a Broken Track, ``|`` straight or ``~`` curve."""
    p = game.params
    broken = "x" if p[st.P_BROKEN + card] else ""
    shape = "~" if p[st.P_SHAPES + card] else "|"
    return f"{p[st.P_VALUES + card]}{broken}{shape}"


def card_help(game: Game) -> dict[str, str]:
    """What the card labels of the table mean, in our own words, by label part."""
    return {
        "1": "Value 1 (blue): after laying 1s you roll one die; worth 1 penalty point in a pile.",
        "2": "Value 2 (green): after laying 2s you roll two dice; 2 penalty points in a pile.",
        "3": "Value 3 (yellow): after laying 3s you roll three dice; 3 penalty points in a pile.",
        "4": "Value 4 (red): after laying 4s you roll four dice; 4 penalty points in a pile.",
        "|": "A straight piece of rail (the shape matters only with the grid railway).",
        "~": "A curved piece of rail: the railway turns a quarter (grid railway only).",
        "x": "Broken Track: whoever moves the caboose over or onto it banks one penalty "
             "card from the back of the railway, face down, for the whole game.",
        "[ ]": "The brackets mark the card the caboose stands on.",
    }


def _cards(game: Game, cards: list[int]) -> str:
    return " ".join(card_label(game, c) for c in cards) or "-"


def _status(s: np.ndarray, seat: str, go_on: str) -> str:
    """Who decides what (``seat`` prefixes the seat number, ``go_on`` names the
    continue decision), and the run being laid; or that the game is over."""
    phase = int(s[st.PHASE])
    if phase == st.PHASE_OVER:
        return "game over"
    status = f"{seat}{int(s[st.CURRENT])} to {'choose' if phase == st.PHASE_CHOOSE else go_on}"
    if s[st.TURN_VALUE]:
        status += f" (laying {int(s[st.TURN_VALUE])}s, {int(s[st.TURN_CARDS])} laid)"
    return status


def render_text(game: Game, state: State, viewer: int | None = None) -> str:
    """The table as text: railway (back to front, caboose in brackets), then each seat;
    with a ``viewer`` seat, the other hands are shown as their sizes only."""
    s = state.data
    lo, hi, caboose = int(s[st.RAIL_LO]), int(s[st.RAIL_HI]), int(s[st.CABOOSE])
    rail = []
    for i in range(lo, hi):
        label = card_label(game, int(s[st.RAIL + i]))
        rail.append(f"[{label}]" if i == caboose else label)
    status = _status(s, "player_", "continue")
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
        hand = places[f"hand_{seat}"]
        shown = (_cards(game, hand) if viewer is None or viewer == seat
                 else f"{len(hand)} cards")
        line = (f"player_{seat}: hand {shown}"
                f" | pile {_cards(game, places[f'penalty_{seat}'])}"
                f" | banked {len(places[f'bank_{seat}']) + len(places[f'bank_hidden_{seat}'])}"
                f" | {scores[seat][0]} points")
        if places[f"hand_final_{seat}"]:
            line += f" (hand added: {_cards(game, places[f'hand_final_{seat}'])})"
        lines.append(line)
    return fold(lines)


CELL = 28
MIN_COLS, MIN_ROWS = 20, 4     # the railway area never shrinks below this (steady frames)
SEAT_ROW = 40
MINI_W, MINI_H = 14, 18        # a card in a penalty pile


def _card(canvas: Canvas, game: Game, card: int, x: int, y: int, w: int, h: int) -> None:
    """A card: coloured by value, its value, a thick black frame when it is Broken Track."""
    p = game.params
    value = int(p[st.P_VALUES + card])
    canvas.rect(x, y, w, h, VALUE_COLORS.get(value, GREY))
    if p[st.P_BROKEN + card]:
        canvas.frame(x, y, w, h, BLACK, thickness=2)
    scale = 2 if w >= 20 else 1
    canvas.text(x + 3, y + 3, str(value), WHITE, scale)


def _railway(canvas: Canvas, game: Game, s: np.ndarray, top: int) -> None:
    """The railway on its grid (or in a line without geometry), ``~`` on curves, the
    caboose as a red disc, the front card outlined in white."""
    lo, hi, caboose = int(s[st.RAIL_LO]), int(s[st.RAIL_HI]), int(s[st.CABOOSE])
    if hi <= lo:
        return
    if game.params[st.P_GEOMETRY]:
        cells = s[st.RAIL_CELL + lo:st.RAIL_CELL + hi]
        xs = (cells & 0xFF) - st.CELL_BIAS
        ys = ((cells >> 8) & 0xFF) - st.CELL_BIAS
    else:
        xs = np.arange(hi - lo)
        ys = np.zeros(hi - lo, dtype=np.int64)
    for i in range(hi - lo):
        card = int(s[st.RAIL + lo + i])
        x = 10 + int(xs[i] - xs.min()) * CELL
        y = top + int(ys.max() - ys[i]) * CELL
        _card(canvas, game, card, x + 1, y + 1, CELL - 2, CELL - 2)
        if game.params[st.P_SHAPES + card]:
            canvas.text(x + 14, y + 4, "~", WHITE, 2)
        if lo + i == caboose:
            canvas.disc(x + CELL // 2 + 4, y + CELL // 2 + 5, 6, CABOOSE_COLOR)
        if i == hi - lo - 1:
            canvas.frame(x, y, CELL, CELL, WHITE)


def render_rgb(game: Game, state: State) -> np.ndarray:
    """The railway, the draw/discard/removed piles and the last roll, then per seat: hand
    size, banked cards, points and the face-up penalty pile card by card (top on the right)."""
    s = state.data
    lo, hi = int(s[st.RAIL_LO]), int(s[st.RAIL_HI])
    cols, rows = MIN_COLS, MIN_ROWS
    if game.params[st.P_GEOMETRY] and hi > lo:
        cells = s[st.RAIL_CELL + lo:st.RAIL_CELL + hi]
        xs, ys = (cells & 0xFF), (cells >> 8) & 0xFF
        cols = max(cols, int(xs.max() - xs.min() + 1))
        rows = max(rows, int(ys.max() - ys.min() + 1))
    else:
        cols = max(cols, hi - lo)
    width = cols * CELL + 20
    board_top = 28
    piles_top = board_top + rows * CELL + 8
    seats_top = piles_top + 22
    canvas = Canvas(seats_top + SEAT_ROW * game.num_players + 4, width)
    status = _status(s, "p", "go on").upper()
    canvas.text(10, 8, fit(f"TURN {int(s[st.TURNS]) + 1}  {status}", width - 20), WHITE)
    _railway(canvas, game, s, board_top)
    places = game.card_places(state)
    roll = f"  LAST ROLL {int(s[st.LAST_WHEELS])} WHEELS" if s[st.LAST_WHEELS] >= 0 else ""
    canvas.text(10, piles_top, fit(
        f"DRAW {int(s[st.DECK_LEN])}  DISCARD {len(places['discard'])}  REMOVED "
        f"{len(places['removed'])}{roll}{'  LAST CARD DRAWN' if s[st.END_TRIGGERED] else ''}",
        width - 20), WHITE)
    for seat, (points, cards) in enumerate(game.scores(state)):
        y = seats_top + seat * SEAT_ROW
        current = seat == s[st.CURRENT] and s[st.PHASE] != st.PHASE_OVER
        hand = len(places[f"hand_{seat}"]) + len(places[f"hand_final_{seat}"])
        canvas.text(10, y, fit(f"{'>' if current else ' '}P{seat} HAND {hand} BANKED "
                               f"{len(places[f'bank_{seat}'])} POINTS {points} CARDS {cards}",
                               width - 20), WHITE if current else (215, 215, 215))
        pile = places[f"penalty_{seat}"]
        fits = max((width - 40) // (MINI_W + 2), 1)
        for j, card in enumerate(pile[-fits:]):
            _card(canvas, game, card, 26 + j * (MINI_W + 2), y + 14, MINI_W, MINI_H)
    return canvas.image()
