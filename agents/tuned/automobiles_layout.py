"""The named parameter layout of the Automobiles decision procedure (the tuned policy).

A vector is one float per named parameter. Per card (the 40 card ids of the data: the
four gear colours, wear, the 20 base cards and the 15 Racing Season cards):

- ``keep``: how much a cube of the card is worth keeping (which cube to give up, discard
  or fetch back; the rule-based agent's keep scale),
- ``buy``: buy priority (0 or less: never bought), plus ``buy_per_wear`` times the wear
  cubes the buyer owns (so a card can be wanted more as the deck wears),
- ``want``: how many cubes of the card the buyer wants to own at most,
- ``order``: activation order in the Action Phase (lower first; 99 or more: never),
- ``gate``: 1 to activate the card only when the rule-based check says it helps (cleaning
  cards with wear to clean, Fuel Injection with enough gears...), 0 to activate it always.

Then scalars (pit-stop threshold, the expansion cards' own decisions, the drivers'
thresholds), per driver a draft score and whether to use its ability, the choices
block (layout 2): which discard gear Car Chief upgrades and Suspension moves on (a score
per gear), the cubes Pit Team removes besides wear, and Diesel Engine's dark gray gate,
and last the Racing Season campaign's sponsor block (layout 3, ``SPONSOR_PARAMS``): a
weight per term of a sponsor effect's worth, the keep bias, the place that judges which
sponsor to remove, the cube-removal thresholds and which keep/buy tables the sponsor cube
decisions use. The rule-based agents (race and season) are the point
:func:`rule_based_vector`, built from the rule-based agent's values
(``agents.rule_based.automobiles_tables``).

The kernels freeze these indices and the rule-based point: the name ``automobiles_*`` puts
this module under the kernel cache stamp of the Automobiles agents
(``envs/_numba_cache.py``), so an edit here recompiles them. The vector files are
:mod:`transit_gym.agents.tuned.vector`.
"""

from __future__ import annotations

import numpy as np

from transit_gym.agents.rule_based import automobiles_tables as rb
from transit_gym.envs.automobiles.data import E_WEAR, EFFECTS, GEARS, WEAR
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS

#: the 40 card ids: gear colours, wear, then every effect after "gear" and "wear"
CARDS = ("white_gear", "light_gray_gear", "dark_gray_gear", "black_gear", "wear") + EFFECTS[2:]
NUM_CARDS = len(CARDS)
#: card index of effect ``e`` (>= 2); gear colour ``c`` is card ``c``, wear is card 4
FIRST_EFFECT_CARD = 5 - 2
WEAR_CARD = WEAR
CARD_PARAMS = ("keep", "buy", "order", "want", "buy_per_wear", "gate")
K_KEEP, K_BUY, K_ORDER, K_WANT, K_BUY_WEAR, K_GATE = range(len(CARD_PARAMS))
NUM_CARD_PARAMS = len(CARD_PARAMS)

#: scalar parameters and what they mean (rule-based value in ``rule_based_vector``)
SCALARS = (
    "pit_stop_wear",          # wear cubes in the active pile that make a pit stop worth it
    "fuel_min_gears",         # Fuel Injection: gear cubes in hand needed to use it
    "camber_max_gear",        # Camber & Toe: used with an active gear this low (0 white..3)
    "bump_min_rank",          # Bump & Run: used when the start rank is above this
    "adrenaline_min_pass",    # Adrenaline: option 2 when the car will pass this many cars
    "take_back_keep",         # Internal Combustion: take back cubes worth this much
    "fs_remove_keep",         # Factory Support: used when a cube worth this little can go
    "boost_min_picks",        # Boost: draw when more than this many picks are left
    "supercharged_min_keep",  # Supercharged: take back a cube worth at least this
    "driver_wanted",          # Driver 02: fetch a discard cube worth this much
    "driver_bag_wanted",      # Driver 03: bag a discard cube worth this much
    "driver_weak",            # Driver 04: spend a drawn cube worth this little as money
    "cost_weight",            # buy: weight of a colour's cost in the priority (ties)
)
S = {name: i for i, name in enumerate(SCALARS)}
(S_PIT_STOP_WEAR, S_FUEL_MIN_GEARS, S_CAMBER_MAX_GEAR, S_BUMP_MIN_RANK, S_ADRENALINE_MIN_PASS,
 S_TAKE_BACK_KEEP, S_FS_REMOVE_KEEP, S_BOOST_MIN_PICKS, S_SUPERCHARGED_MIN_KEEP, S_DRIVER_WANTED,
 S_DRIVER_BAG_WANTED, S_DRIVER_WEAK, S_COST_WEIGHT) = range(len(SCALARS))
