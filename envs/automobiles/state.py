"""The Automobiles state and parameter vectors: flat int64 arrays with named fields.

Cubes of one colour are interchangeable, so every pile is a count per colour: the
stock, and per seat the bag, the active pile, the used pile and the discard pile.
Cubes placed on the track this turn (always the seat on turn's) are counted in
``on_track`` and listed in ``placed_*``; cubes drawn by Nitro wait in ``drawn`` until
the player keeps one. Every cube is in exactly one of these places.

Positions on the board: a car is in space ``car_space`` at segment ``car_seg`` (0 = the
front segment); ``car_abs`` is the unwrapped position of the front edge of that
segment, counted from the finish line (negative before the first crossing), so race
order and line crossings are plain integer comparisons.

The module-level offsets are compile-time constants of the kernels.
"""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles.data import (
    E_BOOST,
    E_BURNOUT,
    E_CAMBER_TOE,
    E_CAR_CHIEF,
    E_ENGINEER,
    E_FACTORY_SUPPORT,
    E_IMPACT_WRENCH,
    E_INTERNAL_COMBUSTION,
    E_MAINTENANCE_STAFF,
    E_MANAGER,
    E_MECHANIC,
    E_NITRO,
    E_PERFORMANCE_TESTING,
    E_PIT_CREW,
    E_PIT_MECHANIC,
    E_PIT_TEAM,
    E_STEERING,
    E_SUPERCHARGED,
    E_SUSPENSION,
    E_TIRES,
    MAX_CARDS,
    MAX_LANES,
    MAX_LAP,
    MAX_PLAYERS,
    MAX_SPACES,
    NUM_COLOURS,
    NUM_GEARS,
)
from transit_gym.envs.automobiles.racing_season.driver_data import NUM_DRIVERS
from transit_gym.envs.core.layout import Layout

NC = NUM_COLOURS
#: the most markets ``exclude_sets`` may keep out of ``card_set="random"`` draws
MAX_EXCLUDED_SETS = 16
MP = MAX_PLAYERS
MAX_PLACED = 48      # cubes placed on the track in one turn
MAX_PATH = 96        # spaces moved on in one turn

# ----- decisions (field ``phase``) ------------------------------------------------------------
PHASE_NAMES = (
    "setup_buy",         # spend the allowance (Setup 7)
    "action",            # activate a cube, end the Action Phase, or take a pit stop
    "buy",               # Buy Phase
    "move",              # choose the next track space for the cube being moved
    "car_chief",         # gear cube to remove from the discard pile
    "engineer",          # cubes to put from the active into the discard pile
    "remove",            # cubes to remove from the discard pile
    "manager_remove",    # optional cube to remove from the active pile
    "manager_bag",       # optional cube (active or discard) to put back into the bag
    "mechanic",          # active cube to put in the used pile without its effect
    "pit_crew",          # remove all discarded wear, or start removing 2 cubes
    "pit_team",          # cubes to remove from the discard pile for their cost
    "pit_team_buy",      # the one cube bought with that cost
    "steering",          # gear cube to put from the active into the discard pile
    "suspension",        # gear cube of the discard pile naming the colour
    "tires",             # gear cube of the active pile naming the colours below it
    "boost",             # draw another cube (with wear) or stop
    "boost_other",       # a player offered one free draw by another player's Boost
    "nitro",             # which drawn cube goes to the active pile
    "supercharged",      # cubes to take from the discard into the active pile
    # Racing Season delayed cards (racing_season/cards_delayed.py): Adrenaline, Crate Motor
    "adrenaline",        # option 1 (a light gray space now) or option 2 (A_STOP: Car Phase)
    "adrenaline_move",   # Car Phase: the car's light gray spaces for positions gained
    "crate_move",        # a car behind a Crate Motor user moves its awarded spaces
    # Racing Season, cards that move (racing_season/cards_moves.py)
    "burnout",           # Burnout: gear cube of the discard pile naming the colour below it
    "camber_toe",        # Camber & Toe: gear cube to put from the active into the discard pile
    # Racing Season cards that change piles (racing_season/cards_piles.py)
    "factory_support",   # the cube to remove from the active or the discard pile
    "maintenance_staff",  # cubes to remove from the active pile (then `bonus` each: remove)
    "performance_testing",  # draw another cube or stop
    "impact_wrench",     # cubes to remove from the discard pile, then the used wear goes
    "pit_mechanic",      # wear cubes to remove from the discard pile
    "internal_combustion",  # the active cube to put into the discard pile
    "internal_combustion_take",  # cubes to take back from the discard (1 wear each)
    # Racing Season drivers (drivers.py)
    "driver_draft",      # take one of the revealed drivers
    "driver_to_active",  # Driver 02: the discard cube to put into the active pile
    "driver_to_bag",     # Driver 03: discard cubes to put back into the bag
    "driver_declare",    # Driver 04: declare one more cube to draw, or stop and draw them
    "driver_sort",       # Driver 04: a drawn cube to the stock or the active pile (stop: bag)
    "driver_pay",        # Driver 05: discard cubes to remove for $1 each
    "driver_car",        # Driver 06: one more space of any colour after the Car Phase
    "driver_decline",    # Driver 01: light gray spaces for the Decline wear
    "driver_wear",       # Driver 08: wear cubes to remove before drawing
    "driver_extra",      # Drivers 07 and 09: draw one more cube, or stop
    "driver_redraw",     # Driver 10: drawn cubes to discard and draw again
    "over",
)
(PH_SETUP_BUY, PH_ACTION, PH_BUY, PH_MOVE, PH_CAR_CHIEF, PH_ENGINEER, PH_REMOVE,
 PH_MANAGER_REMOVE, PH_MANAGER_BAG, PH_MECHANIC, PH_PIT_CREW, PH_PIT_TEAM, PH_PIT_TEAM_BUY,
 PH_STEERING, PH_SUSPENSION, PH_TIRES, PH_BOOST, PH_BOOST_OTHER, PH_NITRO,
 PH_SUPERCHARGED) = range(PHASE_NAMES.index("supercharged") + 1)
