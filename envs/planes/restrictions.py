"""Restricted play in Planes: game concepts as forbidden action ids.

"May not use card type t" is ``A_CARD + t`` (see :mod:`transit_gym.envs.core.restrict`).
The id holds in every decision, so it forbids playing that card as an action, scoring it
as a goal and discarding it alike; a seat whose only legal choice is one of those (a
forced discard of that type) makes the restriction an error there.
"""

from __future__ import annotations

from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.planes.kernels import A_CARD, MAX_TYPES


def use_card(card_type: int) -> list[int]:
    """"May not play, score or discard card type ``card_type``" (0-based type index)."""
    if isinstance(card_type, bool) or not isinstance(card_type, int) or not (
            0 <= card_type < MAX_TYPES):
        raise ConfigError(f"card type must be 0..{MAX_TYPES - 1}, got {card_type!r}")
    return [A_CARD + card_type]
