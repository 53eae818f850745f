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

# each base effect's (keep, buy, activation order), in effect order: how much the agent
# values keeping a cube of it, how much it wants to buy one (0: never; whites are never
# bought), and when it activates it (lower goes first; 99: kept as money, never activated);
# the market cards by type, four a type (data.toml's order)
BASE_VALUES = (
    (0, 0, 50), (-5, 0, 99),   # gear (by colour: GEAR_VALUES), wear
    # Garage: car chief, engineer, manager, mechanic
    (2, 2, 10), (2, 1, 12), (1, 0, 99), (2, 1, 11),
    # Pit: crew chief, pit captain, pit crew, pit team
    (4, 4, 5), (4, 4, 6), (4, 4, 7), (3, 3, 8),
    # Handling: aerodynamics, steering, suspension, tires
    (3, 3, 20), (3, 3, 30), (3, 3, 32), (2, 2, 33),
    # Performance: boost, gearbox, nitro, turbo
    (1, 1, 99), (4, 4, 31), (2, 1, 15), (5, 5, 29),
    # Engine: diesel, hybrid, rotary, supercharged
    (4, 4, 28), (4, 4, 27), (4, 4, 26), (2, 1, 14),
)
#: a gear cube's (keep, buy, activation order) by colour, white (never bought) first
GEAR_VALUES = ((1, 0, 58), (2, 2, 56), (4, 4, 54), (5, 5, 52))

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
    if effect < len(BASE_VALUES):
        return BASE_VALUES[effect]
    return NOT_KNOWN_VALUES


def gear_values(colour: int) -> tuple[int, int, int]:
    """(keep, buy, activation order) of a gear cube of colour ``colour``."""
    return GEAR_VALUES[colour]
