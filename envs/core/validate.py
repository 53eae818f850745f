"""Jitted pieces shared by every game's ``violation(s, p, where)`` check (see
``Kernels.violation``): range checks that record the offending slot and its allowed range,
and the check of the generator words every state starts with."""

from __future__ import annotations

import numba as nb

from transit_gym.envs.core.rng import RNG_WORDS

#: violation code of bad generator words
BAD_RNG = 1
#: violation code of a phase that is no decision of the game; a game's own codes start above
BAD_PHASE = 2
#: the messages of the two codes every game shares (a game's ``MESSAGES`` adds its own)
START_MESSAGES = {
    BAD_RNG: "the generator words must be 32-bit values, not all zero",
    BAD_PHASE: "phase is not a decision of the game",
}
#: the largest counter a state may hold (turns, statistics): far beyond any real game,
#: far below int64 overflow
MAX_COUNTER = 1 << 40
MASK32 = (1 << 32) - 1


@nb.njit(cache=True)
def bump(s, index, amount):
    """``s[index] += amount`` for a counter (turns, statistics, points), saturating at
    ``MAX_COUNTER``: a step never takes a counter past the cap that ``violation`` accepts,
    so every state a step reaches from an accepted state is accepted too."""
    value = s[index] + amount
    s[index] = value if value < MAX_COUNTER else MAX_COUNTER


@nb.njit(cache=True)
def outside(s, index, low, high, where):
    """True (and ``where`` filled with ``index, low, high``) unless
    ``low <= s[index] <= high``."""
    v = s[index]
    if low <= v <= high:
        return False
    where[0] = index
    where[1] = low
    where[2] = high
    return True


@nb.njit(cache=True)
def any_outside(s, start, count, low, high, where):
    """``outside`` over the slots ``start .. start + count - 1``."""
    for i in range(start, start + count):  # noqa: SIM110 (no generators in numba)
        if outside(s, i, low, high, where):
            return True
    return False


@nb.njit(cache=True)
def slot_broken(where, index):
    """Name slot ``index`` as the culprit of a broken relation (no single range applies);
    return True."""
    where[0] = index
    where[1] = -1
    where[2] = -1
    return True


@nb.njit(cache=True)
def relation_broken(where):
    """Mark a broken sum or relation (no single slot to name); return True."""
    return slot_broken(where, -1)


@nb.njit(cache=True)
def rng_violation(s, where):
    """``BAD_RNG`` unless ``s[0:4]`` are 32-bit words, not all zero; else 0."""
    if any_outside(s, 0, RNG_WORDS, 0, MASK32, where):
        return BAD_RNG
    nonzero = False
    for i in range(RNG_WORDS):
        if s[i] != 0:
            nonzero = True
    if not nonzero:
        where[0] = 0
        where[1] = 1
        where[2] = MASK32
        return BAD_RNG
    return 0


@nb.njit(cache=True)
def start_violation(s, where, phase_slot, last_phase):
    """The checks every game's ``violation`` starts with: ``BAD_RNG`` (see
    ``rng_violation``), ``BAD_PHASE`` unless ``0 <= s[phase_slot] <= last_phase``, else 0."""
    code = rng_violation(s, where)
    if code:
        return code
    if outside(s, phase_slot, 0, last_phase, where):
        return BAD_PHASE
    return 0
