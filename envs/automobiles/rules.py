"""Automobiles as a configured game: its options (checked in ``options.py``, turned into
the parameter tables by ``params.py``), results and invariants.

Module functions follow DESIGN.md (``new_game``, ``legal_mask``, ``apply``,
``current_player``, ``is_over``, ``scores``); they delegate to the jitted kernels.

Options (the rulebook's choices and every ambiguity, with documented defaults):
- ``laps=3``: finish-line crossings to finish (the lap marker's start space), 1-8.
- ``track="daytona"``: ``"daytona"``, ``"monza"``, the Racing Season's ``"talladega"``,
  ``"monte_carlo"``, ``"tucson"`` (all RECONSTRUCTED) or a TOML path (track_options.py).
- ``track="random"`` / ``"random_expansion"`` / ``"random_all"``: one race on a board
  drawn at every reset from the reset seed (one parameter row per board of the pool, the
  state's ``variant`` field names its row: ``params_of(state)``, ``track_of(state)``);
  ``track_seed=N`` pins the one board ``N`` draws instead (as before the per-reset draw).
- ``weaving=False``: Variant Weaving (R-YUC): a moving cube may change lanes from the
  early segments of a long space (docs/racing_season/tracks_weaving.md).
- ``card_set="First Game"``: a suggested set's name (case and punctuation ignored; the
  base game's seven and the Racing Season's six), ``"random"`` (one card per colour drawn
  from the game's seed, among the ``card_pool``), or five card names (any mix of the 35).
- ``card_pool="base"``: the cards ``card_set="random"`` draws from: ``"base"`` (the 20
  base cards), ``"expansion"`` (the 15 Racing Season cards: the expansion played alone)
  or ``"all"``.
- ``card_data=None``: a TOML file laid over ``data.toml`` (cards matched by name; only
  the keys given change, e.g. a card's ``cost``/``value``).
- ``track_data=None``: a TOML file changing shipped boards' grid slots:
  ``[[daytona.grid]] slot = 1  allowance = 12`` (slots matched by number, 1 = P1; only
  the keys given change; boards the game does not play are left alone).
- ``driver_data=None``: a TOML file laid over the Racing Season's ``drivers.toml``
  (drivers matched by ``number``; only the keys given change, e.g. ``amount``).
- ``open_bags=False``: online rules' deviation: everyone sees every bag's contents.
- ``accelerated_play=False``: online variant: Boost's free draws for the other players
  wait until each of them starts their own turn.
- ``start_player="random"``: the seat holding the Starting Player card (it takes grid
  slot P1): the rulebook's random choice (Setup 4), drawn from the seed, or a seat number.
- ``branch_from_car=False``: the gear cards say "adjacent to your race car, or adjacent
  to the last cube previously placed"; by default the first cube starts next to the car
  and each later one next to the last placed cube (the reference sheet's "your
  previously placed cube": the cubes mark one path of the car); ``True`` lets a later
  cube start next to the car again (the car still goes to the farthest cube).
- ``draft_behind_space=True``: drafting also counts from the front segment of the space
  directly behind a space holding an opponent's car, in the same lane (the rulebook's
  "space or segment directly behind"; its Drafting Example has a car "drafting in the
  space behind"); ``False`` counts only the segment directly behind a car.
- ``grid_crossing_counts=False``: the grid lies just behind the finish line, so the
  first move crosses it. The lap marker counts laps: its start space is the number of
  laps ("select more laps"), it reaches "Final Lap" as the last lap begins, and the
  rulebook's example car is "on his way to completing the second lap"; so the run from
  the grid across the line starts the race and does not move the marker, and a 3-lap
  race is 3 full laps (plus the grid). ``True`` moves the marker on that crossing too
  (the Car Phase sentence taken literally: the race is then just over 2 laps).
- ``buy_wear=True``: wear cubes are in the stock like every other cube and the Wear
  card has a cost like every card (Card Basics), and the Buy Phase lets a player buy
  any cubes of the stock; ``False`` takes wear off sale (and Pit Team cannot buy it).
- ``drivers=False``: the Racing Season drivers module: ``True`` drafts from players + 1
  revealed drivers, ``"all"`` from all ten (a Board Game Arena table option, not in the
  printed or Yucata rules); ``False`` is the base game.
- ``drivers="random"``: off or on (drafting from players + 1), drawn at every reset from
  the reset seed (one parameter row per board and mode; the observation layout is the
  same either way), for training one agent on both.
- ``exclude_sets=()``: markets ``card_set="random"`` never draws (suggested set names or
  five-card lists, at most 16): a drawn market equal to one is drawn again from the same
  generator, so held-out markets stay out of training games.
- ``track=[...]``: a list of boards (shipped names or TOML paths), one drawn at every
  reset like ``"random_all"`` (e.g. four boards for training, the fifth held out).
- ``max_rounds=200``: not a rule: an engine guard that ends a game after that many
  rounds (ranked by race position) so that any pair of policies terminates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.automobiles import board, kernels
from transit_gym.envs.automobiles import data as auto_data
from transit_gym.envs.automobiles import options as opt
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import (
    CARD_COLOURS,
    COLOURS,
    GEARS,
    MAX_PLAYERS,
    NUM_COLOURS,
    NUM_GEARS,
    WEAR,
)
from transit_gym.envs.automobiles.determinize import determinize
from transit_gym.envs.automobiles.encode import OBS, action_name, observe
from transit_gym.envs.automobiles.invariants import MESSAGES, violation
from transit_gym.envs.automobiles.params import race_params
from transit_gym.envs.automobiles.racing_season import (
    driver_data as drv_data,  # Racing Season drivers
)
from transit_gym.envs.automobiles.racing_season.cards_delayed import (
    delayed_obs_high,  # Racing Season
)
from transit_gym.envs.automobiles.track_options import (  # Racing Season tracks
    check_track,
    resolve_track,
    weaving_flag,
)
from transit_gym.envs.core.embedded import UserFile
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.functional import *  # noqa: F403  (the functional API)
from transit_gym.envs.core.functional import make_new_game
from transit_gym.envs.core.game import Game, Kernels, State

KERNELS = Kernels.of(kernels, observe, violation=violation, determinize=determinize)


class AutomobilesGame(Game):
    """Automobiles (base game) for 2-5 players."""

    name = "automobiles"
    layout = st.LAYOUT
    kernels = KERNELS
    render_module = "transit_gym.envs.automobiles.render"
    potential_module = "transit_gym.envs.automobiles.potential"
    obs = OBS
    min_players = 2
    max_players = 5
    start_option = "start_player"
    violation_messages = MESSAGES
    random_options = ({"start_player": "random"}, {"track": "random"},
                      {"track": "random_expansion"}, {"track": "random_all"},
                      {"card_set": "random"},
                      {"card_set": "random", "card_pool": "all", "track": "random_all"},
                      {"card_set": "random", "card_pool": "all",
                       "exclude_sets": ["Rinse & Repeat", "Expert Invitational"],
                       "track": ["daytona", "talladega", "monte_carlo"], "drivers": "random"})

    def _build(self, laps: int | None = None, track: str | list[str] = "daytona",
               card_set: str | list[str] = "First Game", card_data: str | None = None,
               driver_data: str | None = None, track_data: str | None = None,
               card_pool: str = "base",
               open_bags: bool = False, accelerated_play: bool = False,
               start_player: int | str = "random", branch_from_car: bool = False,
               draft_behind_space: bool = True, grid_crossing_counts: bool = False,
               buy_wear: bool = True, max_rounds: int = 200,
               weaving: bool = False, track_seed: int | None = None,
               drivers: bool | str = False,
               exclude_sets: list[str | list[str]] | tuple = ()) -> None:
        data_options = (("card_data", card_data), ("driver_data", driver_data),
                        ("track_data", track_data))
        for key, value in (("track", track), *data_options):
            if isinstance(value, Path):
                self._options[key] = str(value)
        if isinstance(card_set, tuple):
            self._options["card_set"] = list(card_set)   # JSON-safe, equal after a round trip
        if isinstance(track, (list, tuple)):
            self._options["track"] = [str(name) for name in track]
        for key, value in data_options:
            if value is not None and not isinstance(value, (str, Path, UserFile)):
                raise ConfigError(f"{key} must be a path to a TOML file or None, "
                                  f"got {value!r}")
        names = resolve_track(track, track_seed)   # Racing Season: random boards
        for name in names:
            check_track(name)
        weave = weaving_flag(weaving)
        cards = auto_data.load_cards(self._data_file("card_data", card_data))
        board_patch = self._data_file("track_data", track_data)
        boards = [auto_data.load_track(self._data_file("track", name, auto_data.TRACKS),
                                       board_patch) for name in names]
        laps = opt.laps_option(laps, cards)
        for board_data in boards:
            opt.check_grid(board_data, self.num_players)
        first = opt.start_seat(start_player, self.num_players)
        self.cards = cards
        #: the boards, one per parameter row; ``track`` is the board when there is one
        #: (None when a board is drawn per reset: ``track_of(state)``)
        self.tracks = tuple(boards)
        self.track = boards[0] if len(boards) == 1 else None
        self.card_set = opt.resolve_set(card_set, cards)
        self.card_pool = opt.resolve_pool(card_pool, cards)
        self.laps = laps
        rounds = opt.int_option("max_rounds", max_rounds, 1, 100_000)
        flags = opt.rule_flags(open_bags, accelerated_play, branch_from_car,
                               draft_behind_space, buy_wear)
        modes = opt.drivers_modes(drivers)   # Racing Season drivers (both: drawn per reset)
        excluded = opt.resolve_exclusions(exclude_sets, self.card_set, self.card_pool, cards)
        if "exclude_sets" in self._options:   # checked: JSON-safe, equal after a round trip
            self._options["exclude_sets"] = [x if isinstance(x, str) else list(x)
                                             for x in exclude_sets]
        self.drivers = drv_data.load_drivers(self._data_file("driver_data", driver_data))
        #: the board of each parameter row (one row per board and driver mode)
        self.row_board = tuple(b for b in range(len(boards)) for _ in modes)
        self.param_table = np.stack([   # one parameter row per board and driver mode
            race_params(self.num_players, cards, board_data, laps, first, rounds, flags,
                        opt.grid_offset(grid_crossing_counts, board_data), self.card_set,
                        self.card_pool, weave, mode, self.drivers, excluded)
            for board_data in boards for mode in modes])
        self.num_actions = kernels.NUM_ACTIONS
        self.obs_size = OBS.size

    def with_card_set(self, card_set: list[str] | tuple[str, ...]) -> AutomobilesGame:
        """This game with the market ``card_set`` (five card names, one per colour): a copy
        sharing everything but its parameter rows and options, the same as building the
        game with that ``card_set`` and far cheaper (for searches over many markets)."""
        chosen = opt.resolve_set(list(card_set), self.cards)
        other = object.__new__(type(self))   # not copy.copy: a Game pickles (and copies)
        other.__dict__.update(self.__dict__)  # by rebuilding itself from its options
        other._options = {**self._options, "card_set": list(card_set)}
        other.card_set = chosen
        table = self.param_table.copy()
        for k, colour in enumerate(CARD_COLOURS):
            table[:, st.P_CARD_SET + colour] = self.cards.card_id(chosen[k])
        other.param_table = table
        return other

    def track_of(self, state: State | np.ndarray) -> auto_data.TrackData:
        """The board of ``state`` (a ``State`` or its vector): the game's board, or the
        one drawn at its reset when ``track`` is random."""
        if self.variant_slot < 0:
            return self.tracks[0]
        data = state.data if isinstance(state, State) else state
        return self.tracks[self.row_board[int(data[self.variant_slot])]]

    # ----- words and pictures ----------------------------------------------------------------
    def describe_action(self, state: State, action: int) -> str:
        action = int(action)
        t = self.track_of(state)
        if kernels.A_SPACE <= action < kernels.A_SPACE + t.num_spaces:
            sp = action - kernels.A_SPACE
            colours = "+".join(COLOURS[g] for g in GEARS if t.colours[sp] & (1 << g))
            return (f"move to track space {sp} (lane {int(t.lane[sp])}, positions "
                    f"{int(t.start[sp])}-{int(t.start[sp] + t.length[sp])}, {colours})")
        name = action_name(action, int(state.data[st.PHASE]))
        if kernels.A_ACTIVE <= action < kernels.A_SPACE:   # a cube: name the card it stands for
            colour = (action - kernels.A_ACTIVE) % NUM_COLOURS
            cube = f"{COLOURS[colour]} cube"
            name = name.replace(cube, cube + self.card_of_cube(state, colour), 1)
        return name

    def card_of_cube(self, state: State, colour: int) -> str:
        """`` (CARD)``: the name of the card the cubes of ``colour`` stand for in this game
        (empty for wear, whose colour is its name)."""
        if colour == WEAR:
            return ""
        return f" ({self.cards.names[int(state.data[st.CARD_OF + colour])]})"

    # ----- results ---------------------------------------------------------------------------
    def market(self, state: State) -> dict[str, str]:
        """Card in play per colour."""
        s = state.data
        return {COLOURS[c]: self.cards.names[int(s[st.CARD_OF + c])] for c in range(NUM_COLOURS)}

    def race_order(self, state: State) -> list[int]:
        """Seats from first to last place (farthest along; inner lane breaks ties)."""
        p = self.params_of(state)
        ranks = [int(board.rank(state.data, p, seat)) for seat in range(self.num_players)]
        return sorted(range(self.num_players), key=lambda seat: ranks[seat])

    def progress_past_line(self, state: State, seat: int) -> int:
        """Segments seat's car is past the line of its last lap (negative: not finished)."""
        lap = self.track_of(state).lap_length
        return int(state.data[st.CAR_ABS + seat]) - (self.laps - 1) * lap

    def scores(self, state: State) -> list[int]:
        """Rank per seat (1 = first)."""
        p = self.params_of(state)
        return [int(board.rank(state.data, p, seat)) for seat in range(self.num_players)]

    def final_info(self, state: State) -> list[dict[str, Any]]:
        s = state.data
        ranks = self.scores(state)
        info = []
        for seat in range(self.num_players):
            base = seat * NUM_COLOURS
            info.append({
                "rank": ranks[seat],
                "winner": ranks[seat] == 1,
                "past_line": self.progress_past_line(state, seat),
                "crossings": int(board.crossings(s, self.params_of(state), seat)),
                "rounds": int(s[st.ROUNDS]),
                "turns": int(s[st.STAT_TURNS + seat]),
                "wear_gained": int(s[st.STAT_WEAR + seat]),
                "pit_stops": int(s[st.STAT_PIT_STOPS + seat]),
                "bought": {COLOURS[c]: int(s[st.STAT_BOUGHT + base + c])
                           for c in range(NUM_COLOURS)},
                "activated": {COLOURS[c]: int(s[st.STAT_ACTIVATED + base + c])
                              for c in range(NUM_COLOURS)},
            })
        return info

    def game_summary(self, state: State) -> dict[str, Any]:
        """Rounds, lead changes (leader = race position 1 after each turn), ranks, winners."""
        s = state.data
        ranks = self.scores(state)
        return {
            "rounds": int(s[st.ROUNDS]),
            "lead_changes": int(s[st.LEAD_CHANGES]),
            "last_lead_change_round": int(s[st.LAST_LEAD_ROUND]),
            "ranks": ranks,
            "winners": [seat for seat in range(self.num_players) if ranks[seat] == 1],
            "market": self.market(state),
        }

    # ----- invariants ------------------------------------------------------------------------
    def cube_places(self, state: State) -> dict[str, np.ndarray]:
        """Every place a cube can be, as counts per colour."""
        s = state.data
        places = {"stock": s[st.STOCK:st.STOCK + NUM_COLOURS].copy(),
                  "on_track": s[st.ON_TRACK:st.ON_TRACK + NUM_COLOURS].copy(),
                  "drawn": s[st.DRAWN:st.DRAWN + NUM_COLOURS].copy(),
                  "driver_held": s[st.DRIVER_HELD:st.DRIVER_HELD + NUM_COLOURS].copy()}
        for seat in range(MAX_PLAYERS):
            for name, base in (("bag", st.BAG), ("active", st.ACTIVE), ("used", st.USED),
                               ("discard", st.DISCARD)):
                start = base + seat * NUM_COLOURS
                places[f"{name}_{seat}"] = s[start:start + NUM_COLOURS].copy()
        return places

    def obs_low_high(self) -> tuple[np.ndarray, np.ndarray]:
        """True per-slot bounds of ``encode.OBS`` for this configuration (over every
        board a reset may draw)."""
        from transit_gym.envs.automobiles import encode as e

        p = self.param_table.max(axis=0)   # the largest lap, allowance... of any board
        supply = self.cards.supply.astype(np.float32)
        cubes = float(supply.sum())
        rounds = float(p[st.P_MAX_ROUNDS])
        lap = float(p[st.P_LAP])
        laps = float(p[st.P_LAPS])
        n = float(self.num_players)
        low = np.zeros(OBS.size, dtype=np.float32)
        high = np.ones(OBS.size, dtype=np.float32)    # one-hots, flags, fractions of a lap
        money = max(float(np.max(p[st.P_ALLOWANCE:st.P_ALLOWANCE + MAX_PLAYERS])),
                    float((supply * max(1, int(self.cards.values.max()))).sum()),
                    float((supply * max(1, int(self.cards.costs.max()))).sum()))
        high[e.O_MONEY] = money
        high[e.O_MOVE:e.O_MOVE + 3] = st.MAX_PATH
        high[e.O_PICKS:e.O_PICKS + 3] = cubes
        high[e.O_DRAWN:e.O_DRAWN + NUM_COLOURS] = supply
        high[e.O_TURN + 2] = n
        high[e.O_TURN + 3] = NUM_GEARS
        high[e.O_COST:e.O_COST + NUM_COLOURS] = int(self.cards.costs.max())
        high[e.O_VALUE:e.O_VALUE + NUM_COLOURS] = int(self.cards.values.max())
        high[e.O_STOCK:e.O_STOCK + NUM_COLOURS] = supply
        for k in range(MAX_PLAYERS):
            b = e.O_PLAYERS + k * e.PLAYER_BLOCK
            high[b + e.PB_RANK] = n
            high[b + e.PB_CROSSINGS] = laps + 2
            high[b + e.PB_PAST_LINE] = 3.0
            high[b + e.PB_LANE] = auto_data.MAX_LANES - 1
            high[b + e.PB_SEGMENT] = auto_data.MAX_SEGMENTS - 1
            high[b + e.PB_BAG_SIZE] = cubes
            high[b + e.PB_PENDING] = cubes
            high[b + e.PB_WEAR] = rounds * supply[WEAR]   # at most the wear stock a turn
            high[b + e.PB_PITS] = rounds
            for base in (e.PB_ACTIVE, e.PB_USED, e.PB_DISCARD, e.PB_BAG):
                high[b + base:b + base + NUM_COLOURS] = supply
        for sp in range(auto_data.MAX_SPACES):
            b = e.O_SPACES + sp * e.SPACE_BLOCK
            high[b + e.SB_LANE] = auto_data.MAX_LANES - 1
            high[b + e.SB_SEGMENTS] = auto_data.MAX_SEGMENTS
            high[b + e.SB_CARS] = n
        g = e.O_GAME   # constants of the configuration: 0..their value (never low == high)
        high[g:g + 6] = (laps, lap, rounds, rounds, 1.0, n)
        delayed_obs_high(high, e.O_DELAYED, supply, int(self.cards.bonus.max()),
                         self.num_players)   # Racing Season delayed cards
        # Racing Season, cards that move: Fuel Injection multiplier, Redline wear per white
        high[e.O_MOVE_CARDS + 1] = auto_data.MAX_COUNT
        high[e.O_MOVE_CARDS + 3] = auto_data.MAX_COUNT
        high[e.O_DRIVER_TURN + 1] = supply[WEAR]      # Racing Season drivers
        high[e.O_DRIVER_HELD:e.O_DRIVER_HELD + NUM_COLOURS] = supply
        high[high <= low] = low[high <= low] + 1.0   # a slot that is always 0 here: 0..1
        return low, high

    def obs_one_hot_groups(self) -> list[slice]:
        """The pending decision (with ``waiting``), the resolving effect's colour, and the
        effect of each colour's card."""
        from transit_gym.envs.automobiles import encode as e

        groups = [slice(e.O_DECISION, e.O_WAITING + 1), OBS.slice("effect_colour")]
        for c in range(NUM_COLOURS):
            start = e.O_MARKET + c * auto_data.NUM_EFFECTS
            groups.append(slice(start, start + auto_data.NUM_EFFECTS))
        for k in range(MAX_PLAYERS):   # Racing Season drivers: each seat's driver
            start = e.O_DRIVERS + k * drv_data.NUM_DRIVERS
            groups.append(slice(start, start + drv_data.NUM_DRIVERS))
        return groups

    def check_invariants(self, state: State) -> None:
        s = state.data
        p = self.params_of(state)
        places = self.cube_places(state)
        for name, counts in places.items():
            assert (counts >= 0).all(), f"negative cube count in {name}: {counts.tolist()}"
        every = sum(places.values())
        assert np.array_equal(every, self.cards.supply), (
            f"cubes are not each in exactly one place: counted {every.tolist()}, "
            f"supply {self.cards.supply.tolist()}")
        phase = int(s[st.PHASE])
        assert 0 <= phase < st.NUM_PHASES, f"bad phase {phase}"
        n = self.num_players
        for seat in range(n, MAX_PLAYERS):
            for name in ("bag", "active", "used", "discard"):
                assert not places[f"{name}_{seat}"].any(), f"seat {seat} holds cubes ({name})"
        if phase != st.PH_OVER:
            assert 0 <= s[st.CURRENT] < n, "current seat out of range"
            assert 0 <= s[st.TURN_SEAT] < n, "turn seat out of range"
        turn = int(s[st.TURN_SEAT])
        for seat in range(n):
            if seat != turn:
                assert not places[f"used_{seat}"].any(), f"seat {seat} has a used pile off turn"
        placed = int(s[st.PLACED_N])
        assert 0 <= placed <= st.MAX_PLACED, "placed count out of range"
        assert int(places["on_track"].sum()) == placed, "cubes on the track != placements"
        colours = np.bincount(s[st.PLACED_COLOUR:st.PLACED_COLOUR + placed],
                              minlength=NUM_COLOURS)
        assert np.array_equal(colours, places["on_track"]), "track cubes differ from placements"
        if phase != st.PH_NITRO:
            assert not places["drawn"].any(), "drawn cubes outside a Nitro decision"
        self._check_drivers(state)   # Racing Season drivers
        track = self.track_of(state)
        lap = track.lap_length
        ends = p[st.P_SPACE_END:st.P_SPACE_END + st.MAX_SPACES]
        for seat in range(n):
            space, seg = int(s[st.CAR_SPACE + seat]), int(s[st.CAR_SEG + seat])
            assert 0 <= space < track.num_spaces, f"car {seat} off the track"
            assert 0 <= seg < track.length[space], f"car {seat} on a missing segment"
            assert (int(s[st.CAR_ABS + seat]) - (int(ends[space]) - seg)) % lap == 0, (
                f"car {seat}: position does not match its space and segment")
            ahead = [o for o in range(n) if o != seat and s[st.CAR_SPACE + o] == space
                     and s[st.CAR_SEG + o] < seg]
            assert len(ahead) == seg, f"car {seat} has empty segments ahead (momentum)"


    def _check_drivers(self, state: State) -> None:
        """Racing Season drivers: numbers in range, no driver twice, none for absent seats
        or with the module off, Driver 04's drawn cubes only while they are sorted."""
        s = state.data
        n = self.num_players
        held = s[st.DRIVER_OF:st.DRIVER_OF + MAX_PLAYERS]
        assert ((held >= 0) & (held <= drv_data.NUM_DRIVERS)).all(), f"bad driver {held}"
        assert not held[n:].any(), "a seat beyond the table has a driver"
        taken = [int(d) for d in held[:n] if d > 0]
        assert len(taken) == len(set(taken)), f"a driver is held twice: {taken}"
        if self.params_of(state)[st.P_DRIVERS] == 0:
            assert not taken, "drivers are off but a seat has one"
        pool = s[st.DRIVER_POOL:st.DRIVER_POOL + drv_data.NUM_DRIVERS]
        assert ((pool == 0) | (pool == 1)).all(), "driver pool flags must be 0 or 1"
        assert not any(pool[d - 1] for d in taken), "a taken driver is still in the pool"
        if int(s[st.PHASE]) != st.PH_DRIVER_SORT:
            assert not s[st.DRIVER_HELD:st.DRIVER_HELD + NUM_COLOURS].any(), \
                "Driver 04's drawn cubes outside their sorting"


# ----- DESIGN.md's functional rules API (shared; see envs.core.functional) ---
new_game = make_new_game(AutomobilesGame)
