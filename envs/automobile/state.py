"""The Automobile state: one flat int64 vector with named fields (see DEVELOPING.md).

Per-seat fields hold ``MAX_PLAYERS`` slots (seats beyond the player count stay
unused); per-space fields hold the 26 production spaces, least advanced first.
Money is in dollars; the bank is a finite counter so that every payment is
visibly a transfer (``bank + sum(cash)`` never changes). R&D cubes are likewise
counted in the stock, on the character tiles and in front of the players.

The pending decision is ``phase`` (a ``PH_*`` constant) of seat ``current``,
with its context in the ``ctx_*`` fields. The module-level offsets are
compile-time constants inside the kernels.
"""

from __future__ import annotations

from transit_gym.envs.automobile.data import (
    MAX_ADS,
    MAX_STACKS,
    MAX_TILE_KINDS,
    NUM_LEVELS,
    NUM_SPACES,
    NUM_TURNS,
)
from transit_gym.envs.core.layout import Layout

MAX_PLAYERS = 5
NUM_SEGMENTS = 3
NUM_CHARACTERS = 6
TILES_PER_SEAT = 2

# ----- decisions (field ``phase``) ----------------------------------------------------------
PH_SELECT = 0        # P2: pick a character
PH_DURANT = 1        # P2: Durant's immediate build (a space, a loan, or decline if unaffordable)
PH_ACTION = 2        # P3: choose one of the five actions (or Ford's extra build, or a loan)
PH_BUILD_SPACE = 3   # P3: where to build (context: ctx_mode)
PH_BUILD_WHAT = 4    # P3: what to build on ctx_space
PH_FORD_AFTER = 5    # P3: Ford's extra build after the normal action, or done
PH_SALESMEN = 6      # P3: place one salesman in a showroom, or stop
PH_PRODUCE = 7       # P3: how many cars to produce on ctx_space (0 = skip)
PH_CLOSE = 8         # P3: which space to close down
PH_HOWARD = 9        # P4: from which space Howard takes the next car
PH_SALE_MOVE = 10    # P5: which salesman moves to which sales track
PH_SALE_CAR = 11     # P5: from which space the salesman's car comes
PH_EXEC = 12         # P6: executive decision or pass
PH_EXEC_SPACE = 13   # P6: space for the closure / advertisement / discount (ctx_mode)
PH_OVER = 14
NUM_PHASES = 15

# build modes (ctx_mode in build phases)
BUILD_NORMAL, BUILD_FORD, BUILD_DURANT = 0, 1, 2
# executive-decision kinds (ctx_mode in PH_EXEC_SPACE)
EXEC_CLOSE, EXEC_AD, EXEC_DISC1, EXEC_DISC2 = 0, 1, 2, 3

LAYOUT = Layout(
    [
        ("rng", 4),
        ("phase", 1),
        ("current", 1),             # seat deciding now
        ("turn", 1),                # 0..3
        ("round", 1),               # P3 action round 0..2
        ("pos", 1),                 # index into play_order (P3-P6) or sel_order (P2)
        ("ctx_space", 1),           # space chosen for the pending build / production
        ("ctx_mode", 1),            # build mode or executive-decision kind
        ("ctx_count", 1),           # salesmen placed in this action
        ("ctx_src", 1),             # P5: showroom of the moving salesman
        ("ctx_dst", 1),             # P5: sales track it moves to
        ("ctx_after", 1),           # Ford's build is taken after the normal action
        ("ford_used", 1),           # Ford's extra build done this turn
        ("howard_left", 1),         # cars Howard still has to take
        ("sel_order", MAX_PLAYERS),   # character-selection order of this turn
        ("next_order", MAX_PLAYERS),  # P6 pass order = next turn's selection order
        ("next_len", 1),
        ("play_order", MAX_PLAYERS),  # seats by character, top to bottom (P3-P6)
        ("char_of", MAX_PLAYERS),     # character of each seat, -1 none
        ("char_seat", NUM_CHARACTERS),  # seat holding each character, -1 none
        ("char_rd", NUM_CHARACTERS),    # R&D cubes lying on each character tile
        ("cash", MAX_PLAYERS),
        ("bank", 1),
        ("rd", MAX_PLAYERS),
        ("rd_stock", 1),
        ("loss", MAX_PLAYERS),        # loss cubes held
        ("loans", MAX_PLAYERS),
        ("show", MAX_PLAYERS * NUM_SEGMENTS),   # salesmen in each showroom box
        ("used", MAX_PLAYERS * NUM_SEGMENTS),   # P5: salesmen on each sales track
        ("fac_count", MAX_PLAYERS),   # factories on the board
        ("parts_at", MAX_PLAYERS),    # space of the parts factory, -1 in stock
        ("car_count", MAX_PLAYERS),   # cars on the board
        ("owner", NUM_SPACES),        # -1 never built; stays set on a closed space (its cars)
        ("factories", NUM_SPACES),
        ("parts", NUM_SPACES),
        ("closed", NUM_SPACES),
        ("cars", NUM_SPACES),
        ("produced", NUM_SPACES),     # cars were produced here this turn
        ("ad", NUM_SPACES),
        ("disc", NUM_SPACES),
        ("frontier", 1),              # most advanced space ever built in, -1 none
        ("tiles", MAX_PLAYERS * TILES_PER_SEAT),  # own demand tiles, higher first, 0 none
        ("bag", MAX_TILE_KINDS),      # demand tiles in the bag, per kind
        ("bag_tiles", 2),             # P7 tiles from the bag: premium, extra mass (0 none)
        ("demand", NUM_SEGMENTS),     # demand last revealed in P7, by segment
        ("boxes", NUM_SEGMENTS),      # P5: filled sale boxes per sales track
        ("ads_bought", 1),
        ("disc_avail", MAX_STACKS),   # markers left on each discount display space
        ("closures_used", 1),
        ("passed", MAX_PLAYERS),      # P6
        ("turn_loss", MAX_PLAYERS),   # loss cubes taken this turn (Sloan option 'taken')
        ("stat_produced", MAX_PLAYERS),
        ("stat_sold_howard", MAX_PLAYERS),
        ("stat_sold_salesmen", MAX_PLAYERS),
        ("stat_sold_demand", MAX_PLAYERS),
        ("stat_unsold", MAX_PLAYERS),
        ("stat_idle_salesmen", MAX_PLAYERS),
        ("stat_loss_taken", MAX_PLAYERS),
        ("stat_loss_paid", MAX_PLAYERS),   # dollars paid for loss cubes
        ("stat_interest", MAX_PLAYERS),    # dollars paid in interest
        ("stat_revenue", MAX_PLAYERS),     # dollars from car sales
        ("stat_built", MAX_PLAYERS),       # factory pieces built (parts factories included)
        ("stat_closed", MAX_PLAYERS),      # spaces closed down
        ("stat_forced_loans", MAX_PLAYERS),
        ("stat_unpaid", MAX_PLAYERS),      # dollars forgiven (shortfall='forgive')
        ("stat_end_value", MAX_PLAYERS),   # factory value cashed in at the end
    ]
)

