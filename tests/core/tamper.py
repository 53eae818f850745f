"""Plausible edits of saved states, as a fuzzing campaign makes them.

Each edit starts from a state reached by random play and changes it the way a hand-edited
or spliced save file would: one slot set to an extreme value, a counter moved by one (or to
the counter cap), one whole field spliced from another moment of a real game (possibly of
another option set), the per-seat rows of two seats swapped, the ``phase`` set to another
phase the games reached, one unit moved from one slot of a zone to another (a cube or a
card changing place, the totals kept), or one slot raised to the largest value the
validator still accepts there (a counter at the top of its range must admit one more legal
move). ``tampered`` returns the copy and what was changed.
"""

from __future__ import annotations

import numpy as np

from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.validate import MAX_COUNTER

#: the kinds of edit, drawn uniformly
KINDS = ("slot", "counter", "splice", "seats", "phase", "move", "top")


def extreme_values(old: int, rng: np.random.Generator) -> list[int]:
    """Out-of-range and nearby values for one slot."""
    return [-1, 2**62, -(2**62), 10**10, old + 1, old - 1, int(rng.integers(-5, 300))]


def cap_values(old: int) -> list[int]:
    """Values at and around the counter cap (a counter accepted at its cap must not pass
    it on the next step)."""
    return [MAX_COUNTER, MAX_COUNTER - 1, MAX_COUNTER + 1, old + 2]


def _seat_rows(game: Game, name: str) -> int:
    """How many per-seat rows field ``name`` splits into (0: not a per-seat field)."""
    size = game.layout.length(name)
    for rows in (game.max_players, game.num_players):
        if rows > 1 and size % rows == 0 and size >= rows:
            return rows
    return 0


def _slot(game, data, base, donor, rng):
    slot = int(rng.integers(base.size))
    values = extreme_values(int(base[slot]), rng) + cap_values(int(base[slot]))
    data[slot] = values[int(rng.integers(len(values)))]
    field, pos = game.layout.locate(slot)
    return f"{field}[{pos}] {int(base[slot])} -> {int(data[slot])}"


def _counter(game, data, base, donor, rng):
    slot = int(rng.integers(base.size))
    data[slot] += 1 if rng.random() < 0.5 else -1
    field, pos = game.layout.locate(slot)
    return f"{field}[{pos}] {int(base[slot])} -> {int(data[slot])} (by one)"


def _splice(game, data, base, donor, rng):
    names = game.layout.names()
    name = names[int(rng.integers(len(names)))]
    where = game.layout.slice(name)
    data[where] = donor[where]
    return f"{name} spliced from another state"


def _seats(game, data, base, donor, rng):
    a, b = (int(v) for v in rng.choice(game.num_players, 2, replace=False))
    swapped = []
    for name in game.layout.names():
        rows = _seat_rows(game, name)
        if not rows or max(a, b) >= rows or rng.random() < 0.5:
            continue
        field = data[game.layout.slice(name)].reshape(rows, -1)
        field[[a, b]] = field[[b, a]]
        swapped.append(name)
    return f"seats {a} and {b} swapped in {swapped[:6]}"


def _phase(game, data, base, donor, rng):
    if "phase" not in game.layout.fields:
        return _splice(game, data, base, donor, rng)
    where = game.layout.slice("phase")
    data[where] = donor[where]
    return f"phase {int(base[where][0])} -> {int(data[where][0])}"


def _move(game, data, base, donor, rng):
    held = np.flatnonzero(base[4:] > 0) + 4   # the generator words are not a zone
    if held.size == 0:
        return _counter(game, data, base, donor, rng)
    src = int(rng.choice(held))
    field, _ = game.layout.locate(src)
    if rng.random() < 0.7:   # within the field (a cube to another space, a card to a hand)
        span = game.layout.slice(field)
        dst = int(rng.integers(span.start, span.stop))
    else:
        dst = int(rng.integers(4, base.size))
    data[src] -= 1
    data[dst] += 1
    return f"one unit moved from {_label(game, src)} to {_label(game, dst)}"


def _label(game: Game, index: int) -> str:
    field, pos = game.layout.locate(index)
    return f"{field}[{pos}]"


def _accepted(game: Game, data: np.ndarray) -> bool:
    try:
        game.validate(State(game, data))
    except StateDictError:
        return False
    return True


def _top(game, data, base, donor, rng):
    """The slot at the largest value accepted above its own (doubling, then bisection)."""
    slot = int(rng.integers(4, base.size))
    old = int(base[slot])
    step = 1
    while step < 2**61:
        data[slot] = old + step
        if not _accepted(game, data):
            break
        step *= 2
    low, high = old + step // 2 if step > 1 else old, old + step
    while high - low > 1:
        mid = (low + high) // 2
        data[slot] = mid
        if _accepted(game, data):
            low = mid
        else:
            high = mid
    data[slot] = low
    return f"{_label(game, slot)} {old} -> {low} (the largest accepted)"


EDITS = {"slot": _slot, "counter": _counter, "splice": _splice, "seats": _seats,
         "phase": _phase, "move": _move, "top": _top}


def tampered(game: Game, bases: list[np.ndarray], donors: list[np.ndarray],
             rng: np.random.Generator) -> tuple[np.ndarray, str]:
    """A tampered copy of one of ``bases`` (``donors``: states to splice from) and what
    was changed."""
    base = bases[int(rng.integers(len(bases)))]
    donor = donors[int(rng.integers(len(donors)))]
    data = base.copy()
    kind = KINDS[int(rng.integers(len(KINDS)))]
    return data, EDITS[kind](game, data, base, donor, rng)
