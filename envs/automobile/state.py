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
PHASE = LAYOUT.offset("phase")
CURRENT = LAYOUT.offset("current")
TURN = LAYOUT.offset("turn")
ROUND = LAYOUT.offset("round")
POS = LAYOUT.offset("pos")
CTX_SPACE = LAYOUT.offset("ctx_space")
CTX_MODE = LAYOUT.offset("ctx_mode")
CTX_COUNT = LAYOUT.offset("ctx_count")
CTX_SRC = LAYOUT.offset("ctx_src")
CTX_DST = LAYOUT.offset("ctx_dst")
CTX_AFTER = LAYOUT.offset("ctx_after")
FORD_USED = LAYOUT.offset("ford_used")
HOWARD_LEFT = LAYOUT.offset("howard_left")
SEL_ORDER = LAYOUT.offset("sel_order")
NEXT_ORDER = LAYOUT.offset("next_order")
NEXT_LEN = LAYOUT.offset("next_len")
PLAY_ORDER = LAYOUT.offset("play_order")
CHAR_OF = LAYOUT.offset("char_of")
CHAR_SEAT = LAYOUT.offset("char_seat")
CHAR_RD = LAYOUT.offset("char_rd")
CASH = LAYOUT.offset("cash")
BANK = LAYOUT.offset("bank")
RD = LAYOUT.offset("rd")
RD_STOCK = LAYOUT.offset("rd_stock")
LOSS = LAYOUT.offset("loss")
LOANS = LAYOUT.offset("loans")
SHOW = LAYOUT.offset("show")
USED = LAYOUT.offset("used")
FAC_COUNT = LAYOUT.offset("fac_count")
PARTS_AT = LAYOUT.offset("parts_at")
CAR_COUNT = LAYOUT.offset("car_count")
OWNER = LAYOUT.offset("owner")
FACTORIES = LAYOUT.offset("factories")
PARTS = LAYOUT.offset("parts")
CLOSED = LAYOUT.offset("closed")
CARS = LAYOUT.offset("cars")
PRODUCED = LAYOUT.offset("produced")
AD = LAYOUT.offset("ad")
DISC = LAYOUT.offset("disc")
FRONTIER = LAYOUT.offset("frontier")
TILES = LAYOUT.offset("tiles")
BAG = LAYOUT.offset("bag")
BAG_TILES = LAYOUT.offset("bag_tiles")
DEMAND = LAYOUT.offset("demand")
BOXES = LAYOUT.offset("boxes")
ADS_BOUGHT = LAYOUT.offset("ads_bought")
DISC_AVAIL = LAYOUT.offset("disc_avail")
CLOSURES_USED = LAYOUT.offset("closures_used")
PASSED = LAYOUT.offset("passed")
TURN_LOSS = LAYOUT.offset("turn_loss")
STAT_PRODUCED = LAYOUT.offset("stat_produced")
STAT_SOLD_HOWARD = LAYOUT.offset("stat_sold_howard")
STAT_SOLD_SALESMEN = LAYOUT.offset("stat_sold_salesmen")
STAT_SOLD_DEMAND = LAYOUT.offset("stat_sold_demand")
STAT_UNSOLD = LAYOUT.offset("stat_unsold")
STAT_IDLE = LAYOUT.offset("stat_idle_salesmen")
STAT_LOSS_TAKEN = LAYOUT.offset("stat_loss_taken")
STAT_LOSS_PAID = LAYOUT.offset("stat_loss_paid")
STAT_INTEREST = LAYOUT.offset("stat_interest")
STAT_REVENUE = LAYOUT.offset("stat_revenue")
STAT_BUILT = LAYOUT.offset("stat_built")
STAT_CLOSED = LAYOUT.offset("stat_closed")
STAT_FORCED_LOANS = LAYOUT.offset("stat_forced_loans")
STAT_UNPAID = LAYOUT.offset("stat_unpaid")
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
P_NUM_PLAYERS = PARAMS.offset("num_players")
P_FIRST = PARAMS.offset("first_player")
P_FRONTIER_MODE = PARAMS.offset("frontier_mode")
P_PARTS_WITH_NEW = PARAMS.offset("parts_with_new")
P_SLOAN_MODE = PARAMS.offset("sloan_mode")
P_SHORTFALL = PARAMS.offset("shortfall")
P_MARKERS_ON_CLOSED = PARAMS.offset("markers_on_closed")
P_DURANT_BORROW = PARAMS.offset("durant_borrow")
P_REWARD = PARAMS.offset("reward_mode")
P_BANK_TOTAL = PARAMS.offset("bank_total")
P_MONEY = PARAMS.offset("money")
P_START_RD = PARAMS.offset("start_rd")
P_RD_CUBES = PARAMS.offset("rd_cubes")
P_MAX_CARS = PARAMS.offset("max_cars")
P_SALESMEN = PARAMS.offset("salesmen")
P_MAX_FACTORIES = PARAMS.offset("max_factories")
P_PARTS_FACTORIES = PARAMS.offset("parts_factories")
P_LOANS_MAX = PARAMS.offset("loans_max")
P_LOAN_AMOUNT = PARAMS.offset("loan_amount")
P_LOAN_INTEREST = PARAMS.offset("loan_interest")
P_LOAN_REPAY = PARAMS.offset("loan_repay")
P_MAX_PER_SPACE = PARAMS.offset("max_per_space")
P_PARTS_COST = PARAMS.offset("parts_cost")
P_PARTS_REFUND = PARAMS.offset("parts_refund")
P_CLOSE_REDUCTION = PARAMS.offset("close_reduction")
P_PARTS_DISCOUNT = PARAMS.offset("parts_discount")
P_PER_ACTION = PARAMS.offset("salesmen_per_action")
P_HOWARD_CARS = PARAMS.offset("howard_cars")
P_CLOSURES = PARAMS.offset("closures")
P_NUM_ADS = PARAMS.offset("num_ads")
P_NUM_STACKS = PARAMS.offset("num_stacks")
P_NUM_TILE_KINDS = PARAMS.offset("num_tile_kinds")
P_SEGMENT = PARAMS.offset("segment")
P_COST = PARAMS.offset("cost")
P_PROD_COST = PARAMS.offset("prod_cost")
P_PROD_MIN = PARAMS.offset("prod_min")
P_PROD_MAX = PARAMS.offset("prod_max")
P_PRICE_TOP = PARAMS.offset("price_top")
P_PRICE_LOW = PARAMS.offset("price_low")
P_BOX_CAP = PARAMS.offset("box_cap")
P_LOSS_PRICE = PARAMS.offset("loss_price")
P_TILES_PER_PLAYER = PARAMS.offset("tiles_per_player")
P_HIGHER_SEG = PARAMS.offset("higher_seg")
P_LOWER_SEG = PARAMS.offset("lower_seg")
P_PREMIUM_BAG = PARAMS.offset("premium_bag")
P_MASS_BAG = PARAMS.offset("mass_bag")
P_TILE_VALUES = PARAMS.offset("tile_values")
P_TILE_COUNTS = PARAMS.offset("tile_counts")
P_CHAR_RD = PARAMS.offset("char_rd")
P_AD_COSTS = PARAMS.offset("ad_costs")
P_STACKS = PARAMS.offset("stacks")

#: the bank's starting balance (paper money is unlimited; a large counter keeps transfers visible)
BANK_TOTAL = 1_000_000_000