STATE_SIZE = LAYOUT.size
PHASE, CURRENT, TURN, ROUND, POS = LAYOUT.offsets("phase current turn round pos")
CTX_SPACE, CTX_MODE, CTX_COUNT, CTX_SRC = LAYOUT.offsets("ctx_space ctx_mode ctx_count ctx_src")
CTX_DST, CTX_AFTER, FORD_USED = LAYOUT.offsets("ctx_dst ctx_after ford_used")
HOWARD_LEFT, SEL_ORDER, NEXT_ORDER = LAYOUT.offsets("howard_left sel_order next_order")
NEXT_LEN, PLAY_ORDER, CHAR_OF, CHAR_SEAT = LAYOUT.offsets("next_len play_order char_of char_seat")
CHAR_RD, CASH, BANK, RD, RD_STOCK, LOSS = LAYOUT.offsets("char_rd cash bank rd rd_stock loss")
LOANS, SHOW, USED, FAC_COUNT, PARTS_AT = LAYOUT.offsets("loans show used fac_count parts_at")
CAR_COUNT, OWNER, FACTORIES, PARTS = LAYOUT.offsets("car_count owner factories parts")
CLOSED, CARS, PRODUCED, AD, DISC, FRONTIER = LAYOUT.offsets("closed cars produced ad disc frontier")
TILES, BAG, BAG_TILES, DEMAND, BOXES = LAYOUT.offsets("tiles bag bag_tiles demand boxes")
ADS_BOUGHT, DISC_AVAIL, CLOSURES_USED = LAYOUT.offsets("ads_bought disc_avail closures_used")
PASSED, TURN_LOSS, STAT_PRODUCED = LAYOUT.offsets("passed turn_loss stat_produced")
STAT_SOLD_HOWARD, STAT_SOLD_SALESMEN = LAYOUT.offsets("stat_sold_howard stat_sold_salesmen")
STAT_SOLD_DEMAND, STAT_UNSOLD = LAYOUT.offsets("stat_sold_demand stat_unsold")
STAT_IDLE, STAT_LOSS_TAKEN = LAYOUT.offsets("stat_idle_salesmen stat_loss_taken")
STAT_LOSS_PAID, STAT_INTEREST = LAYOUT.offsets("stat_loss_paid stat_interest")
STAT_REVENUE, STAT_BUILT, STAT_CLOSED = LAYOUT.offsets("stat_revenue stat_built stat_closed")
STAT_FORCED_LOANS, STAT_UNPAID = LAYOUT.offsets("stat_forced_loans stat_unpaid")
STAT_END_VALUE = LAYOUT.offset("stat_end_value")