PH_OVER = PHASE_NAMES.index("over")
# Racing Season delayed cards
PH_ADRENALINE, PH_ADRENALINE_MOVE, PH_CRATE_MOVE = (PHASE_NAMES.index(name) for name in (
    "adrenaline", "adrenaline_move", "crate_move"))
PH_BURNOUT, PH_CAMBER_TOE = PHASE_NAMES.index("burnout"), PHASE_NAMES.index("camber_toe")
# Racing Season drivers
(PH_DRIVER_DRAFT, PH_DRIVER_TO_ACTIVE, PH_DRIVER_TO_BAG, PH_DRIVER_DECLARE, PH_DRIVER_SORT,
 PH_DRIVER_PAY, PH_DRIVER_CAR, PH_DRIVER_DECLINE, PH_DRIVER_WEAR, PH_DRIVER_EXTRA,
 PH_DRIVER_REDRAW) = range(PHASE_NAMES.index("driver_draft"),
                           PHASE_NAMES.index("driver_redraw") + 1)
# Racing Season cards that change piles
(PH_FACTORY_SUPPORT, PH_MAINTENANCE_STAFF, PH_PERFORMANCE_TESTING, PH_IMPACT_WRENCH,
 PH_PIT_MECHANIC, PH_INTERNAL_COMBUSTION, PH_IC_TAKE) = (
    PHASE_NAMES.index(name) for name in (
        "factory_support", "maintenance_staff", "performance_testing", "impact_wrench",
        "pit_mechanic", "internal_combustion", "internal_combustion_take"))
NUM_PHASES = len(PHASE_NAMES)

_CARD_DECISIONS = {   # the card effect each decision of a resolving cube belongs to
    "car_chief": E_CAR_CHIEF, "engineer": E_ENGINEER, "manager_remove": E_MANAGER,
    "manager_bag": E_MANAGER, "mechanic": E_MECHANIC, "pit_crew": E_PIT_CREW,
    "pit_team": E_PIT_TEAM, "pit_team_buy": E_PIT_TEAM, "steering": E_STEERING,
    "suspension": E_SUSPENSION, "tires": E_TIRES, "boost": E_BOOST, "nitro": E_NITRO,
    "supercharged": E_SUPERCHARGED, "burnout": E_BURNOUT, "camber_toe": E_CAMBER_TOE,
    "factory_support": E_FACTORY_SUPPORT, "maintenance_staff": E_MAINTENANCE_STAFF,
    "performance_testing": E_PERFORMANCE_TESTING, "impact_wrench": E_IMPACT_WRENCH,
    "pit_mechanic": E_PIT_MECHANIC, "internal_combustion": E_INTERNAL_COMBUSTION,
    "internal_combustion_take": E_INTERNAL_COMBUSTION,
}
#: per phase, the card effect (``E_*``) whose resolving cube the decision belongs to; -1 none
PHASE_EFFECT = np.array([_CARD_DECISIONS.get(name, -1) for name in PHASE_NAMES],
                        dtype=np.int64)
