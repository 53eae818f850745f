"""The Planes state: one flat int64 vector with named fields, and the parameter vector.

A flat vector (as in every transit-gym game) so that kernels, the batch API and
``copy()`` work on plain arrays; ``State.to_dict()`` still names every field.

Cubes are counts per space and colour (0-3 the party colours, 4 grey): cubes of one
colour are interchangeable. Cards are counts per pile and card type: the four copies
of a card differ only in their player dot, which matters only with Player Decks,
where each seat's deck, discard pile, hand and goals hold that seat's dot alone.
Drawing a uniformly random card from the deck's counts is the same as drawing the top
card of a shuffled deck, and keeps the order of the deck out of the state entirely.
Blockage cones are not stored: a space has a cone exactly while it holds 7 or more
counted cubes, so cones "come and go at once" by construction.
"""

from __future__ import annotations

from transit_gym.envs.core.layout import Layout
from transit_gym.envs.planes import data

MAX_PLAYERS = 4

# ----- decisions (field ``phase``) -----------------------------------------------------------
PH_ACTION = 0        # play one card as an action, or none
PH_CHOOSE = 1        # the choose-one card: ignore blockages, or score a goal now
PH_EXTRA_GOAL = 2    # which goal to score now (choose-one, second option)
PH_DISCARD = 3       # draw-and-discard: which card to discard
PH_DEST = 4          # gather / send: which point of interest receives the cubes
PH_SOURCE = 5        # regroup: the space to gather at; send: the space a cube comes from
PH_START = 6         # the move: which space's cubes become active
PH_STEP = 7          # the move: drop a cube ahead, skip, pick an arrow, stop or board
PH_BRANCH = 8        # the move, after picking one of several arrows: drop or skip
PH_GOAL = 9          # score one goal, or none
PH_DRAW = 10         # empty hand at the end of the turn: draw one card, or not
PH_OVER = 11
NUM_PHASES = 11      # decisions (PH_OVER is not one)
PHASE_NAMES = ("action", "choose one", "extra goal", "discard", "destination", "source",
               "move start", "move step", "move branch", "goal", "end draw", "over")

LAYOUT = Layout(
    [
        ("rng", 4),
        ("phase", 1),
        ("current", 1),                          # seat deciding now (seat i plays colour i)
        ("first_player", 1),
        ("turns", 1),                            # completed turns
        ("end_triggered", 1),                    # 1: planes full or track end, 2: round limit
        ("cubes", data.MAX_SPACES * data.NUM_COLORS),  # cubes per space and colour
        ("box_cubes", data.NUM_COLORS),          # cubes left in the box (unused neutral cubes)
        ("gate_color", data.MAX_GATES),          # colour of each gate's plane, -1 no gate
        ("boarded", data.MAX_GATES),             # cubes on each plane
        ("track", 1),                            # boarding track: cubes boarded in all
        ("hand", MAX_PLAYERS * data.MAX_TYPES),  # cards per seat and type
        ("goals", MAX_PLAYERS * data.MAX_TYPES),  # scored goals per seat and type
        ("deck", MAX_PLAYERS * data.MAX_TYPES),  # draw deck(s): row 0 shared, row seat with
        ("discard", MAX_PLAYERS * data.MAX_TYPES),  # Player Decks; same for the discard pile(s)
        ("box_cards", data.MAX_TYPES),           # cards set aside (Player Decks, < 4 players)
        ("in_play", 1),                          # type of the action card played, -1 none
        ("sel_a", 1),                            # send: chosen destination, -1 none
        ("sel_b", 1),                            # send 2: first chosen source, -1 none
        ("skip_owed", 1),                        # Skip 1 Space not used yet this move
        ("ignore_blockages", 1),
        ("ignore_neutrals", 1),
        ("own_only", 1),
        ("backwards", 1),
        ("moves_left", 1),                       # move phases still to make this turn
        ("pos", 1),                              # the move: where the active cubes are
        ("start", 1),                            # the move: space they were picked up from
        ("steps", 1),                            # the move: spaces entered so far
        ("dropped", 1),                          # the move: a cube was dropped at ``pos``
        ("branch", 1),                           # the move: arrow chosen at a branch, -1
        ("active", data.NUM_COLORS),             # the move: active cubes per colour
        ("stat_boards", MAX_PLAYERS),            # cubes this seat boarded (any colour)
        ("stat_free_boards", MAX_PLAYERS),       # ... of no player at the table (drew 2)
        ("stat_actions", MAX_PLAYERS),           # cards played as actions
        ("stat_moves", MAX_PLAYERS),             # move phases made
        ("stat_drawn", MAX_PLAYERS),             # cards drawn after the deal
    ]
)

