"""Build Automobiles positions cube by cube for rule tests.

``Table`` starts a real game, then empties every pile into the stock so a test can lay
out exactly the cubes, cars and turn it needs. Colours are named as in the data file
(``white``, ``light_gray``, ``dark_gray``, ``black``, ``wear``, ``yellow``, ``purple``,
``red``, ``green``, ``blue``); piles are ``bag``, ``active``, ``used``, ``discard``.
"""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles import kernels as k
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import COLOURS, NUM_COLOURS
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rng import seeded_words

PILES = {"bag": st.BAG, "active": st.ACTIVE, "used": st.USED, "discard": st.DISCARD}
# the rulebook's example card set (Important Note About Rulebook Examples)
EXAMPLE_SET = ["Car Chief", "Crew Chief", "Steering", "Gearbox", "Rotary Engine"]


def colour(name: str) -> int:
    return COLOURS.index(name)


class Table:
    """A game whose piles, cars and turn are set by hand."""

    def __init__(self, num_players: int = 2, seed: int = 0, **options):
        options.setdefault("start_player", 0)   # seat 0 holds the Starting Player card
        self.game = AutomobilesGame(num_players=num_players, **options)
        self.state: State = self.game.new_state(seed)
        self.clear()

    @property
    def s(self) -> np.ndarray:
        return self.state.data

    @property
    def p(self) -> np.ndarray:
        return self.game.params

    # ----- cubes -----------------------------------------------------------------------------
    def clear(self) -> None:
        """Every cube back to the stock, no statistics, cars where they are."""
        for name in ("bag", "active", "used", "discard", "on_track", "drawn", "placed_n",
                     "pending_boost", "stat_bought", "stat_activated", "stat_wear",
                     "stat_turns", "stat_pit_stops", "rounds", "end_triggered",
                     "lead_changes", "last_lead_round"):
            self.state[name][:] = 0
        self.state["stock"][:] = self.game.cards.supply

    def give(self, seat: int, pile: str, **counts: int) -> None:
        """Move cubes from the stock to seat's pile."""
        s = self.s
        for name, n in counts.items():
            c = colour(name)
            assert s[st.STOCK + c] >= n, f"stock has only {s[st.STOCK + c]} {name}"
            s[st.STOCK + c] -= n
            s[PILES[pile] + seat * NUM_COLOURS + c] += n

    def empty_stock(self, name: str) -> None:
        """Park the whole stock of a colour in seat 1's bag (out of reach)."""
        c = colour(name)
        self.s[st.BAG + NUM_COLOURS + c] += self.s[st.STOCK + c]
        self.s[st.STOCK + c] = 0

    def count(self, seat: int, pile: str, name: str) -> int:
        return int(self.s[PILES[pile] + seat * NUM_COLOURS + colour(name)])

    def size(self, seat: int, pile: str) -> int:
        base = PILES[pile] + seat * NUM_COLOURS
        return int(self.s[base:base + NUM_COLOURS].sum())

    def stock(self, name: str) -> int:
        return int(self.s[st.STOCK + colour(name)])

    def on_track(self, name: str) -> int:
        return int(self.s[st.ON_TRACK + colour(name)])

    # ----- the board -------------------------------------------------------------------------
    def space(self, lane: int, at: int) -> int:
        """Id of the space of ``lane`` covering position ``at``."""
        t = self.game.track
        for sp in range(t.num_spaces):
            if t.lane[sp] == lane and (at - t.start[sp]) % t.lap_length < t.length[sp]:
                return sp
        raise AssertionError(f"no space in lane {lane} at {at}")

    def put_car(self, seat: int, lane: int, at: int, seg: int = 0, lap: int = 1) -> int:
        """Put seat's car in the space covering ``at`` on lap ``lap`` (1 = after the first
        crossing); returns the space."""
        sp = self.space(lane, at)
        t = self.game.track
        self.s[st.CAR_SPACE + seat] = sp
        self.s[st.CAR_SEG + seat] = seg
        self.s[st.CAR_ABS + seat] = int(t.end[sp]) - seg + (lap - 1) * t.lap_length
        return sp

    def park_others(self, *seats: int) -> None:
        """Put the given seats' cars far from the action (lane 0, behind the line)."""
        spots = [(0, 30), (1, 28), (0, 28), (1, 24), (0, 26)]
        for i, seat in enumerate(seats):
            lane, at = spots[i]
            self.put_car(seat, lane, at, lap=0)

    # ----- turns -----------------------------------------------------------------------------
    def turn(self, seat: int = 0) -> None:
        """Start seat's turn (Action Phase) with the piles as they are."""
        self.s[st.START_PLAYER] = 0
        k.start_turn(self.s, self.p, seat)
        k.settle(self.s, self.p)

    def rig(self, seed: int) -> None:
        """Reseed the game's generator (bag draws are then fixed by ``seed``)."""
        self.s[0:4] = seeded_words(seed)

    def legal(self) -> list[int]:
        return self.game.legal_actions(self.state)

    def act(self, *actions: int) -> None:
        for action in actions:
            self.game.apply(self.state, action)
            self.game.check_invariants(self.state)

    def phase(self) -> str:
        return st.PHASE_NAMES[int(self.s[st.PHASE])]

    def current(self) -> int:
        return self.game.current_player(self.state)


# action helpers
def activate(name: str) -> int:
    return k.A_ACTIVE + colour(name)


def from_active(name: str) -> int:
    return k.A_ACTIVE + colour(name)


def from_discard(name: str) -> int:
    return k.A_DISCARD + colour(name)


def buy(name: str) -> int:
    return k.A_STOCK + colour(name)


def to_space(space: int) -> int:
    return k.A_SPACE + space


STOP, PIT_STOP, DRAW, ALL_WEAR = k.A_STOP, k.A_PIT_STOP, k.A_DRAW, k.A_ALL_WEAR
