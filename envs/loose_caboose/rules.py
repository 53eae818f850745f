"""Loose Caboose! as a configured game: options, parameters and the rules API.

Module functions follow DESIGN.md (``new_game``, ``legal_mask``, ``apply``,
``current_player``, ``is_over``, ``scores``); they delegate to the jitted kernels.

Options (documented defaults; the rulebook is silent on the first three):
- ``geometry=True``: cards are laid on a square grid (straight and curved cards,
  no overlap, no loop); ``False`` gives a plain line where any card fits.
- ``pass_banks=True``: a pass that moves the caboose onto a Broken Track banks a
  card ("during your turn" covers passing).
- ``bank_first=True``: after a roll, bank for Broken Tracks before taking the
  derailment penalties.
- ``first_player=0``: the seat that starts ("whoever last traveled by train");
  ``"random"`` draws it from the seed.
- ``reward="win"``: zero-sum win/loss; ``"score"``: others' mean points minus own.
- ``deck=None``: path of a TOML file with ``[setup]``, ``[deck]``, ``[dice]`` tables
  (see ``data.toml``); ``dice_faces=[...]`` overrides just the die faces.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.functional import *  # noqa: F403  (the functional API)
from transit_gym.envs.core.functional import make_new_game
from transit_gym.envs.core.game import Game, Kernels, State
from transit_gym.envs.core.options import (
    check_choice,
    check_flag,
    check_optional_path,
    check_seat_or_random,
)
from transit_gym.envs.loose_caboose import data as caboose_data
from transit_gym.envs.loose_caboose import kernels as k
from transit_gym.envs.loose_caboose import state as st
from transit_gym.envs.loose_caboose.determinize import determinize
from transit_gym.envs.loose_caboose.encode import OBS, action_name, observe
from transit_gym.envs.loose_caboose.invariants import MESSAGES, violation

KERNELS = Kernels.of(k, observe, violation=violation, determinize=determinize)

REWARD_MODES = {"win": 0, "score": 1}


_flag = check_flag   # the shared option checkers (envs/core/options.py)


class LooseCabooseGame(Game):
    """Loose Caboose! for 2-4 players."""

    name = "loose_caboose"
    random_options = ({"first_player": "random"},)
    layout = st.LAYOUT
    kernels = KERNELS
    render_module = "transit_gym.envs.loose_caboose.render"
    potential_module = "transit_gym.envs.loose_caboose.potential"
    obs = OBS
    min_players = 2
    max_players = 4
    violation_messages = MESSAGES

    def _build(self, geometry: bool = True, pass_banks: bool = True, bank_first: bool = True,
               first_player: int | str = 0, reward: str = "win", deck: str | None = None,
               dice_faces: list[int] | None = None) -> None:
        check_optional_path("deck", deck)
        data = caboose_data.load(self._data_file("deck", deck))
        if dice_faces is not None:
            if (not isinstance(dice_faces, (list, tuple)) or not dice_faces
                    or len(dice_faces) > caboose_data.MAX_FACES
                    or any(isinstance(f, bool) or not isinstance(f, int) or not 0 <= f <= 6
                           for f in dice_faces)):
                raise ConfigError(
                    f"dice_faces must list 1..{caboose_data.MAX_FACES} integers in 0..6, "
                    f"got {dice_faces!r}"
                )
            faces = np.array(dice_faces, dtype=np.int64)
        else:
            faces = data.faces
        first = check_seat_or_random("first_player", first_player, self.num_players)
        check_choice("reward", reward, REWARD_MODES)
        self.data = data
        params = np.zeros(st.PARAMS.size, dtype=np.int64)
        params[st.P_NUM_PLAYERS] = self.num_players
        params[st.P_GEOMETRY] = _flag("geometry", geometry)
        params[st.P_NUM_CARDS] = data.num_cards
        params[st.P_NUM_FACES] = len(faces)
        params[st.P_INITIAL] = data.initial_railway
        params[st.P_HAND_SIZE] = data.hand_size
        params[st.P_REMOVED] = data.cards_removed[self.num_players]
        params[st.P_FIRST] = first
        params[st.P_PASS_BANKS] = _flag("pass_banks", pass_banks)
        params[st.P_BANK_FIRST] = _flag("bank_first", bank_first)
        params[st.P_REWARD] = REWARD_MODES[reward]
        n = data.num_cards
        params[st.P_VALUES:st.P_VALUES + n] = data.values
        params[st.P_BROKEN:st.P_BROKEN + n] = data.broken
        params[st.P_SHAPES:st.P_SHAPES + n] = data.shapes
        params[st.P_FACES:st.P_FACES + len(faces)] = faces
        params[st.P_FACE_SUM] = int(faces.sum())
        for value in range(1, caboose_data.MAX_VALUE + 1):
            params[st.P_VALUE_TOTALS + value - 1] = int((data.values == value).sum())
        self.params = params
        self.num_actions = k.NUM_ACTIONS
        self.obs_size = OBS.size

    # ----- observation bounds ---
    def obs_low_high(self) -> tuple[np.ndarray, np.ndarray]:
        """True per-slot bounds (``encode.OBS``), from the deck of this configuration."""
        from transit_gym.envs.loose_caboose import encode as e

        data = self.data
        n = float(data.num_cards)
        points = float(data.values.sum()) / 10.0
        low = np.zeros(OBS.size, dtype=np.float32)
        high = np.ones(OBS.size, dtype=np.float32)   # one-hots, flags, values/4
        for value in range(1, caboose_data.MAX_VALUE + 1):
            of_value = data.values == value
            for broken in range(2):
                for shape in range(2):
                    kind = ((value - 1) * 2 + broken) * 2 + shape
                    high[e.O_HAND + kind] = np.sum(of_value & (data.broken == broken)
                                                   & (data.shapes == shape))
            high[e.O_DISCARD + value - 1] = of_value.sum()
            high[e.O_UNSEEN + value - 1] = of_value.sum()
        high[e.O_TURN_CARDS] = max(int((data.values == v).sum()) for v in range(1, 5))
        for k_ in range(st.MAX_PLAYERS):
            block = e.O_PLAYERS + k_ * e.PLAYER_BLOCK
            for slot in (e.B_HAND_SIZE, e.B_PILE_SIZE, e.B_BANKED):
                high[block + slot] = n
            high[block + e.B_PILE_POINTS] = points
            high[block + e.B_POINTS] = points
        high[e.O_RAILWAY:e.O_RAILWAY + 3] = n
        high[e.O_DRAW] = n
        # a constant of the configuration: 0..its value (Gymnasium rejects low == high)
        high[e.O_MEAN_WHEELS] = self.params[st.P_FACE_SUM] / self.params[st.P_NUM_FACES]
        high[high <= low] = low[high <= low] + 1.0   # a slot that is always 0 here: 0..1
        return low, high

    def obs_one_hot_groups(self) -> list[slice]:
        """The decision, the value laid this turn, and each seat's top penalty card."""
        from transit_gym.envs.loose_caboose import encode as e

        groups = [OBS.slice("decision"), OBS.slice("turn_value")]
        for k_ in range(st.MAX_PLAYERS):
            top = e.O_PLAYERS + k_ * e.PLAYER_BLOCK + e.B_TOP
            groups.append(slice(top, top + caboose_data.MAX_VALUE + 1))
        return groups

    # ----- words and pictures ---
    def describe_action(self, state: State, action: int) -> str:
        return action_name(int(action))

    # ----- results ---
    def scores(self, state: State) -> list[tuple[int, int]]:
        """``(penalty points, penalty cards)`` per seat (hands count once the game is over)."""
        return [
            (int(k.pile_points(state.data, self.params, seat)),
             int(k.pile_cards(state.data, self.params, seat)))
            for seat in range(self.num_players)
        ]

    def final_info(self, state: State) -> list[dict[str, Any]]:
        results = self.scores(state)
        won = np.zeros(self.num_players, dtype=np.int64)
        k.winners(state.data, self.params, won)
        ranks = _ranks(results)
        s = state.data
        info = []
        for seat, (points, cards) in enumerate(results):
            info.append({
                "points": points,
                "cards": cards,
                "rank": ranks[seat],
                "winner": bool(won[seat]),
                "turns": int(s[st.TURNS]),
                "passes": int(s[st.STAT_PASSES + seat]),
                "plays": int(s[st.STAT_PLAYS + seat]),
                "derails": int(s[st.STAT_DERAILS + seat]),
                "cancels": int(s[st.STAT_CANCELS + seat]),
                "banked": int(s[st.STAT_BANKED + seat]),
                "unpaid_penalties": int(s[st.STAT_UNPAID + seat]),
            })
        return info

    # ----- invariants ---
    def card_places(self, state: State) -> dict[str, list[int]]:
        """Every place as a list of card ids: ordered piles in order (draw pile bottom to
        top, railway back to front, penalty piles bottom to top), the others by id."""
        s = state.data
        n = self.data.num_cards
        loc = s[st.LOC:st.LOC + n]
        by_id = lambda zone: [int(c) for c in np.flatnonzero(loc == zone)]  # noqa: E731
        places = {
            "deck": [int(c) for c in s[st.DECK:st.DECK + s[st.DECK_LEN]]],
            "railway": [int(c) for c in s[st.RAIL + s[st.RAIL_LO]:st.RAIL + s[st.RAIL_HI]]],
            "discard": by_id(st.Z_DISCARD),
            "removed": by_id(st.Z_REMOVED),
        }
        for seat in range(self.num_players):
            places[f"hand_{seat}"] = by_id(st.Z_HAND + seat)
            places[f"penalty_{seat}"] = self.penalty_pile(state, seat)
            places[f"bank_{seat}"] = by_id(st.Z_BANK + seat)
            places[f"bank_hidden_{seat}"] = by_id(st.Z_BANK_HIDDEN + seat)
            places[f"hand_final_{seat}"] = by_id(st.Z_HAND_FINAL + seat)
        return places

    def penalty_pile(self, state: State, seat: int) -> list[int]:
        """The face-up penalty pile of ``seat``, bottom to top."""
        s = state.data
        pile, card = [], int(s[st.PILE_TOP + seat])
        while card >= 0 and len(pile) <= caboose_data.MAX_CARDS:
            pile.append(card)
            card = int(s[st.UNDER + card])
        return pile[::-1]

    def check_invariants(self, state: State) -> None:
        s = state.data
        n = self.data.num_cards
        mc = caboose_data.MAX_CARDS
        for name in ("deck_len", "rail_lo", "rail_hi"):
            assert 0 <= state[name][0] <= mc, f"{name}={state[name][0]} outside 0..{mc}"
        lo, hi, caboose = s[st.RAIL_LO], s[st.RAIL_HI], s[st.CABOOSE]
        assert lo <= caboose < hi, "caboose is off the railway"
        assert s[st.PHASE] in (st.PHASE_CHOOSE, st.PHASE_CONTINUE, st.PHASE_OVER), "bad phase"
        assert 0 <= s[st.CURRENT] < self.num_players, "current seat out of range"
        loc = s[st.LOC:st.LOC + mc]
        assert np.all(loc[n:] == st.Z_UNUSED), "card slots beyond the deck are in use"
        seats = self.num_players
        valid = {st.Z_DECK, st.Z_RAIL, st.Z_DISCARD, st.Z_REMOVED}
        for base in (st.Z_HAND, st.Z_PILE, st.Z_BANK, st.Z_HAND_FINAL, st.Z_BANK_HIDDEN):
            valid |= set(range(base, base + seats))
        bad = sorted({int(z) for z in loc[:n]} - valid)
        assert not bad, f"cards in places {bad} that do not exist with {seats} players"
        for name, zone, cards in (("draw pile", st.Z_DECK, s[st.DECK:st.DECK + s[st.DECK_LEN]]),
                                  ("railway", st.Z_RAIL, s[st.RAIL + lo:st.RAIL + hi])):
            listed = sorted(int(c) for c in cards)
            placed = [int(c) for c in np.flatnonzero(loc[:n] == zone)]
            assert listed == placed, f"the {name} lists {listed} but cards {placed} are in it"
        for seat in range(seats):
            pile = self.penalty_pile(state, seat)
            placed = [int(c) for c in np.flatnonzero(loc[:n] == st.Z_PILE + seat)]
            assert sorted(pile) == placed, (
                f"penalty pile {seat} links {pile} but cards {placed} are on it"
            )
        for seat in range(seats, st.MAX_PLAYERS):
            assert s[st.PILE_TOP + seat] == -1, f"seat {seat} has a pile in a {seats}p game"


def _ranks(results: list[tuple[int, int]]) -> list[int]:
    """Rank 1 = best (fewest points, then fewest cards); equal results share a rank."""
    return [1 + sum(1 for other in results if other < mine) for mine in results]


# ----- DESIGN.md's functional rules API (shared; see envs.core.functional) ---
new_game = make_new_game(LooseCabooseGame)
