"""Jitted kernels of the Racing Season campaign (R-YUC "In a season campaign...",
"Awarding Sponsors", "Awarding Points", "Setting Up the Next Race", "Winning the Season
Campaign"; DATA 5.2).

The race kernels run unchanged on the race part of the state with the current race's
parameter block. When a race ends: places and points are recorded, every cube goes back
into its owner's bag, sponsors are awarded (not after the last race: they only prepare
the next one), then the next race is set up from what carried over (card set, stock,
bags, sponsors): no allowance, turn order = finishing order of the race before.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles import kernels as race
from transit_gym.envs.automobiles.board import leader, rank
from transit_gym.envs.automobiles.cubes import draw_to_active, move_pile, pile
from transit_gym.envs.automobiles.encode import OBS_SIZE as RACE_OBS_SIZE
from transit_gym.envs.automobiles.encode import observe as race_observe
from transit_gym.envs.automobiles.racing_season.sponsors import (
    apply_award,
    award_mask,
    awardee,
    begin_awards,
    place_kind,
    reveal,
    settle_awards,
)
from transit_gym.envs.automobiles.state import (
    ACT_COLOUR,
    ACTIVE,
    BAG,
    CAR_ABS,
    CAR_SEG,
    CAR_SPACE,
    DISCARD,
    FAR,
    LEADER,
    MV_SPACE,
    P_GRID,
    P_GRID_OFFSET,
    P_HAND,
    P_LAP,
    P_SPACE_END,
    PH_OVER,
    PHASE,
    START_PLAYER,
    TOP_COLOUR,
    USED,
)
from transit_gym.envs.automobiles_season.data import MAX_SPONSORS
from transit_gym.envs.automobiles_season.state import (
    CARRIED,
    CARRIED_PER_SEAT,
    DECK,
    DECK_TOP,
    EFF_EXTRA,
    EFF_LEFT,
    EFF_MONEY,
    EFF_NONWEAR,
    EFF_PLACE,
    FINISH,
    MARKET,
    MP,
    NEWS,
    NEWS_AWARDS,
    NEWS_RACE,
    NUM_SEASON_PHASES,
    OWNED,
    PLACES,
    PLAYER_OF,
    POINTS,
    Q_FIRST,
    Q_FIXED,
    Q_LAST,
    Q_MIDDLE,
    Q_NUM_PLAYERS,
    Q_NUM_RACES,
    Q_NUM_SPONSORS,
    Q_POOL,
    Q_RANDOM,
    Q_SPONSORS,
    RACE_NO,
    RACE_STATE_SIZE,
    S_OVER,
    S_RACE,
    SEASON_PHASE,
    TRACK_ORDER,
    race_params,
    seat_of,
)
from transit_gym.envs.core.draw import shuffle_prefix
from transit_gym.envs.core.rng import below, next32
from transit_gym.envs.core.scoring import win_share_rewards

# ----- the season's observation block (after the race observation) -----------------------------
SO_DECISION = RACE_OBS_SIZE                  # season phase one-hot, when this player decides
SO_SEASON = SO_DECISION + NUM_SEASON_PHASES  # race number, races, sponsors on, sponsors in deck
SO_POINTS = SO_SEASON + 4                    # points per player, from this player on
SO_LAST = SO_POINTS + MP                     # place in the last finished race, same order
SO_OWNED = SO_LAST + MP                      # each player's sponsor (one-hot), same order
SO_MARKET = SO_OWNED + MP * MAX_SPONSORS     # available sponsors
SO_EFFECT = SO_MARKET + MAX_SPONSORS         # place one-hot (3), left, non-wear, extra, money
OBS_SIZE = SO_EFFECT + 7


# ----- setup ----------------------------------------------------------------------------------
@nb.njit(cache=True)
def _track_order(s, p):
    """Fixed order, or drawn from the pool like track cards: shuffled, reshuffled when
    every track has been used (so a track repeats only after all others have run)."""
    races = p[Q_NUM_RACES]
    if p[Q_RANDOM] == 0:
        for r in range(races):
            s[TRACK_ORDER + r] = p[Q_FIXED + r]
        return
    pool = p[Q_POOL]
    cards = np.arange(pool)
    for r in range(races):
        k = r % pool
        if k == 0:
            shuffle_prefix(s[0:4], cards, pool)
        s[TRACK_ORDER + r] = cards[k]


@nb.njit(cache=True)
def init(s, p):
    """Season setup: sponsor deck and its first reveal, the tracks, then race 1's setup
    (with its allowance and start player)."""
    n = p[Q_NUM_PLAYERS]
    for i in range(MAX_SPONSORS):
        s[DECK + i] = i
    for seat in range(MP):
        s[MARKET + seat] = -1
        s[OWNED + seat] = -1
        s[PLAYER_OF + seat] = seat if seat < n else 0
        s[FINISH + seat] = seat if seat < n else 0
    if p[Q_SPONSORS] != 0:
        shuffle_prefix(s[0:4], s[DECK:DECK + p[Q_NUM_SPONSORS]], p[Q_NUM_SPONSORS])
    _track_order(s, p)
    s[RACE_NO] = 0
    s[SEASON_PHASE] = S_RACE
    if p[Q_SPONSORS] != 0:
        reveal(s, p)
    race.init(s, race_params(s, p))


@nb.njit(cache=True)
def _points(p, race_no, kind):
    if kind == 0:
        return p[Q_FIRST + race_no]
    if kind == 1:
        return p[Q_MIDDLE + race_no]
    return p[Q_LAST + race_no]


@nb.njit(cache=True)
def _after_race(s, p):
    """Places and points, every cube back into the bag, then awards / next race / end."""
    pr = race_params(s, p)
    n = p[Q_NUM_PLAYERS]
    r = s[RACE_NO]
    s[NEWS] = NEWS_RACE
    for seat in range(n):
        place = rank(s, pr, seat)
        player = s[PLAYER_OF + seat]
        s[PLACES + r * MP + player] = place
        s[FINISH + place - 1] = player
        s[POINTS + player] += _points(p, r, place_kind(place - 1, n))
        for base in (ACTIVE, USED, DISCARD):
            move_pile(s, pile(seat, base), pile(seat, BAG))
    if r == p[Q_NUM_RACES] - 1:
        s[SEASON_PHASE] = S_OVER
        return
    if p[Q_SPONSORS] != 0:
        begin_awards(s, p)
        if not settle_awards(s, p):
            return
        s[NEWS] |= NEWS_AWARDS
    next_race(s, p)


@nb.njit(cache=True)
def next_race(s, p):
    """Setting Up the Next Race: same card set, stock and bags (everything in the bag),
    sponsors kept; cars on the grid in the new turn order (first place of the last race
    starts); no allowance; hands drawn; new sponsors revealed."""
    n = p[Q_NUM_PLAYERS]
    kept = s[:RACE_STATE_SIZE].copy()
    s[4:RACE_STATE_SIZE] = 0
    for i in range(CARRIED.shape[0]):
        start = CARRIED[i, 0]
        s[start:start + CARRIED[i, 1]] = kept[start:start + CARRIED[i, 1]]
    s[RACE_NO] += 1
    for seat in range(n):          # per-seat fields follow their player to the new seat
        old = 0
        while s[PLAYER_OF + old] != s[FINISH + seat]:
            old += 1
        for i in range(CARRIED_PER_SEAT.shape[0]):
            start, width = CARRIED_PER_SEAT[i, 0], CARRIED_PER_SEAT[i, 1]
            s[start + seat * width:start + (seat + 1) * width] = \
                kept[start + old * width:start + (old + 1) * width]
    for seat in range(n):
        s[PLAYER_OF + seat] = s[FINISH + seat]
    pr = race_params(s, p)
    lap = pr[P_LAP]
    s[START_PLAYER] = 0
    for seat in range(n):
        space = pr[P_GRID + seat]
        s[CAR_SPACE + seat] = space
        s[CAR_SEG + seat] = 0
        s[CAR_ABS + seat] = pr[P_SPACE_END + space] - lap - pr[P_GRID_OFFSET]
    s[LEADER] = leader(s, pr)
    s[TOP_COLOUR] = -1
    s[FAR] = -1
    s[MV_SPACE] = -1
    s[ACT_COLOUR] = -1
    for seat in range(n):
        draw_to_active(s, seat, pr[P_HAND])
    s[SEASON_PHASE] = S_RACE
    if p[Q_SPONSORS] != 0:
        reveal(s, p)
    race.start_turn(s, pr, 0)
    race.settle(s, pr)


# ----- the kernel contract ------------------------------------------------------------------
@nb.njit(cache=True)
def current_player(s, p):
    phase = s[SEASON_PHASE]
    if phase == S_OVER:
        return -1
    if phase == S_RACE:
        seat = race.current_player(s, race_params(s, p))
        return -1 if seat < 0 else s[PLAYER_OF + seat]
    return awardee(s)


@nb.njit(cache=True)
def legal_mask(s, p, mask):
    phase = s[SEASON_PHASE]
    if phase == S_OVER:
        return
    if phase == S_RACE:
        race.legal_mask(s, race_params(s, p), mask[:race.NUM_ACTIONS])
    else:
        award_mask(s, p, mask)


@nb.njit(cache=True)
def apply(s, p, action):
    s[NEWS] = 0
    if s[SEASON_PHASE] == S_RACE:
        race.apply(s, race_params(s, p), action)
        if s[PHASE] == PH_OVER:
            _after_race(s, p)
        return
    apply_award(s, p, action)
    if settle_awards(s, p):
        s[NEWS] = NEWS_AWARDS
        next_race(s, p)


@nb.njit(cache=True)
def season_winner(s, p):
    """Most points; a tie goes to the tied player with the better place in the last race."""
    n = p[Q_NUM_PLAYERS]
    last = p[Q_NUM_RACES] - 1
    best = 0
    for player in range(1, n):
        a, b = s[POINTS + player], s[POINTS + best]
        if a > b or (a == b and s[PLACES + last * MP + player]
                     < s[PLACES + last * MP + best]):
            best = player
    return best


@nb.njit(cache=True)
def rewards(s, p, out):
    """The season's winner +1, the others share -1 (zero-sum)."""
    n = p[Q_NUM_PLAYERS]
    out[:] = 0.0
    if s[SEASON_PHASE] != S_OVER:
        return
    won = np.zeros(n, dtype=np.int64)
    won[season_winner(s, p)] = 1
    win_share_rewards(won, n, out)


