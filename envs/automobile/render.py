"""Text and picture of the Automobile table: production track, players, salesroom, markers.

The renders show the whole table, demand tiles included (they are for people
watching a game, not for agents; agents get ``observe``).
"""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.actions import (
    A_BUILD,
    A_DONE,
    A_EXEC_CLOSE,
    A_FORD,
    A_LOAN,
    A_MOVE,
    A_QTY,
    A_SHOWROOM,
    A_SPACE,
    A_WHAT,
)
from transit_gym.envs.automobile.data import CHARACTERS, NUM_SPACES, SEGMENTS
from transit_gym.envs.automobile.kernels import salesmen_in_stock
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.render import BLACK, GREY, WHITE, Canvas, fit
from transit_gym.envs.core.text import decision_help, fold

PHASE_TEXT = {
    st.PH_SELECT: "P2 select a character",
    st.PH_DURANT: "P2 Durant's immediate build",
    st.PH_ACTION: "P3 choose an action",
    st.PH_BUILD_SPACE: "P3 choose where to build",
    st.PH_BUILD_WHAT: "P3 choose what to build",
    st.PH_FORD_AFTER: "P3 Ford's extra build or done",
    st.PH_SALESMEN: "P3 place salesmen",
    st.PH_PRODUCE: "P3 produce cars",
    st.PH_CLOSE: "P3 close down a space",
    st.PH_HOWARD: "P4 sell a car to Howard",
    st.PH_SALE_MOVE: "P5 move a salesman",
    st.PH_SALE_CAR: "P5 choose the salesman's car",
    st.PH_EXEC: "P6 executive decision",
    st.PH_EXEC_SPACE: "P6 choose the space",
}
#: what each decision is, in our own words (rulebook: Course of Play, P2-P6, Loans, the
#: player actions I-V, Parts Factory, the executive decisions A-D)
PHASE_HELP = {
    st.PH_SELECT: "P2, choose a character tile: it sets your place in this turn's order of "
                  "play, gives R&D cubes and a power (h NAME tells, e.g. h Ford). Players choose "
                  "in the order of the selection order track.",
    st.PH_DURANT: "You took Durant: build one factory at once on a free space, paying its "
                  "price and the R&D it needs (or decline when you cannot pay).",
    st.PH_ACTION: "P3, the player actions (three rounds, one action each): I build factories, "
                  "II place up to 3 salesmen, III take two R&D cubes, IV produce cars on your "
                  "spaces, V close down one of your spaces. You may also take a $500 loan.",
    st.PH_BUILD_SPACE: "Build factories: choose the production space. Building beyond the most "
                       "advanced occupied space costs R&D cubes (1, then 1+2, ...); a space "
                       "holds one player's factories, at most three and a parts factory.",
    st.PH_BUILD_WHAT: "Build factories: choose what to build on this space, paying its price "
                      "per factory; a parts factory costs $500 and makes its cars $20 cheaper.",
    st.PH_FORD_AFTER: "Ford's power: one extra build (a factory or the parts factory) where you "
                      "already have factories, or done.",
    st.PH_SALESMEN: "Place salesmen: put salesmen into the showrooms, one at a time, up to 3; "
                    "each can later sell one car of its segment or one next to it. An unused "
                    "salesman costs a loss cube. Done to stop.",
    st.PH_PRODUCE: "Produce cars on this space: choose how many (within the table's minimum "
                   "and maximum for your factories there), or none. Each car costs its "
                   "segment's price; unsold cars bring losses.",
    st.PH_CLOSE: "Close down one of your production spaces: its factories return to your stock, "
                 "you get each factory's price less $100 and discard half your loss cubes.",
    st.PH_HOWARD: "P4, Howard's power: sell two of your cars at the top price of their segment; "
                  "choose the space each car comes from.",
    st.PH_SALE_MOVE: "P5, sell cars through salesmen: move one salesman from a showroom to a "
                     "sales track (its segment or one next to it) to sell one car there at the "
                     "top price. You must sell while you can.",
    st.PH_SALE_CAR: "P5: choose the production space the salesman's car comes from.",
    st.PH_EXEC: "P6, executive decisions (one at a time, until all pass): close a production "
                "space, buy an advertisement marker, take discount markers, or pass (the order "
                "of passing sets the next turn's ties).",
    st.PH_EXEC_SPACE: "P6: choose the production space for your executive decision.",
}
#: what each kind of action does
KIND_HELP = {
    "character": "Take this character tile for the turn (h NAME tells its power).",
    "player action": "Take this player action for this round (the menu names it).",
    "Ford's build": "Ford's power: an extra build on a space with your factories.",
    "loan": "Take a $500 loan (at most two in a game): $50 interest each turn, $600 to repay "
            "at the end.",
    "done": "Done: stop or decline this step.",
    "space": "Choose this production space (its number and car model).",
    "build": "Build this on the chosen space.",
    "showroom": "Place one salesman in this showroom (mass market, middle class or premium).",
    "quantity": "Produce this many cars on the space (0: none here).",
    "sell": "Move this salesman to this sales track and sell one car of that segment.",
    "executive": "This executive decision (the menu names it): a closure, an advertisement "
                 "marker, discount markers or pass.",
}


