"""The rule-based Automobiles agent's values: how much it wants to keep, buy and activate each
card, and its thresholds. They become the point ``rule_based_vector`` of the one decision
procedure (``agents.tuned.automobiles``), which is what the rule-based agent plays.

Plain Python and numpy, read once when the vector is built (``agents.tuned.automobiles_layout``).
"""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles.data import (
    E_ADRENALINE,
    E_AIR_JACKS,
    E_BUMP_RUN,
    E_BURNOUT,
    E_CAMBER_TOE,
    E_CRATE_MOTOR,
    E_FACTORY_SUPPORT,
    E_FUEL_INJECTION,
    E_IMPACT_WRENCH,
    E_INTERNAL_COMBUSTION,
    E_MAINTENANCE_STAFF,
    E_OVERDRIVE,
    E_PERFORMANCE_TESTING,
    E_PIT_MECHANIC,
    E_REDLINE,
)

PIT_STOP_WEAR = 4     # wear cubes in hand that make a pit stop worth a turn

# how much the agent values keeping a cube of each effect; gears by colour in GEAR_KEEP
EFFECT_KEEP = np.array([
    0,   # gear (by colour)
    -5,  # wear
    2,   # car chief
    2,   # engineer
    1,   # manager
    2,   # mechanic
    4,   # crew chief
    4,   # pit captain
    4,   # pit crew
    3,   # pit team
    3,   # aerodynamics
    3,   # steering
    3,   # suspension
    2,   # tires
    1,   # boost
    4,   # gearbox
    2,   # nitro
    5,   # turbo
    4,   # diesel
    4,   # hybrid
    4,   # rotary
    2,   # supercharged
], dtype=np.int64)
GEAR_KEEP = np.array([1, 2, 4, 5], dtype=np.int64)
# how much the agent wants to buy one (0: never); whites are never bought
EFFECT_BUY = np.array([
    0, 0, 2, 1, 0, 1, 4, 4, 4, 3, 3, 3, 3, 2, 1, 4, 1, 5, 4, 4, 4, 1,
], dtype=np.int64)
GEAR_BUY = np.array([0, 2, 4, 5], dtype=np.int64)

# activation order: lower goes first (99: kept as money, never activated)
EFFECT_ORDER = np.array([
    50,  # gear (by colour: GEAR_ORDER)
    99,  # wear
    10,  # car chief
    12,  # engineer
    99,  # manager
    11,  # mechanic
    5,   # crew chief
    6,   # pit captain
    7,   # pit crew
    8,   # pit team
    20,  # aerodynamics
    30,  # steering
    32,  # suspension
    33,  # tires
    99,  # boost
    31,  # gearbox
    15,  # nitro
    29,  # turbo
    28,  # diesel
    27,  # hybrid
    26,  # rotary
    14,  # supercharged
], dtype=np.int64)
GEAR_ORDER = np.array([58, 56, 54, 52], dtype=np.int64)

# ----- Racing Season cards: (keep, buy, activation order) per effect -----------------------
#: delayed cards: Adrenaline after every gear (its choice then knows the cubes placed),
#: Crate Motor with the multi-space movers
DELAYED_VALUES = {E_ADRENALINE: (3, 4, 59), E_CRATE_MOTOR: (4, 5, 25)}
#: cards that move (docs/racing_season/cards_moves.md): the movers go before the gear cubes
#: like the base movers; Redline and Fuel Injection first of all, since they only change
#: the gear cubes activated after them; Camber & Toe (1 space for a gear given up) is kept
#: and rarely bought
MOVE_CARD_VALUES = {
    E_REDLINE: (4, 4, 3),
    E_FUEL_INJECTION: (4, 4, 4),
    E_OVERDRIVE: (4, 5, 28),     # like Turbo: up to 3 spaces for 1 wear
    E_BUMP_RUN: (4, 4, 29),
    E_BURNOUT: (4, 4, 30),
    E_CAMBER_TOE: (3, 3, 34),
}
#: cards that change piles: cleaning cards early, Impact Wrench after the movers that gain
#: wear (the base agent's scale: gears 52-58 go last, 99 never)
PILE_VALUES = {
    E_FACTORY_SUPPORT: (4, 3, 5),
    E_MAINTENANCE_STAFF: (3, 2, 12),
    E_PERFORMANCE_TESTING: (3, 2, 4),
    E_AIR_JACKS: (3, 3, 7),
    E_IMPACT_WRENCH: (4, 4, 45),
    E_PIT_MECHANIC: (4, 4, 8),
    E_INTERNAL_COMBUSTION: (4, 3, 13),
}
#: an effect without values here (another expansion's card): kept a little, never bought
#: or activated
NOT_KNOWN_VALUES = (1, 0, 99)

#: gear cubes in hand that make Fuel Injection's 2 wear worth it
FUEL_MIN_GEARS = 3
#: Camber & Toe is used with an active gear this low (0 white, 1 light gray)
CAMBER_MAX_GEAR = 1
#: Bump & Run is used only when starting below this place (in first place it only gains wear)
BUMP_MIN_RANK = 1
#: Adrenaline takes option 2 when the Car Phase will pass this many cars
ADRENALINE_MIN_PASS = 1
#: a cube worth a wear cube to take back with Internal Combustion (keep scale)
TAKE_BACK_KEEP = 4
#: Factory Support is used only when a cube this little wanted (wear, white) can go
FS_REMOVE_KEEP = 1
#: Boost draws while more than this many picks are left
BOOST_MIN_PICKS = 1
#: Supercharged takes back a cube worth at least this
SUPERCHARGED_MIN_KEEP = 2

# ----- Racing Season drivers ----------------------------------------------------------------
#: draft order of preference (driver numbers), by the win share each driver had with this
#: agent in 4-player mirror games (docs/racing_season/drivers.md, Measurements)
DRIVER_PREFERENCE = np.array([8, 1, 10, 9, 4, 2, 7, 6, 3, 5], dtype=np.int64)
DRIVER_WANTED = 2        # a cube this wanted (the agent's keep value) is worth fetching
DRIVER_BAG_WANTED = 3    # ... worth putting back into the bag (Driver 03)
DRIVER_WEAK = 1          # a drawn cube this weak is spent as money (Driver 04)

# ----- the season campaign's sponsor cube decisions ------------------------------------------
MIN_BAG = 14          # thin the bag of weak cubes only while it keeps this many
WEAK_CUBE = 1         # keep value (race agent's scale) at or below which a cube is weak


def effect_values(effect: int) -> tuple[int, int, int]:
    """(keep, buy, activation order) of a market card of effect ``effect`` (not a gear)."""
    for table in (DELAYED_VALUES, PILE_VALUES, MOVE_CARD_VALUES):
        if effect in table:
            return table[effect]
    if effect < EFFECT_KEEP.shape[0]:
        return int(EFFECT_KEEP[effect]), int(EFFECT_BUY[effect]), int(EFFECT_ORDER[effect])
    return NOT_KNOWN_VALUES


def gear_values(colour: int) -> tuple[int, int, int]:
    """(keep, buy, activation order) of a gear cube of colour ``colour``."""
    return int(GEAR_KEEP[colour]), int(GEAR_BUY[colour]), int(GEAR_ORDER[colour])
