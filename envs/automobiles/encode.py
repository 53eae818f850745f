"""What one seat sees of Automobiles, and actions in words.

Public: the board, every car, the market (card, cost, value of each colour), the stock,
and every player's active, used and discard piles and bag size (player sheets lie open
on the table). Hidden: the order of every bag, and the contents of the other players'
bags, unless ``open_bags`` is on (the online rules' deviation). A seat always sees its
own bag's contents (it knows what it put in; it never learns the order). Every other
seat is listed from the observer's left (clockwise). All features are >= 0.

Racing Season drivers: every seat's driver is public (one-hot per seat, same order as the
player blocks), as are the drivers revealed in the draft, the on-turn seat's driver state
(ability used this turn, Decline wear) and Driver 04's drawn cubes.
"""

from __future__ import annotations

import numba as nb

from transit_gym.envs.automobiles.board import crossings, rank
from transit_gym.envs.automobiles.cubes import card_effect, pile, total
from transit_gym.envs.automobiles.data import (
    COLOURS,
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_SPACES,
    NUM_COLOURS,
    NUM_EFFECTS,
    NUM_GEARS,
    WEAR,
)
from transit_gym.envs.automobiles.kernels import (
    A_ACTIVE,
    A_ALL_WEAR,
    A_DISCARD,
    A_DRAW,
    A_DRIVER,
    A_PIT_STOP,
    A_SPACE,
    A_STOCK,
    A_STOP,
    A_USE_DRIVER,
    NUM_ACTIONS,
)
from transit_gym.envs.automobiles.racing_season.cards_delayed import (
    observe_delayed,  # Racing Season
)
from transit_gym.envs.automobiles.racing_season.cards_piles import (  # Racing Season pile cards
    STOP_NAMES as PILE_STOP_NAMES,
)
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.automobiles.state import (
    ACT_COLOUR,
    ACTIVE,
    AERO,
    BAG,
    CAR_ABS,
    CAR_SEG,
    CAR_SPACE,
    CARD_OF,
    COST,
    CURRENT,
    DISCARD,
    DRAWN,
    DRIVER_HELD,
    DRIVER_OF,
    DRIVER_POOL,
    DRIVER_USED,
    DRIVER_WEAR,
    END_TRIGGERED,
    FUEL,
    MONEY,
    MV_LEFT,
    MV_MASK,
    MV_MIN,
    MV_MIXED,
    MV_REDLINE,
    MV_SPACE,
    MV_STEPS,
    NUM_PHASES,
    ON_TRACK,
    P_ALLOWANCE,
    P_CARD_COST,
    P_CARD_VALUE,
    P_LAP,
    P_LAPS,
    P_MAX_ROUNDS,
    P_NUM_CARDS,
    P_NUM_PLAYERS,
    P_NUM_SPACES,
    P_OPEN_BAGS,
    P_SPACE_COLOURS,
    P_SPACE_END,
    P_SPACE_LANE,
    P_SPACE_LEN,
    P_SUPPLY,
    PENDING_BOOST,
    PH_OVER,
    PH_PIT_TEAM,
    PH_PIT_TEAM_BUY,
    PHASE,
    PHASE_NAMES,
    PK_COUNT,
    PK_LEFT,
    PK_MUST,
    PK_TOTAL,
    PLACED_N,
    PLACED_SPACE,
    REDLINE,
    ROUNDS,
    START_RANK,
    STAT_PIT_STOPS,
    STAT_WEAR,
    STD_TURN,
    STOCK,
    TOP_COLOUR,
    TURN_SEAT,
    USED,
    VALUE,
)
from transit_gym.envs.core.layout import Layout

NC = NUM_COLOURS

# player block: scalar fields, then five colour piles
PB_PRESENT, PB_ON_TURN, PB_DECIDING, PB_RANK, PB_CROSSINGS, PB_LAP_POS, PB_PAST_LINE, \
    PB_LANE, PB_SEGMENT, PB_BAG_SIZE, PB_PENDING, PB_WEAR, PB_PITS = range(13)
PB_ACTIVE = 13
PB_USED = PB_ACTIVE + NC        # includes cubes on the track
PB_DISCARD = PB_USED + NC
PB_BAG = PB_DISCARD + NC        # own bag always; others' only with open_bags
PLAYER_BLOCK = PB_BAG + NC

# space block
SB_COLOURS = 0                  # 4 gear colour bits
SB_LANE, SB_SEGMENTS, SB_CARS, SB_OWN_CAR, SB_TURN_CUBE, SB_AHEAD, SB_HEAD = range(4, 11)
SPACE_BLOCK = 11

