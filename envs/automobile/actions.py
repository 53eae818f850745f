"""The flat action layout of Automobile and action names in words.

One ``Discrete(NUM_ACTIONS)`` space for every decision; the pending decision
(``state.PH_*``) decides which block is legal. Multi-part choices are sequences:
build = action, space, what; produce = one quantity per own space; salesmen are
placed one at a time; executive decisions = kind, then space.
"""

from __future__ import annotations

from transit_gym.envs.automobile.data import CHARACTERS, MAX_CARS, NUM_SPACES, SEGMENTS

A_SELECT = 0                    # + character (P2)
A_BUILD = 6                     # P3 actions I-V
A_SALESMEN = 7
A_RD = 8
A_PRODUCE = 9
A_CLOSE = 10
A_FORD = 11                     # Ford's extra build (before or after the normal action)
A_LOAN = 12                     # take a $500 loan (at any decision of P2, P3 and P6)
A_DONE = 13                     # stop placing salesmen / no Ford build / Durant declines
A_SPACE = 14                    # + space index
A_WHAT = A_SPACE + NUM_SPACES   # + build kind
WHAT_ONE, WHAT_TWO, WHAT_PARTS, WHAT_ONE_PARTS = 0, 1, 2, 3
A_SHOWROOM = A_WHAT + 4         # + segment: place a salesman in that showroom
A_QTY = A_SHOWROOM + 3          # + number of cars (0 = do not produce on this space)
A_MOVE = A_QTY + MAX_CARS + 1   # + showroom * 3 + sales track (P5)
A_EXEC_CLOSE = A_MOVE + 9       # P6 A: close one production space
A_EXEC_AD = A_EXEC_CLOSE + 1    # P6 B: buy the next advertisement marker
A_EXEC_DISC = A_EXEC_AD + 1     # + (stack size - 1): P6 C: take a discount stack of 1 or 2
A_PASS = A_EXEC_DISC + 2        # P6 D
NUM_ACTIONS = A_PASS + 1

WHAT_NAMES = (
    "one factory", "two factories", "the parts factory", "a factory and the parts factory",
)


def action_name(action: int, space_names: tuple[str, ...] | None = None) -> str:
    """Name of an action index, independent of the position."""
    a = int(action)
    if A_SELECT <= a < A_SELECT + len(CHARACTERS):
        return f"select {CHARACTERS[a - A_SELECT].capitalize()}"
    fixed = {
        A_BUILD: "action I: build factories", A_SALESMEN: "action II: place salesmen",
        A_RD: "action III: take two R&D cubes", A_PRODUCE: "action IV: produce cars",
        A_CLOSE: "action V: close down a production space", A_FORD: "Ford's extra build",
        A_LOAN: "take a $500 loan", A_DONE: "done", A_EXEC_CLOSE: "executive: close a space",
        A_EXEC_AD: "executive: buy an advertisement marker", A_PASS: "executive: pass",
    }
    if a in fixed:
        return fixed[a]
    if A_SPACE <= a < A_WHAT:
        i = a - A_SPACE
        label = space_names[i] if space_names is not None else f"space {i + 1}"
        return f"space {i + 1} ({label})" if space_names is not None else label
    if A_WHAT <= a < A_SHOWROOM:
        return f"build {WHAT_NAMES[a - A_WHAT]}"
    if A_SHOWROOM <= a < A_QTY:
        return f"place a salesman in the {SEGMENTS[a - A_SHOWROOM]} showroom"
    if A_QTY <= a < A_MOVE:
        n = a - A_QTY
        return "produce nothing here" if n == 0 else f"produce {n} car{'s' if n > 1 else ''}"
    if A_MOVE <= a < A_EXEC_CLOSE:
        src, dst = divmod(a - A_MOVE, 3)
        return f"salesman from the {SEGMENTS[src]} showroom sells on the {SEGMENTS[dst]} track"
    if A_EXEC_DISC <= a < A_PASS:
        size = a - A_EXEC_DISC + 1
        markers = "the stack of 2 discount markers" if size == 2 else "one discount marker"
        return f"executive: take {markers}"
    return f"unknown action {a}"
