"""Potential-based reward shaping for the AEC env (Ng, Harada and Russell, 1999).

With the env option ``reward_shaping`` each seat ``i`` has a potential

    Phi_i(s) = coefficient * (strength_i(s) - mean of the other seats' strengths) / scale

where ``strength`` and ``scale`` are the game's (``envs/<game>/potential.py``, named by
``Game.potential_module``). After every step every seat gets ``Phi_i(s') - Phi_i(s)``
(discount 1); at the end it gets the terminal reward plus ``0 - Phi_i(s)``: ``Phi`` of a
finished game is defined as 0. A seat's rewards over a game therefore sum to its terminal
reward minus ``Phi_i(s_0)``, a constant of the start state, so the shaping does not change
which policy is optimal.
"""

from __future__ import annotations

import importlib
from typing import Any

import numba as nb
import numpy as np

from transit_gym.envs.core.errors import ConfigError


@nb.njit(cache=True)
def relative(strength, n, factor, out):
    """``out[i] = factor * (strength[i] - mean of the others' strengths)``."""
    total = 0.0
    for seat in range(n):
        total += strength[seat]
    for seat in range(n):
        out[seat] = factor * (strength[seat] - (total - strength[seat]) / (n - 1))


class Shaping:
    """The potentials of one game's states at one coefficient."""

    def __init__(self, game: Any, coefficient: float):
        if game.potential_module is None:
            raise ConfigError(f"{game.name} has no reward-shaping potential "
                              f"(set Game.potential_module)")
        module = importlib.import_module(game.potential_module)
        self._strengths = module.strengths
        self.scale = float(module.SCALE)
        self._factor = coefficient / self.scale
        self._n = game.num_players
        self._strength = np.zeros(self._n, dtype=np.float64)

    def potentials(self, data: np.ndarray, params: np.ndarray) -> np.ndarray:
        """``Phi`` of every seat in the running game ``data`` (a new array)."""
        out = np.zeros(self._n, dtype=np.float64)
        self._strengths(data, params, self._strength)
        relative(self._strength, self._n, self._factor, out)
        return out
