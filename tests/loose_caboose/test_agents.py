"""Loose Caboose! built-in agents (the rule-based agent beats random in >= 60%
of 2-player games on a fixed set of seeded games)."""

from __future__ import annotations

import numpy as np

from tests.core.conformance import rule_based_win_share
from transit_gym.agents.rule_based.loose_caboose import policy, wheel_distribution
from transit_gym.envs.loose_caboose.rules import LooseCabooseGame

GAMES_PER_SEATING = 1000
SEED = 2024


def test_rule_based_beats_random_in_60_percent_of_two_player_games():
    """Fixed set: seeds 2024, games 0-999 with the rule-based agent first, then second."""
    game = LooseCabooseGame(num_players=2)
    assert rule_based_win_share(game, policy, GAMES_PER_SEATING, SEED) >= 0.60


def test_wheel_distribution_matches_the_dice():
    """Dice (data 2.1): faces [0,0,1,1,2,2]; one die gives 0, 1, 2 wheels a third each."""
    game = LooseCabooseGame()
    one = wheel_distribution(game.params, 1)
    assert np.allclose(one[:3], [1 / 3, 1 / 3, 1 / 3])
    two = wheel_distribution(game.params, 2)
    assert np.isclose(two.sum(), 1.0)
    assert np.isclose((two * np.arange(two.size)).sum(), 2.0)
