"""Text and picture of the Automobile table: production track, players, salesroom, markers.

The renders show the whole table, demand tiles included (they are for people
watching a game, not for agents; agents get ``observe``).
"""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import CHARACTERS, NUM_SPACES, SEGMENTS
from transit_gym.envs.automobile.kernels import salesmen_in_stock
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.render import BLACK, GREY, WHITE, Canvas

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
SEAT_COLORS = [(220, 60, 50), (240, 200, 40), (60, 170, 80), (60, 110, 220), (160, 90, 200)]
SEGMENT_COLORS = [(150, 110, 70), (80, 120, 190), (225, 205, 150)]
SEG_SHORT = ("A mass", "B middle", "C premium")


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


def render_text(game: Game, state: State) -> str:
    """The table as text: status, production track, players, characters, markers."""
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
            f"character {CHARACTERS[c].capitalize() if c >= 0 else '-'}, demand tiles {tiles}"
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
    return "\n".join(lines)


def render_rgb(game: Game, state: State) -> np.ndarray:
    """The 26 spaces in two rows (segment frame, owner colour, factories, cars), then
    one line per player."""
    s = state.data
    p = game.params
    n = game.num_players
    cell, gap = 44, 4
    per_row = 13
    width = per_row * (cell + gap) + gap
    height = 2 * (cell + gap) + 40 + 24 * n + 20
    canvas = Canvas(height, width)
    for i in range(NUM_SPACES):
        x = gap + (i % per_row) * (cell + gap)
        y = 24 + (i // per_row) * (cell + gap)
        canvas.rect(x, y, cell, cell, SEGMENT_COLORS[int(p[st.P_SEGMENT + i])])
        owner = int(s[st.OWNER + i])
        if s[st.CLOSED + i]:
            canvas.rect(x + 4, y + 4, cell - 8, cell - 8, BLACK)
        elif s[st.FACTORIES + i]:
            canvas.rect(x + 4, y + 4, cell - 8, cell - 8, SEAT_COLORS[owner])
            for f in range(int(s[st.FACTORIES + i])):
                canvas.rect(x + 6 + f * 9, y + 6, 7, 7, WHITE)
            if s[st.PARTS + i]:
                canvas.disc(x + cell - 10, y + 10, 4, GREY)
        if s[st.CARS + i]:
            canvas.text(x + 6, y + cell - 16, str(int(s[st.CARS + i])), BLACK)
        if s[st.AD + i] or s[st.DISC + i]:
            canvas.frame(x, y, cell, cell, WHITE, thickness=2)
    canvas.text(gap, 6, _status(game, state)[:60], WHITE)
    top = 24 + 2 * (cell + gap) + 12
    for seat in range(n):
        y = top + seat * 24
        canvas.rect(gap, y, 12, 12, SEAT_COLORS[seat])
        marker = ">" if seat == s[st.CURRENT] and s[st.PHASE] != st.PH_OVER else " "
        canvas.text(gap + 18, y, f"{marker}P{seat} ${s[st.CASH + seat]} RD {s[st.RD + seat]} "
                                 f"LOSS {s[st.LOSS + seat]} LOANS {s[st.LOANS + seat]}", WHITE)
    return canvas.image()