OBS = Layout(
    [
        ("decision", NUM_PHASES),     # the pending decision, if this seat is deciding
        ("waiting", 1),               # 1 when another seat decides
        ("money", 1),                 # Buy Phase / allowance / Pit Team money, in $
        ("move", 4),                  # spaces left, spaces that must still be moved, moved, started
        ("move_colours", NUM_GEARS),  # colours the moving cube may still use
        ("effect_colour", NC),        # colour of the cube whose effect is resolving
        ("picks", 3),                 # may still choose, must still choose, chosen
        ("drawn", NC),                # Nitro's drawn cubes
        ("turn", 4),                  # standard turn, Aerodynamics, start rank, top colour + 1
        ("market_effect", NC * NUM_EFFECTS),   # effect of each colour's card (one-hot)
        ("cards_in_play", MAX_CARDS),
        ("cost", NC),
        ("value", NC),
        ("stock", NC),
        ("players", MAX_PLAYERS * PLAYER_BLOCK),
        ("spaces", MAX_SPACES * SPACE_BLOCK),
        ("game", 6),                  # laps, lap length, rounds, max rounds, end triggered, players
        # Racing Season delayed cards: Adrenaline option 2 (spaces per position gained, spaces
        # left in the Car Phase), Crate Motor (spaces each car behind gets), then the
        # awarded spaces not moved yet of every seat from the observer's left
        ("delayed", 3 + MAX_PLAYERS),
        # Racing Season, cards that move (racing_season/cards_moves.py)
        ("move_cards", 4),            # Redline on, Fuel Injection multiplier (0: off); the moving
                                      # cube may mix colours, its Redline wear (own move only)
        # Racing Season drivers
        ("drivers", MAX_PLAYERS * NUM_DRIVERS),   # each seat's driver (one-hot), player order
        ("driver_pool", NUM_DRIVERS),  # drivers revealed in the draft, not taken yet
        ("driver_turn", 2),           # ability used this turn, wear gained in this Decline
        ("driver_held", NC),          # Driver 04's drawn cubes waiting to be sorted
    ]
)
OBS_SIZE = OBS.size
O_DECISION, O_WAITING, O_MONEY, O_MOVE = OBS.offsets("decision waiting money move")
O_MOVE_COLOURS, O_EFFECT_COLOUR, O_PICKS = OBS.offsets("move_colours effect_colour picks")
O_DRAWN, O_TURN, O_MARKET, O_CARDS = OBS.offsets("drawn turn market_effect cards_in_play")
O_COST, O_VALUE, O_STOCK, O_PLAYERS, O_SPACES = OBS.offsets("cost value stock players spaces")
O_GAME = OBS.offset("game")
# Racing Season delayed cards
O_DELAYED, O_MOVE_CARDS, O_DRIVERS = OBS.offsets("delayed move_cards drivers")
O_DRIVER_POOL, O_DRIVER_TURN, O_DRIVER_HELD = OBS.offsets("driver_pool driver_turn driver_held")


@nb.njit(cache=True)
def money_cap(p):
    """The most money a race can show (``Game.obs_low_high``): the largest allowance, or
    every cube of the supply at the largest card value or cost. The observation shows at
    most this much (and a position at most laps + 2 crossings, statistics at most their
    per-round stock times the rounds): only a hand-made saved state holds more."""
    value = 1
    cost = 1
    for k in range(p[P_NUM_CARDS]):
        value = max(value, p[P_CARD_VALUE + k])
        cost = max(cost, p[P_CARD_COST + k])
    cubes = 0
    for c in range(NUM_COLOURS):
        cubes += p[P_SUPPLY + c]
    most = cubes * max(value, cost)
    for seat in range(MAX_PLAYERS):
        most = max(most, p[P_ALLOWANCE + seat])
    return most


