"""The named parameter layout of the tuned Automobiles policy, and its JSON files.

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
:func:`rule_based_vector`.

A file of an older layout (``VERSION_SIZES``: a prefix of today's names) is read with the
entries it lacks at their rule-based values, so it plays as before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from transit_gym.envs.automobiles.data import EFFECTS, GEARS, NUM_COLOURS, WEAR
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.core.errors import ConfigError

#: bump when the layout changes: an older file is read with the entries it lacks at their
#: rule-based values, a file of an unknown version is refused
LAYOUT_VERSION = 3
#: layout 1 (before the choices block) and 2 (before the sponsor block) still load
READABLE_LAYOUTS = (1, 2, 3)
GAME = "automobiles"

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
#: layout version -> entries a file of that version holds (a prefix of today's names)
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


def card_of_name(name: str) -> int:
    """Card index of a card's data name ("Camber & Toe") or effect name ("camber_toe")."""
    key = name.strip().lower().replace("&", "").replace(" ", "_").replace("__", "_")
    key = {"diesel_engine": "diesel", "hybrid_engine": "hybrid", "rotary_engine": "rotary",
           "fuel_injection_engine": "fuel_injection", "bump__run": "bump_run",
           "camber__toe": "camber_toe"}.get(key, key)
    if key not in CARDS:
        raise ConfigError(f"unknown Automobiles card {name!r}; known: {', '.join(CARDS)}")
    return CARDS.index(key)


def rule_based_vector() -> np.ndarray:
    """The vector at which the tuned policy plays exactly like the rule-based agent."""
    from transit_gym.agents.rule_based import automobiles as rb  # the rule-based tables and kernels

    v = np.zeros(VECTOR_SIZE, dtype=np.float64)
    eff = np.zeros(NUM_COLOURS, dtype=np.int64)
    for c in GEARS:
        eff[:] = 0
        v[card_param(c, K_KEEP)] = rb._keep(eff, c)
        v[card_param(c, K_BUY)] = rb._buy_want(eff, c)
        v[card_param(c, K_ORDER)] = rb._order(eff, c)
    eff[:] = 0
    eff[WEAR] = 1
    v[card_param(WEAR, K_KEEP)] = rb._keep(eff, WEAR)
    v[card_param(WEAR, K_BUY)] = rb._buy_want(eff, WEAR)
    v[card_param(WEAR, K_ORDER)] = rb._order(eff, WEAR)
    market = 5   # a market colour holding the effect
    for e in range(2, len(EFFECTS)):
        eff[:] = 0
        eff[market] = e
        card = card_of_effect(e)
        v[card_param(card, K_KEEP)] = rb._keep(eff, market)
        v[card_param(card, K_BUY)] = rb._buy_want(eff, market)
        v[card_param(card, K_ORDER)] = rb._order(eff, market)
    for card in range(NUM_CARDS):
        v[card_param(card, K_WANT)] = 99.0
        v[card_param(card, K_GATE)] = 1.0
    v[SCALAR_BASE + S["pit_stop_wear"]] = rb.PIT_STOP_WEAR
    v[SCALAR_BASE + S["fuel_min_gears"]] = rb.FUEL_MIN_GEARS
    v[SCALAR_BASE + S["camber_max_gear"]] = 1       # white or light gray
    v[SCALAR_BASE + S["bump_min_rank"]] = 1         # not when starting first
    v[SCALAR_BASE + S["adrenaline_min_pass"]] = 1
    v[SCALAR_BASE + S["take_back_keep"]] = rb.TAKE_BACK_KEEP
    v[SCALAR_BASE + S["fs_remove_keep"]] = rb.FS_REMOVE_KEEP
    v[SCALAR_BASE + S["boost_min_picks"]] = 1
    v[SCALAR_BASE + S["supercharged_min_keep"]] = 2
    v[SCALAR_BASE + S["driver_wanted"]] = rb.DRIVER_WANTED
    v[SCALAR_BASE + S["driver_bag_wanted"]] = rb.DRIVER_BAG_WANTED
    v[SCALAR_BASE + S["driver_weak"]] = rb.DRIVER_WEAK
    v[SCALAR_BASE + S["cost_weight"]] = 0.01        # ``want * 100 + cost``, scaled by 1/100
    for rank, d in enumerate(rb.DRIVER_PREFERENCE):
        v[driver_param(int(d), 0)] = NUM_DRIVERS - rank
        v[driver_param(int(d), 1)] = 1.0
    for name, value in choices_rule_based().items():
        v[CHOICE_BASE + C[name]] = value
    v[SPONSOR_BASE:] = rule_based_sponsor_entries()
    return v


