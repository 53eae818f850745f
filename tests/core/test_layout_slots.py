"""The shared pieces every game's state module and kernels use: ``Layout.offsets`` (the
binding of a group of offset constants), ``slots`` (the seat to move, a pile's size) and
``validate.start_violation`` (the checks every ``violation`` starts with)."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.envs.core.layout import Layout
from transit_gym.envs.core.rng import RNG_WORDS
from transit_gym.envs.core.slots import seat_to_move, slot_sum
from transit_gym.envs.core.validate import BAD_PHASE, BAD_RNG, START_MESSAGES, start_violation

LAYOUT = Layout([("rng", RNG_WORDS), ("phase", 1), ("current", 1), ("pile", 3)])
PHASE, CURRENT, PILE = LAYOUT.offsets("phase current pile")
OVER = 5


def test_offsets_binds_each_named_field_in_the_order_given():
    assert LAYOUT.offsets("pile phase") == (LAYOUT.offset("pile"), LAYOUT.offset("phase"))
    assert (PHASE, CURRENT, PILE) == (RNG_WORDS, RNG_WORDS + 1, RNG_WORDS + 2)


def test_offsets_of_an_unknown_field_names_it_and_the_fields():
    with pytest.raises(ValueError, match=r"no field 'phse' in this layout \(fields: rng, phase"):
        LAYOUT.offsets("current phse")


def _state(phase: int, current: int = 2) -> np.ndarray:
    s = np.zeros(LAYOUT.size, dtype=np.int64)
    s[0] = 1                       # generator words: 32-bit, not all zero
    s[PHASE], s[CURRENT] = phase, current
    s[PILE:PILE + 3] = (4, 0, 7)
    return s


def test_seat_to_move_is_current_until_the_game_is_over():
    assert seat_to_move(_state(0), PHASE, OVER, CURRENT) == 2
    assert seat_to_move(_state(OVER), PHASE, OVER, CURRENT) == -1


def test_slot_sum_counts_a_pile():
    assert slot_sum(_state(0), PILE, 3) == 11
    assert slot_sum(_state(0), PILE + 1, 1) == 0


def test_start_violation_checks_generator_words_then_phase():
    where = np.zeros(3, dtype=np.int64)
    assert start_violation(_state(OVER), where, PHASE, OVER) == 0
    assert start_violation(_state(OVER + 1), where, PHASE, OVER) == BAD_PHASE
    assert list(where) == [PHASE, 0, OVER]
    zeroed = _state(OVER + 1)
    zeroed[0] = 0                  # all words zero: the generator is checked first
    assert start_violation(zeroed, where, PHASE, OVER) == BAD_RNG
    assert set(START_MESSAGES) == {BAD_RNG, BAD_PHASE}
