"""Build Loose Caboose! positions card by card for rule tests."""

from __future__ import annotations

from envs.core.game import State
from envs.loose_caboose import kernels as k
from envs.loose_caboose import state as st
from envs.loose_caboose.data import MAX_CARDS
from envs.loose_caboose.rules import LooseCabooseGame


class Table:
    """A game whose piles are set by hand. Cards are named ``(value, broken, shape)``."""

    def __init__(self, num_players: int = 2, seed: int = 0, **options):
        self.game = LooseCabooseGame(num_players=num_players, **options)
        self.state: State = self.game.new_state(seed)
        self._free: list[int] = []
        self.clear()

    # ----- card ids ----------------------------------------------------------------------------
    def clear(self) -> None:
        """Empty every pile; all cards become 'removed' until placed."""
        s = self.state.data
        for name in ("deck_len", "rail_lo", "rail_hi", "caboose", "discard_len", "hand_len",
                     "penalty_len", "bank_len", "hand_final_len", "turn_value", "turn_cards",
                     "end_triggered"):
            self.state[name][:] = 0
        n = self.game.data.num_cards
        self._free = list(range(n))
        s[st.REMOVED:st.REMOVED + n] = self._free
        s[st.REMOVED_LEN] = n
        s[st.PHASE] = st.PHASE_CHOOSE
        s[st.CURRENT] = 0

    def card(self, value: int, broken: bool = False, shape: int | None = None) -> int:
        """Take a free card of that kind out of the 'removed' pile and return its id."""
        p = self.game.params
        for c in self._free:
            if (p[st.P_VALUES + c] == value and p[st.P_BROKEN + c] == int(broken)
                    and (shape is None or p[st.P_SHAPES + c] == shape)):
                self._free.remove(c)
                self._sync_removed()
                return c
        raise AssertionError(f"no free card {value}/{broken}/{shape}")

    def _sync_removed(self) -> None:
        s = self.state.data
        s[st.REMOVED:st.REMOVED + MAX_CARDS] = 0
        s[st.REMOVED:st.REMOVED + len(self._free)] = self._free
        s[st.REMOVED_LEN] = len(self._free)

    def value(self, card: int) -> int:
        return int(self.game.params[st.P_VALUES + card])

    # ----- piles -------------------------------------------------------------------------------
    def railway(self, cards: list[int], caboose: int, turns: list[int] | None = None) -> None:
        """Lay ``cards`` back to front (with ``turns``), caboose on index ``caboose``."""
        s = self.state.data
        s[st.RAIL_LO] = 0
        s[st.RAIL_HI] = 0
        for i, card in enumerate(cards):
            k._lay(s, card, 0 if turns is None else turns[i])
        s[st.CABOOSE] = caboose

    def deck(self, cards: list[int]) -> None:
        """Draw pile given bottom to top (the last card is drawn first)."""
        s = self.state.data
        s[st.DECK:st.DECK + len(cards)] = cards
        s[st.DECK_LEN] = len(cards)

    def _pile(self, base: int, length: int, seat: int, cards: list[int]) -> None:
        s = self.state.data
        start = base + seat * MAX_CARDS
        s[start:start + len(cards)] = cards
        s[length + seat] = len(cards)

    def hand(self, seat: int, cards: list[int]) -> None:
        self._pile(st.HAND, st.HAND_LEN, seat, cards)

    def penalty(self, seat: int, cards: list[int]) -> None:
        self._pile(st.PENALTY, st.PENALTY_LEN, seat, cards)

    def bank(self, seat: int, cards: list[int]) -> None:
        self._pile(st.BANK, st.BANK_LEN, seat, cards)

    def discard(self, cards: list[int]) -> None:
        s = self.state.data
        s[st.DISCARD:st.DISCARD + len(cards)] = cards
        s[st.DISCARD_LEN] = len(cards)

    # ----- reading back ------------------------------------------------------------------------
    def rail_cards(self) -> list[int]:
        s = self.state.data
        return [int(c) for c in s[st.RAIL + s[st.RAIL_LO]:st.RAIL + s[st.RAIL_HI]]]

    def pile_of(self, base: int, length: int, seat: int) -> list[int]:
        s = self.state.data
        start = base + seat * MAX_CARDS
        return [int(c) for c in s[start:start + s[length + seat]]]

    def hand_of(self, seat: int) -> list[int]:
        return self.pile_of(st.HAND, st.HAND_LEN, seat)

    def penalty_of(self, seat: int) -> list[int]:
        return self.pile_of(st.PENALTY, st.PENALTY_LEN, seat)

    def bank_of(self, seat: int) -> list[int]:
        return self.pile_of(st.BANK, st.BANK_LEN, seat)

    def discard_pile(self) -> list[int]:
        s = self.state.data
        return [int(c) for c in s[st.DISCARD:st.DISCARD + s[st.DISCARD_LEN]]]

    def deck_cards(self) -> list[int]:
        s = self.state.data
        return [int(c) for c in s[st.DECK:st.DECK + s[st.DECK_LEN]]]

    def caboose(self) -> int:
        """Index of the caboose's card counted from the back of the railway."""
        s = self.state.data
        return int(s[st.CABOOSE] - s[st.RAIL_LO])

    def filler(self, n: int) -> list[int]:
        """``n`` spare ordinary cards (for draw piles that just need to exist)."""
        cards = []
        for _ in range(n):
            for value in (1, 2, 3, 4):
                try:
                    cards.append(self.card(value, False, None))
                    break
                except AssertionError:
                    continue
        return cards

    def check(self) -> None:
        self.game.check_invariants(self.state)

    def play(self, *actions: int) -> None:
        for action in actions:
            self.game.apply(self.state, action)
