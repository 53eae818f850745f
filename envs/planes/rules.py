"""Planes as a configured game: options, parameters and the rules API.

Module functions follow DESIGN.md (``new_game``, ``legal_mask``, ``apply``,
``current_player``, ``is_over``, ``scores``); they delegate to the jitted kernels.

Options (each rulebook ambiguity has one, with the documented default):
- ``airport="flying_cloud"``: or ``"zephyr"``, or the path of a TOML airport file
  (format of ``airports/flying_cloud.toml``). Both shipped airports are RECONSTRUCTED.
- ``poi=None``: optional rule "Point of Interest Tokens": ``{space id: kind}`` tokens
  placed over the printed points of interest (``"blank"`` covers one).
- ``cards=None``: path of a TOML file with ``[[cards]]`` replacing the card table.
- ``blockage_counts="all"``: 7+ cubes of any kind make a blockage (reference sheet, and
  the only reading under which the rulebook's game example plays; an open
  question Q1); ``"party"`` counts party cubes only (the main text's wording).
- ``exact_goals="strict"``: goals "exactly 1 cube of your colour", "exactly 1 neutral
  cube" and "exactly 4 neutral cubes" need those to be the only cubes in the space
  (Q3); ``"loose"`` allows other cubes beside them.
- ``end_at=12``: the boarding-track space that ends the game (optional rule "Shorter
  Games": 1..12).
- ``player_decks=False``: optional rule "Player Decks".
- ``end_draw="may"``: with an empty hand at the end of the turn the player may draw 1
  card (Goal Phase text); ``"must"`` always draws (reference sheet).
- ``skip="must"``: with Skip 1 Space the move may not end (stop, last cube, boarding)
  while a space ahead could still be skipped; ``"may"`` makes the skip optional.
- ``first_player=0``: the seat that starts (at P1), or ``"random"`` from the seed.
- ``reward="win"``: zero-sum win/loss; ``"score"``: own VP minus the others' mean.
- ``max_rounds=100``: NOT a rulebook rule but a guard against stalling. Moves are
  mandatory but need not board, so a policy can avoid the end forever (always stopping
  after one space does), and in a zero-sum game a losing learner would learn to. The game
  therefore also ends, scored as usual, after this many complete rounds. Sensible play
  never gets near it (rule-based agents: 12-17 rounds on average, at most 33 in 1,800
  measured games); uniformly random play needs about 320 rounds with 2 players and is
  usually cut at 100. ``max_rounds=None`` plays exactly as printed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.functional import *  # noqa: F403  (the functional API)
from transit_gym.envs.core.functional import make_new_game
from transit_gym.envs.core.game import Game, Kernels, State
from transit_gym.envs.core.layout import widen_fixed_slots
from transit_gym.envs.core.options import check_choice, check_flag, check_int, check_seat_or_random
from transit_gym.envs.planes import data
from transit_gym.envs.planes import kernels as k
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.determinize import determinize
from transit_gym.envs.planes.encode import OBS, observe
from transit_gym.envs.planes.invariants import MAX_STEPS, MESSAGES, violation

KERNELS = Kernels.of(k, observe, violation=violation, determinize=determinize)

REWARD_MODES = {"win": 0, "score": 1}
CHOICES = {
    "blockage_counts": ("party", "all"),
    "exact_goals": ("strict", "loose"),
    "end_draw": ("may", "must"),
    "skip": ("must", "may"),
    "reward": tuple(REWARD_MODES),
}


def _choice(name: str, value: Any) -> int:
    """Index of ``value`` among the choices of option ``name``."""
    return CHOICES[name].index(check_choice(name, value, CHOICES[name]))


_flag = check_flag   # the shared option checkers (envs/core/options.py)
#: the largest ``max_rounds`` (far beyond any real game; keeps the turn counter small)
MAX_ROUNDS_LIMIT = 100_000


class PlanesGame(Game):
    """Planes for 2-4 players (both airports, all 15 cards, the optional rules)."""

    name = "planes"
    random_options = ({"first_player": "random"},)
    layout = st.LAYOUT
    kernels = KERNELS
    render_module = "transit_gym.envs.planes.render"
    potential_module = "transit_gym.envs.planes.potential"
    obs = OBS
    min_players = 2
    max_players = 4
    violation_messages = MESSAGES

    def _build(self, airport: str = "flying_cloud", poi: dict[str, str] | None = None,
               cards: str | None = None, blockage_counts: str = "all",
               exact_goals: str = "strict", end_at: int = 12, player_decks: bool = False,
               end_draw: str = "may", skip: str = "must", first_player: int | str = 0,
               reward: str = "win", max_rounds: int | None = 100) -> None:
        if not isinstance(airport, str):
            raise ConfigError(f"airport must be 'flying_cloud', 'zephyr' or a file path "
                              f"(a string), got {airport!r}")
        self.airport = data.load_airport(
            self._data_file("airport", airport, data.AIRPORTS))
        if cards is not None and not isinstance(cards, str):
            raise ConfigError(f"cards must be a file path (a string) or None, got {cards!r}")
        self.cards = data.load_cards(self._data_file("cards", cards))
        self.comp = data.COMPONENTS
        if poi is None:
            self.poi = self.airport.poi.copy()
        elif isinstance(poi, dict):
            self.poi = data.custom_poi(self.airport, poi)
        else:
            raise ConfigError(f"poi must be a dict {{space id: kind}} or None, got {poi!r}")
        track_end = self.comp.track_end
        end_at = check_int("end_at", end_at, 1, track_end, "a boarding-track space")
        first = check_seat_or_random("first_player", first_player, self.num_players)
        if max_rounds is not None:
            max_rounds = check_int("max_rounds", max_rounds, 1, MAX_ROUNDS_LIMIT,
                                   "None (no limit) or a round count")
        params = np.zeros(st.PARAMS.size, dtype=np.int64)
        params[st.P_NUM_PLAYERS] = self.num_players
        params[st.P_MAX_ROUNDS] = 0 if max_rounds is None else int(max_rounds)
        params[st.P_FIRST] = first
        params[st.P_BLOCKAGE_ALL] = _choice("blockage_counts", blockage_counts)
        params[st.P_STRICT_SOLE] = 1 - _choice("exact_goals", exact_goals)
        params[st.P_END_AT] = int(end_at)
        params[st.P_PLAYER_DECKS] = _flag("player_decks", player_decks)
        params[st.P_END_DRAW_MUST] = _choice("end_draw", end_draw)
        params[st.P_SKIP_MUST] = 1 - _choice("skip", skip)
        params[st.P_REWARD] = _choice("reward", reward)
        self._pack_components(params)
        self._pack_airport(params)
        self._pack_cards(params)
        self.params = params
        self.num_actions = k.NUM_ACTIONS
        self.obs_size = OBS.size

    def _pack_components(self, params: np.ndarray) -> None:
        c = self.comp
        params[st.P_PARTY_CUBES] = c.party_cubes
        params[st.P_NEUTRAL_CUBES] = c.neutral_cubes
        params[st.P_NEUTRAL_PER_SPACE] = c.neutral_per_space
        params[st.P_PLANE_SLOTS] = c.plane_slots
        params[st.P_HAND_SIZE] = c.hand_size
        params[st.P_THRESHOLD] = c.blockage_threshold
        params[st.P_VP_PER_CUBE] = c.vp_per_cube
        params[st.P_NEUTRAL_DRAW] = c.neutral_board_draw
        params[st.P_EMPTY_DRAW] = c.empty_hand_draw

    def _pack_airport(self, params: np.ndarray) -> None:
        a = self.airport
        params[st.P_NUM_SPACES] = a.num_spaces
        params[st.P_NUM_GATES] = a.num_gates
        for arrows, base, count in ((a.next, st.P_NEXT, st.P_NEXT_N),
                                    (a.prev(), st.P_PREV, st.P_PREV_N)):
            for sp, row in enumerate(arrows):
                params[count + sp] = len(row)
                params[base + sp * data.MAX_ARROWS:base + sp * data.MAX_ARROWS + len(row)] = row
        params[st.P_POI:st.P_POI + a.num_spaces] = self.poi
        params[st.P_START_SPACE:st.P_START_SPACE + data.NUM_PARTY_COLORS] = a.start
        params[st.P_GATE_ACCESS:st.P_GATE_ACCESS + a.num_gates] = a.gate_access
        params[st.P_GATE_START:st.P_GATE_START + a.num_gates] = a.gate_start

    def _pack_cards(self, params: np.ndarray) -> None:
        c = self.cards
        n = c.num_types
        params[st.P_NUM_TYPES] = n
        for offset, column in ((st.P_ACT_KIND, c.action), (st.P_ACT_N, c.action_n),
                               (st.P_ACT_POI, c.action_poi), (st.P_GOAL_POI, c.goal_poi),
                               (st.P_GOAL_CUBES, c.goal_cubes),
                               (st.P_GOAL_COLORS, c.goal_colors),
                               (st.P_GOAL_MINE_LO, c.goal_mine[:, 0]),
                               (st.P_GOAL_MINE_HI, c.goal_mine[:, 1]),
                               (st.P_GOAL_NEUTRAL_LO, c.goal_neutral[:, 0]),
                               (st.P_GOAL_NEUTRAL_HI, c.goal_neutral[:, 1]),
                               (st.P_GOAL_SOLE, c.goal_sole), (st.P_VP, c.vp)):
            params[offset:offset + n] = column

    # ----- observation bounds ---------------------------------------------------------------
    def obs_low_high(self) -> tuple[np.ndarray, np.ndarray]:
        """``exact_obs_low_high`` with each fixed slot opened to a non-empty range."""
        return widen_fixed_slots(*self.exact_obs_low_high())

    def exact_obs_low_high(self) -> tuple[np.ndarray, np.ndarray]:
        """True per-slot bounds of ``encode.OBS`` for this configuration: counts up to the
        box's cubes and cards, slots of spaces, gates, seats and card types the game does
        not have fixed at 0 (values are raw: the rule-based agent reads them as counts)."""
        from transit_gym.envs.planes import encode as e

        p = self.params
        n, n_spaces, n_gates, n_types = (self.num_players, self.airport.num_spaces,
                                         self.airport.num_gates, self.cards.num_types)
        party, neutral, slots = (float(p[st.P_PARTY_CUBES]), float(p[st.P_NEUTRAL_CUBES]),
                                 float(p[st.P_PLANE_SLOTS]))
        copies = 1 if self._options.get("player_decks") else data.COPIES
        cards = float(n_types * data.COPIES)
        goal_vp = float(copies * self.cards.vp.sum())
        low = np.zeros(OBS.size, dtype=np.float32)
        high = np.zeros(OBS.size, dtype=np.float32)
        colour_cap = [party] * data.NUM_PARTY_COLORS + [neutral]

        def put(offset: int, values) -> None:
            values = np.atleast_1d(np.asarray(values, dtype=np.float32))
            high[offset:offset + values.size] = values

        put(e.O_DECISION, np.ones(st.NUM_PHASES + 1))
        put(e.O_PLAYERS, np.ones(3))
        put(e.O_TURN_ORDER, np.ones(n))
        for sp in range(n_spaces):
            put(e.O_CUBES + sp * data.NUM_COLORS, colour_cap)
            put(e.O_CONES + sp, 1.0)
            put(e.O_POI + sp * data.NUM_POI, np.ones(data.NUM_POI))
            for field in (e.O_POS, e.O_START, e.O_BRANCH, e.O_SELECTED,
                          e.O_SELECTED + data.MAX_SPACES):
                put(field + sp, 1.0)
        for g in range(n_gates):
            put(e.O_GATES + g * (data.NUM_COLORS + 1), np.ones(data.NUM_COLORS).tolist() + [slots])
        put(e.O_ACTIVE, colour_cap)
        put(e.O_MOVE, [MAX_STEPS, 1.0])
        put(e.O_EFFECTS, [1.0] * 5 + [2.0])
        put(e.O_IN_PLAY, np.ones(n_types))
        put(e.O_HAND, np.full(n_types, copies))
        put(e.O_GOAL_NOW, np.ones(n_types))
        for k_ in range(n):
            put(e.O_SEATS + k_ * e.PLAYER_BLOCK,
                [cards, cards, goal_vp, cards, slots, goal_vp + p[st.P_VP_PER_CUBE] * slots, 1.0])
        put(e.O_DISCARD, np.full(n_types, copies))
        put(e.O_TRACK, [n_gates * slots, p[st.P_END_AT], 2.0])
        low[e.O_TRACK + 1] = p[st.P_END_AT]
        return low, high

    def obs_one_hot_groups(self) -> list[slice]:
        """The one-hot codes of ``encode.OBS``: decision, player count, turn order, each
        space's point of interest, each gate's plane colour, the move's space, start and
        arrow, the card in play, the two send selections."""
        from transit_gym.envs.planes import encode as e

        def span(offset: int, size: int) -> slice:
            return slice(offset, offset + size)

        groups = [span(e.O_DECISION, st.NUM_PHASES + 1), span(e.O_PLAYERS, 3),
                  span(e.O_TURN_ORDER, st.MAX_PLAYERS)]
        groups += [span(e.O_POI + sp * data.NUM_POI, data.NUM_POI) for sp in range(data.MAX_SPACES)]
        groups += [span(e.O_GATES + g * (data.NUM_COLORS + 1), data.NUM_COLORS)
                   for g in range(data.MAX_GATES)]
        groups += [span(field, data.MAX_SPACES) for field in
                   (e.O_POS, e.O_START, e.O_BRANCH, e.O_SELECTED, e.O_SELECTED + data.MAX_SPACES)]
        groups.append(span(e.O_IN_PLAY, data.MAX_TYPES))
        return groups

    # ----- words and pictures ---------------------------------------------------------------
    def space_name(self, sp: int) -> str:
        """Space id with its point of interest, e.g. ``S2 (restroom)``."""
        return f"{self.airport.space_ids[sp]} ({data.POI_NAMES[self.poi[sp]]})"

    def describe_action(self, state: State, action: int) -> str:
        from transit_gym.envs.planes.render import describe_action

        return describe_action(self, state, int(action))

    # ----- results ------------------------------------------------------------------------------
    def scores(self, state: State) -> list[int]:
        """Victory points per seat: goal VP plus 5 per own cube on the own plane."""
        return [int(k.score(state.data, self.params, seat)) for seat in range(self.num_players)]

    def final_info(self, state: State) -> list[dict[str, Any]]:
        s, p = state.data, self.params
        won = np.zeros(self.num_players, dtype=np.int64)
        k.winners(s, p, won)
        keys = [(int(k.score(s, p, seat)), int(k.own_boarded(s, p, seat)),
                 int(k.goal_cards(s, seat))) for seat in range(self.num_players)]
        info = []
        for seat in range(self.num_players):
            info.append({
                "score": keys[seat][0],
                "rank": 1 + sum(1 for other in keys if other > keys[seat]),
                "winner": bool(won[seat]),
                "color": data.COLOR_NAMES[seat],
                "own_cubes_boarded": keys[seat][1],
                "goals_scored": keys[seat][2],
                "goal_vp": int(k.goal_points(s, p, seat)),
                "cubes_boarded_as_mover": int(s[st.STAT_BOARDS + seat]),
                "free_cubes_boarded": int(s[st.STAT_FREE_BOARDS + seat]),
                "actions_played": int(s[st.STAT_ACTIONS + seat]),
                "moves": int(s[st.STAT_MOVES + seat]),
                "cards_drawn": int(s[st.STAT_DRAWN + seat]),
                "hand_size": int(k.hand_size(s, seat)),
                "turns": int(s[st.TURNS]),
                "track": int(s[st.TRACK]),
                "round_limit_reached": bool(s[st.END_TRIGGERED] == 2),
            })
        return info

    # ----- invariants ---------------------------------------------------------------------------
    def cube_places(self, state: State) -> dict[str, np.ndarray]:
        """Cubes per colour in every place: each space, the active cubes, planes, box."""
        s = state.data
        n_spaces = self.airport.num_spaces
        cubes = state["cubes"].reshape(data.MAX_SPACES, data.NUM_COLORS)
        places = {self.airport.space_ids[sp]: cubes[sp] for sp in range(n_spaces)}
        places["active"] = state["active"]
        planes = np.zeros(data.NUM_COLORS, dtype=np.int64)
        for g in range(self.airport.num_gates):
            if 0 <= s[st.GATE_COLOR + g] < data.NUM_COLORS:
                planes[s[st.GATE_COLOR + g]] += s[st.BOARDED + g]
        places["planes"] = planes
        places["box"] = state["box_cubes"]
        return places

    def card_places(self, state: State) -> dict[str, np.ndarray]:
        """Cards per type in every place (deck and discard rows per seat with Player Decks)."""
        places = {}
        for name in ("hand", "goals", "deck", "discard"):
            table = state[name].reshape(st.MAX_PLAYERS, data.MAX_TYPES)
            for row in range(st.MAX_PLAYERS):
                places[f"{name}_{row}"] = table[row]
        places["box"] = state["box_cards"]
        in_play = np.zeros(data.MAX_TYPES, dtype=np.int64)
        if state["in_play"][0] >= 0:
            in_play[state["in_play"][0]] = 1
        places["in_play"] = in_play
        return places

    def check_invariants(self, state: State) -> None:
        """Conservation (40 cubes, 60 cards, each in exactly one place), bounds, and the
        consistency of planes, track, decks and the move; the jitted ``violation`` check."""
        where = np.full(3, -1, dtype=np.int64)
        code = int(violation(state.data, self.params, where))
        if code:
            raise AssertionError(self._violation_message(state.data, code, where)
                                 + f" (phase {int(state.data[st.PHASE])})")


# ----- DESIGN.md functional rules API (the rest: transit_gym.envs.core.functional) -----
new_game = make_new_game(PlanesGame)
