"""The layout of the tuned Planes vector: one named entry per constant of the decision
procedure (:mod:`transit_gym.agents.tuned.planes`), the index of each, the values that
reproduce the rule-based agent (``rule_based_vector``) and the search's step per entry
(``scales``).

The first block holds the rule-based agent's own constants (the weights of its board
valuation and of its card decisions). The second block holds terms the rule-based agent
lacks, each at a value that leaves its play unchanged: more board features (opponents'
distance to their gates, spaces one cube short of a boarding move, spread of the own
party, own cubes stuck under a blockage cone, boarding moves and goals late in the game,
ending the game sooner while ahead, an own ready space the opponent can pick up, any
opponent space ready to board) and
one entry per action kind of the cards (``act_<kind>``): added to the gain of playing such
a card as an action, and below 0 the kind is never played (the rule-based agent plays
only the move-changing cards and the choose-one card).
"""

from __future__ import annotations

from transit_gym.agents.tuned.packing import entry_functions
from transit_gym.envs.planes.data import ACTION_KINDS

GAME = "planes"
planes = GAME
#: bump when the entries change (a file of another version is refused)
LAYOUT_VERSION = 2

#: (name, rule-based value, one CMA unit)
_ENTRIES: tuple[tuple[str, float, float], ...] = (
    # the rule-based agent's board valuation
    ("own_board", 5.0, 1.0),          # an own cube boarding the own plane (5 VP)
    ("free_board", 2.0, 1.0),         # a cube of no player boarding (2 cards)
    ("opp_board", 4.0, 1.0),          # an opponent's cube boarding its plane
    ("ready", 2.5, 0.5),              # own space holding exactly a boarding move's cubes
    ("opp_ready", 1.0, 0.5),          # the same for an opponent (subtracted)
    ("distance", 0.08, 0.04),         # per own cube and space from the own gate
    ("distance_cap", 20.0, 4.0),      # spaces counted at most per cube
    ("goal_best", 1.0, 0.3),          # share of the best goal in hand the board shows
    ("later_goal", 0.25, 0.15),       # share of each further goal the board shows
    # the rule-based agent's card decisions
    ("card_cost", 0.8, 0.3),          # share of a card's goal VP given up by playing it
    ("action_threshold", 0.0, 0.5),   # gain a card's action must beat to be played
    ("extra_goal_value", 1.0, 0.5),   # choose-one's extra goal when two goals are ready
    ("extra_goal_bonus", 0.5, 0.5),
    # new board features (0: off)
    ("opp_distance", 0.0, 0.04),      # per opponent cube and space from its gate (added)
    ("near_ready", 0.0, 0.5),         # own space one cube short of a boarding move
    ("own_spaces", 0.0, 0.3),         # per space holding own cubes (subtracted)
    ("own_under_cone", 0.0, 0.3),     # per own cube on a blocked space (subtracted)
    ("ready_late", 0.0, 0.1),         # per ready own space and cube on the boarding track
    ("goal_late", 0.0, 0.05),         # share of the best goal added per cube on the track
    ("board_lead", 0.0, 0.1),         # per VP of own lead, added to any boarding (the
                                      # game ends sooner while ahead)
    ("ready_shared", 0.0, 0.5),       # own ready space also holding an opponent's cube
                                      # (the opponent can pick it up; subtracted)
    ("opp_any_ready", 0.0, 0.5),      # any opponent space ready to board (one boarding a
                                      # turn: the threat, not their number; subtracted)
    # new card valuations (0: off)
    ("draw_card", 0.0, 0.5),          # a card drawn (kept) by a draw action
    ("second_move", 0.0, 0.5),        # share of the plain move's gain a second move adds
)
#: action kinds the rule-based agent plays (the others start switched off)
_PLAYED = ("choose_one", "skip", "ignore_neutrals", "backwards", "own_only")
ACT_ENTRIES = tuple((f"act_{kind}", 0.0 if kind in _PLAYED else -1.0, 1.0)
                    for kind in ACTION_KINDS)
ENTRIES = _ENTRIES + ACT_ENTRIES

NAMES: tuple[str, ...] = tuple(name for name, _, _ in ENTRIES)
VECTOR_SIZE = len(NAMES)
_INDEX = {name: i for i, name in enumerate(NAMES)}

(OWN_BOARD, FREE_BOARD, OPP_BOARD, READY, OPP_READY, DISTANCE, DISTANCE_CAP, GOAL_BEST,
 LATER_GOAL, CARD_COST, ACTION_THRESHOLD, EXTRA_GOAL_VALUE, EXTRA_GOAL_BONUS, OPP_DISTANCE,
 NEAR_READY, OWN_SPACES, OWN_UNDER_CONE, READY_LATE, GOAL_LATE, BOARD_LEAD, READY_SHARED,
 OPP_ANY_READY, DRAW_CARD, SECOND_MOVE) = range(len(_ENTRIES))
#: entry of action kind ``k`` (``ACTION_KINDS``): ``ACT_BASE + k``
ACT_BASE = len(_ENTRIES)


def index(name: str) -> int:
    """Index of entry ``name`` (KeyError naming the known entries)."""
    if name not in _INDEX:
        raise KeyError(f"no Planes vector entry {name!r}; known: {', '.join(NAMES)}")
    return _INDEX[name]


#: ``names()``, ``rule_based_vector()`` and ``scales()`` of the entry table
names, rule_based_vector, scales = entry_functions(ENTRIES)