_DRIVER_DECISIONS = {   # the drivers whose ability each decision after the draft is
    "driver_to_active": (2,), "driver_to_bag": (3,), "driver_declare": (4,),
    "driver_sort": (4,), "driver_pay": (5,), "driver_car": (6,), "driver_decline": (1,),
    "driver_wear": (8,), "driver_extra": (7, 9), "driver_redraw": (10,),
}
#: per phase, bit ``d`` set for each driver ``d`` (1..10) whose ability the decision is
PHASE_DRIVERS = np.array([sum(1 << d for d in _DRIVER_DECISIONS.get(name, ()))
                          for name in PHASE_NAMES], dtype=np.int64)

LAYOUT = Layout(
    [
        ("rng", 4),
        ("phase", 1),
        ("current", 1),          # seat deciding now
        ("turn_seat", 1),        # seat whose turn it is (differs during Boost offers)
        ("start_player", 1),
        ("rounds", 1),           # completed rounds
        ("end_triggered", 1),    # a car finished its last lap: the game ends with the round
        # the market: the card of each colour and its cost/value
        ("card_of", NC),
        ("cost", NC),
        ("value", NC),
        # cubes
        ("stock", NC),
        ("bag", MP * NC),
        ("active", MP * NC),
        ("used", MP * NC),       # cubes on the track are counted in on_track, not here
        ("discard", MP * NC),
        ("on_track", NC),
        ("drawn", NC),           # Nitro's drawn cubes waiting for the choice
        # cars
        ("car_space", MP),
        ("car_seg", MP),
        ("car_abs", MP),
        # this turn
        ("std_turn", 1),         # a standard turn has started (no pit stop any more)
        ("start_rank", 1),       # race position at the start of the Action Phase
        ("aero", 1),             # Aerodynamics used: no Decline wear
        ("top_colour", 1),       # highest gear colour moved on this turn, -1 = none
        ("act_colour", 1),       # colour of the cube whose effect is resolving
        ("placed_n", 1),
        ("placed_space", MAX_PLACED),
        ("placed_colour", MAX_PLACED),
        ("placed_abs", MAX_PLACED),   # unwrapped front edge of the cube's space
        ("placed_seg", MAX_PLACED),   # segment the cube sits on (behind cars already there)
        ("far", 1),              # index of the farthest placed cube, -1 = none
        ("path_n", 1),
        ("path_space", MAX_PATH),
        ("money", 1),            # Buy Phase / setup allowance left
        ("bought_n", 1),         # cubes bought in this buying decision
        # the cube being moved
        ("mv_mask", 1),          # gear colours still allowed (bits)
        ("mv_left", 1),          # spaces it may still move
        ("mv_min", 1),           # spaces it must still move
        ("mv_steps", 1),         # spaces moved so far
        ("mv_space", 1),         # its current space, -1 before the first step
        ("mv_abs", 1),           # unwrapped front edge of that space
        ("mv_seg", 1),           # segment it is on in that space
        # picks of a card effect
        ("pk_left", 1),          # cubes that may still be chosen
        ("pk_must", 1),          # cubes that must still be chosen
        ("pk_count", 1),         # cubes chosen so far
        ("pk_total", 1),         # Pit Team: cost of the removed cubes
        ("boost_bonus", 1),      # free draws offered to each other player
        ("boost_next", 1),       # next seat offset to offer them to
        ("pending_boost", MP),   # Accelerated Play: free draws waiting for the seat's turn
        # statistics for the balance tool
        ("leader", 1),
        ("lead_changes", 1),
        ("last_lead_round", 1),
        ("stat_bought", MP * NC),
        ("stat_activated", MP * NC),
        ("stat_wear", MP),
        ("stat_pit_stops", MP),
        ("stat_turns", MP),
        # Racing Season tracks / Weaving (rs_tracks): segment of its current space at which
        # the moving cube entered it (it passes the segments from there to where it rests)
        ("mv_entry", 1),
        # Racing Season delayed cards (racing_season/cards_delayed.py)
        ("adr_bonus", 1),        # Adrenaline option 2: light gray spaces per position gained
        ("adr_left", 1),         # light gray spaces the car may still move in the Car Phase
        ("crate_award", 1),      # Crate Motor: spaces each car behind gets after the End Phase
        ("crate_spaces", MP),    # spaces awarded to each car and not moved yet
        # Racing Season, cards that move (racing_season/cards_moves.py); reset in start_turn
        ("redline", 1),          # Redline active: white gear cubes may go on any gear colour
        ("redline_wear", 1),     # wear per white cube so used (the Redline card's ``wear``)
        ("fuel", 1),             # Fuel Injection: gear moves times this (0: not active)
        ("mv_mixed", 1),         # the moving cube may mix colours (Overdrive)
        ("mv_redline", 1),       # wear the moving white gains unless it stays on white
        # Racing Season drivers (drivers.py)
        ("driver_of", MP),           # driver number of each seat (1..10), 0 = none
        ("driver_pool", NUM_DRIVERS),   # 1: revealed in the draft and not taken yet
        ("driver_used", 1),          # the seat on turn used its once-a-turn ability
        ("driver_wear", 1),          # wear gained in this Decline Phase (Drivers 01, 07)
        ("driver_held", NC),         # Driver 04's drawn cubes waiting to be sorted
    ]
)
STATE_SIZE = LAYOUT.size
PHASE, CURRENT, TURN_SEAT, START_PLAYER = LAYOUT.offsets("phase current turn_seat start_player")
ROUNDS, END_TRIGGERED = LAYOUT.offsets("rounds end_triggered")
CARD_OF, COST, VALUE = LAYOUT.offsets("card_of cost value")
STOCK, BAG, ACTIVE, USED, DISCARD = LAYOUT.offsets("stock bag active used discard")
ON_TRACK, DRAWN = LAYOUT.offsets("on_track drawn")
CAR_SPACE, CAR_SEG, CAR_ABS = LAYOUT.offsets("car_space car_seg car_abs")
STD_TURN, START_RANK, AERO, TOP_COLOUR, ACT_COLOUR = LAYOUT.offsets(
    "std_turn start_rank aero top_colour act_colour")
