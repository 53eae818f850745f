"""Layouts of the Racing Season campaign: the state is the race state (the race kernels
run on it unchanged, the race fields come first at the same offsets) followed by the
season fields; the parameter vector is a season header followed by one full race
parameter block per track of the season's pool (built by the race game for that track).

Seats: the race kernels number seats in turn order from the race's start player. From
race 2 on, turn order follows the previous race's finishing order, which need not be a
rotation of the players, so each race renumbers its seats: ``player_of[seat]`` is the
player (agent) at race seat ``seat``. Race 1 keeps seat = player.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import MAX_PLAYERS
from transit_gym.envs.automobiles.kernels import NUM_ACTIONS as NUM_RACE_ACTIONS
from transit_gym.envs.automobiles_season.data import MAX_RACES, MAX_SPONSORS, SP_COLUMNS
from transit_gym.envs.core.layout import Layout

MP = MAX_PLAYERS
MAX_POOL = MAX_RACES   # distinct tracks whose race parameters the season holds

# ----- season decisions (field ``season_phase``) ----------------------------------------------
SEASON_PHASES = (
    "race",         # a race runs: the race kernels decide
    "pick",         # take an available sponsor (or keep the current one, from race 2)
    "drop",         # kept the sponsor: remove one available sponsor from the game
    "standard",     # the standard removal: up to 3 / 6 / 12 cubes of any kind
    "extra",        # B, F: additional cubes of any kind
    "wear",         # C, E: wear cubes
    "gain",         # D: free cubes from the stock
    "spend",        # A, F: money for cubes of the stock
    "over",
)
(S_RACE, S_PICK, S_DROP, S_STANDARD, S_EXTRA, S_WEAR, S_GAIN, S_SPEND,
 S_OVER) = range(len(SEASON_PHASES))
NUM_SEASON_PHASES = len(SEASON_PHASES)

RACE_STATE_SIZE = st.STATE_SIZE

#: race fields kept from race to race ("Setting Up the Next Race": card set, stock; the
#: generator words s[0:4] always) and per-seat race fields that move with their player to
#: the new race seat (bags: every cube is in the bag between races; drivers: drafted once,
#: in race 1, and kept for the whole season). The draft pool is not carried: later races
#: start with it empty and never run the draft.
CARRIED_FIELDS = ("stock", "card_of", "cost", "value")
CARRIED_PER_SEAT_FIELDS = ("bag", "driver_of")
CARRIED = np.array([(st.LAYOUT.offset(f), st.LAYOUT.length(f)) for f in CARRIED_FIELDS],
                   dtype=np.int64)
CARRIED_PER_SEAT = np.array([(st.LAYOUT.offset(f), st.LAYOUT.length(f) // MAX_PLAYERS)
                             for f in CARRIED_PER_SEAT_FIELDS], dtype=np.int64)
RACE_PARAMS_SIZE = st.PARAMS.size

LAYOUT = Layout(
    [*((name, st.LAYOUT.length(name)) for name in st.LAYOUT.names()),
     # ----- the season (Racing Season campaign) -----
     ("race_no", 1),               # current race, 0-based
     ("season_phase", 1),
     ("track_order", MAX_RACES),   # pool index of each race's track (drawn or given)
     ("player_of", MP),            # race seat -> player
     ("points", MP),               # season points per player
     ("places", MAX_RACES * MP),   # place (1 = first) of each player in each race, 0 = not run
     ("finish", MP),               # players in finishing order of the last race
     ("award_k", 1),               # index in ``finish`` of the player being awarded
     ("deck", MAX_SPONSORS),       # sponsor ids in deck order
     ("deck_top", 1),              # sponsors revealed so far
     ("market", MP),               # available sponsor ids, -1 = empty slot
     ("owned", MP),                # sponsor of each player, -1 = none
     ("eff_place", 1),             # 0 first, 1 middle, 2 last: the effect being applied
     ("eff_left", 1),              # cubes still removable / gainable in this step
     ("eff_nonwear", 1),           # non-wear cubes removed by the standard removal
     ("eff_extra", 1),             # additional cubes removed (F: $ per cube)
     ("eff_money", 1),             # $ left to spend
     ("sp_log", MAX_RACES * MP * 4),   # per race and player: sponsor + 1, removed, gained, kept
    ("news", 1),                  # what the last step finished: NEWS_* bits (for infos)
    ]
)
STATE_SIZE = LAYOUT.size
RACE_NO, SEASON_PHASE, TRACK_ORDER, PLAYER_OF = LAYOUT.offsets(
    "race_no season_phase track_order player_of")
POINTS, PLACES, FINISH, AWARD_K = LAYOUT.offsets("points places finish award_k")
DECK, DECK_TOP, MARKET, OWNED = LAYOUT.offsets("deck deck_top market owned")
EFF_PLACE, EFF_LEFT, EFF_NONWEAR, EFF_EXTRA, EFF_MONEY = LAYOUT.offsets(
    "eff_place eff_left eff_nonwear eff_extra eff_money")
SP_LOG, NEWS = LAYOUT.offsets("sp_log news")
#: ``news`` bits: the last step ended a race / finished the sponsor awards after one
NEWS_RACE, NEWS_AWARDS = 1, 2
LOG_SPONSOR, LOG_REMOVED, LOG_GAINED, LOG_KEPT = range(4)

PARAMS = Layout(
    [
        ("num_players", 1),
        ("num_races", 1),
        ("pool_size", 1),           # race parameter blocks that follow the header
        ("random_order", 1),        # 1: track_order drawn from the seed, else fixed_order
        ("fixed_order", MAX_RACES),
        ("sponsors", 1),            # the sponsors module is on
        ("num_sponsors", 1),
        ("standard", 3),            # standard removal per place
        ("points_first", MAX_RACES),
        ("points_middle", MAX_RACES),
        ("points_last", MAX_RACES),
        ("sponsor_table", MAX_SPONSORS * 3 * SP_COLUMNS),
    ]
)
HEADER_SIZE = PARAMS.size
Q_NUM_PLAYERS, Q_NUM_RACES, Q_POOL, Q_RANDOM = PARAMS.offsets(
    "num_players num_races pool_size random_order")
Q_FIXED, Q_SPONSORS, Q_NUM_SPONSORS, Q_STANDARD = PARAMS.offsets(
    "fixed_order sponsors num_sponsors standard")
Q_FIRST, Q_MIDDLE, Q_LAST, Q_TABLE = PARAMS.offsets(
    "points_first points_middle points_last sponsor_table")


def race_block(pool_index: int) -> int:
    """Offset of pool track ``pool_index``'s race parameters in the season's vector."""
    return HEADER_SIZE + pool_index * RACE_PARAMS_SIZE


# ----- actions: the race's, then the season's own ----------------------------------------------
# Cube choices of the sponsor effects reuse the race's kinds: A_STOP (stop / use no more),
# A_DISCARD + colour (remove one of your cubes of that colour, all of them being in the bag
# between races), A_STOCK + colour (gain or buy one cube of the stock).
A_SPONSOR = NUM_RACE_ACTIONS                 # + sponsor id: take that available sponsor
A_KEEP = A_SPONSOR + MAX_SPONSORS            # keep your current sponsor
A_DROP = A_KEEP + 1                          # + sponsor id: remove that available sponsor
NUM_ACTIONS = A_DROP + MAX_SPONSORS


@nb.njit(cache=True)
def race_params(s, p):
    """The race parameter block of the current race's track."""
    start = HEADER_SIZE + s[TRACK_ORDER + s[RACE_NO]] * RACE_PARAMS_SIZE
    return p[start:start + RACE_PARAMS_SIZE]


@nb.njit(cache=True)
def seat_of(s, p, player):
    """Race seat of ``player`` in the current race."""
    for seat in range(p[Q_NUM_PLAYERS]):
        if s[PLAYER_OF + seat] == player:
            return seat
    return 0


@nb.njit(cache=True)
def sponsor_value(p, sponsor, place, column):
    """Column ``column`` (``SP_*``) of ``sponsor``'s effect for ``place`` (0-2)."""
    return p[Q_TABLE + (sponsor * 3 + place) * SP_COLUMNS + column]
