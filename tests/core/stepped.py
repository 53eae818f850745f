"""Stepping whole seeded games decision by decision, for tests that compare agents."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np


def play_stepped(game, seeds: Iterable[int], choose: Callable) -> int:
    """Play a game from each of ``seeds`` with ``choose(state, seat, obs, mask)`` (the
    observation float32, the mask int8, both contiguous) at every decision; the number of
    decisions."""
    decisions = 0
    for seed in seeds:
        state = game.new_state(seed)
        while (seat := game.current_player(state)) >= 0:
            obs = np.ascontiguousarray(game.observe(state, seat), dtype=np.float32)
            mask = np.ascontiguousarray(game.legal_mask(state), dtype=np.int8)
            game.apply(state, choose(state, seat, obs, mask))
            decisions += 1
    return decisions
