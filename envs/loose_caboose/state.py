"""The Loose Caboose! state: one flat int64 vector with named fields.

A flat vector instead of a dataclass of arrays (DESIGN.md allows the change):
it is what the jitted kernels, the batch API (a 2-D array of states) and
``copy()`` need, and ``State.to_dict()`` still names every field. The module-level
offsets below are compile-time constants inside the kernels.

Cards are ids into the deck table of the game parameters. ``loc[card]`` names the
one place each card is in (so no card can be in two places); only the piles whose
order matters keep an order as well: the draw pile (``deck``, top last), the
railway (``rail[rail_lo:rail_hi]``, back to front; it never wraps because a card is
laid on the railway at most once) and each face-up penalty pile (a linked list from
``pile_top[seat]`` down through ``under[card]``). The state is kept small (about
3 KB) so that a batch of 1024 games stays in cache.
"""

from __future__ import annotations

from transit_gym.envs.core.layout import Layout
from transit_gym.envs.loose_caboose.data import MAX_CARDS, MAX_FACES, MAX_VALUE

MAX_PLAYERS = 4

# decisions (field ``phase``)
PHASE_CHOOSE = 0      # first decision of a turn: pass, or lay a first card
PHASE_CONTINUE = 1    # cards laid this turn: lay another of the same value, or roll
PHASE_OVER = 2

# places of a card (field ``loc``); per-seat places add the seat
Z_DECK = 0
Z_RAIL = 1
Z_DISCARD = 2
Z_REMOVED = 3
Z_HAND = 4            # + seat: in a hand
Z_PILE = 8            # + seat: face up on a penalty pile
Z_BANK = 12           # + seat: banked face down under a penalty pile
Z_HAND_FINAL = 16     # + seat: a hand added to the pile at the end
Z_BANK_HIDDEN = 20    # + seat: banked face down from the draw pile (only its owner knows it)
Z_LAST = Z_BANK_HIDDEN + 4  # one past the last per-seat place
Z_UNUSED = -1         # card slots beyond the deck size

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
        ("loc", MAX_CARDS),      # place of every card (Z_*)
        ("deck", MAX_CARDS),     # draw pile, top = deck[deck_len - 1]
        ("deck_len", 1),
        ("rail", MAX_CARDS),     # railway, back = rail[rail_lo], front = rail[rail_hi - 1]
        ("rail_lo", 1),
        ("rail_hi", 1),
        ("caboose", 1),          # index into rail of the caboose's card
        ("rail_cell", MAX_CARDS),  # packed grid cell and headings of each railway card
        ("under", MAX_CARDS),    # the card beneath, in a face-up penalty pile (-1: bottom)
        ("pile_top", MAX_PLAYERS),
        ("stat_passes", MAX_PLAYERS),
        ("stat_plays", MAX_PLAYERS),
        ("stat_derails", MAX_PLAYERS),
        ("stat_cancels", MAX_PLAYERS),
        ("stat_banked", MAX_PLAYERS),
        ("stat_unpaid", MAX_PLAYERS),  # penalties owed with no card left anywhere
    ]
)

STATE_SIZE = LAYOUT.size
PHASE, CURRENT, FIRST_PLAYER, TURN_VALUE = LAYOUT.offsets("phase current first_player turn_value")
TURN_CARDS, END_TRIGGERED, TURNS = LAYOUT.offsets("turn_cards end_triggered turns")
LAST_WHEELS, LOC, DECK, DECK_LEN, RAIL = LAYOUT.offsets("last_wheels loc deck deck_len rail")
RAIL_LO, RAIL_HI, CABOOSE, RAIL_CELL = LAYOUT.offsets("rail_lo rail_hi caboose rail_cell")
UNDER, PILE_TOP, STAT_PASSES, STAT_PLAYS = LAYOUT.offsets("under pile_top stat_passes stat_plays")
STAT_DERAILS, STAT_CANCELS, STAT_BANKED = LAYOUT.offsets("stat_derails stat_cancels stat_banked")
STAT_UNPAID = LAYOUT.offset("stat_unpaid")

# packing of rail_cell: x and y offset by CELL_BIAS in 8 bits each, then two headings
CELL_BIAS = 128


# ----- the parameter vector: options and data tables, fixed for a configured game -----
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
        ("face_sum", 1),          # wheels over all faces (mean = face_sum / num_faces)
        ("value_totals", MAX_VALUE),  # cards of each value in the deck
    ]
)
P_NUM_PLAYERS, P_GEOMETRY, P_NUM_CARDS = PARAMS.offsets("num_players geometry num_cards")
P_NUM_FACES, P_INITIAL, P_HAND_SIZE = PARAMS.offsets("num_faces initial_railway hand_size")
P_REMOVED, P_FIRST, P_PASS_BANKS = PARAMS.offsets("cards_removed first_player pass_banks")
P_BANK_FIRST, P_REWARD, P_VALUES, P_BROKEN = PARAMS.offsets("bank_first reward_mode values broken")
P_SHAPES, P_FACES, P_FACE_SUM, P_VALUE_TOTALS = PARAMS.offsets("shapes faces face_sum value_totals")
