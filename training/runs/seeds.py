"""The one seeding scheme of games between agents.

Game ``i`` of a run with seed ``s`` starts from ``game.new_state(s, stream=i)``, and the
agent at index ``k`` of the game's agent list (one per side of a tournament pair, one per
seat of a balance sweep) is reseeded with ``game_seed(s, i, k)`` before it: every game is
fixed by ``(s, i)`` alone, so any chunking, backend or worker count plays the same games.
Every derived seed is a ``numpy.random.SeedSequence`` of its keys (``derive``).
"""

from __future__ import annotations

import numpy as np


def derive(*keys: int) -> int:
    """A 64-bit seed drawn from the ``SeedSequence`` of ``keys`` (non-negative ints)."""
    words = np.random.SeedSequence(list(keys)).generate_state(2)
    return int(words[0]) | (int(words[1]) << 32)


def game_seed(seed: int, game_index: int, side: int) -> int:
    """The seed of agent ``side`` in game ``game_index`` of a run seeded by ``seed``."""
    return derive(seed, game_index, side)


def rotation_seed(seed: int, game_index: int, seat: int) -> int:
    """The seat seeds of ``training.evaluate.rotate_match`` (an older scheme, kept because
    the evaluations recorded in the shipped checkpoints' metadata were played with it)."""
    return seed * 1_000_003 + game_index * 101 + seat
