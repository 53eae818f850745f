"""Jitted reads of a state vector's slots that the games' kernels share: the seat to move
(the kernel contract's ``current_player``) and the size of a pile of counts."""

from __future__ import annotations

import numba as nb


@nb.njit(cache=True)
def seat_to_move(s, phase_slot, over, current_slot):
    """``s[current_slot]``, or -1 once ``s[phase_slot]`` is the game-over phase ``over``."""
    if s[phase_slot] == over:
        return -1
    return s[current_slot]


@nb.njit(cache=True)
def slot_sum(s, start, count):
    """The sum of ``s[start:start + count]`` (the cards or cubes of a pile of counts)."""
    total = 0
    for i in range(count):
        total += s[start + i]
    return total
