"""Statistics of the balance tool and tournaments on synthetic outcomes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transit_gym.training.stats import (
    balance,
    bootstrap_interval,
    bradley_terry,
    elo_from_strength,
    elo_ratings,
    seat_wins,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (5, 10, 0.2365931, 0.7634069),    # R: binom::binom.wilson(5, 10)
        (0, 10, 0.0, 0.2775328),          # R: binom::binom.wilson(0, 10)
    ],
)
def test_wilson_interval_matches_published_values(successes, trials, low, high):
    got = wilson_interval(successes, trials)
    assert got == pytest.approx((low, high), abs=1e-6)


@pytest.mark.parametrize(("successes", "trials"), [(81, 263), (1, 3), (999, 1000)])
def test_wilson_bounds_solve_the_score_equation(successes, trials):
    """Each bound p satisfies |p_hat - p| = z sqrt(p (1 - p) / n) (Wilson 1927)."""
    p_hat = successes / trials
    for bound in wilson_interval(successes, trials):
        assert abs(p_hat - bound) == pytest.approx(
            1.959963984540054 * math.sqrt(bound * (1 - bound) / trials), abs=1e-12)


def test_wilson_interval_rejects_impossible_counts():
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(11, 10)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(-1, 10)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_balance_is_one_minus_the_largest_seat_gap():
    assert balance(np.array([0.25, 0.25, 0.25, 0.25])) == pytest.approx(1.0)
    assert balance(np.array([0.40, 0.20, 0.25, 0.15])) == pytest.approx(0.75)
    assert balance(np.array([1.0, 0.0])) == pytest.approx(0.0)
    with pytest.raises(ValueError):
        balance(np.array([]))


def test_seat_wins_share_ties_and_full_ties():
    rewards = np.array([[1.0, -1.0, -1.0], [0.5, 0.5, -1.0], [0.0, 0.0, 0.0]])
    shares = seat_wins(rewards)
    assert shares.tolist() == [[1, 0, 0], [0.5, 0.5, 0], [1 / 3, 1 / 3, 1 / 3]]


def test_bootstrap_interval_covers_the_mean_and_is_reproducible():
    values = np.arange(100.0)
    a = bootstrap_interval(values, np.mean, seed=3)
    assert a == bootstrap_interval(values, np.mean, seed=3)
    assert a[0] < 49.5 < a[1]
    assert a[1] - a[0] < 20


def test_elo_of_a_75_percent_winner_is_400_log10_3_higher():
    """Bradley-Terry: P(A beats B) = 3/4 means strength ratio 3, Elo gap 400 log10(3)."""
    wins = np.array([[0.0, 75.0], [25.0, 0.0]])
    elo = elo_from_strength(bradley_terry(wins, prior=0.0))
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert elo.mean() == pytest.approx(1500.0)


def test_bradley_terry_recovers_known_strengths():
    """Expected results of strengths 1, 2, 4 are fitted back exactly (Elo gaps 400 log10 2)."""
    strength = np.array([1.0, 2.0, 4.0])
    wins = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            if i != j:
                wins[i, j] = 300 * strength[i] / (strength[i] + strength[j])
    fitted = bradley_terry(wins, prior=0.0)
    assert fitted / fitted[0] == pytest.approx(strength, rel=1e-6)
    elo = elo_from_strength(fitted)
    assert np.diff(elo) == pytest.approx([400 * math.log10(2)] * 2, abs=1e-4)


def test_elo_ratings_intervals_contain_the_estimate_and_order_agents():
    results = [(0, 1, 1.0)] * 70 + [(0, 1, 0.0)] * 30 + [(1, 2, 1.0)] * 60 + [(1, 2, 0.0)] * 40
    ratings = elo_ratings(["a", "b", "c"], results, rounds=200, seed=1)
    assert ratings.elo[0] > ratings.elo[1] > ratings.elo[2]
    assert np.all(ratings.low <= ratings.elo) and np.all(ratings.elo <= ratings.high)
    with pytest.raises(ValueError, match="no games"):
        elo_ratings(["a", "b"], [])