STATE_SIZE = LAYOUT.size
PHASE, CURRENT, FIRST_PLAYER, TURNS = LAYOUT.offsets("phase current first_player turns")
END_TRIGGERED, CUBES, BOX_CUBES = LAYOUT.offsets("end_triggered cubes box_cubes")
GATE_COLOR, BOARDED, TRACK, HAND, GOALS = LAYOUT.offsets("gate_color boarded track hand goals")
DECK, DISCARD, BOX_CARDS, IN_PLAY, SEL_A = LAYOUT.offsets("deck discard box_cards in_play sel_a")
SEL_B, SKIP_OWED, IGNORE_BLOCKAGES = LAYOUT.offsets("sel_b skip_owed ignore_blockages")
IGNORE_NEUTRALS, OWN_ONLY, BACKWARDS = LAYOUT.offsets("ignore_neutrals own_only backwards")
MOVES_LEFT, POS, START, STEPS, DROPPED = LAYOUT.offsets("moves_left pos start steps dropped")
BRANCH, ACTIVE, STAT_BOARDS = LAYOUT.offsets("branch active stat_boards")
STAT_FREE_BOARDS, STAT_ACTIONS = LAYOUT.offsets("stat_free_boards stat_actions")
STAT_MOVES, STAT_DRAWN = LAYOUT.offsets("stat_moves stat_drawn")

# ----- the parameter vector: options, components and data tables -------------------------------
#: the card table's columns in the parameter vector, one entry per card type each
CARD_COLUMNS = (
    "act_kind", "act_n", "act_poi", "goal_poi", "goal_cubes", "goal_colors", "goal_mine_lo",
    "goal_mine_hi", "goal_neutral_lo", "goal_neutral_hi", "goal_sole", "vp",
)
PARAMS = Layout(
    [
        ("num_players", 1),
        ("first_player", 1),          # seat, or -1 for a seeded random seat
        ("blockage_all", 1),          # 0: count party cubes (main text), 1: all cubes
        ("strict_sole", 1),           # Q3: 1 "exactly 1 of yours" means the only cube
        ("end_at", 1),                # boarding-track space that ends the game
        ("player_decks", 1),
        ("end_draw_must", 1),         # 0: an empty hand may draw, 1: always draws
        ("skip_must", 1),             # 1: the skip must be used while a space can be skipped
        ("reward_mode", 1),           # 0 win/loss, 1 score difference
        ("max_rounds", 1),            # rounds after which the game ends (0: no limit)
        ("party_cubes", 1),
        ("neutral_cubes", 1),
        ("neutral_per_space", 1),
        ("plane_slots", 1),
        ("hand_size", 1),
        ("threshold", 1),             # cubes that make a blockage
        ("vp_per_cube", 1),
        ("neutral_draw", 1),          # cards for boarding a cube of no player
        ("empty_draw", 1),            # cards for an empty hand at the end of the turn
        ("num_spaces", 1),
        ("num_gates", 1),
        ("num_types", 1),
        ("next", data.MAX_SPACES * data.MAX_ARROWS),
        ("next_n", data.MAX_SPACES),
        ("prev", data.MAX_SPACES * data.MAX_ARROWS),
        ("prev_n", data.MAX_SPACES),
        ("poi", data.MAX_SPACES),
        ("start_space", data.NUM_PARTY_COLORS),  # space of P1..P4
        ("gate_access", data.MAX_GATES),
        ("gate_start", data.MAX_GATES),          # 0..3 for G1..G4, -1 neutral gate
        *((column, data.MAX_TYPES) for column in CARD_COLUMNS),
    ]
)
P_NUM_PLAYERS, P_FIRST, P_BLOCKAGE_ALL = PARAMS.offsets("num_players first_player blockage_all")
P_STRICT_SOLE, P_END_AT, P_PLAYER_DECKS = PARAMS.offsets("strict_sole end_at player_decks")
P_END_DRAW_MUST, P_SKIP_MUST, P_REWARD = PARAMS.offsets("end_draw_must skip_must reward_mode")
P_MAX_ROUNDS, P_PARTY_CUBES = PARAMS.offsets("max_rounds party_cubes")
P_NEUTRAL_CUBES, P_NEUTRAL_PER_SPACE = PARAMS.offsets("neutral_cubes neutral_per_space")
P_PLANE_SLOTS, P_HAND_SIZE, P_THRESHOLD = PARAMS.offsets("plane_slots hand_size threshold")
P_VP_PER_CUBE, P_NEUTRAL_DRAW, P_EMPTY_DRAW = PARAMS.offsets("vp_per_cube neutral_draw empty_draw")
P_NUM_SPACES, P_NUM_GATES, P_NUM_TYPES = PARAMS.offsets("num_spaces num_gates num_types")
P_NEXT, P_NEXT_N, P_PREV, P_PREV_N, P_POI = PARAMS.offsets("next next_n prev prev_n poi")
P_START_SPACE, P_GATE_ACCESS, P_GATE_START = PARAMS.offsets("start_space gate_access gate_start")
P_ACT_KIND, P_ACT_N, P_ACT_POI, P_GOAL_POI = PARAMS.offsets("act_kind act_n act_poi goal_poi")
P_GOAL_CUBES, P_GOAL_COLORS, P_GOAL_MINE_LO = PARAMS.offsets("goal_cubes goal_colors goal_mine_lo")
P_GOAL_MINE_HI, P_GOAL_NEUTRAL_LO = PARAMS.offsets("goal_mine_hi goal_neutral_lo")
P_GOAL_NEUTRAL_HI, P_GOAL_SOLE, P_VP = PARAMS.offsets("goal_neutral_hi goal_sole vp")
