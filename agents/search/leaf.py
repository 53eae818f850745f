"""The search's leaf evaluation, written once for every game: per-seat strengths turned into
an expected reward per seat.

Each ``leaf_<game>`` module gives two jitted functions, ``strengths(s, p, out)`` (each seat's
strength into ``out``; returns how much of the game is left, in the game's own unit) and
``temperature(left)`` (the win-probability temperature, in strength units, for that much
left), and binds them with :func:`leaf_evaluation`. Like the search loops
(:mod:`transit_gym.agents.search.loops`), :func:`evaluate` below is a template: the binding
makes a jitted copy whose globals are that game's two functions, cached on disk and stamped
with the game's sources (``envs/core/fused.py``'s ``jit_templates``), so there is one source
of ``evaluate`` and no closure numba's cache could not keep.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from transit_gym.envs.core.fused import jit_templates
from transit_gym.envs.core.leaf import softmax_rewards

#: placeholders, bound per game by :func:`leaf_evaluation`
strengths = None
temperature = None


def evaluate(s, p, out):
    """Expected reward per seat of a running game (``out`` holds one entry per seat): seat
    i wins with probability ``softmax(strength / temperature(left))[i]``, scored as the
    game's win-share reward (:func:`~transit_gym.envs.core.leaf.softmax_rewards`)."""
    n = out.shape[0]
    strength = np.zeros(n, dtype=np.float64)
    left = strengths(s, p, strength)
    softmax_rewards(strength, n, temperature(left), out)


#: the template functions of this module
TEMPLATES = ("evaluate",)


def leaf_evaluation(strengths: Callable, temperature: Callable) -> Callable:
    """The jitted ``evaluate(s, p, out)`` of one game, from its ``strengths`` and
    ``temperature`` kernels (compiled on first call, or loaded from numba's disk cache)."""
    functions = {"strengths": strengths, "temperature": temperature}
    return jit_templates(sys.modules[__name__], TEMPLATES, functions).evaluate
