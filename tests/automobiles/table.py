"""Build Automobiles positions cube by cube for rule tests.

``Table`` starts a real game, then empties every pile into the stock so a test can lay
out exactly the cubes, cars and turn it needs. Colours are named as in the data file
(``white``, ``light_gray``, ``dark_gray``, ``black``, ``wear``, ``yellow``, ``purple``,
``red``, ``green``, ``blue``); piles are ``bag``, ``active``, ``used``, ``discard``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from transit_gym.agents.rule_based.automobiles import rule_based
from transit_gym.envs.automobiles import kernels as k
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import CARD_COLOURS, COLOURS, NUM_COLOURS, load_cards
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rng import seeded_words

# hand-written boards and saved files of the rule tests
DATA = Path(__file__).with_name("data")
PILES = {"bag": st.BAG, "active": st.ACTIVE, "used": st.USED, "discard": st.DISCARD}
# the rulebook's example card set (Important Note About Rulebook Examples)
EXAMPLE_SET = ["Car Chief", "Crew Chief", "Steering", "Gearbox", "Rotary Engine"]


def colour(name: str) -> int:
    return COLOURS.index(name)


def card_colour(card: str) -> str:
    """The colour name of a card (from the card table)."""
    cards = load_cards()
    return COLOURS[int(cards.colours[cards.card_id(card)])]


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
    def turn(self, seat: int = 0, **piles: dict[str, int]) -> None:
        """Start seat's turn (Action Phase); ``piles`` (``active={"red": 1}``, ...) are
        first given to seat from the stock, the other piles stay as they are."""
        for pile, counts in piles.items():
            self.give(seat, pile, **counts)
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


def card_table(*cards: str, players: int = 2, keep: bool = True, car: tuple[int, int] = (0, 2),
               **options) -> Table:
    """The rulebook's example set with ``cards`` in their colours' places; seat 0's car in
    the space of lane ``car[0]`` covering ``car[1]``, the others parked far behind. With
    ``keep`` seat 0 holds a spare wear cube in its active pile, so that its Action Phase
    stays open after the effect under test (with nothing left to activate the turn would
    end at once)."""
    chosen = list(EXAMPLE_SET)
    for card in cards:
        chosen[CARD_COLOURS.index(colour(card_colour(card)))] = card
    t = Table(players, card_set=chosen, **options)
    t.put_car(0, *car)
    t.park_others(*range(1, players))
    if keep:
        t.give(0, "active", wear=1)
    return t


def moves(t: Table) -> list[int]:
    """Spaces offered for the next step of the moving cube."""
    return sorted(a - to_space(0) for a in t.legal() if a >= to_space(0))


def agent_answer(t: Table) -> int:
    """The rule-based agent's answer to the pending decision of the seat on turn."""
    obs = t.game.observe(t.state, t.current())
    mask = np.zeros(t.game.num_actions, dtype=np.int8)
    mask[t.legal()] = 1
    return int(rule_based(t.p, obs, mask))


def put_in_rank(t: Table, players: int, rank: int, lane: int = 1, at: int = 38) -> None:
    """Seat 0 in race position ``rank`` of ``players``: the others ahead on the next lap
    or behind on the previous one."""
    t.put_car(0, lane, at, lap=1)
    ahead = [(1, 20), (1, 24), (1, 28), (0, 30)]
    behind = [(0, 30), (0, 28), (0, 26), (0, 24)]
    others = list(range(1, players))
    for i, seat in enumerate(others[:rank - 1]):
        t.put_car(seat, *ahead[i], lap=2)
    for i, seat in enumerate(others[rank - 1:]):
        t.put_car(seat, *behind[i], lap=0)


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