DRIVER_PARAMS = ("draft", "use")

CARD_BLOCK = NUM_CARDS * NUM_CARD_PARAMS
SCALAR_BASE = CARD_BLOCK
DRIVER_BASE = SCALAR_BASE + len(SCALARS)

# ----- choices block (layout 2): decisions the rule-based agent fixes per gear or card -------
#: one score per gear colour for the cards that pick a gear (highest legal score wins; 0 or
#: less: never chosen while a positive one is legal), then the market's further thresholds.
GEAR_NAMES = ("white", "light_gray", "dark_gray", "black")
CHOICES = (
    *(f"car_chief_pick.{g}" for g in GEAR_NAMES),    # Car Chief: discard gear to upgrade
    *(f"suspension_pick.{g}" for g in GEAR_NAMES),   # Suspension: discard gear to move on
    "pit_team_remove_keep",   # Pit Team: after wear, also remove cubes worth at most this
    "diesel_min_dark",        # Diesel Engine (gate on): dark gray cubes in the discard needed
)
C = {name: i for i, name in enumerate(CHOICES)}
C_CAR_CHIEF, C_SUSPENSION = C["car_chief_pick.white"], C["suspension_pick.white"]
C_PIT_TEAM_REMOVE_KEEP, C_DIESEL_MIN_DARK = C["pit_team_remove_keep"], C["diesel_min_dark"]
#: the card each choice belongs to (searched by the optimiser when that card is in play)
CHOICE_CARD = ("car_chief",) * 4 + ("suspension",) * 4 + ("pit_team", "diesel")
CHOICE_BASE = DRIVER_BASE + NUM_DRIVERS * len(DRIVER_PARAMS)

# ----- sponsor block (layout 3): the season campaign's sponsor decisions ---------------------
#: rule-based value in ``rule_based_sponsor_entries``
SPONSOR_PARAMS = (
    "sponsor.money",        # worth: weight of the money ($) of the effect
    "sponsor.extra",        # worth: weight of the additional cubes removed (B, F)
    "sponsor.wear",         # worth: weight of the wear cubes removed (C)
    "sponsor.gain",         # worth: weight of the free cubes gained (D)
    "sponsor.per_extra",    # worth: weight of $ per additional cube times those cubes (F)
    "sponsor.per_nonwear",  # worth: weight of the wear removed per non-wear cube (E)
    "sponsor.keep_bias",    # keep the own sponsor when its worth plus this >= the best's
    "sponsor.drop_place",   # the place (0 first .. 2 last) judging which sponsor to remove
    "sponsor.min_bag",      # remove non-wear cubes only while the bag holds more than this
    "sponsor.weak_cube",    # remove only non-wear cubes kept at most this much
    "sponsor.own_tables",   # >= 0.5: cube removal and buying use this vector's keep / buy
)                           # entries; below: the rule-based race agent's tables
(P_MONEY, P_EXTRA, P_WEAR, P_GAIN, P_PER_EXTRA, P_PER_NONWEAR, P_KEEP_BIAS, P_DROP_PLACE,
 P_MIN_BAG, P_WEAK_CUBE, P_OWN_TABLES) = range(len(SPONSOR_PARAMS))
NUM_SPONSOR_PARAMS = len(SPONSOR_PARAMS)
SPONSOR_BASE = CHOICE_BASE + len(CHOICES)
VECTOR_SIZE = SPONSOR_BASE + NUM_SPONSOR_PARAMS

#: the game whose vectors this layout names (the season plays the same vectors)
GAME = "automobiles"
#: bump when the layout changes: an older file is read with the entries it lacks at their
#: rule-based values, a file of an unknown version is refused
LAYOUT_VERSION = 3
#: layout version -> entries a file of that version holds (a prefix of today's names):
#: layout 1 came before the choices block, 2 before the sponsor block
VERSION_SIZES = {1: CHOICE_BASE, 2: SPONSOR_BASE, 3: VECTOR_SIZE}


def choices_rule_based() -> dict[str, float]:
    """The choices block at the rule-based agent: Car Chief upgrades the highest gear below
    black, Suspension moves on the highest gear, Pit Team removes only wear by choice,
    Diesel Engine is used whenever it can move."""
    out = {f"car_chief_pick.{g}": score for g, score in zip(GEAR_NAMES, (1.0, 2.0, 3.0, 0.0),
                                                             strict=True)}
    out.update({f"suspension_pick.{g}": float(k + 1) for k, g in enumerate(GEAR_NAMES)})
    out["pit_team_remove_keep"] = -99.0
    out["diesel_min_dark"] = 0.0
    return out