def action_kind(action: int) -> str:
    """The kind of ``action`` (a key of :data:`KIND_HELP`)."""
    fixed = {A_FORD: "Ford's build", A_LOAN: "loan", A_DONE: "done"}
    if action in fixed:
        return fixed[action]
    for first, kind in ((A_EXEC_CLOSE, "executive"), (A_MOVE, "sell"), (A_QTY, "quantity"),
                        (A_SHOWROOM, "showroom"), (A_WHAT, "build"), (A_SPACE, "space"),
                        (A_BUILD, "player action")):
        if action >= first:
            return kind
    return "character"


def phase_help(game: Game, state: State) -> list[tuple[str, str]]:
    """What the pending decision is and what each kind of its legal actions does."""
    kinds = (action_kind(int(a)) for a in game.legal_actions(state))
    return decision_help(PHASE_HELP[int(state.data[st.PHASE])], kinds, KIND_HELP)


SEAT_COLORS = [(220, 60, 50), (240, 200, 40), (60, 170, 80), (60, 110, 220), (160, 90, 200)]
SEGMENT_COLORS = [(150, 110, 70), (80, 120, 190), (225, 205, 150)]
SEG_SHORT = ("A mass", "B middle", "C premium")


#: what each character tile does, in our own words (with its R&D cubes per turn)
CHARACTER_HELP = {
    "ford": "Ford (1 R&D): once a turn an extra build, one factory or the parts factory, "
            "in a space where you already have factories, at the normal price.",
    "kettering": "Kettering (3 R&D): no other power; the most research.",
    "sloan": "Sloan (1 R&D): when losses are paid, first give back half your loss cubes "
             "(rounded up).",
    "howard": "Howard (0 R&D): in the produce phase you must sell two of your cars at the "
              "top price of their segment.",
    "durant": "Durant (1 R&D): at once build one factory on a free space, paying its price "
              "and the R&D it needs.",
    "chrysler": "Chrysler (2 R&D): when losses are paid, give back loss cubes equal to the "
                "turn number.",
}


def card_help(game: Game) -> dict[str, str]:
    """What each character tile does, by name (Automobile has no cards of its own)."""
    return {name.capitalize(): CHARACTER_HELP[name] for name in CHARACTERS}


def _status(game: Game, state: State) -> str:
    s = state.data
    phase = int(s[st.PHASE])
    turn = int(s[st.TURN]) + 1
    if phase == st.PH_OVER:
        return f"Automobile: game over after turn {turn}"
    where = PHASE_TEXT[phase]
    if phase in (st.PH_ACTION, st.PH_BUILD_SPACE, st.PH_BUILD_WHAT, st.PH_FORD_AFTER,
                 st.PH_SALESMEN, st.PH_PRODUCE, st.PH_CLOSE):
        where += f" (round {int(s[st.ROUND]) + 1}/3)"
    if phase in (st.PH_BUILD_WHAT, st.PH_PRODUCE):
        space = int(s[st.CTX_SPACE])
        where += f", space {space + 1} {game.data.names[space]}"
    return f"Automobile turn {turn}/4: player_{s[st.CURRENT]} to {where}"


