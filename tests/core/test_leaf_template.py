"""One leaf evaluation for the search: every game's ``evaluate`` is a
jitted copy of the template in ``agents/search/leaf.py``, bound to the game's
``strengths`` and ``temperature`` and kept in numba's disk cache like the search loops."""

from __future__ import annotations

import ast
import importlib
import math
from pathlib import Path

import numpy as np
import pytest

from transit_gym.agents.search import leaf
from transit_gym.agents.search.mcts import eval_kernel
from transit_gym.envs.core import fused
from transit_gym.envs.registry import game_class

GAMES = ("loose_caboose", "automobiles", "automobile", "planes", "automobiles_season")
SEARCH = Path(leaf.__file__).resolve().parent


@pytest.mark.parametrize("name", GAMES)
def test_each_game_binds_the_one_template(name):
    """The game's ``evaluate`` runs the template's code (no copy of its own), with the
    game's ``strengths`` and ``temperature`` as its globals, disk-cached and stamped."""
    module = importlib.import_module(f"transit_gym.agents.search.leaf_{name}")
    tree = ast.parse((SEARCH / f"leaf_{name}.py").read_text())
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert "evaluate" not in defined and {"strengths", "temperature"} <= defined
    evaluate = module.evaluate
    assert evaluate.py_func.__code__ is leaf.evaluate.__code__
    assert evaluate.py_func.__globals__["strengths"] is module.strengths
    assert evaluate.py_func.__globals__["temperature"] is module.temperature
    assert type(evaluate._cache).__name__ != "NullCache"
    stamp = set(fused.stamp_sources({"evaluate": evaluate}))
    assert str(SEARCH / f"leaf_{name}.py") in stamp and str(SEARCH / "leaf.py") in stamp
    assert eval_kernel(name) is evaluate


@pytest.mark.parametrize("name", ["automobiles", "automobiles_season", "loose_caboose"])
def test_the_bound_evaluation_is_the_softmax_of_strength_over_temperature(name):
    """'s formula, computed here by hand from the game's own parts: seat i
    gets ``(n * softmax(strength / temperature(left))[i] - 1) / (n - 1)``."""
    module = importlib.import_module(f"transit_gym.agents.search.leaf_{name}")
    game = game_class(name)(num_players=3)
    state = game.new_state(5)
    rng = np.random.default_rng(5)
    for _ in range(30):
        if game.current_player(state) < 0:
            break
        game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    strength = np.zeros(3, dtype=np.float64)
    left = module.strengths(state.data, game.params, strength)
    scaled = strength / module.temperature(left)
    prob = np.exp(scaled - scaled.max()) / np.exp(scaled - scaled.max()).sum()
    out = np.zeros(3, dtype=np.float32)
    module.evaluate(state.data, game.params, out)
    assert np.allclose(out, (3 * prob - 1) / 2, atol=1e-6)
    assert math.isclose(float(out.sum()), 0.0, abs_tol=1e-5)
