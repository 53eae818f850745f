"""Restricted play: a per-seat forbidden-action mask applied to the legal mask.

A match may forbid seat ``i`` the actions ``forbidden[i]`` (a ``(num_players,
num_actions)`` boolean array): the AEC env, the batch API, the jitted game loops and the
search agent all clear those actions from the legal mask of seat ``i`` before any agent
chooses, so every agent plays the restricted game (Jaffe et al., "Evaluating competitive
game balance with restricted play", AIIDE 2012). A restriction that leaves the seat to
move no legal action is an error (:class:`ForbiddenError`), never a silent pass.

The forbidden mask is a set of action ids, whatever the decision: each game's helpers
(``restrict_*`` functions next to its encoding) map game concepts ("may not buy card X")
to action ids and document what else those ids mean in other decisions.
"""

from __future__ import annotations

from collections.abc import Callable

import numba as nb
import numpy as np

from transit_gym.envs.core.errors import ConfigError


class ForbiddenError(ConfigError):
    """A forbidden-action mask left the seat to move no legal action."""


def no_restriction(num_actions: int) -> np.ndarray:
    """The empty forbidden array the jitted loops take when nothing is forbidden."""
    return np.zeros((0, num_actions), dtype=np.int8)


def check_forbidden(forbidden, num_players: int, num_actions: int) -> np.ndarray | None:
    """``forbidden`` as a contiguous ``(num_players, num_actions)`` int8 array (None
    stays None); ``ConfigError`` naming the shape or values otherwise."""
    if forbidden is None:
        return None
    array = np.asarray(forbidden)
    if array.shape != (num_players, num_actions):
        raise ConfigError(f"forbidden must have shape (num_players, num_actions) = "
                          f"({num_players}, {num_actions}), got {array.shape}")
    if array.dtype != np.bool_ and not (array.dtype.kind in "iu" and np.isin(array, (0, 1)).all()):
        raise ConfigError(f"forbidden must be booleans (or 0/1 integers), got dtype {array.dtype}")
    out = np.ascontiguousarray(array, dtype=np.int8)
    return out if out.any() else None


def as_loop_argument(forbidden: np.ndarray | None, num_actions: int) -> np.ndarray:
    """The array a jitted loop takes: the checked mask, or zero rows for none."""
    return no_restriction(num_actions) if forbidden is None else forbidden


@nb.njit(cache=True)
def apply_forbidden(mask, forbidden, seat):
    """Clear ``forbidden[seat]`` from ``mask`` in place; return the legal actions left.

    Nothing happens (and the count of ``mask`` is returned) when ``forbidden`` has no
    rows or ``seat`` is negative. When forbidding would leave no legal action, ``mask``
    is left as it was and 0 is returned: the caller decides (the game loops report an
    error, a search treats the hypothetical position as unrestricted)."""
    n = mask.shape[0]
    if forbidden.shape[0] == 0 or seat < 0:
        left = 0
        for a in range(n):
            if mask[a]:
                left += 1
        return left
    row = forbidden[seat]
    left = 0
    for a in range(n):
        if mask[a] and not row[a]:
            left += 1
    if left == 0:
        return 0
    for a in range(n):
        if row[a]:
            mask[a] = 0
    return left


def restrict_mask(mask: np.ndarray, forbidden: np.ndarray | None, seat: int,
                  describe: Callable[[int], str] | None = None) -> np.ndarray:
    """``mask`` (a copy) without seat ``seat``'s forbidden actions (Python callers);
    ``ForbiddenError`` naming the legal and forbidden actions when none would be left."""
    if forbidden is None or seat < 0:
        return mask
    out = mask.copy()
    if apply_forbidden(out, forbidden, seat) == 0 and mask.any():
        raise ForbiddenError(no_action_left_message(mask, forbidden, seat, describe))
    return out


def no_action_left_message(mask: np.ndarray, forbidden: np.ndarray, seat: int,
                           describe: Callable[[int], str] | None = None) -> str:
    """Why a restriction is an error here: every legal action of ``seat`` is forbidden."""
    legal = [int(a) for a in np.flatnonzero(mask)]
    named = [f"{a} ({describe(a)})" if describe else str(a) for a in legal[:8]]
    more = "" if len(legal) <= 8 else f" and {len(legal) - 8} more"
    return (f"seat {seat} has no legal action left: every legal action "
            f"[{', '.join(named)}{more}] is forbidden to it; a restriction must leave "
            f"another choice (e.g. stop / pass)")


def forbid(num_players: int, num_actions: int, actions: dict[int, list[int]]) -> np.ndarray:
    """A forbidden array with ``actions[seat]`` forbidden to each listed seat."""
    out = np.zeros((num_players, num_actions), dtype=np.bool_)
    for seat, ids in actions.items():
        if not 0 <= seat < num_players:
            raise ConfigError(f"seat must be 0..{num_players - 1}, got {seat!r}")
        for a in ids:
            if not 0 <= a < num_actions:
                raise ConfigError(f"action must be 0..{num_actions - 1}, got {a!r}")
            out[seat, a] = True
    return out
