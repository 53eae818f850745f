"""Jitted card effects: when a cube may be activated, and what activating it does.

Action Phase: the cube goes to the used pile first, then its card's effect applies top
to bottom and in full; an effect that cannot be applied in full may not be chosen,
except that missing wear in the stock never blocks it (the wear is simply not gained).
"Up to" allows zero. Effects that need choices set the pending decision (``phase``);
the choices themselves are handled in ``kernels.apply``. Card texts are summarised in
``docs/automobiles.md``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from transit_gym.envs.automobiles.board import move_possible
from transit_gym.envs.automobiles.cubes import (
    buyable,
    can_draw,
    card_effect,
    card_param,
    distinct,
    draw_one,
    gain,
    move_cube,
    pile,
    total,
    wear_then_pick,
)
from transit_gym.envs.automobiles.data import (
    BLACK,
    BLUE,
    DARK,
    E_ADRENALINE,  # Racing Season delayed cards
    E_AERODYNAMICS,
    E_BOOST,
    E_CAR_CHIEF,
    E_CRATE_MOTOR,  # Racing Season delayed cards
    E_CREW_CHIEF,
    E_DIESEL,
    E_ENGINEER,
    E_GEAR,
    E_GEARBOX,
    E_HYBRID,
    E_MANAGER,
    E_MECHANIC,
    E_NITRO,
    E_PIT_CAPTAIN,
    E_PIT_CREW,
    E_PIT_TEAM,
    E_ROTARY,
    E_STEERING,
    E_SUPERCHARGED,
    E_SUSPENSION,
    E_TIRES,
    E_TURBO,
    E_WEAR,
    GREEN,
    LIGHT,
    NUM_COLOURS,
    WEAR,
    WHITE,
)
from transit_gym.envs.automobiles.moves import start_move
from transit_gym.envs.automobiles.racing_season.cards_delayed import (  # delayed cards
    adrenaline_activate,
    crate_activate,
)
from transit_gym.envs.automobiles.racing_season.cards_moves import (  # cards that move
    activate_move_card,
    gear_colours,
    is_move_card,
    move_card_ready,
    start_gear_move,
)
from transit_gym.envs.automobiles.racing_season.cards_piles import (  # Racing Season pile cards
    is_pile_effect,
    piles_activate,
    piles_can_activate,
)
from transit_gym.envs.automobiles.state import (
    ACT_COLOUR,
    ACTIVE,
    AERO,
    BOOST_BONUS,
    COST,
    DISCARD,
    DRAWN,
    ON_TRACK,
    P_CARD_BONUS,
    P_CARD_COUNT,
    P_CARD_WEAR,
    P_NUM_PLAYERS,
    PH_BOOST,
    PH_CAR_CHIEF,
    PH_ENGINEER,
    PH_MANAGER_REMOVE,
    PH_MECHANIC,
    PH_NITRO,
    PH_PIT_CREW,
    PH_PIT_TEAM,
    PH_REMOVE,
    PH_STEERING,
    PH_SUPERCHARGED,
    PH_SUSPENSION,
    PH_TIRES,
    PHASE,
    PK_COUNT,
    PK_LEFT,
    PK_MUST,
    PK_TOTAL,
    START_RANK,
    STAT_ACTIVATED,
    STD_TURN,
    STOCK,
    USED,
)
from transit_gym.envs.core.validate import bump

ALL_GEARS = 0b1111


# ----- Pit Team: can the removals still end in exactly one purchase? ---------------------------
@nb.njit(cache=True)
def pit_team_can_buy(s, p, money):
    for c in range(NUM_COLOURS):
        if buyable(s, p, c) and s[STOCK + c] > 0 and s[COST + c] <= money:
            return True
    return False


@nb.njit(cache=True)
def pit_team_feasible(s, p, seat, money, left):
    """Some further choice of up to ``left`` discard cubes makes ``money`` enough for one
    available cube: the costliest discards, or any removed cube bought back itself."""
    discard = pile(seat, DISCARD)
    counts = np.zeros(NUM_COLOURS, dtype=np.int64)
    for c in range(NUM_COLOURS):
        counts[c] = s[discard + c]
    best = money
    for _ in range(left):
        pick = -1
        for c in range(NUM_COLOURS):
            if counts[c] > 0 and (pick < 0 or s[COST + c] > s[COST + pick]):
                pick = c
        if pick < 0:
            break
        counts[pick] -= 1
        best += s[COST + pick]
    if pit_team_can_buy(s, p, best):
        return True
    if left > 0:
        for c in range(NUM_COLOURS):
            if s[discard + c] > 0 and buyable(s, p, c):
                return True
    return False


@nb.njit(cache=True)
def pit_team_pick_ok(s, p, seat, colour):
    """Removing a discarded ``colour`` cube keeps a purchase possible."""
    discard = pile(seat, DISCARD)
    if s[discard + colour] == 0 or s[PK_LEFT] <= 0:
        return False
    s[discard + colour] -= 1
    s[STOCK + colour] += 1
    ok = pit_team_feasible(s, p, seat, s[PK_TOTAL] + s[COST + colour], s[PK_LEFT] - 1)
    s[discard + colour] += 1
    s[STOCK + colour] -= 1
    return ok


# ----- when may a cube be activated? ----------------------------------------------------------
@nb.njit(cache=True)
def can_activate(s, p, seat, colour):
    """The cube of ``colour`` in seat's active pile may be used for its effect now."""
    active = pile(seat, ACTIVE)
    if s[active + colour] <= 0:
        return False
    effect = card_effect(s, p, colour)
    count = card_param(s, p, colour, P_CARD_COUNT)
    discard = pile(seat, DISCARD)
    if effect == E_GEAR:   # Racing Season: Redline widens a white's colours
        return move_possible(s, p, seat, gear_colours(s, colour), count)
    if effect == E_CAR_CHIEF:
        for g in range(WHITE, BLACK + 1):
            if s[discard + g] > 0 and (g == BLACK or s[STOCK + g + 1] > 0):
                return True
        return False
    if effect == E_MECHANIC:
        return total(s, active) - 1 > 0
    if effect == E_CREW_CHIEF:
        return can_draw(s, seat, 1)
    if effect == E_PIT_TEAM:
        return pit_team_feasible(s, p, seat, 0, count)
    if effect == E_STEERING:
        for g in range(LIGHT, BLACK + 1):  # noqa: SIM110 - numba has no generators
            if s[active + g] > 0:
                return True
        return False
    if effect == E_SUSPENSION:
        for g in range(WHITE, BLACK + 1):
            if s[discard + g] > 0 and move_possible(s, p, seat, 1 << g, count):
                return True
        return False
    if effect == E_TIRES:
        for g in range(LIGHT, BLACK + 1):
            if s[active + g] > 0 and move_possible(s, p, seat, (1 << g) - 1, count):
                return True
        return False
    if effect == E_NITRO:
        return can_draw(s, seat, count)
    if is_move_card(effect):   # Racing Season: cards that move
        return move_card_ready(s, p, seat, effect, count)
    if is_pile_effect(effect):   # Racing Season cards that change piles
        return piles_can_activate(s, p, seat, colour, effect)
    return True