# ----- the parameter vector: options and data tables, fixed for a configured game -----------
PARAMS = Layout(
    [
        ("num_players", 1),
        ("first_player", 1),       # seat, or -1 for a seeded random seat
        ("frontier_mode", 1),      # 0 furthest space ever built; 1 most advanced open space
        ("parts_with_new", 1),     # a factory + parts factory may open a new space
        ("sloan_mode", 1),         # 0 half of the cubes held; 1 half of this turn's cubes
        ("shortfall", 1),          # 0 loans then debt; 1 debt; 2 forgiven
        ("markers_on_closed", 1),  # ads/discounts allowed on a closed space that produced
        ("durant_borrow", 1),      # Durant must borrow when a loan makes his build affordable
        ("reward_mode", 1),        # 0 win/loss; 1 cash difference
        ("bank_total", 1),
        ("money", 1),
        ("start_rd", 1),
        ("rd_cubes", 1),
        ("max_cars", 1),
        ("salesmen", 1),
        ("max_factories", 1),
        ("parts_factories", 1),
        ("loans_max", 1),
        ("loan_amount", 1),
        ("loan_interest", 1),
        ("loan_repay", 1),
        ("max_per_space", 1),
        ("parts_cost", 1),
        ("parts_refund", 1),
        ("close_reduction", 1),
        ("parts_discount", 1),
        ("salesmen_per_action", 1),
        ("howard_cars", 1),
        ("closures", 1),
        ("num_ads", 1),
        ("num_stacks", 1),
        ("num_tile_kinds", 1),
        ("segment", NUM_SPACES),
        ("cost", NUM_SPACES),
        ("prod_cost", NUM_SEGMENTS),
        ("prod_min", NUM_SEGMENTS * NUM_LEVELS),
        ("prod_max", NUM_SEGMENTS * NUM_LEVELS),
        ("price_top", NUM_SEGMENTS),
        ("price_low", NUM_SEGMENTS),
        ("box_cap", NUM_SEGMENTS * NUM_TURNS),    # usable sale boxes per track and turn
        ("loss_price", NUM_TURNS),
        ("tiles_per_player", NUM_TURNS),
        ("higher_seg", NUM_TURNS),
        ("lower_seg", NUM_TURNS),
        ("premium_bag", NUM_TURNS),
        ("mass_bag", NUM_TURNS),
        ("tile_values", MAX_TILE_KINDS),
        ("tile_counts", MAX_TILE_KINDS),
        ("char_rd", NUM_CHARACTERS),
        ("ad_costs", MAX_ADS),
        ("stacks", MAX_STACKS),
    ]
)
P_NUM_PLAYERS, P_FIRST, P_FRONTIER_MODE = PARAMS.offsets("num_players first_player frontier_mode")
P_PARTS_WITH_NEW, P_SLOAN_MODE, P_SHORTFALL = PARAMS.offsets("parts_with_new sloan_mode shortfall")
P_MARKERS_ON_CLOSED, P_DURANT_BORROW = PARAMS.offsets("markers_on_closed durant_borrow")
P_REWARD, P_BANK_TOTAL, P_MONEY = PARAMS.offsets("reward_mode bank_total money")
P_START_RD, P_RD_CUBES, P_MAX_CARS = PARAMS.offsets("start_rd rd_cubes max_cars")
P_SALESMEN, P_MAX_FACTORIES = PARAMS.offsets("salesmen max_factories")
P_PARTS_FACTORIES, P_LOANS_MAX = PARAMS.offsets("parts_factories loans_max")
P_LOAN_AMOUNT, P_LOAN_INTEREST = PARAMS.offsets("loan_amount loan_interest")
P_LOAN_REPAY, P_MAX_PER_SPACE, P_PARTS_COST = PARAMS.offsets("loan_repay max_per_space parts_cost")
P_PARTS_REFUND, P_CLOSE_REDUCTION = PARAMS.offsets("parts_refund close_reduction")
P_PARTS_DISCOUNT, P_PER_ACTION = PARAMS.offsets("parts_discount salesmen_per_action")
P_HOWARD_CARS, P_CLOSURES, P_NUM_ADS = PARAMS.offsets("howard_cars closures num_ads")
P_NUM_STACKS, P_NUM_TILE_KINDS, P_SEGMENT = PARAMS.offsets("num_stacks num_tile_kinds segment")
P_COST, P_PROD_COST, P_PROD_MIN, P_PROD_MAX = PARAMS.offsets("cost prod_cost prod_min prod_max")
P_PRICE_TOP, P_PRICE_LOW, P_BOX_CAP = PARAMS.offsets("price_top price_low box_cap")
P_LOSS_PRICE, P_TILES_PER_PLAYER = PARAMS.offsets("loss_price tiles_per_player")
P_HIGHER_SEG, P_LOWER_SEG, P_PREMIUM_BAG = PARAMS.offsets("higher_seg lower_seg premium_bag")
P_MASS_BAG, P_TILE_VALUES, P_TILE_COUNTS = PARAMS.offsets("mass_bag tile_values tile_counts")
P_CHAR_RD, P_AD_COSTS, P_STACKS = PARAMS.offsets("char_rd ad_costs stacks")

#: the bank's starting balance (paper money is unlimited; a large counter keeps transfers visible)
BANK_TOTAL = 1_000_000_000