def card_param(card: int, param: int) -> int:
    """Index of ``param`` (``K_*``) of card ``card`` in the vector."""
    return card * NUM_CARD_PARAMS + param


def driver_param(driver: int, param: int) -> int:
    """Index of the draft score (0) or use flag (1) of driver ``driver`` (1..10)."""
    return DRIVER_BASE + (driver - 1) * len(DRIVER_PARAMS) + param


def sponsor_param(param: int) -> int:
    """Index of sponsor parameter ``param`` (``P_*``) in the vector."""
    return SPONSOR_BASE + param


def names() -> list[str]:
    """The name of every entry, in vector order (``card.param``, scalars, ``driverNN.param``)."""
    out = [f"{card}.{param}" for card in CARDS for param in CARD_PARAMS]
    out += list(SCALARS)
    out += [f"driver{d:02d}.{param}" for d in range(1, NUM_DRIVERS + 1) for param in DRIVER_PARAMS]
    out += list(CHOICES)
    out += list(SPONSOR_PARAMS)
    return out


def card_of_effect(effect: int) -> int:
    """Card index of effect id ``effect`` (not gear or wear)."""
    return effect + FIRST_EFFECT_CARD




def rule_based_vector() -> np.ndarray:
    """The vector at which the decision procedure is the rule-based agent."""
    v = np.zeros(VECTOR_SIZE, dtype=np.float64)

    def card_values(card: int, values: tuple[int, int, int]) -> None:
        for param, value in zip((K_KEEP, K_BUY, K_ORDER), values, strict=True):
            v[card_param(card, param)] = value

    for c in GEARS:
        card_values(c, rb.gear_values(c))
    card_values(WEAR_CARD, rb.effect_values(E_WEAR))
    for e in range(2, len(EFFECTS)):
        card_values(card_of_effect(e), rb.effect_values(e))
    for card in range(NUM_CARDS):
        v[card_param(card, K_WANT)] = 99.0
        v[card_param(card, K_GATE)] = 1.0
    scalars = {"pit_stop_wear": rb.PIT_STOP_WEAR, "fuel_min_gears": rb.FUEL_MIN_GEARS,
               "camber_max_gear": rb.CAMBER_MAX_GEAR, "bump_min_rank": rb.BUMP_MIN_RANK,
               "adrenaline_min_pass": rb.ADRENALINE_MIN_PASS,
               "take_back_keep": rb.TAKE_BACK_KEEP, "fs_remove_keep": rb.FS_REMOVE_KEEP,
               "boost_min_picks": rb.BOOST_MIN_PICKS,
               "supercharged_min_keep": rb.SUPERCHARGED_MIN_KEEP,
               "driver_wanted": rb.DRIVER_WANTED, "driver_bag_wanted": rb.DRIVER_BAG_WANTED,
               "driver_weak": rb.DRIVER_WEAK,
               "cost_weight": 0.01}    # the rule-based ``want * 100 + cost``, scaled by 1/100
    for name, value in scalars.items():
        v[SCALAR_BASE + S[name]] = value
    for rank, d in enumerate(rb.DRIVER_PREFERENCE):
        v[driver_param(int(d), 0)] = NUM_DRIVERS - rank
        v[driver_param(int(d), 1)] = 1.0
    for name, value in choices_rule_based().items():
        v[CHOICE_BASE + C[name]] = value
    v[SPONSOR_BASE:] = rule_based_sponsor_entries()
    return v


def rule_based_sponsor_entries() -> np.ndarray:
    """The sponsor block at which the season procedure is the rule-based season agent: its
    sponsor worth (money + 2 extra + wear + 4 gain + $ per extra x extra + wear per
    non-wear), keep the own sponsor on a tie, drop judged at the middle place, ``MIN_BAG``,
    ``WEAK_CUBE``, the race's rule-based tables."""
    out = np.zeros(NUM_SPONSOR_PARAMS, dtype=np.float64)
    out[[P_MONEY, P_EXTRA, P_WEAR, P_GAIN, P_PER_EXTRA, P_PER_NONWEAR]] = (1, 2, 1, 4, 1, 1)
    out[P_KEEP_BIAS] = 0.0        # keeps the own sponsor on a tie
    out[P_DROP_PLACE] = 1         # the sponsor worth most to the others, at the middle place
    out[P_MIN_BAG] = rb.MIN_BAG
    out[P_WEAK_CUBE] = rb.WEAK_CUBE
    out[P_OWN_TABLES] = 0.0
    return out