def render_text(game: Game, state: State, viewer: int | None = None) -> str:
    """The table as text: status, production track, players, characters, markers; with
    a ``viewer`` seat, the other seats' demand tiles are shown as a count only."""
    s = state.data
    p = game.params
    n = game.num_players
    lines = [_status(game, state), "production track (least advanced first):"]
    for i in range(NUM_SPACES):
        owner = int(s[st.OWNER + i])
        if owner < 0 and not s[st.CLOSED + i]:
            continue
        bits = [f"{i + 1:>2} {game.data.names[i]:<18} {SEG_SHORT[p[st.P_SEGMENT + i]]:<9} "
                f"${p[st.P_COST + i]}"]
        if s[st.CLOSED + i]:
            bits.append("CLOSED")
        if s[st.FACTORIES + i]:
            f = int(s[st.FACTORIES + i])
            bits.append(f"player_{owner}: {f} factor{'ies' if f > 1 else 'y'}"
                        + (" + parts factory" if s[st.PARTS + i] else ""))
        if s[st.CARS + i]:
            bits.append(f"{s[st.CARS + i]} cars (player_{owner})")
        if s[st.AD + i]:
            bits.append("advertised")
        if s[st.DISC + i]:
            bits.append(f"{s[st.DISC + i]} discount")
        lines.append("  " + ", ".join(bits))
    if s[st.FRONTIER] < 0:
        lines.append("  (nothing built yet)")
    for seat in range(n):
        c = int(s[st.CHAR_OF + seat])
        show = "/".join(str(int(v)) for v in s[st.SHOW + seat * 3:st.SHOW + seat * 3 + 3])
        tiles = [int(v) for v in s[st.TILES + seat * 2:st.TILES + seat * 2 + 2] if v]
        lines.append(
            f"player_{seat}: ${s[st.CASH + seat]}, R&D {s[st.RD + seat]}, loss cubes "
            f"{s[st.LOSS + seat]}, loans {s[st.LOANS + seat]}, salesmen mass/middle/premium "
            f"{show} (stock {salesmen_in_stock(s, p, seat)}), cars {s[st.CAR_COUNT + seat]}, "
            f"character {CHARACTERS[c].capitalize() if c >= 0 else '-'}, demand tiles "
            + (f"{tiles}" if viewer is None or viewer == seat else f"({len(tiles)} hidden)")
        )
    holders = []
    for c, name in enumerate(CHARACTERS):
        seat = int(s[st.CHAR_SEAT + c])
        holder = f"player_{seat}" if seat >= 0 else f"{int(s[st.CHAR_RD + c])} R&D"
        holders.append(f"{name.capitalize()} ({holder})")
    chars = ", ".join(holders)
    lines.append(f"characters: {chars}")
    lines.append(
        f"selection order {[int(x) for x in s[st.SEL_ORDER:st.SEL_ORDER + n]]}, "
        f"R&D stock {s[st.RD_STOCK]}, last demand "
        + ", ".join(f"{SEGMENTS[g]} {s[st.DEMAND + g]}" for g in range(3))
        + f", ads bought {s[st.ADS_BOUGHT]}, discount stacks left "
        f"{[int(v) for v in s[st.DISC_AVAIL:st.DISC_AVAIL + int(p[st.P_NUM_STACKS])] if v]}"
        f", sale boxes filled {[int(v) for v in s[st.BOXES:st.BOXES + 3]]}"
    )
    return fold(lines)


CELL_W, CELL_H, GAP, PER_ROW = 60, 62, 4, 13
BOARD_TOP = 26
PANEL_W = 268           # one salesroom column (showroom box and sales track)


def _space(canvas: Canvas, game: Game, s: np.ndarray, i: int, x: int, y: int) -> None:
    """One production space: segment band with number and cost, then its owner's
    factories (white squares), parts factory (grey disc), cars, advert and discounts."""
    p = game.params
    canvas.rect(x, y, CELL_W, CELL_H, (235, 235, 225))
    canvas.rect(x, y, CELL_W, 12, SEGMENT_COLORS[int(p[st.P_SEGMENT + i])])
    canvas.text(x + 2, y + 3, f"{i + 1} ${int(p[st.P_COST + i])}", BLACK, 1)
    owner = int(s[st.OWNER + i])
    if s[st.CLOSED + i]:
        canvas.rect(x + 3, y + 15, CELL_W - 6, 18, BLACK)
        canvas.text(x + 6, y + 19, "SHUT", WHITE)
    elif s[st.FACTORIES + i]:
        canvas.rect(x + 3, y + 15, CELL_W - 6, 18, SEAT_COLORS[owner])
        for f in range(int(s[st.FACTORIES + i])):
            canvas.rect(x + 6 + f * 10, y + 19, 8, 8, WHITE)
        if s[st.PARTS + i]:
            canvas.disc(x + CELL_W - 11, y + 23, 5, GREY)
    if s[st.CARS + i]:
        canvas.text(x + 4, y + 37, f"{int(s[st.CARS + i])} CAR", BLACK)
    marks = ("AD " if s[st.AD + i] else "") + (f"-{int(s[st.DISC + i])}" if s[st.DISC + i]
                                               else "")
    if marks:
        canvas.text(x + 4, y + 52, marks, (160, 30, 30), 1)
    if int(s[st.FRONTIER]) == i:
        canvas.frame(x - 2, y - 2, CELL_W + 4, CELL_H + 4, WHITE, thickness=2)


