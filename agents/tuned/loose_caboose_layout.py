"""The named parameter layout of the Loose Caboose! decision procedure (the tuned policy).

A vector is one float per entry of ``NAMES``. The procedure
(:mod:`transit_gym.agents.tuned.loose_caboose`) scores passing against laying the cards
of each value it holds and plays the best; the entries weigh the terms of those scores:

- the rule-based agent's terms: the hand points a play lays down (``lay_weight``), the
  expected derail and Broken Track penalty cards (``derail_weight``, ``broken_weight``)
  priced at the known values at the back of the railway (``mean_card`` when unknown);
- terms it ignores, off (0) at the rule-based point: a bias towards passing and per
  value, a bonus per card laid, cancelling (Cancelling Out Penalty Cards: the next
  penalty card matching the top of one's own pile is a gain, not a cost), hand points
  weighing more as the draw pile runs out (Ending the Game), the track left ahead of the
  caboose for the next player, the unseen cards' mean value as the price of an unknown
  penalty card, and cards of a value kept back in hand (a cheap play for a later turn).

The rule-based agent is the point :func:`rule_based_vector`. The kernels freeze these
indices and that point: the name ``loose_caboose_*`` puts this module under the kernel
cache stamp of the Loose Caboose! agents (``envs/_numba_cache.py``).
"""

from __future__ import annotations

from transit_gym.agents.tuned.packing import entry_functions
from transit_gym.envs.loose_caboose.data import MAX_VALUE

GAME = "loose_caboose"
#: bump when the entries change (a vector file of another version is refused)
LAYOUT_VERSION = 1

#: (name, rule-based value, CMA-ES step) per entry
_ENTRIES = (
    ("mean_card", 2.5, 0.5),          # price of a penalty card whose value is unknown
    ("unseen_mean_weight", 0.0, 0.3),  # blend of that price towards the unseen cards' mean
    ("pass_bias", 0.0, 0.5),          # added to the score of passing
    ("pass_empty_bias", 0.0, 0.5),    # added too when no card is behind the caboose
    ("lead_pass", 0.0, 0.1),          # added too per point of one's lead (the safe play)
    ("lay_weight", 1.0, 0.3),         # weight of the hand points a play lays down
    ("card_bonus", 0.0, 0.5),         # added per card a play lays down
    ("derail_weight", 1.0, 0.3),      # weight of the expected derail penalty cards
    ("broken_weight", 1.0, 0.3),      # weight of the expected Broken Track banks
    ("cancel_weight", 0.0, 0.5),      # weight of the expected cancel with one's pile top
    ("late_lay_weight", 0.0, 0.5),    # extra weight of the laid points as the pile runs out
    ("late_horizon", 10.0, 4.0),      # draw pile size where that extra weight starts
    ("ahead_weight", 0.0, 0.2),       # per card expected ahead of the caboose afterwards
    ("exact_weight", 0.0, 0.4),       # blend towards the exact expected penalty points
    ("gift_weight", 0.0, 0.5),        # weight of the cancel left to the next player
    ("setup_weight", 0.0, 0.5),       # weight of a cancel left for one's own next pass
    ("lay_broken", 1.0, 0.7),         # >= 0.5: Broken Tracks laid with the others
    ("keep_until", 0.0, 4.0),         # cards are kept back only while the draw pile is larger
    ("safe_margin", 99.0, 2.0),       # stop laying once the track ahead covers twice the
                                      # dice (their most wheels) plus this many cards
    *((f"value_bias.{v}", 0.0, 0.5) for v in range(1, MAX_VALUE + 1)),  # per value laid
    *((f"keep.{v}", 0.0, 0.7) for v in range(1, MAX_VALUE + 1)),  # cards of it kept back
)
NAMES: tuple[str, ...] = tuple(name for name, _, _ in _ENTRIES)
VECTOR_SIZE = len(NAMES)
_INDEX = {name: i for i, name in enumerate(NAMES)}
(V_MEAN_CARD, V_UNSEEN_MEAN, V_PASS_BIAS, V_PASS_EMPTY, V_LEAD_PASS, V_LAY, V_CARD_BONUS,
 V_DERAIL, V_BROKEN, V_CANCEL, V_LATE_LAY, V_LATE_HORIZON, V_AHEAD, V_EXACT, V_GIFT, V_SETUP,
 V_LAY_BROKEN, V_KEEP_UNTIL, V_SAFE_MARGIN) = (_INDEX[n] for n in NAMES[:19])
#: entry of value 1's bias and of value 1's kept cards (value ``v``: ``+ v - 1``)
V_VALUE_BIAS = _INDEX["value_bias.1"]
V_KEEP = _INDEX["keep.1"]


#: ``names()``, ``rule_based_vector()`` and ``scales()`` of the entry table
names, rule_based_vector, scales = entry_functions(_ENTRIES)
