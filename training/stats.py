"""Statistics for balance sweeps and tournaments: Wilson intervals, seat balance,
bootstrap intervals and Bradley-Terry (Elo) ratings."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    ``successes`` may be fractional (shared wins count as fractions)."""
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def balance(seat_win_rates: np.ndarray) -> float:
    """1 minus the largest gap between seat win rates (1 = every seat wins equally)."""
    rates = np.asarray(seat_win_rates, dtype=float)
    if rates.size == 0:
        raise ValueError("balance needs at least one seat")
    return float(1.0 - (rates.max() - rates.min()))


def seat_wins(rewards: np.ndarray) -> np.ndarray:
    """Per game and seat, the share of the win: 1/k to each of k winners (reward > 0).

    A game where nobody has a positive reward (a full tie) shares the win among all."""
    rewards = np.asarray(rewards, dtype=float)
    won = rewards > 0
    none = ~won.any(axis=1)
    won[none] = True
    return won / won.sum(axis=1, keepdims=True)


def bootstrap_interval(values: np.ndarray, statistic, rounds: int = 400, seed: int = 0,
                       level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of ``statistic(sample)`` over rows of ``values``."""
    values = np.asarray(values)
    n = values.shape[0]
    if n == 0:
        raise ValueError("bootstrap needs at least one row")
    rng = np.random.default_rng(seed)
    stats = np.array([statistic(values[rng.integers(0, n, n)]) for _ in range(rounds)])
    tail = (1.0 - level) / 2.0
    return float(np.quantile(stats, tail)), float(np.quantile(stats, 1.0 - tail))


@dataclass
class Ratings:
    """Bradley-Terry strengths as Elo ratings (mean anchored at ``anchor``)."""

    names: list[str]
    elo: np.ndarray
    low: np.ndarray
    high: np.ndarray


def bradley_terry(wins: np.ndarray, prior: float = 0.5, iterations: int = 5000,
                  tol: float = 1e-12) -> np.ndarray:
    """Bradley-Terry strengths from ``wins[i, j]`` (i beat j; halves for draws).

    Minorisation-maximisation (Hunter 2004), with a prior of ``prior`` wins each way per
    pair that met, so an unbeaten agent gets a finite rating (0 gives the plain maximum
    likelihood estimate). Strengths are normalised to a geometric mean of 1."""
    wins = np.asarray(wins, dtype=float)
    n = wins.shape[0]
    if wins.shape != (n, n):
        raise ValueError(f"wins must be square, got {wins.shape}")
    games = wins + wins.T
    met = games > 0
    extra = np.where(met, prior, 0.0)
    np.fill_diagonal(extra, 0.0)
    w = wins + extra
    g = w + w.T
    total_wins = w.sum(axis=1)
    strength = np.ones(n)
    for _ in range(iterations):
        denom = (g / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.maximum(denom, 1e-300), strength)
        new = new / math.exp(np.log(np.maximum(new, 1e-300)).mean())
        if np.max(np.abs(new - strength)) < tol:
            strength = new
            break
        strength = new
    return strength


def elo_from_strength(strength: np.ndarray, anchor: float = 1500.0) -> np.ndarray:
    """Elo ratings: 400 log10 of the strength, centred on ``anchor``."""
    elo = 400.0 * np.log10(strength)
    return elo - elo.mean() + anchor


def elo_ratings(names: list[str], results: list[tuple[int, int, float]], rounds: int = 400,
                seed: int = 0, anchor: float = 1500.0) -> Ratings:
    """Elo with 95% bootstrap intervals from game results ``(i, j, score_of_i)``.

    ``score_of_i`` is 1 (i won), 0 (j won) or 0.5 (draw)."""
    n = len(names)
    if not results:
        raise ValueError("no games to rate")
    rows = np.array(results, dtype=float)

    def fit(sample: np.ndarray) -> np.ndarray:
        wins = np.zeros((n, n))
        for i, j, score in sample:
            wins[int(i), int(j)] += score
            wins[int(j), int(i)] += 1.0 - score
        return elo_from_strength(bradley_terry(wins), anchor)

    elo = fit(rows)
    rng = np.random.default_rng(seed)
    boot = np.array([fit(rows[rng.integers(0, len(rows), len(rows))]) for _ in range(rounds)])
    return Ratings(list(names), elo, np.quantile(boot, 0.025, axis=0),
                   np.quantile(boot, 0.975, axis=0))
