"""The learner's reward-shaping potential in B batched games (``training.vec_env``).

The same potential as the AEC env's (:mod:`transit_gym.envs.core.shaping`): the game's
jitted ``strengths`` (``Game.potential_module``) turned into each seat's
``coefficient * (strength - mean of the others) / scale`` by ``shaping.relative``, read
here for the learner's seat of every game in one jitted call. :func:`learner_potentials`
is a template (``envs.core.fused.jit_templates``): its jitted copy calls one game's
``strengths``.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import numpy as np

from transit_gym.envs.core.fused import jit_templates
from transit_gym.envs.core.shaping import Shaping, relative  # noqa: F401  (template global)
from transit_gym.envs.core.variants import row_of  # noqa: F401  (template global)

#: placeholder, bound per game by :class:`LearnerPotentials`
strengths = None

_COPIES: dict[int, Any] = {}


def learner_potentials(states, table, vslot, seats, n_players, factor, out):
    """``out[b]``: the potential of seat ``seats[b]`` in game ``states[b]``."""
    strength = np.zeros(n_players, dtype=np.float64)
    phi = np.zeros(n_players, dtype=np.float64)
    for b in range(states.shape[0]):
        s = states[b]
        strengths(s, row_of(s, table, vslot), strength)
        relative(strength, n_players, factor, phi)
        out[b] = phi[seats[b]]


class LearnerPotentials:
    """The learner's potential in each of B games of ``game`` at ``coefficient``."""

    def __init__(self, game: Any, coefficient: float):
        self.scale = Shaping(game, coefficient).scale   # the AEC env's checks and scale
        module = importlib.import_module(game.potential_module)
        key = id(module.strengths)
        if key not in _COPIES:
            _COPIES[key] = jit_templates(sys.modules[__name__], ("learner_potentials",),
                                         {"strengths": module.strengths}).learner_potentials
        self._kernel = _COPIES[key]
        self._game = game
        self._factor = coefficient / self.scale

    def __call__(self, states: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The potential of seat ``seats[b]`` in every running game ``states[b]``."""
        out = np.zeros(states.shape[0], dtype=np.float64)
        self._kernel(states, self._game.param_table, self._game.variant_slot, seats,
                     self._game.num_players, self._factor, out)
        return out
