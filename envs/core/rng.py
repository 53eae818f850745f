"""A small seedable random generator whose state lives inside the game state.

The generator is xoshiro128** (four 32-bit words). Every word is kept in an
``int64`` slot and every operation is masked to 32 bits, so the same code gives
bit-identical streams in pure Python and inside numba, on every platform.
A game keeps its four words at the start of its flat state vector
(``state[0:4]``); copying the state therefore copies the future.
"""

from __future__ import annotations

import os

import numba as nb
import numpy as np

MASK32 = 0xFFFFFFFF
RNG_WORDS = 4


@nb.njit(cache=True, inline="always")
def _rotl32(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & MASK32


@nb.njit(cache=True)
def hash32(x: int) -> int:
    """A 32-bit integer mixer (lowbias32); the same result in Python and numba."""
    x &= MASK32
    x ^= x >> 16
    x = (x * 0x7FEB352D) & MASK32
    x ^= x >> 15
    x = (x * 0x846CA68B) & MASK32
    x ^= x >> 16
    return x


@nb.njit(cache=True)
def seed_into(words: np.ndarray, seed_lo: int, seed_hi: int, stream: int) -> None:
    """Fill ``words[0:4]`` from a 64-bit seed (as two 32-bit halves) and a stream index."""
    a = hash32(seed_lo ^ 0x9E3779B9)
    b = hash32(seed_hi ^ 0x85EBCA6B ^ a)
    c = hash32((stream & MASK32) ^ 0xC2B2AE35 ^ b)
    d = hash32(((stream >> 32) & MASK32) ^ 0x27D4EB2F ^ c)
    x = a ^ hash32(d)
    for i in range(RNG_WORDS):
        x = hash32(x + 0x6D2B79F5 * (i + 1) + b + c)
        words[i] = x
    if words[0] == 0 and words[1] == 0 and words[2] == 0 and words[3] == 0:
        words[0] = 1


@nb.njit(cache=True)
def next32(words: np.ndarray) -> int:
    """Advance the generator and return a uniform integer in ``[0, 2**32)``."""
    s0 = words[0]
    s1 = words[1]
    s2 = words[2]
    s3 = words[3]
    result = (_rotl32((s1 * 5) & MASK32, 7) * 9) & MASK32
    t = (s1 << 9) & MASK32
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl32(s3, 11)
    words[0] = s0
    words[1] = s1
    words[2] = s2
    words[3] = s3
    return result


@nb.njit(cache=True)
def below(words: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` without modulo bias (rejection sampling)."""
    if n <= 1:
        return 0
    limit = ((MASK32 + 1) // n) * n
    while True:
        r = next32(words)
        if r < limit:
            return r % n


def split_seed(seed: int) -> tuple[int, int]:
    """Validate a user seed and split it into two 32-bit halves."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer or None, got {seed}")
    seed &= (1 << 64) - 1
    return seed & MASK32, seed >> 32


def fresh_seed() -> int:
    """A seed from the operating system's entropy, for unseeded resets."""
    return int.from_bytes(os.urandom(8), "little")


def seeded_words(seed: int, stream: int = 0) -> np.ndarray:
    """Return four generator words for ``seed`` (validated) and ``stream``."""
    lo, hi = split_seed(seed)
    words = np.zeros(RNG_WORDS, dtype=np.int64)
    seed_into(words, lo, hi, stream)
    return words
