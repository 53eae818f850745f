"""The ids and snippets documented in ``training/gym_registration.py`` work as written."""

from __future__ import annotations

import doctest
import re

import transit_gym.training  # noqa: F401  (registers the ids)
from transit_gym.training import gym_registration
from transit_gym.training.gym_registration import GYM_IDS


def test_every_documented_example_runs():
    """Every ``>>>`` example of the module docstring gives the output it shows."""
    result = doctest.testmod(gym_registration, verbose=False, report=True)
    assert result.attempted >= 5
    assert result.failed == 0


def test_every_documented_id_is_registered():
    """Every Gymnasium id the docstring names (bare or behind ``module:``) is one we register,
    behind the module that registers them."""
    named = re.findall(r'"([^"\s]*-v\d+)"', gym_registration.__doc__)
    assert len(named) >= 3, "the docstring names no id"
    for env_id in named:
        module, _, bare = env_id.rpartition(":")
        assert bare in GYM_IDS, env_id
        assert module in ("", "transit_gym.training"), env_id
