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

from envs.core.errors import ConfigError
from envs.core.game import Game, Kernels, State
from envs.loose_caboose import data as caboose_data
from envs.loose_caboose import kernels as k
from envs.loose_caboose import state as st
from envs.loose_caboose.encode import OBS, action_name, observe

KERNELS = Kernels(
    init=k.init,
    legal_mask=k.legal_mask,
    apply=k.apply,
    current_player=k.current_player,
    rewards=k.rewards,
    observe=observe,
)

REWARD_MODES = {"win": 0, "score": 1}


def _flag(name: str, value: Any) -> int:
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be True or False, got {value!r}")
    return int(value)


class LooseCabooseGame(Game):
    """Loose Caboose! for 2-4 players."""

    name = "loose_caboose"
    layout = st.LAYOUT
    kernels = KERNELS
    min_players = 2
    max_players = 4
    obs_bounds = (0.0, 100.0)

    def _build(self, geometry: bool = True, pass_banks: bool = True, bank_first: bool = True,
               first_player: int | str = 0, reward: str = "win", deck: str | None = None,
               dice_faces: list[int] | None = None) -> None:
        data = caboose_data.load(deck)
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
        if first_player == "random":
            first = -1
        elif (isinstance(first_player, (int, np.integer)) and not isinstance(first_player, bool)
              and 0 <= first_player < self.num_players):
            first = int(first_player)
        else:
            raise ConfigError(
                f"first_player must be a seat 0..{self.num_players - 1} or 'random', "
                f"got {first_player!r}"
            )
        if reward not in REWARD_MODES:
            raise ConfigError(f"reward must be one of {sorted(REWARD_MODES)}, got {reward!r}")
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
        self.params = params
        self.num_actions = k.NUM_ACTIONS
        self.obs_size = OBS.size

    # ----- words and pictures ------------------------------------------------------------------
    def describe_action(self, state: State, action: int) -> str:
        return action_name(int(action))

    def render_text(self, state: State) -> str:
        from envs.loose_caboose.render import render_text

        return render_text(self, state)

    def render_rgb(self, state: State) -> np.ndarray:
        from envs.loose_caboose.render import render_rgb

        return render_rgb(self, state)

    def obs_layout(self):
        return OBS

    # ----- results -------------------------------------------------------------------------------
    def scores(self, state: State) -> list[tuple[int, int]]:
        """``(penalty points, penalty cards)`` per seat (hands count once the game is over)."""
        return [
            (int(k.pile_points(state.data, self.params, seat)), int(k.pile_cards(state.data, seat)))
            for seat in range(self.num_players)
        ]

    def final_info(self, state: State) -> list[dict[str, Any]]:
        scores = self.scores(state)
        won = np.zeros(self.num_players, dtype=np.int64)
        k.winners(state.data, self.params, won)
        ranks = _ranks(scores)
        s = state.data
        info = []
        for seat, (points, cards) in enumerate(scores):
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

    # ----- invariants ------------------------------------------------------------------------------
    def card_places(self, state: State) -> dict[str, list[int]]:
        """Every pile as a list of card ids (the railway back to front)."""
        s = state.data
        mc = caboose_data.MAX_CARDS
        places = {
            "deck": list(s[st.DECK:st.DECK + s[st.DECK_LEN]]),
            "railway": list(s[st.RAIL + s[st.RAIL_LO]:st.RAIL + s[st.RAIL_HI]]),
            "discard": list(s[st.DISCARD:st.DISCARD + s[st.DISCARD_LEN]]),
            "removed": list(s[st.REMOVED:st.REMOVED + s[st.REMOVED_LEN]]),
        }
        for seat in range(self.num_players):
            for name, base, length in (("hand", st.HAND, st.HAND_LEN),
                                       ("penalty", st.PENALTY, st.PENALTY_LEN),
                                       ("bank", st.BANK, st.BANK_LEN),
                                       ("hand_final", st.HAND_FINAL, st.HAND_FINAL_LEN)):
                start = base + seat * mc
                places[f"{name}_{seat}"] = list(s[start:start + s[length + seat]])
        return {name: [int(c) for c in cards] for name, cards in places.items()}

    def check_invariants(self, state: State) -> None:
        s = state.data
        mc = caboose_data.MAX_CARDS
        lengths = {
            "deck_len": s[st.DECK_LEN], "discard_len": s[st.DISCARD_LEN],
            "removed_len": s[st.REMOVED_LEN], "rail_lo": s[st.RAIL_LO], "rail_hi": s[st.RAIL_HI],
        }
        for name, value in lengths.items():
            assert 0 <= value <= mc, f"{name}={value} outside 0..{mc}"
        for name in ("hand_len", "penalty_len", "bank_len", "hand_final_len"):
            values = state[name]
            assert all(0 <= v <= mc for v in values), f"{name} has a length outside 0..{mc}"
        assert s[st.RAIL_LO] <= s[st.CABOOSE] < s[st.RAIL_HI], "caboose is off the railway"
        assert s[st.PHASE] in (st.PHASE_CHOOSE, st.PHASE_CONTINUE, st.PHASE_OVER), "bad phase"
        assert 0 <= s[st.CURRENT] < self.num_players, "current seat out of range"
        every = [c for cards in self.card_places(state).values() for c in cards]
        n = self.data.num_cards
        assert sorted(every) == list(range(n)), (
            f"cards are not each in exactly one place: {len(every)} placed of {n}"
        )
        for seat in range(self.num_players, st.MAX_PLAYERS):
            assert s[st.HAND_LEN + seat] == 0 and s[st.PENALTY_LEN + seat] == 0, (
                f"seat {seat} holds cards in a {self.num_players}-player game"
            )


def _ranks(scores: list[tuple[int, int]]) -> list[int]:
    """Rank 1 = best (fewest points, then fewest cards); equal results share a rank."""
    return [1 + sum(1 for other in scores if other < mine) for mine in scores]


# ----- DESIGN.md's functional rules API -----------------------------------------------------------
def new_game(config: dict[str, Any] | None = None, seed: int | None = None) -> State:
    """A new game from options ``config`` (``num_players`` and the options above)."""
    return LooseCabooseGame(**(config or {})).new_state(seed)


def legal_mask(state: State) -> np.ndarray:
    return state.game.legal_mask(state)


def apply(state: State, action: int) -> None:
    state.game.apply(state, action)


def current_player(state: State) -> int:
    return state.game.current_player(state)


def is_over(state: State) -> bool:
    return state.game.is_over(state)


def scores(state: State) -> list[tuple[int, int]]:
    return state.game.scores(state)