PLACED_N, PLACED_SPACE, PLACED_COLOUR, PLACED_ABS, PLACED_SEG = LAYOUT.offsets(
    "placed_n placed_space placed_colour placed_abs placed_seg")
FAR, PATH_N, PATH_SPACE = LAYOUT.offsets("far path_n path_space")
MONEY, BOUGHT_N = LAYOUT.offsets("money bought_n")
MV_MASK, MV_LEFT, MV_MIN, MV_STEPS = LAYOUT.offsets("mv_mask mv_left mv_min mv_steps")
MV_SPACE, MV_ABS, MV_SEG = LAYOUT.offsets("mv_space mv_abs mv_seg")
PK_LEFT, PK_MUST, PK_COUNT, PK_TOTAL = LAYOUT.offsets("pk_left pk_must pk_count pk_total")
BOOST_BONUS, BOOST_NEXT, PENDING_BOOST = LAYOUT.offsets("boost_bonus boost_next pending_boost")
LEADER, LEAD_CHANGES, LAST_LEAD_ROUND = LAYOUT.offsets("leader lead_changes last_lead_round")
STAT_BOUGHT, STAT_ACTIVATED, STAT_WEAR = LAYOUT.offsets("stat_bought stat_activated stat_wear")
STAT_PIT_STOPS, STAT_TURNS = LAYOUT.offsets("stat_pit_stops stat_turns")
MV_ENTRY = LAYOUT.offset("mv_entry")   # Racing Season tracks / Weaving
# Racing Season delayed cards
ADR_BONUS, ADR_LEFT, CRATE_AWARD, CRATE_SPACES = LAYOUT.offsets(
    "adr_bonus adr_left crate_award crate_spaces")
# Racing Season, cards that move (racing_season/cards_moves.py)
REDLINE, REDLINE_WEAR, FUEL = LAYOUT.offsets("redline redline_wear fuel")
MV_MIXED, MV_REDLINE = LAYOUT.offsets("mv_mixed mv_redline")
# Racing Season drivers
DRIVER_OF, DRIVER_POOL, DRIVER_USED = LAYOUT.offsets("driver_of driver_pool driver_used")
DRIVER_WEAR, DRIVER_HELD = LAYOUT.offsets("driver_wear driver_held")