@nb.njit(cache=True)
def observe(s, p, seat, out):
    """Fill ``out`` with the observation of ``seat`` (layout ``OBS``)."""
    n = p[P_NUM_PLAYERS]
    phase = s[PHASE]
    over = phase == PH_OVER
    deciding = (not over) and s[CURRENT] == seat
    if deciding:
        out[O_DECISION + phase] = 1.0
    else:
        out[O_WAITING] = 1.0
    turn_seat = s[TURN_SEAT]
    mine = deciding and turn_seat == seat
    if deciding:
        money = s[PK_TOTAL] if phase in (PH_PIT_TEAM, PH_PIT_TEAM_BUY) else s[MONEY]
        out[O_MONEY] = min(money, money_cap(p))
        out[O_PICKS] = s[PK_LEFT]
        out[O_PICKS + 1] = s[PK_MUST]
        out[O_PICKS + 2] = s[PK_COUNT]
    if mine:
        out[O_MOVE] = s[MV_LEFT]
        out[O_MOVE + 1] = s[MV_MIN]
        out[O_MOVE + 2] = s[MV_STEPS]
        out[O_MOVE + 3] = 1.0 if s[MV_SPACE] >= 0 else 0.0
        for g in range(NUM_GEARS):
            if s[MV_MASK] & (1 << g):
                out[O_MOVE_COLOURS + g] = 1.0
        if s[ACT_COLOUR] >= 0:
            out[O_EFFECT_COLOUR + s[ACT_COLOUR]] = 1.0
    for c in range(NC):
        out[O_DRAWN + c] = s[DRAWN + c]
        out[O_MARKET + c * NUM_EFFECTS + card_effect(s, p, c)] = 1.0
        out[O_CARDS + s[CARD_OF + c]] = 1.0
        out[O_COST + c] = s[COST + c]
        out[O_VALUE + c] = s[VALUE + c]
        out[O_STOCK + c] = s[STOCK + c]
    out[O_TURN] = s[STD_TURN]
    out[O_TURN + 1] = s[AERO]
    out[O_TURN + 2] = s[START_RANK]
    out[O_TURN + 3] = s[TOP_COLOUR] + 1
    lap = p[P_LAP]
    laps = p[P_LAPS]
    open_bags = p[P_OPEN_BAGS] != 0
    for k in range(n):
        other = (seat + k) % n
        b = O_PLAYERS + k * PLAYER_BLOCK
        out[b + PB_PRESENT] = 1.0
        out[b + PB_ON_TURN] = 1.0 if (other == turn_seat and not over) else 0.0
        out[b + PB_DECIDING] = 1.0 if (other == s[CURRENT] and not over) else 0.0
        out[b + PB_RANK] = rank(s, p, other)
        out[b + PB_CROSSINGS] = min(crossings(s, p, other), laps + 2)
        pos = s[CAR_ABS + other]
        out[b + PB_LAP_POS] = ((pos % lap) + lap) % lap / lap
        out[b + PB_PAST_LINE] = min(max(0, pos - (laps - 1) * lap) / lap, 3.0)
        out[b + PB_LANE] = p[P_SPACE_LANE + s[CAR_SPACE + other]]
        out[b + PB_SEGMENT] = s[CAR_SEG + other]
        out[b + PB_BAG_SIZE] = total(s, pile(other, BAG))
        out[b + PB_PENDING] = s[PENDING_BOOST + other]
        out[b + PB_WEAR] = min(s[STAT_WEAR + other], p[P_MAX_ROUNDS] * p[P_SUPPLY + WEAR])
        out[b + PB_PITS] = min(s[STAT_PIT_STOPS + other], p[P_MAX_ROUNDS])
        for c in range(NC):
            out[b + PB_ACTIVE + c] = s[pile(other, ACTIVE) + c]
            used = s[pile(other, USED) + c]
            if other == turn_seat:
                used += s[ON_TRACK + c]
            out[b + PB_USED + c] = used
            out[b + PB_DISCARD + c] = s[pile(other, DISCARD) + c]
            if other == seat or open_bags:
                out[b + PB_BAG + c] = s[pile(other, BAG) + c]
    own_space = s[CAR_SPACE + seat]
    own_end = p[P_SPACE_END + own_space]
    for sp in range(p[P_NUM_SPACES]):
        b = O_SPACES + sp * SPACE_BLOCK
        colours = p[P_SPACE_COLOURS + sp]
        for g in range(NUM_GEARS):
            if colours & (1 << g):
                out[b + SB_COLOURS + g] = 1.0
        out[b + SB_LANE] = p[P_SPACE_LANE + sp]
        out[b + SB_SEGMENTS] = p[P_SPACE_LEN + sp]
        cars = 0
        for other in range(n):
            if s[CAR_SPACE + other] == sp:
                cars += 1
        out[b + SB_CARS] = cars
        if sp == own_space:
            out[b + SB_OWN_CAR] = 1.0
        out[b + SB_AHEAD] = ((p[P_SPACE_END + sp] - own_end) % lap) / lap
    for i in range(s[PLACED_N]):        # cubes on the board are public
        out[O_SPACES + s[PLACED_SPACE + i] * SPACE_BLOCK + SB_TURN_CUBE] = 1.0
    if mine and s[MV_SPACE] >= 0:
        out[O_SPACES + s[MV_SPACE] * SPACE_BLOCK + SB_HEAD] = 1.0
    out[O_GAME] = laps
    out[O_GAME + 1] = lap
    out[O_GAME + 2] = s[ROUNDS]
    out[O_GAME + 3] = p[P_MAX_ROUNDS]
    out[O_GAME + 4] = s[END_TRIGGERED]
    out[O_GAME + 5] = n
    observe_delayed(s, p, seat, out, O_DELAYED)   # Racing Season delayed cards
    # Racing Season, cards that move: the reminder cubes on the Wear Chart are public
    out[O_MOVE_CARDS] = s[REDLINE]
    out[O_MOVE_CARDS + 1] = s[FUEL]
    if mine:
        out[O_MOVE_CARDS + 2] = s[MV_MIXED]
        out[O_MOVE_CARDS + 3] = s[MV_REDLINE]
    _observe_drivers(s, p, seat, out)


