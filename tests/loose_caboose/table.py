"""Build Loose Caboose! positions card by card for rule tests."""

from __future__ import annotations

from transit_gym.envs.core.game import State
from transit_gym.envs.loose_caboose import kernels as k
from transit_gym.envs.loose_caboose import state as st
from transit_gym.envs.loose_caboose.rules import LooseCabooseGame


class Table:
    """A game whose piles are set by hand. Cards are asked for by value, Broken Track and
    shape; every card not placed stays out of play ('removed'), so the position is whole."""

    def __init__(self, num_players: int = 2, seed: int = 0, **options):
        self.game = LooseCabooseGame(num_players=num_players, **options)
        self.state: State = self.game.new_state(seed)
        s = self.state.data
        n = self.game.data.num_cards
        s[st.LOC:st.LOC + n] = st.Z_REMOVED
        s[st.UNDER:st.UNDER + n] = -1
        self.state["pile_top"][:] = -1
        for name in ("deck_len", "rail_lo", "rail_hi", "caboose", "turn_value", "turn_cards",
                     "end_triggered"):
            self.state[name][:] = 0
        s[st.PHASE] = st.PHASE_CHOOSE
        s[st.CURRENT] = 0
        self._free = list(range(n))

    # ----- cards -------------------------------------------------------------------------------
    def card(self, value: int, broken: bool = False, shape: int | None = None) -> int:
        """Take a card of that kind out of play and return its id."""
        p = self.game.params
        for c in self._free:
            if (p[st.P_VALUES + c] == value and p[st.P_BROKEN + c] == int(broken)
                    and (shape is None or p[st.P_SHAPES + c] == shape)):
                self._free.remove(c)
                return c
        raise AssertionError(f"no free card {value}/{broken}/{shape}")

    def filler(self, n: int) -> list[int]:
        """``n`` spare ordinary cards (for draw piles that just need to exist)."""
        cards = []
        while len(cards) < n:
            for value in (1, 2, 3, 4):
                ids = [c for c in self._free if self.value(c) == value
                       and not self.game.params[st.P_BROKEN + c]]
                if ids:
                    cards.append(self.card(value, False, None))
                    break
            else:
                raise AssertionError("no spare cards left")
        return cards

    def value(self, card: int) -> int:
        return int(self.game.params[st.P_VALUES + card])

    # ----- placing -----------------------------------------------------------------------------
    def _put(self, cards: list[int], zone: int) -> None:
        for c in cards:
            self.state.data[st.LOC + c] = zone

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
        self._put(cards, st.Z_DECK)

    def hand(self, seat: int, cards: list[int]) -> None:
        self._put(cards, st.Z_HAND + seat)

    def deal(self, hand: list[int], spare: int = 3) -> None:
        """Seat 0 holds ``hand``; the draw pile is ``spare`` spare cards."""
        self.hand(0, hand)
        self.deck(self.filler(spare))

    def penalty(self, seat: int, cards: list[int]) -> None:
        """Face-up penalty pile, bottom to top."""
        s = self.state.data
        below = -1
        for c in cards:
            s[st.UNDER + c] = below
            below = c
        s[st.PILE_TOP + seat] = below
        self._put(cards, st.Z_PILE + seat)

    def bank(self, seat: int, cards: list[int]) -> None:
        self._put(cards, st.Z_BANK + seat)

    def hand_final(self, seat: int, cards: list[int]) -> None:
        """Cards of a hand already added to the pile at the end of the game."""
        self._put(cards, st.Z_HAND_FINAL + seat)

    def discard(self, cards: list[int]) -> None:
        self._put(cards, st.Z_DISCARD)

    # ----- reading back ------------------------------------------------------------------------
    def places(self) -> dict[str, list[int]]:
        return self.game.card_places(self.state)

    def rail_cards(self) -> list[int]:
        return self.places()["railway"]

    def hand_of(self, seat: int) -> list[int]:
        return self.places()[f"hand_{seat}"]

    def penalty_of(self, seat: int) -> list[int]:
        return self.places()[f"penalty_{seat}"]

    def bank_of(self, seat: int) -> list[int]:
        """Every banked card of ``seat``: seen by all (from the railway) or not (from the
        draw pile)."""
        places = self.places()
        return sorted(places[f"bank_{seat}"] + places[f"bank_hidden_{seat}"])

    def hidden_bank_of(self, seat: int) -> list[int]:
        """Cards of ``seat`` banked face down from the draw pile (unseen by the others)."""
        return self.places()[f"bank_hidden_{seat}"]

    def discard_pile(self) -> list[int]:
        return self.places()["discard"]

    def deck_cards(self) -> list[int]:
        return self.places()["deck"]

    def caboose(self) -> int:
        """Index of the caboose's card counted from the back of the railway."""
        s = self.state.data
        return int(s[st.CABOOSE] - s[st.RAIL_LO])

    def check(self) -> None:
        self.game.check_invariants(self.state)

    def play(self, *actions: int) -> None:
        for action in actions:
            self.game.apply(self.state, action)