def _salesroom(canvas: Canvas, game: Game, s: np.ndarray, top: int) -> None:
    """Per segment: the salesmen in its showroom box and on its sales track, by seat,
    the filled sale boxes and the demand revealed last."""
    for g in range(3):
        x = GAP + g * (PANEL_W + 8)
        canvas.rect(x, top, PANEL_W, 58, (235, 235, 225))
        canvas.rect(x, top, PANEL_W, 12, SEGMENT_COLORS[g])
        canvas.text(x + 3, top + 3, f"{SEGMENTS[g]} SALES {int(s[st.BOXES + g])}  "
                                    f"DEMAND {int(s[st.DEMAND + g])}", BLACK, 1)
        for row, (label, base) in enumerate((("SHOWROOM", st.SHOW), ("TRACK", st.USED))):
            y = top + 18 + row * 20
            canvas.text(x + 4, y + 3, label, BLACK, 1)
            for seat in range(game.num_players):
                count = int(s[base + seat * 3 + g])
                bx = x + 44 + seat * 22
                canvas.rect(bx, y, 18, 14, SEAT_COLORS[seat] if count else (205, 205, 195))
                canvas.text(bx + 6, y + 4, str(count), BLACK, 1)


def render_rgb(game: Game, state: State) -> np.ndarray:
    """The 26 production spaces in two rows, the salesroom (showrooms, sales tracks,
    demand), the characters, then one line per player (cash, R&D, loss cubes, loans,
    cars, salesmen in stock, character, demand tiles)."""
    s = state.data
    p = game.params
    n = game.num_players
    width = PER_ROW * (CELL_W + GAP) + GAP
    sales_top = BOARD_TOP + 2 * (CELL_H + GAP) + 8
    chars_top = sales_top + 66
    players_top = chars_top + 24
    canvas = Canvas(players_top + 20 * n + 8, width)
    canvas.text(GAP, 8, fit(_status(game, state).replace("Automobile ", ""), width - 2 * GAP),
                WHITE)
    for i in range(NUM_SPACES):
        _space(canvas, game, s, i, GAP + (i % PER_ROW) * (CELL_W + GAP),
               BOARD_TOP + (i // PER_ROW) * (CELL_H + GAP))
    _salesroom(canvas, game, s, sales_top)
    for c, name in enumerate(CHARACTERS):
        x = GAP + c * 138
        seat = int(s[st.CHAR_SEAT + c])
        canvas.rect(x, chars_top, 132, 16, SEAT_COLORS[seat] if seat >= 0 else (90, 90, 90))
        held = f"P{seat}" if seat >= 0 else f"{int(s[st.CHAR_RD + c])} R&D"
        canvas.text(x + 4, chars_top + 5, f"{name} {held}", BLACK if seat >= 0 else WHITE, 1)
    for seat in range(n):
        y = players_top + seat * 20
        canvas.rect(GAP, y, 12, 12, SEAT_COLORS[seat])
        current = seat == s[st.CURRENT] and s[st.PHASE] != st.PH_OVER
        c = int(s[st.CHAR_OF + seat])
        tiles = "/".join(str(int(v)) for v in s[st.TILES + seat * 2:st.TILES + seat * 2 + 2]
                         if v) or "-"
        canvas.text(GAP + 18, y + 1, fit(
            f"{'>' if current else ' '}P{seat} ${int(s[st.CASH + seat])} R&D "
            f"{int(s[st.RD + seat])} LOSS {int(s[st.LOSS + seat])} LOANS "
            f"{int(s[st.LOANS + seat])} CARS {int(s[st.CAR_COUNT + seat])} SALESMEN "
            f"{int(salesmen_in_stock(s, p, seat))} {CHARACTERS[c] if c >= 0 else '-'} "
            f"DEMAND {tiles}", width - GAP - 18), WHITE if current else (215, 215, 215))
    return canvas.image()
