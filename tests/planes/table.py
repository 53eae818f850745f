"""Build Planes positions cube by cube and card by card for rule tests.

A ``Table`` starts from a real set-up game (on ``RING14`` with party-cube blockages unless
the test passes other options), then lets a test empty the board (cubes go
to the box, so the 40-cube count stays whole), put cubes on spaces, give cards to
hands (taken from the deck, so the 60-card count stays whole) and start a turn or a
move of a chosen seat. Spaces are named by airport id ("S3"), colours by name.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.core.rule_table import RuleTable
from transit_gym.envs.planes import kernels as k
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.data import COLOR_NAMES, MAX_TYPES, NUM_COLORS
from transit_gym.envs.planes.rules import PlanesGame

RING14 = str(Path(__file__).with_name("ring14.toml"))
"""The rule tests' airport: the earlier Flying Cloud reconstruction (ring S0..S13, starts
S0 S3 S7 S10, G1 S9 G2 S12 G3 S2 G4 S5, N1 S2 N2 S9), with blockages of party cubes."""
RULE_TEST_OPTIONS = {"airport": RING14, "blockage_counts": "party"}


class Table(RuleTable):
    def __init__(self, num_players: int = 2, seed: int = 0, **options):
        super().__init__(PlanesGame(num_players=num_players,
                                    **{**RULE_TEST_OPTIONS, **options}), seed)

    # ----- names -------------------------------------------------------------------------------
    def sp(self, space_id: str) -> int:
        return self.game.airport.space_index(space_id)

    def gate(self, gate_id: str) -> int:
        return self.game.airport.gate_ids.index(gate_id)

    def card(self, name: str) -> int:
        return self.game.cards.names.index(name)

    @staticmethod
    def color(name: str) -> int:
        return COLOR_NAMES.index(name)

    # ----- cubes -------------------------------------------------------------------------------
    def clear_board(self) -> None:
        """Every cube on the board goes to the box."""
        cubes = self.state["cubes"].reshape(-1, NUM_COLORS)
        self.state["box_cubes"][:] += cubes.sum(axis=0)
        cubes[:] = 0

    def put(self, space_id: str, **counts: int) -> None:
        """Cubes from the box onto a space: ``put("S3", red=2, grey=1)``."""
        for name, n in counts.items():
            c = self.color(name)
            assert self.state["box_cubes"][c] >= n, f"no {n} {name} cubes left in the box"
            self.state["box_cubes"][c] -= n
            self.s[st.CUBES + self.sp(space_id) * NUM_COLORS + c] += n

    def board(self, gate_id: str, n: int) -> None:
        """``n`` cubes of the gate's colour from the box onto its plane (track follows)."""
        g = self.gate(gate_id)
        c = int(self.s[st.GATE_COLOR + g])
        assert self.state["box_cubes"][c] >= n
        self.state["box_cubes"][c] -= n
        self.s[st.BOARDED + g] += n
        self.s[st.TRACK] += n

    def cubes(self, space_id: str) -> dict[str, int]:
        base = st.CUBES + self.sp(space_id) * NUM_COLORS
        return {COLOR_NAMES[c]: int(self.s[base + c]) for c in range(NUM_COLORS)
                if self.s[base + c]}

    def total(self, space_id: str) -> int:
        return sum(self.cubes(space_id).values())

    def blocked(self, space_id: str) -> bool:
        return bool(k.blocked(self.s, self.p, self.sp(space_id)))

    def boarded(self, gate_id: str) -> int:
        return int(self.s[st.BOARDED + self.gate(gate_id)])

    # ----- cards -------------------------------------------------------------------------------
    def _rows(self, name: str) -> np.ndarray:
        return self.state[name].reshape(st.MAX_PLAYERS, MAX_TYPES)

    def clear_hands(self) -> None:
        """Every hand goes back into its deck."""
        hands = self._rows("hand")
        decks = self._rows("deck")
        for seat in range(self.game.num_players):
            row = seat if self.p[st.P_PLAYER_DECKS] else 0
            decks[row] += hands[seat]
            hands[seat] = 0

    def give(self, seat: int, *names: str) -> None:
        """Cards from the deck (the seat's own with Player Decks) into a hand."""
        row = seat if self.p[st.P_PLAYER_DECKS] else 0
        for name in names:
            t = self.card(name)
            assert self._rows("deck")[row, t] > 0, f"no {name!r} left in the deck"
            self._rows("deck")[row, t] -= 1
            self._rows("hand")[seat, t] += 1

    def hand(self, seat: int) -> dict[str, int]:
        row = self._rows("hand")[seat]
        return {self.game.cards.names[t]: int(row[t]) for t in range(MAX_TYPES) if row[t]}

    def goals(self, seat: int) -> dict[str, int]:
        row = self._rows("goals")[seat]
        return {self.game.cards.names[t]: int(row[t]) for t in range(MAX_TYPES) if row[t]}

    def hand_size(self, seat: int) -> int:
        return int(self._rows("hand")[seat].sum())

    def deck_size(self, row: int = 0) -> int:
        return int(self._rows("deck")[row].sum())

    def discard_size(self, row: int = 0) -> int:
        return int(self._rows("discard")[row].sum())

    def empty_deck_into_discard(self, row: int = 0) -> None:
        self._rows("discard")[row] += self._rows("deck")[row]
        self._rows("deck")[row] = 0

    # ----- turns -------------------------------------------------------------------------------
    def turn(self, seat: int) -> None:
        """Start ``seat``'s turn as the game would (action phase, or straight to the move)."""
        self.s[st.CURRENT] = seat
        self.s[st.PHASE] = k.AUTO_TURN
        k._advance(self.s, self.p)

    def move(self, seat: int, **effects: int) -> None:
        """Put ``seat`` at the start of a move phase, with card effects set by field name."""
        self.s[st.CURRENT] = seat
        k._clear_turn(self.s)
        for name, value in effects.items():
            self.state[name][:] = value
        self.s[st.PHASE] = st.PH_START

    # ----- actions -----------------------------------------------------------------------------
    def play(self, *actions: int) -> None:
        for action in actions:
            self.game.apply(self.state, action)
            self.check()

    @property
    def moving(self) -> bool:
        """A move is under way (the next cube to drop, or the branch to take)."""
        return self.phase in (st.PH_STEP, st.PH_BRANCH)

    # action indices
    @staticmethod
    def PASS() -> int:  # noqa: N802 - reads like the action's name
        return k.A_PASS

    def CARD(self, name: str) -> int:  # noqa: N802
        return k.A_CARD + self.card(name)

    def SPACE(self, space_id: str) -> int:  # noqa: N802
        return k.A_SPACE + self.sp(space_id)

    def DROP(self, color: str, seat: int | None = None) -> int:  # noqa: N802
        """Drop a cube of ``color`` (by name) for ``seat`` (the seat to move by default)."""
        seat = self.current if seat is None else seat
        rel = k.relative_color(seat, self.color(color), self.game.num_players)
        return k.A_DROP + rel

    def BOARD(self, gate_id: str) -> int:  # noqa: N802
        return k.A_BOARD + self.gate(gate_id)

    SKIP = k.A_SKIP
    STOP = k.A_STOP
    DRAW = k.A_DRAW
    IGNORE_BLOCKAGES = k.A_IGNORE_BLOCKAGES
    EXTRA_GOAL = k.A_EXTRA_GOAL


def empty_table(n: int = 2, **options) -> Table:
    """A table with no cube on the board and no card in any hand."""
    t = Table(n, **options)
    t.clear_board()
    t.clear_hands()
    return t
