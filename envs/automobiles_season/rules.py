"""The Racing Season campaign of Automobiles as a configured game (one episode = a season);
its options are checked in ``options.py`` and fill the tables of ``params.py``.

Options:
- ``tracks="random"``: a list of 3-8 built-in track names (played in that order), or
  ``"random"`` (base tracks), ``"random_expansion"`` (talladega, monte_carlo, tucson) or
  ``"random_all"``: ``races`` tracks drawn from the seed like shuffled track cards (a
  track repeats only once every track of the pool has been used).
- ``races=None``: 3-5 with a random draw (default 3); with a list it must equal its length.
  The points chart covers tracks 1-5; tracks 6-8 score like track 5 (``data.toml``).
- ``laps=1``: laps of every race (the same on every track; "decide the number of laps").
  One lap by default: a season of three one-lap races is about as long as one standard
  3-lap race (``laps=None`` takes the race game's default).
- ``sponsors=True``: the sponsors module; ``sponsor_data=None``: a TOML file laid over
  ``sponsors.toml`` (sponsors matched by name, only the keys given change), or a whole
  sponsor table (a file whose ``[standard_removal]`` gives all three places: its
  sponsors are the deck).
- ``card_data=None``, ``driver_data=None``, ``track_data=None``: TOML files laid over the
  cards, the drivers and the boards of every race, as for ``AutomobilesGame``.
- ``drivers=True``: the drivers module, mandatory in a season (R-YUC "Players must use
  the drivers module when playing a season campaign"): drafted once, before race 1, and
  kept by each player for the whole season. ``"all"``: the Board Game Arena table
  option (not in the printed or Yucata rules), the draft offers all ten drivers.
  ``False``: NOT a rule of the season, a documented option for experiments and fast
  tests (the season without drivers).
- ``card_set``, ``card_pool``, ``start_player`` (race 1), ``open_bags``,
  ``accelerated_play``, ``branch_from_car``, ``draft_behind_space``,
  ``grid_crossing_counts``, ``buy_wear``, ``max_rounds``: as for ``AutomobilesGame``, the
  same for every race.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import COLOURS, MAX_PLAYERS, NUM_COLOURS
from transit_gym.envs.automobiles.encode import OBS as RACE_OBS
from transit_gym.envs.automobiles.kernels import A_DISCARD, A_STOCK, A_STOP
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.automobiles_season import kernels as kern
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.automobiles_season.data import (
    MAX_RACES,
    MAX_SPONSORS,
    MIN_RACES,
    SP_EXTRA,
    SP_GAIN,
    SP_MONEY,
    SP_PER_EXTRA,
    SP_PER_NONWEAR,
    SP_WEAR,
    load_points,
    load_sponsors,
)
from transit_gym.envs.automobiles_season.invariants import MESSAGES, violation
from transit_gym.envs.automobiles_season.options import (  # noqa: F401  (re-exported)
    BASE_TRACKS,
    EXPANSION_TRACKS,
    MAX_RANDOM_RACES,
    RANDOM_POOLS,
    check_modules,
    resolve_tracks,
)
from transit_gym.envs.automobiles_season.params import season_params
from transit_gym.envs.core.functional import *  # noqa: F403  (the functional API)
from transit_gym.envs.core.functional import make_new_game
from transit_gym.envs.core.game import Game, Kernels, State
from transit_gym.envs.core.layout import Layout

KERNELS = Kernels(init=kern.init, legal_mask=kern.legal_mask, apply=kern.apply,
                  current_player=kern.current_player, rewards=kern.rewards,
                  observe=kern.observe, violation=violation, determinize=kern.determinize)

OBS = Layout([
    *((name, RACE_OBS.length(name)) for name in RACE_OBS.names()),
    ("season_decision", ss.NUM_SEASON_PHASES),
    ("season", 4),                 # race number, races, sponsors on, sponsors left in the deck
    ("points", MAX_PLAYERS),       # from this player on
    ("last_places", MAX_PLAYERS),
    ("sponsors_owned", MAX_PLAYERS * MAX_SPONSORS),
    ("sponsor_market", MAX_SPONSORS),
    ("sponsor_effect", 7),         # place one-hot, cubes left, non-wear, extra, money
])
assert OBS.offset("season_decision") == kern.SO_DECISION and OBS.size == kern.OBS_SIZE

class AutomobilesSeasonGame(Game):
    """A Racing Season campaign of Automobiles for 2-5 players."""

    name = "automobiles_season"
    layout = ss.LAYOUT
    kernels = KERNELS
    render_module = "transit_gym.envs.automobiles_season.render"
    potential_module = "transit_gym.envs.automobiles_season.potential"
    obs = OBS
    min_players = 2
    max_players = 5
    start_option = "start_player"
    violation_messages = MESSAGES
    random_options = ({"tracks": "random"}, {"tracks": "random_expansion", "races": 4},
                      {"tracks": "random_all", "races": 5, "card_set": "random",
                       "card_pool": "all"})

    def _build(self, tracks: str | list[str] = "random", races: int | None = None,
               laps: int | None = 1, sponsors: bool = True,
               sponsor_data: str | None = None, card_data: str | None = None,
               driver_data: str | None = None, track_data: str | None = None,
               drivers: bool | str = True,
               card_set: str | list[str] = "First Game", card_pool: str = "base",
               start_player: int | str = "random", open_bags: bool = False,
               accelerated_play: bool = False, branch_from_car: bool = False,
               draft_behind_space: bool = True, grid_crossing_counts: bool = False,
               buy_wear: bool = True, max_rounds: int = 200) -> None:
        if isinstance(tracks, tuple):
            self._options["tracks"] = list(tracks)
        if isinstance(card_set, tuple):
            self._options["card_set"] = list(card_set)
        pool, order, random_order = resolve_tracks(tracks, races)
        check_modules(sponsors, drivers)
        race_options: dict[str, Any] = {
            "laps": laps, "card_set": card_set, "card_pool": card_pool,
            "start_player": start_player, "open_bags": open_bags,
            "accelerated_play": accelerated_play, "branch_from_car": branch_from_car,
            "draft_behind_space": draft_behind_space,
            "grid_crossing_counts": grid_crossing_counts, "buy_wear": buy_wear,
            "max_rounds": max_rounds, "drivers": drivers,
            # the season reads its files once and hands the read copies to every race
            "card_data": self._data_file("card_data", card_data),
            "driver_data": self._data_file("driver_data", driver_data),
            "track_data": self._data_file("track_data", track_data)}
        self.drivers = drivers
        self.races_games = [AutomobilesGame(num_players=self.num_players, track=name,
                                            **race_options) for name in pool]
        self.pool = pool
        self.num_races = len(order) if order is not None else int(races or MIN_RACES)
        self.random_order = random_order
        self.sponsors_on = sponsors
        self.sponsor_data = load_sponsors(self._data_file("sponsor_data", sponsor_data))
        self.points = load_points()
        self.laps = self.races_games[0].laps
        self.cards = self.races_games[0].cards
        self.params = season_params(self.num_players, self.num_races, len(self.pool),
                                    self.random_order, order, self.sponsors_on,
                                    self.sponsor_data, self.points,
                                    [g.params for g in self.races_games])
        self.num_actions = ss.NUM_ACTIONS
        self.obs_size = OBS.size

    # ----- the current race --------------------------------------------------------------------
    def race_no(self, state: State) -> int:
        return int(state.data[ss.RACE_NO])

    def race_game(self, state: State) -> AutomobilesGame:
        """The race game (track) of the current race."""
        return self.races_games[int(state.data[ss.TRACK_ORDER + self.race_no(state)])]

    def race_state(self, state: State) -> State:
        """The race part of ``state`` as a state of the current race's game (a view)."""
        return State(self.race_game(state), state.data[:ss.RACE_STATE_SIZE])

    def track_names(self, state: State) -> list[str]:
        return [self.pool[int(state.data[ss.TRACK_ORDER + r])] for r in range(self.num_races)]

    def player_of(self, state: State) -> list[int]:
        return [int(state.data[ss.PLAYER_OF + k]) for k in range(self.num_players)]

    # ----- words -------------------------------------------------------------------------------
    def describe_action(self, state: State, action: int) -> str:
        action = int(action)
        phase = int(state.data[ss.SEASON_PHASE])
        names = self.sponsor_data.names
        if phase == ss.S_RACE:
            return self.race_game(state).describe_action(self.race_state(state), action)
        if ss.A_SPONSOR <= action < ss.A_KEEP:
            return f"take sponsor {names[action - ss.A_SPONSOR]}"
        if action == ss.A_KEEP:
            return "keep your sponsor"
        if ss.A_DROP <= action < ss.NUM_ACTIONS:
            return f"remove sponsor {names[action - ss.A_DROP]} from the game"
        if action == A_STOP:
            return "stop (use no more of this sponsor step)"
        race, race_state = self.race_game(state), self.race_state(state)
        if A_DISCARD <= action < A_DISCARD + NUM_COLOURS:
            colour = action - A_DISCARD
            return f"remove a {COLOURS[colour]} cube{race.card_of_cube(race_state, colour)}"
        if A_STOCK <= action < A_STOCK + NUM_COLOURS:
            verb = "gain" if phase == ss.S_GAIN else "buy"
            colour = action - A_STOCK
            return (f"{verb} a {COLOURS[colour]} cube{race.card_of_cube(race_state, colour)} "
                    "from the stock")
        return f"action {action}"

    # ----- results -----------------------------------------------------------------------------
    def season_points(self, state: State) -> list[int]:
        return [int(state.data[ss.POINTS + k]) for k in range(self.num_players)]

    def scores(self, state: State) -> list[int]:
        """Season rank per player (1 = the winner; then points, then the last race)."""
        s = state.data
        last = self.num_races - 1
        key = {k: (-int(s[ss.POINTS + k]), int(s[ss.PLACES + last * MAX_PLAYERS + k]) or 99)
               for k in range(self.num_players)}
        order = sorted(range(self.num_players), key=lambda k: key[k])
        return [order.index(k) + 1 for k in range(self.num_players)]

    def races_finished(self, state: State) -> int:
        """Races run to the end so far."""
        phase = int(state.data[ss.SEASON_PHASE])
        return self.race_no(state) + (0 if phase == ss.S_RACE else 1)

    def race_result(self, state: State, r: int) -> dict[str, Any]:
        """Finished race ``r`` (0-based): track, finishing order (players), places and
        points per player, and the sponsor awards that followed it (``awards_done`` False
        while they are still being decided; none follow the last race)."""
        s = state.data
        n = self.num_players
        names = self.sponsor_data.names
        places = [int(s[ss.PLACES + r * MAX_PLAYERS + k]) for k in range(n)]
        effects = []
        for k in range(n):
            log = ss.SP_LOG + (r * MAX_PLAYERS + k) * 4
            sponsor = int(s[log + ss.LOG_SPONSOR]) - 1
            effects.append({"sponsor": names[sponsor] if sponsor >= 0 else None,
                            "kept": bool(s[log + ss.LOG_KEPT]),
                            "removed": int(s[log + ss.LOG_REMOVED]),
                            "gained": int(s[log + ss.LOG_GAINED])})
        first, middle, last = self.points.row(r)
        points = [first if p == 1 else last if (p == n and n > 2) else middle
                  for p in places]
        awarding = (self.race_no(state) == r
                    and ss.S_PICK <= int(s[ss.SEASON_PHASE]) < ss.S_OVER)
        return {"race": r + 1, "track": self.track_names(state)[r],
                "finish": sorted(range(n), key=lambda k: places[k]), "places": places,
                "points": points, "sponsor_effects": effects,
                "awards_done": self.sponsors_on and r < self.num_races - 1 and not awarding}

    def race_results(self, state: State) -> list[dict[str, Any]]:
        """Per finished race: track, finishing order, points and sponsor effects."""
        return [self.race_result(state, r) for r in range(self.races_finished(state))]

    def step_info(self, state: State) -> list[dict[str, Any]] | None:
        """Issue "per-race results in infos": after the step that ends a race (and again
        after the step that ends the sponsor awards following it), every agent's info
        holds that race's ``race_result`` and the season points so far."""
        if not int(state.data[ss.NEWS]):
            return None
        result = self.race_result(state, self.races_finished(state) - 1)
        points = self.season_points(state)
        return [{"race_result": result, "season_points": points}
                for _ in range(self.num_players)]

    def final_info(self, state: State) -> list[dict[str, Any]]:
        ranks = self.scores(state)
        results = self.race_results(state)
        owned = [int(state.data[ss.OWNED + k]) for k in range(self.num_players)]
        return [{"rank": ranks[k], "winner": ranks[k] == 1,
                 "points": int(state.data[ss.POINTS + k]),
                 "race_places": [r["places"][k] for r in results],
                 "sponsor": self.sponsor_data.names[owned[k]] if owned[k] >= 0 else None,
                 "races": results, "race_result": results[-1],
                 "season_points": self.season_points(state)}
                for k in range(self.num_players)]

    # ----- bounds and invariants ---------------------------------------------------------------
    def obs_low_high(self) -> tuple[np.ndarray, np.ndarray]:
        lows, highs = zip(*(g.obs_low_high() for g in self.races_games), strict=True)
        race_low = np.min(np.stack(lows), axis=0)
        race_high = np.max(np.stack(highs), axis=0)
        low = np.zeros(OBS.size, dtype=np.float32)
        high = np.ones(OBS.size, dtype=np.float32)
        low[:race_low.size] = race_low
        high[:race_high.size] = race_high
        table = self.sponsor_data.table
        std = int(self.sponsor_data.standard.max())
        o = OBS.offset("season")
        high[o:o + 4] = (self.num_races, self.num_races, 1, MAX_SPONSORS)
        high[OBS.slice("points")] = self.num_races * int(self.points.first.max())
        high[OBS.slice("last_places")] = self.num_players
        e = OBS.offset("sponsor_effect")
        left = max(std, int(table[:, :, SP_EXTRA].max()), int(table[:, :, SP_GAIN].max()),
                   int((table[:, :, SP_WEAR] + table[:, :, SP_PER_NONWEAR] * std).max()))
        money = int((table[:, :, SP_MONEY] + table[:, :, SP_PER_EXTRA]
                     * table[:, :, SP_EXTRA]).max())
        high[e + 3:e + 7] = (left, std, int(table[:, :, SP_EXTRA].max()), money)
        high[high <= low] = low[high <= low] + 1.0
        return low, high

    def obs_one_hot_groups(self) -> list[slice]:
        groups = self.races_games[0].obs_one_hot_groups()
        groups.append(OBS.slice("season_decision"))
        o = OBS.offset("sponsors_owned")
        groups += [slice(o + k * MAX_SPONSORS, o + (k + 1) * MAX_SPONSORS)
                   for k in range(MAX_PLAYERS)]
        e = OBS.offset("sponsor_effect")
        groups.append(slice(e, e + 3))
        return groups

    def check_invariants(self, state: State) -> None:
        s = state.data
        self.race_game(state).check_invariants(self.race_state(state))
        n = self.num_players
        assert sorted(self.player_of(state)) == list(range(n)), "player_of is not an order"
        phase = int(s[ss.SEASON_PHASE])
        race_over = int(s[st.PHASE]) == st.PH_OVER
        assert race_over == (phase != ss.S_RACE), "race phase disagrees with the season"
        done = self.race_no(state) + (0 if phase == ss.S_RACE else 1)
        places = s[ss.PLACES:ss.PLACES + MAX_RACES * MAX_PLAYERS].reshape(MAX_RACES,
                                                                          MAX_PLAYERS)
        for r in range(MAX_RACES):
            if r < done:
                assert sorted(places[r, :n].tolist()) == list(range(1, n + 1)), (
                    f"race {r + 1} places are not 1..{n}")
            else:
                assert not places[r].any(), f"race {r + 1} has places before it ran"
        expected = [0] * n
        for r in range(done):
            first, middle, last = self.points.row(r)
            for k in range(n):
                p = int(places[r, k])
                expected[k] += first if p == 1 else last if (p == n and n > 2) else middle
        assert self.season_points(state) == expected, "points disagree with the places"
        held = [int(v) for v in s[ss.MARKET:ss.MARKET + MAX_PLAYERS]] + \
            [int(v) for v in s[ss.OWNED:ss.OWNED + MAX_PLAYERS]]
        held = [v for v in held if v >= 0]
        assert len(held) == len(set(held)), "a sponsor is in two places"
        deck = s[ss.DECK:ss.DECK + len(self.sponsor_data.names)]
        assert sorted(deck.tolist()) == list(range(len(self.sponsor_data.names))), "deck"
        if not self.sponsors_on:
            assert not held, "sponsors in play with the module off"
        if self.drivers and not (self.race_no(state) == 0
                                 and int(s[st.PHASE]) == st.PH_DRIVER_DRAFT):
            held_drivers = [int(v) for v in s[st.DRIVER_OF:st.DRIVER_OF + n]]
            assert all(held_drivers), (
                f"drivers are kept all season, but a seat has none after the draft: "
                f"{held_drivers}")


# ----- DESIGN.md's functional rules API (shared; see envs.core.functional) ---
new_game = make_new_game(AutomobilesSeasonGame)