def rule_based_sponsor_entries() -> np.ndarray:
    """The sponsor block at which the season policy decides like the rule-based season
    agent (``agents.rule_based.automobiles_season``: its ``sponsor_worth`` weights, keep on
    a tie, drop judged at the middle place, ``MIN_BAG``, ``WEAK_CUBE``, its race tables)."""
    from transit_gym.agents.rule_based import automobiles_season as rs

    out = np.zeros(NUM_SPONSOR_PARAMS, dtype=np.float64)
    # sponsor_worth = money + 2 extra + wear + 4 gain + per_extra * extra + per_nonwear
    out[[P_MONEY, P_EXTRA, P_WEAR, P_GAIN, P_PER_EXTRA, P_PER_NONWEAR]] = (1, 2, 1, 4, 1, 1)
    out[P_KEEP_BIAS] = 0.0        # keeps the own sponsor on a tie
    out[P_DROP_PLACE] = 1         # the sponsor worth most to the others, at the middle place
    out[P_MIN_BAG] = rs.MIN_BAG
    out[P_WEAK_CUBE] = rs.WEAK_CUBE
    out[P_OWN_TABLES] = 0.0
    return out


@dataclass
class TunedVector:
    """A parameter vector with what it was tuned for."""

    values: np.ndarray
    market: dict = field(default_factory=dict)   # the configuration it was tuned on
    meta: dict = field(default_factory=dict)     # optimiser, seed, budget, score...

    def __post_init__(self) -> None:
        self.values = np.asarray(self.values, dtype=np.float64)
        if self.values.shape != (VECTOR_SIZE,):
            raise ConfigError(f"a tuned {GAME} vector has {VECTOR_SIZE} entries, "
                              f"got shape {self.values.shape}")
        if not np.all(np.isfinite(self.values)):
            raise ConfigError("a tuned vector must hold finite numbers only")

    def to_json(self) -> dict:
        return {"game": GAME, "layout_version": LAYOUT_VERSION, "market": self.market,
                "meta": self.meta, "params": dict(zip(names(), self.values.tolist(), strict=True))}

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        return path


def load(path: str | Path) -> TunedVector:
    """Read a vector file; a wrong game, layout version or parameter set is a ConfigError."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"no tuned vector file {str(path)!r}")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ConfigError(f"tuned vector file {str(path)!r} is not JSON: {err}") from None
    if data.get("game") != GAME:
        raise ConfigError(f"{str(path)!r} is a vector for game {data.get('game')!r}, "
                          f"not {GAME!r}")
    version = data.get("layout_version")
    if isinstance(version, bool) or version not in READABLE_LAYOUTS:
        raise ConfigError(f"{str(path)!r} has layout version {version!r}; this code reads "
                          f"versions {', '.join(map(str, READABLE_LAYOUTS))}")
    params = data.get("params", {})
    size = VERSION_SIZES[version]
    expected = names()[:size]
    missing = [n for n in expected if n not in params]
    extra = [n for n in params if n not in expected]
    if missing or extra:
        raise ConfigError(f"{str(path)!r} (layout {version}): parameters missing "
                          f"{missing[:5]} / unknown {extra[:5]}")
    values = rule_based_vector()   # entries an older layout lacks: their rule-based values
    values[:size] = [float(params[n]) for n in expected]
    return TunedVector(values, data.get("market", {}), data.get("meta", {}))