# ----- activation -------------------------------------------------------------------------------
@nb.njit(cache=True)
def _blue_lead(s, p, seat):
    """Hybrid Engine: seat's blue cubes in active, used (track included) and discard
    piles outnumber the blue cubes of every other discard pile, one by one."""
    mine = (s[pile(seat, ACTIVE) + BLUE] + s[pile(seat, USED) + BLUE] + s[ON_TRACK + BLUE]
            + s[pile(seat, DISCARD) + BLUE])
    for other in range(p[P_NUM_PLAYERS]):
        if other != seat and s[pile(other, DISCARD) + BLUE] >= mine:
            return False
    return True


@nb.njit(cache=True)
def activate(s, p, seat, colour):
    """Use the active cube of ``colour``: to the used pile, then its card's effect."""
    s[pile(seat, ACTIVE) + colour] -= 1
    s[pile(seat, USED) + colour] += 1
    bump(s, STAT_ACTIVATED + seat * NUM_COLOURS + colour, 1)
    s[STD_TURN] = 1
    s[ACT_COLOUR] = colour
    effect = card_effect(s, p, colour)
    wear = card_param(s, p, colour, P_CARD_WEAR)
    count = card_param(s, p, colour, P_CARD_COUNT)
    bonus = card_param(s, p, colour, P_CARD_BONUS)
    discard = pile(seat, DISCARD)
    if effect == E_GEAR:   # Racing Season: Redline and Fuel Injection change gear moves
        start_gear_move(s, seat, colour, count)
    elif effect == E_WEAR:
        move_cube(s, pile(seat, USED), discard, WEAR)
    elif effect == E_CAR_CHIEF:
        s[PHASE] = PH_CAR_CHIEF
    elif effect == E_ENGINEER:
        s[PK_LEFT] = count
        s[PK_COUNT] = 0
        s[PHASE] = PH_ENGINEER
    elif effect == E_MANAGER:
        s[PHASE] = PH_MANAGER_REMOVE
    elif effect == E_MECHANIC:
        s[PK_LEFT] = count
        s[PHASE] = PH_MECHANIC
    elif effect == E_CREW_CHIEF:
        while True:
            drawn = draw_one(s, seat)
            if drawn < 0:
                break
            s[pile(seat, ACTIVE) + drawn] += 1
            if drawn != WEAR:
                break
        while s[discard + WEAR] > 0:
            s[discard + WEAR] -= 1
            s[STOCK + WEAR] += 1
    elif effect == E_PIT_CAPTAIN:
        s[PK_LEFT] = count
        s[PK_MUST] = 0
        s[PHASE] = PH_REMOVE
    elif effect == E_PIT_CREW:
        s[PK_LEFT] = count
        s[PHASE] = PH_PIT_CREW
    elif effect == E_PIT_TEAM:
        s[PK_LEFT] = count
        s[PK_TOTAL] = 0
        s[PHASE] = PH_PIT_TEAM
    elif effect == E_AERODYNAMICS:
        s[AERO] = 1
    elif effect == E_STEERING:
        wear_then_pick(s, seat, wear, count, PH_STEERING)
    elif effect == E_SUSPENSION:
        wear_then_pick(s, seat, wear, count, PH_SUSPENSION)
    elif effect == E_TIRES:
        wear_then_pick(s, seat, wear, count, PH_TIRES)
    elif effect == E_BOOST:
        s[PK_LEFT] = count
        s[PK_COUNT] = 0
        s[BOOST_BONUS] = bonus
        s[PHASE] = PH_BOOST
    elif effect == E_GEARBOX:
        gain(s, seat, WEAR, wear)
        spaces = s[START_RANK]
        if s[START_RANK] == p[P_NUM_PLAYERS]:
            spaces += bonus
        start_move(s, 1 << LIGHT, spaces, 0)
    elif effect == E_NITRO:
        for _ in range(count):
            drawn = draw_one(s, seat)
            if drawn >= 0:
                s[DRAWN + drawn] += 1
        s[PHASE] = PH_NITRO
    elif effect == E_TURBO:
        gain(s, seat, WEAR, wear)
        greens = 0
        for other in range(p[P_NUM_PLAYERS]):
            greens += s[pile(other, DISCARD) + GREEN]
        start_move(s, 1 << LIGHT, count + greens, 0)
    elif effect == E_DIESEL:
        gain(s, seat, WEAR, wear)
        start_move(s, 1 << DARK, s[discard + DARK], 0)
    elif effect == E_HYBRID:
        gain(s, seat, WEAR, wear)
        if _blue_lead(s, p, seat):
            start_move(s, ALL_GEARS, count, 0)
    elif effect == E_ROTARY:
        gain(s, seat, WEAR, wear)
        start_move(s, 1 << WHITE, distinct(s, discard), 0)
    elif effect == E_SUPERCHARGED:
        wear_then_pick(s, seat, wear, count, PH_SUPERCHARGED)
    elif effect == E_ADRENALINE:       # Racing Season delayed cards
        adrenaline_activate(s, count)
    elif effect == E_CRATE_MOTOR:      # Racing Season delayed cards
        crate_activate(s, p, count, bonus)
    elif is_move_card(effect):   # Racing Season: cards that move
        activate_move_card(s, p, seat, effect, wear, count, bonus)
    elif is_pile_effect(effect):   # Racing Season cards that change piles
        piles_activate(s, p, seat, colour, effect)

