"""The Loose Caboose! state: one flat int64 vector with named fields.

A flat vector instead of a dataclass of arrays (DESIGN.md allows the change):
it is what the jitted kernels, the batch API (a 2-D array of states) and
``copy()`` need, and ``State.to_dict()`` still names every field. The module-level
offsets below are compile-time constants inside the kernels.

Cards are ids into the deck table of the game parameters. Every pile is an
array of card ids plus a length; the railway is ``rail[rail_lo:rail_hi]``, back to
front, and never wraps because a card is laid on the railway at most once.
"""

from __future__ import annotations

from envs.core.layout import Layout
from envs.loose_caboose.data import MAX_CARDS

MAX_PLAYERS = 4

# decisions (field ``phase``)
PHASE_CHOOSE = 0      # first decision of a turn: pass, or lay a first card
PHASE_CONTINUE = 1    # cards laid this turn: lay another of the same value, or roll
PHASE_OVER = 2

LAYOUT = Layout(
    [
        ("rng", 4),
        ("phase", 1),
        ("current", 1),          # seat deciding now
        ("first_player", 1),
        ("turn_value", 1),       # value of the cards laid this turn (0 before the first)
        ("turn_cards", 1),       # cards laid this turn
        ("end_triggered", 1),    # the draw pile ran out: the game ends after this turn
        ("turns", 1),            # completed turns
        ("last_wheels", 1),      # wheels of the last roll (-1 before any)
        ("deck", MAX_CARDS),     # draw pile, top = deck[deck_len - 1]
        ("deck_len", 1),
        ("rail", MAX_CARDS),     # railway, back = rail[rail_lo], front = rail[rail_hi - 1]
        ("rail_lo", 1),
        ("rail_hi", 1),
        ("caboose", 1),          # index into rail of the caboose's card
        ("rail_x", MAX_CARDS),   # grid cell of each railway card
        ("rail_y", MAX_CARDS),
        ("rail_in", MAX_CARDS),  # direction of travel entering the card (0 E, 1 N, 2 W, 3 S)
        ("rail_out", MAX_CARDS), # direction of travel leaving the card
        ("hand", MAX_PLAYERS * MAX_CARDS),
        ("hand_len", MAX_PLAYERS),
        ("penalty", MAX_PLAYERS * MAX_CARDS),   # face-up penalty pile, top = last
        ("penalty_len", MAX_PLAYERS),
        ("bank", MAX_PLAYERS * MAX_CARDS),      # banked cards, face down under the pile
        ("bank_len", MAX_PLAYERS),
        ("hand_final", MAX_PLAYERS * MAX_CARDS),  # hands added to the pile at the end
        ("hand_final_len", MAX_PLAYERS),
        ("discard", MAX_CARDS),
        ("discard_len", 1),
        ("removed", MAX_CARDS),  # out of play unseen at setup
        ("removed_len", 1),
        ("stat_passes", MAX_PLAYERS),
        ("stat_plays", MAX_PLAYERS),
        ("stat_derails", MAX_PLAYERS),
        ("stat_cancels", MAX_PLAYERS),
        ("stat_banked", MAX_PLAYERS),
        ("stat_unpaid", MAX_PLAYERS),  # penalties owed with no card left anywhere
    ]
)

STATE_SIZE = LAYOUT.size
PHASE = LAYOUT.offset("phase")
CURRENT = LAYOUT.offset("current")
FIRST_PLAYER = LAYOUT.offset("first_player")
TURN_VALUE = LAYOUT.offset("turn_value")
TURN_CARDS = LAYOUT.offset("turn_cards")
END_TRIGGERED = LAYOUT.offset("end_triggered")
TURNS = LAYOUT.offset("turns")
LAST_WHEELS = LAYOUT.offset("last_wheels")
DECK = LAYOUT.offset("deck")
DECK_LEN = LAYOUT.offset("deck_len")
RAIL = LAYOUT.offset("rail")
RAIL_LO = LAYOUT.offset("rail_lo")
RAIL_HI = LAYOUT.offset("rail_hi")
CABOOSE = LAYOUT.offset("caboose")
RAIL_X = LAYOUT.offset("rail_x")
RAIL_Y = LAYOUT.offset("rail_y")
RAIL_IN = LAYOUT.offset("rail_in")
RAIL_OUT = LAYOUT.offset("rail_out")
HAND = LAYOUT.offset("hand")
HAND_LEN = LAYOUT.offset("hand_len")
PENALTY = LAYOUT.offset("penalty")
PENALTY_LEN = LAYOUT.offset("penalty_len")
BANK = LAYOUT.offset("bank")
BANK_LEN = LAYOUT.offset("bank_len")
HAND_FINAL = LAYOUT.offset("hand_final")
HAND_FINAL_LEN = LAYOUT.offset("hand_final_len")
DISCARD = LAYOUT.offset("discard")
DISCARD_LEN = LAYOUT.offset("discard_len")
REMOVED = LAYOUT.offset("removed")
REMOVED_LEN = LAYOUT.offset("removed_len")
STAT_PASSES = LAYOUT.offset("stat_passes")
STAT_PLAYS = LAYOUT.offset("stat_plays")
STAT_DERAILS = LAYOUT.offset("stat_derails")
STAT_CANCELS = LAYOUT.offset("stat_cancels")
STAT_BANKED = LAYOUT.offset("stat_banked")
STAT_UNPAID = LAYOUT.offset("stat_unpaid")

# ----- the parameter vector: options and data tables, fixed for a configured game -----
from envs.loose_caboose.data import MAX_FACES  # noqa: E402

PARAMS = Layout(
    [
        ("num_players", 1),
        ("geometry", 1),          # 1: grid with straight/curve cards; 0: plain line
        ("num_cards", 1),
        ("num_faces", 1),
        ("initial_railway", 1),
        ("hand_size", 1),
        ("cards_removed", 1),     # for this player count
        ("first_player", 1),      # seat, or -1 for a seeded random seat
        ("pass_banks", 1),        # a pass that moves onto a Broken Track banks a card
        ("bank_first", 1),        # bank for Broken Tracks before derailment penalties
        ("reward_mode", 1),       # 0 win/loss (zero-sum), 1 score difference
        ("values", MAX_CARDS),
        ("broken", MAX_CARDS),
        ("shapes", MAX_CARDS),
        ("faces", MAX_FACES),
    ]
)
P_NUM_PLAYERS = PARAMS.offset("num_players")
P_GEOMETRY = PARAMS.offset("geometry")
P_NUM_CARDS = PARAMS.offset("num_cards")
P_NUM_FACES = PARAMS.offset("num_faces")
P_INITIAL = PARAMS.offset("initial_railway")
P_HAND_SIZE = PARAMS.offset("hand_size")
P_REMOVED = PARAMS.offset("cards_removed")
P_FIRST = PARAMS.offset("first_player")
P_PASS_BANKS = PARAMS.offset("pass_banks")
P_BANK_FIRST = PARAMS.offset("bank_first")
P_REWARD = PARAMS.offset("reward_mode")
P_VALUES = PARAMS.offset("values")
P_BROKEN = PARAMS.offset("broken")
P_SHAPES = PARAMS.offset("shapes")
P_FACES = PARAMS.offset("faces")