@nb.njit(cache=True)
def observe(s, p, player, out):
    """The race observation of the player's race seat, then the season block."""
    n = p[Q_NUM_PLAYERS]
    race_observe(s, race_params(s, p), seat_of(s, p, player), out[:RACE_OBS_SIZE])
    phase = s[SEASON_PHASE]
    if phase != S_OVER and current_player(s, p) == player:
        out[SO_DECISION + phase] = 1.0
    out[SO_SEASON] = s[RACE_NO] + 1
    out[SO_SEASON + 1] = p[Q_NUM_RACES]
    out[SO_SEASON + 2] = p[Q_SPONSORS]
    out[SO_SEASON + 3] = p[Q_NUM_SPONSORS] - s[DECK_TOP] if p[Q_SPONSORS] != 0 else 0
    done = s[RACE_NO] if phase == S_RACE else s[RACE_NO] + 1
    for k in range(n):
        other = (player + k) % n
        out[SO_POINTS + k] = s[POINTS + other]
        if done > 0:
            out[SO_LAST + k] = s[PLACES + (done - 1) * MP + other]
        if s[OWNED + other] >= 0:
            out[SO_OWNED + k * MAX_SPONSORS + s[OWNED + other]] = 1.0
    for slot in range(n):
        if s[MARKET + slot] >= 0:
            out[SO_MARKET + s[MARKET + slot]] = 1.0
    if phase != S_RACE and phase != S_OVER:
        out[SO_EFFECT + s[EFF_PLACE]] = 1.0
        out[SO_EFFECT + 3] = s[EFF_LEFT]
        out[SO_EFFECT + 4] = s[EFF_NONWEAR]
        out[SO_EFFECT + 5] = s[EFF_EXTRA]
        out[SO_EFFECT + 6] = s[EFF_MONEY]


@nb.njit(cache=True)
def determinize(s, p, seat, rng):
    """Hidden from everyone: future draws (the generator) and the order of the sponsors
    still in the deck; both are re-sampled from ``rng``."""
    for i in range(4):
        s[i] = next32(rng)
    if s[0] == 0 and s[1] == 0 and s[2] == 0 and s[3] == 0:
        s[0] = 1
    left = p[Q_NUM_SPONSORS] - s[DECK_TOP]
    top = s[DECK_TOP]
    deck = np.sort(s[DECK + top:DECK + top + left])   # forget the order first
    s[DECK + top:DECK + top + left] = deck
    for i in range(left - 1, 0, -1):
        j = below(rng, i + 1)
        a = s[DECK + top + i]
        s[DECK + top + i] = s[DECK + top + j]
        s[DECK + top + j] = a

