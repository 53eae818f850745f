"""Build Automobile positions for rule tests: set money, cubes, factories, cars and tiles by
hand (keeping every conserved quantity whole), and play actions by name."""

from __future__ import annotations

import numpy as np

from tests.core.rule_table import RuleTable
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import CHARACTERS, DURANT
from transit_gym.envs.automobile.rules import AutomobileGame


class Table(RuleTable):
    """A game (first player seat 0 unless told otherwise) with helpers to edit and play it."""

    def __init__(self, num_players: int = 3, seed: int = 0, **options):
        options.setdefault("first_player", 0)
        super().__init__(AutomobileGame(num_players=num_players, **options), seed)
        self.names = self.game.data.names

    # ----- reading -------------------------------------------------------------------------------
    def space(self, name: str) -> int:
        return self.names.index(name)

    def get(self, field: str, index: int = 0) -> int:
        return int(self.state[field][index])

    def cash(self, seat: int) -> int:
        return self.get("cash", seat)

    # ----- editing (conserved quantities stay whole) ----------------------------------------------
    def set_cash(self, seat: int, amount: int) -> None:
        delta = amount - int(self.s[st.CASH + seat])
        self.s[st.CASH + seat] = amount
        self.s[st.BANK] -= delta

    def set_rd(self, seat: int, cubes: int) -> None:
        delta = cubes - int(self.s[st.RD + seat])
        assert delta <= self.s[st.RD_STOCK], "not enough R&D cubes in the stock"
        self.s[st.RD + seat] = cubes
        self.s[st.RD_STOCK] -= delta

    def set_tiles(self, seat: int, values: list[int]) -> None:
        """Give ``seat`` these demand tiles (higher first), trading with the bag."""
        data = self.game.data
        for t in range(2):
            v = int(self.s[st.TILES + seat * 2 + t])
            if v:
                self.s[st.BAG + int(np.flatnonzero(data.tile_values == v)[0])] += 1
                self.s[st.TILES + seat * 2 + t] = 0
        for t, v in enumerate(sorted(values, reverse=True)):
            kind = int(np.flatnonzero(data.tile_values == v)[0])
            assert self.s[st.BAG + kind] > 0, f"no tile {v} left in the bag"
            self.s[st.BAG + kind] -= 1
            self.s[st.TILES + seat * 2 + t] = v

    def factories(self, seat: int, space: int | str, n: int, parts: bool = False,
                  cars: int = 0) -> int:
        """Put ``n`` factories (and the parts factory) of ``seat`` on ``space``, free, with
        ``cars`` cars produced there."""
        i = self.space(space) if isinstance(space, str) else space
        s = self.s
        assert s[st.OWNER + i] in (-1, seat), "space owned by another player"
        s[st.OWNER + i] = seat
        s[st.FACTORIES + i] += n
        s[st.FAC_COUNT + seat] += n
        if parts:
            s[st.PARTS + i] = 1
            s[st.PARTS_AT + seat] = i
        s[st.FRONTIER] = max(int(s[st.FRONTIER]), i)
        if cars:
            self.cars(i, cars)
        return i

    def closed(self, space: int | str, seat: int = 0) -> int:
        """A closed factory tile on ``space`` (``seat`` closed it; its cars stay its own)."""
        i = self.space(space) if isinstance(space, str) else space
        assert self.s[st.FACTORIES + i] == 0, "close the factories first"
        self.s[st.CLOSED + i] = 1
        self.s[st.OWNER + i] = seat
        self.s[st.FRONTIER] = max(int(self.s[st.FRONTIER]), i)
        return i

    def cars(self, space: int | str, n: int, produced: bool = True) -> int:
        """``n`` cars of the space's owner on ``space``."""
        i = self.space(space) if isinstance(space, str) else space
        seat = int(self.s[st.OWNER + i])
        assert seat >= 0, "cars need an owner"
        self.s[st.CARS + i] += n
        self.s[st.CAR_COUNT + seat] += n
        if produced:
            self.s[st.PRODUCED + i] = 1
        return i

    def salesmen(self, seat: int, mass: int = 0, middle: int = 0, premium: int = 0) -> None:
        self.state["show"][seat * 3:seat * 3 + 3] = [mass, middle, premium]

    # ----- playing -------------------------------------------------------------------------------
    def play(self, *actions: int) -> None:
        for action in actions:
            self.game.apply(self.state, int(action))

    def select(self, chars: dict[int, str], durant_space: int | str | None = None) -> None:
        """P2: each seat (in selection order) takes the named character."""
        n = self.game.num_players
        for _ in range(n):
            seat = self.current
            c = CHARACTERS.index(chars[seat])
            self.play(a.A_SELECT + c)
            if c == DURANT and self.phase == st.PH_DURANT:
                if durant_space is None:
                    self.play(a.A_DONE)
                else:
                    i = self.space(durant_space) if isinstance(durant_space, str) else durant_space
                    self.play(a.A_SPACE + i)

    def build(self, space: int | str, what: int = a.WHAT_ONE) -> None:
        i = self.space(space) if isinstance(space, str) else space
        self.play(a.A_BUILD, a.A_SPACE + i, a.A_WHAT + what)

    def place_salesmen(self, *segments: int) -> None:
        self.play(a.A_SALESMEN, *[a.A_SHOWROOM + g for g in segments])
        if len(segments) < int(self.p[st.P_PER_ACTION]) and self.phase == st.PH_SALESMEN:
            self.play(a.A_DONE)

    def produce(self, amounts: dict[int | str, int]) -> None:
        """IV: answer the quantity question of every own space (0 unless given)."""
        wanted = {(self.space(k) if isinstance(k, str) else k): v for k, v in amounts.items()}
        self.play(a.A_PRODUCE)
        while self.phase == st.PH_PRODUCE:
            self.play(a.A_QTY + wanted.get(int(self.s[st.CTX_SPACE]), 0))

    def to_phase(self, phase_fn) -> None:
        """Run one of the kernels' phase entries (e.g. ``k._phase5``) on this state."""
        phase_fn(self.s, self.p)

    def start_p3(self, chars: dict[int, str]) -> None:
        """Hand out characters without their powers and R&D, and start P3 round 1."""
        s = self.s
        for seat, name in chars.items():
            c = CHARACTERS.index(name)
            s[st.CHAR_OF + seat] = c
            s[st.CHAR_SEAT + c] = seat
        order = sorted(chars, key=lambda seat: CHARACTERS.index(chars[seat]))
        for i, seat in enumerate(order):
            s[st.PLAY_ORDER + i] = seat
        s[st.ROUND] = 0
        s[st.POS] = 0
        k._begin_action(s, self.p)

    def play_order(self) -> list[int]:
        return [int(x) for x in self.state["play_order"][: self.game.num_players]]
