"""Jitted sponsor awards of the Racing Season (R-YUC "Awarding Sponsors", "Sponsor
Clarifications", Sponsors appendix A1-F3).

After a race, in finishing order, each player takes an available sponsor (from race 2:
or keeps theirs and then removes one available sponsor from the game) and applies the
effect for their place (first / middle / last; with 2 players second is middle). Every
effect is the same chain of optional steps, each sponsor's numbers coming from the
sponsor table (``automobiles_season/data``): the standard removal (3 / 6 / 12 cubes of any kind),
additional removals (B, F), wear removals (C; E: up to 4 per non-wear cube of the
standard removal), free cubes (D), money for cubes of the stock (A; F: $2 per additional
cube). All of a player's cubes are in the bag between races ("a player may empty their
bag onto their player sheets first"), so removals take cubes from the bag to the stock.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobiles.cubes import affordable, mask_cubes, pile, total
from transit_gym.envs.automobiles.data import NUM_COLOURS, WEAR
from transit_gym.envs.automobiles.kernels import A_DISCARD, A_STOCK, A_STOP, MAX_FORCED_STEPS
from transit_gym.envs.automobiles.state import BAG, COST, STOCK
from transit_gym.envs.automobiles_season.data import (
    SP_EXTRA,
    SP_GAIN,
    SP_GAIN_MASK,
    SP_MONEY,
    SP_PER_EXTRA,
    SP_PER_NONWEAR,
    SP_WEAR,
)
from transit_gym.envs.automobiles_season.state import (
    A_DROP,
    A_KEEP,
    A_SPONSOR,
    AWARD_K,
    DECK,
    DECK_TOP,
    EFF_EXTRA,
    EFF_LEFT,
    EFF_MONEY,
    EFF_NONWEAR,
    EFF_PLACE,
    FINISH,
    LOG_GAINED,
    LOG_KEPT,
    LOG_REMOVED,
    LOG_SPONSOR,
    MARKET,
    MP,
    OWNED,
    Q_NUM_PLAYERS,
    Q_NUM_SPONSORS,
    Q_STANDARD,
    RACE_NO,
    S_DROP,
    S_EXTRA,
    S_GAIN,
    S_PICK,
    S_SPEND,
    S_STANDARD,
    S_WEAR,
    SEASON_PHASE,
    SP_LOG,
    race_params,
    seat_of,
    sponsor_value,
)
from transit_gym.envs.core.errors import StateDictError, forced_steps_message
from transit_gym.envs.core.validate import bump


@nb.njit(cache=True)
def place_kind(k, n):
    """Effect/points column of finishing position ``k`` (0-based) among ``n`` players:
    0 first, 2 last, 1 middle (every place between; second of two is middle)."""
    if k == 0:
        return 0
    if k == n - 1 and n > 2:
        return 2
    return 1


@nb.njit(cache=True)
def reveal(s, p):
    """Reveal as many sponsors as there are players (fewer when the deck runs out)."""
    for slot in range(p[Q_NUM_PLAYERS]):
        if s[DECK_TOP] < p[Q_NUM_SPONSORS]:
            s[MARKET + slot] = s[DECK + s[DECK_TOP]]
            s[DECK_TOP] += 1
        else:
            s[MARKET + slot] = -1


@nb.njit(cache=True)
def awardee(s):
    """The player being awarded now."""
    return s[FINISH + s[AWARD_K]]


@nb.njit(cache=True)
def _log(s, player, column):
    return SP_LOG + (s[RACE_NO] * MP + player) * 4 + column


@nb.njit(cache=True)
def _market_count(s, p):
    n = 0
    for slot in range(p[Q_NUM_PLAYERS]):
        if s[MARKET + slot] >= 0:
            n += 1
    return n


@nb.njit(cache=True)
def _take_from_market(s, p, sponsor):
    for slot in range(p[Q_NUM_PLAYERS]):
        if s[MARKET + slot] == sponsor:
            s[MARKET + slot] = -1


@nb.njit(cache=True)
def _only_market(s, p):
    for slot in range(p[Q_NUM_PLAYERS]):
        if s[MARKET + slot] >= 0:
            return s[MARKET + slot]
    return -1


@nb.njit(cache=True)
def begin_awards(s, p):
    """Start the awards of the race just finished (``finish`` holds the order)."""
    s[AWARD_K] = 0
    _begin_award(s, p)


@nb.njit(cache=True)
def _begin_award(s, p):
    s[EFF_PLACE] = place_kind(s[AWARD_K], p[Q_NUM_PLAYERS])
    s[EFF_LEFT] = 0
    s[EFF_NONWEAR] = 0
    s[EFF_EXTRA] = 0
    s[EFF_MONEY] = 0
    s[SEASON_PHASE] = S_PICK


@nb.njit(cache=True)
def _next_award(s, p):
    s[AWARD_K] += 1
    if s[AWARD_K] < p[Q_NUM_PLAYERS]:
        _begin_award(s, p)


@nb.njit(cache=True)
def _start_effect(s, p):
    """The chosen (or kept) sponsor's effect for the player's place: standard removal."""
    player = awardee(s)
    s[_log(s, player, LOG_SPONSOR)] = s[OWNED + player] + 1
    s[SEASON_PHASE] = S_STANDARD
    s[EFF_LEFT] = p[Q_STANDARD + s[EFF_PLACE]]


@nb.njit(cache=True)
def _value(s, p, column):
    return sponsor_value(p, s[OWNED + awardee(s)], s[EFF_PLACE], column)


@nb.njit(cache=True)
def _next_step(s, p):
    """The step after the current one (each starts with its allowance)."""
    phase = s[SEASON_PHASE]
    if phase == S_STANDARD:
        s[SEASON_PHASE] = S_EXTRA
        s[EFF_LEFT] = _value(s, p, SP_EXTRA)
    elif phase == S_EXTRA:
        s[SEASON_PHASE] = S_WEAR
        s[EFF_LEFT] = _value(s, p, SP_WEAR) + _value(s, p, SP_PER_NONWEAR) * s[EFF_NONWEAR]
    elif phase == S_WEAR:
        s[SEASON_PHASE] = S_GAIN
        s[EFF_LEFT] = _value(s, p, SP_GAIN)
    elif phase == S_GAIN:
        s[SEASON_PHASE] = S_SPEND
        s[EFF_LEFT] = 0
        s[EFF_MONEY] = _value(s, p, SP_MONEY) + _value(s, p, SP_PER_EXTRA) * s[EFF_EXTRA]
    else:
        s[EFF_MONEY] = 0
        _next_award(s, p)


@nb.njit(cache=True)
def _gainable(s, p, colour):
    return (s[EFF_LEFT] > 0 and s[STOCK + colour] > 0
            and (_value(s, p, SP_GAIN_MASK) >> colour) & 1 == 1)


@nb.njit(cache=True)
def _spendable(s, pr, colour, money):
    """Sponsor money buys new cubes: any affordable colour but wear (which costs $0)."""
    return colour != WEAR and affordable(s, pr, colour, money)


_FORCED_STEPS = forced_steps_message(
    "automobiles_season", f"the awards took {MAX_FORCED_STEPS} forced steps",
    "season_phase, award_k, market and owned")


@nb.njit(cache=True)
def settle_awards(s, p):
    """Take the forced steps; True when every player has been awarded. More than
    ``MAX_FORCED_STEPS`` of them (legal awards take at most seven a player) raise
    ``StateDictError``."""
    n = p[Q_NUM_PLAYERS]
    for _ in range(MAX_FORCED_STEPS):
        if s[AWARD_K] >= n:
            return True
        phase = s[SEASON_PHASE]
        player = awardee(s)
        bag = pile(seat_of(s, p, player), BAG)
        if phase == S_PICK:
            count = _market_count(s, p)
            if count > 1 or (count == 1 and s[OWNED + player] >= 0):
                return False
            if count == 1:      # the last one takes the remaining sponsor
                sponsor = _only_market(s, p)
                _take_from_market(s, p, sponsor)
                s[OWNED + player] = sponsor
                _start_effect(s, p)
            elif s[OWNED + player] >= 0:   # nothing to take: the current one stays
                s[_log(s, player, LOG_KEPT)] = 1
                _start_effect(s, p)
            else:
                _next_award(s, p)
        elif phase == S_DROP:
            count = _market_count(s, p)
            if count > 1:
                return False
            if count == 1:
                _take_from_market(s, p, _only_market(s, p))
            _start_effect(s, p)
        elif phase in (S_STANDARD, S_EXTRA):
            if s[EFF_LEFT] > 0 and total(s, bag) > 0:
                return False
            _next_step(s, p)
        elif phase == S_WEAR:
            if s[EFF_LEFT] > 0 and s[bag + WEAR] > 0:
                return False
            _next_step(s, p)
        elif phase == S_GAIN:
            for c in range(NUM_COLOURS):
                if _gainable(s, p, c):
                    return False
            _next_step(s, p)
        elif phase == S_SPEND:
            pr = race_params(s, p)
            for c in range(NUM_COLOURS):
                if _spendable(s, pr, c, s[EFF_MONEY]):
                    return False
            _next_step(s, p)
        else:
            return False
    raise StateDictError(_FORCED_STEPS)


@nb.njit(cache=True)
def award_mask(s, p, mask):
    """Legal answers of the pending sponsor decision."""
    phase = s[SEASON_PHASE]
    player = awardee(s)
    bag = pile(seat_of(s, p, player), BAG)
    if phase == S_PICK:
        for slot in range(p[Q_NUM_PLAYERS]):
            if s[MARKET + slot] >= 0:
                mask[A_SPONSOR + s[MARKET + slot]] = 1
        if s[OWNED + player] >= 0:
            mask[A_KEEP] = 1
    elif phase == S_DROP:
        for slot in range(p[Q_NUM_PLAYERS]):
            if s[MARKET + slot] >= 0:
                mask[A_DROP + s[MARKET + slot]] = 1
    elif phase in (S_STANDARD, S_EXTRA):
        mask[A_STOP] = 1
        mask_cubes(s, bag, mask, A_DISCARD)
    elif phase == S_WEAR:
        mask[A_STOP] = 1
        if s[EFF_LEFT] > 0 and s[bag + WEAR] > 0:
            mask[A_DISCARD + WEAR] = 1
    elif phase == S_GAIN:
        mask[A_STOP] = 1
        for c in range(NUM_COLOURS):
            if _gainable(s, p, c):
                mask[A_STOCK + c] = 1
    elif phase == S_SPEND:
        mask[A_STOP] = 1
        pr = race_params(s, p)
        for c in range(NUM_COLOURS):
            if _spendable(s, pr, c, s[EFF_MONEY]):
                mask[A_STOCK + c] = 1


@nb.njit(cache=True)
def apply_award(s, p, action):
    """Resolve a legal sponsor decision (forced steps are left to ``settle_awards``)."""
    phase = s[SEASON_PHASE]
    player = awardee(s)
    bag = pile(seat_of(s, p, player), BAG)
    if phase == S_PICK:
        if action == A_KEEP:
            s[_log(s, player, LOG_KEPT)] = 1
            s[SEASON_PHASE] = S_DROP
        else:   # a new sponsor; the current one (if any) leaves the game
            sponsor = action - A_SPONSOR
            _take_from_market(s, p, sponsor)
            s[OWNED + player] = sponsor
            _start_effect(s, p)
    elif phase == S_DROP:
        _take_from_market(s, p, action - A_DROP)
        _start_effect(s, p)
    elif action == A_STOP:
        _next_step(s, p)
    elif phase in (S_STANDARD, S_EXTRA, S_WEAR):
        colour = action - A_DISCARD
        s[bag + colour] -= 1
        s[STOCK + colour] += 1
        s[EFF_LEFT] -= 1
        bump(s, _log(s, player, LOG_REMOVED), 1)
        if phase == S_STANDARD and colour != WEAR:
            bump(s, EFF_NONWEAR, 1)
        if phase == S_EXTRA:
            bump(s, EFF_EXTRA, 1)
    elif phase in (S_GAIN, S_SPEND):
        colour = action - A_STOCK
        s[STOCK + colour] -= 1
        s[bag + colour] += 1
        bump(s, _log(s, player, LOG_GAINED), 1)
        if phase == S_GAIN:
            s[EFF_LEFT] -= 1
        else:
            s[EFF_MONEY] -= s[COST + colour]