@nb.njit(cache=True)
def _observe_drivers(s, p, seat, out):
    """Racing Season drivers: all public."""
    n = p[P_NUM_PLAYERS]
    for k in range(n):
        number = s[DRIVER_OF + (seat + k) % n]
        if number > 0:
            out[O_DRIVERS + k * NUM_DRIVERS + number - 1] = 1.0
    for d in range(NUM_DRIVERS):
        out[O_DRIVER_POOL + d] = s[DRIVER_POOL + d]
    out[O_DRIVER_TURN] = s[DRIVER_USED]
    out[O_DRIVER_TURN + 1] = s[DRIVER_WEAR]
    for c in range(NC):
        out[O_DRIVER_HELD + c] = s[DRIVER_HELD + c]


def layout() -> Layout:
    """Named slices of the observation vector."""
    return OBS


def action_name(action: int, phase: int | None = None) -> str:
    """Name of an action index (in the context of decision ``phase`` when given)."""
    action = int(action)
    decision = PHASE_NAMES[phase] if phase is not None and 0 <= phase < NUM_PHASES else None
    if action == A_STOP and decision in PILE_STOP_NAMES:   # Racing Season pile cards
        return PILE_STOP_NAMES[decision]
    if action == A_STOP:
        return {"action": "end the Action Phase", "buy": "end the Buy Phase (stop buying)",
                "setup_buy": "stop buying", "move": "stop moving",
                "boost": "stop drawing", "boost_other": "decline the free draw",
                "pit_team": "stop removing and buy",
                # Racing Season delayed cards
                "adrenaline": "choose option 2: move in the Car Phase for positions gained",
                "adrenaline_move": "stop moving the car", "crate_move": "stop moving the car",
                # Racing Season drivers
                "driver_sort": "put the other drawn cubes back into the bag",
                }.get(decision or "", "stop / done")
    if action == A_PIT_STOP:
        return "take a pit stop (remove all wear from the active pile)"
    if action == A_DRAW:
        if decision == "driver_declare":
            return "declare one more cube to draw"
        return "draw a cube from the bag"
    if action == A_USE_DRIVER:
        return "use your driver's ability"
    if A_DRIVER <= action < NUM_ACTIONS:
        return f"take Driver {action - A_DRIVER + 1:02d}"
    if action == A_ALL_WEAR:
        return "remove all wear cubes from the discard pile"
    if A_ACTIVE <= action < A_DISCARD:
        colour = COLOURS[action - A_ACTIVE]
        if decision == "action":
            return f"activate a {colour} cube"
        if decision == "nitro":
            return f"keep the drawn {colour} cube in the active pile"
        if decision == "driver_sort":
            return f"put the drawn {colour} cube into the active pile"
        return f"choose a {colour} cube from the active pile"
    if A_DISCARD <= action < A_STOCK:
        return f"choose a {colour_name(action - A_DISCARD)} cube from the discard pile"
    if A_STOCK <= action < A_SPACE:
        if decision == "driver_sort":
            return f"return the drawn {colour_name(action - A_STOCK)} cube to the stock"
        return f"buy a {colour_name(action - A_STOCK)} cube"
    if A_SPACE <= action < A_USE_DRIVER:
        if decision == "adrenaline":   # Racing Season delayed cards
            return f"choose option 1: move the green cube to track space {action - A_SPACE}"
        return f"move to track space {action - A_SPACE}"
    return f"unknown action {action}"


def colour_name(colour: int) -> str:
    return COLOURS[colour]