# ----- the parameter vector: options and data tables ------------------------------------------
PARAMS = Layout(
    [
        ("num_players", 1),
        ("laps", 1),
        ("lap_length", 1),
        ("num_spaces", 1),
        ("start_player", 1),     # seat, or -1 for a seeded random seat
        ("open_bags", 1),
        ("accelerated", 1),      # Accelerated Play: Boost's free draws wait for that turn
        ("branch", 1),           # later cubes may also start next to the car again
        ("buy_wear", 1),
        ("draft_space", 1),      # drafting also from the space directly behind a car
        ("max_rounds", 1),
        ("grid_offset", 1),      # subtracted from the grid positions (start crossing counts?)
        ("hand_size", 1),
        ("supply", NC),
        ("starting_bag", NC),
        ("wear_chart", NUM_GEARS),
        ("allowance", MP),
        ("grid", MP),
        ("space_lane", MAX_SPACES),
        ("space_end", MAX_SPACES),
        ("space_len", MAX_SPACES),
        ("space_colours", MAX_SPACES),
        ("space_top", MAX_SPACES),     # highest colour of the space
        ("next_same", MAX_SPACES),
        ("cover", MAX_LANES * MAX_LAP),   # space of lane l covering unit [x, x+1): l * MAX_LAP + x
        ("num_cards", 1),
        ("card_colour", MAX_CARDS),
        ("card_effect", MAX_CARDS),
        ("card_cost", MAX_CARDS),
        ("card_value", MAX_CARDS),
        ("card_wear", MAX_CARDS),
        ("card_count", MAX_CARDS),
        ("card_bonus", MAX_CARDS),
        ("card_set", NC),        # card id per colour; -1: drawn at random in setup
        ("card_in_pool", MAX_CARDS),   # 1: card_set="random" may draw this card
        # Racing Season tracks / Weaving (rs_tracks)
        ("slot_of", MAX_SPACES),   # 1 + id of the own-space start slot cut from it, 0 = none
        ("weaving", 1),            # Variant Weaving: leave a long space sideways early
        # Racing Season drivers (drivers.py)
        # drivers: 0 off, 1 draft from players + extra revealed, 2 from all (BGA table option)
        ("drivers", 1),
        ("driver_extra", 1),     # drivers revealed beyond one per player
        ("driver_amount", NUM_DRIVERS),   # the number on each card (0 = any number)
        ("driver_price", NUM_DRIVERS),    # $ per cube (Driver 05)
        # markets card_set="random" never draws (exclude_sets): a card id per colour each
        ("num_excluded", 1),
        ("excluded_sets", MAX_EXCLUDED_SETS * NC),
    ]
)
P_NUM_PLAYERS, P_LAPS, P_LAP, P_NUM_SPACES = PARAMS.offsets(
    "num_players laps lap_length num_spaces")
P_START, P_OPEN_BAGS, P_ACCELERATED, P_BRANCH = PARAMS.offsets(
    "start_player open_bags accelerated branch")
P_BUY_WEAR, P_DRAFT_SPACE, P_MAX_ROUNDS, P_GRID_OFFSET = PARAMS.offsets(
    "buy_wear draft_space max_rounds grid_offset")
P_HAND, P_SUPPLY, P_STARTING_BAG, P_WEAR_CHART = PARAMS.offsets(
    "hand_size supply starting_bag wear_chart")
P_ALLOWANCE, P_GRID = PARAMS.offsets("allowance grid")
P_SPACE_LANE, P_SPACE_END, P_SPACE_LEN, P_SPACE_COLOURS, P_SPACE_TOP = PARAMS.offsets(
    "space_lane space_end space_len space_colours space_top")
P_NEXT_SAME, P_COVER = PARAMS.offsets("next_same cover")
P_NUM_CARDS, P_CARD_COLOUR, P_CARD_EFFECT = PARAMS.offsets("num_cards card_colour card_effect")
P_CARD_COST, P_CARD_VALUE, P_CARD_WEAR = PARAMS.offsets("card_cost card_value card_wear")
P_CARD_COUNT, P_CARD_BONUS, P_CARD_SET = PARAMS.offsets("card_count card_bonus card_set")
P_CARD_IN_POOL = PARAMS.offset("card_in_pool")
P_SLOT_OF, P_WEAVING = PARAMS.offsets("slot_of weaving")   # Racing Season tracks / Weaving
# Racing Season drivers
P_DRIVERS, P_DRIVER_EXTRA = PARAMS.offsets("drivers driver_extra")
P_DRIVER_AMOUNT, P_DRIVER_PRICE = PARAMS.offsets("driver_amount driver_price")
P_NUM_EXCLUDED, P_EXCLUDED_SETS = PARAMS.offsets("num_excluded excluded_sets")
