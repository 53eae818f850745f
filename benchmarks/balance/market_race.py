"""The pure parts of the market search: the space of markets, the racing schedule, the
halving step, and balance statistics from counted game outcomes.

A market is one card per colour (Garage, Pit, Handling, Performance, Engine, in
``CARD_COLOURS`` order). Market ``m`` is a mixed-radix number over the per-colour pools:
the first colour's card is ``m % len(pool_0)``, and so on, so a market keeps its number
(and its games' seeds) when the search runs on a sample of the space.

Both ends are raced at once (see :func:`halve`): round 0 plays every market; from then on
the "most balanced" bracket keeps the better half of itself and the "least balanced"
bracket the worse half of itself. After round 0 the two brackets are the top and bottom
halves of the field, so they are disjoint (unless the field is tiny) and racing both ends
costs what racing one end costs plus round 0 once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from transit_gym.envs.core.errors import ConfigError

#: per-round seed word of the finalists' replay (the race uses its round number)
FINAL_ROUND = 1_000_000


# ----- the space of markets ---------------------------------------------------------------------
@dataclass(frozen=True)
class MarketSpace:
    """Per-colour card pools; markets are numbered ``0 .. size - 1``."""

    pools: tuple[tuple[str, ...], ...]

    @property
    def size(self) -> int:
        return math.prod(len(p) for p in self.pools)

    def cards(self, market: int) -> tuple[str, ...]:
        """The five card names of market ``market``."""
        if not 0 <= market < self.size:
            raise ConfigError(f"market {market} is outside 0..{self.size - 1}")
        names = []
        for pool in self.pools:
            market, digit = divmod(market, len(pool))
            names.append(pool[digit])
        return tuple(names)


def market_space(cards, cards_per_colour: int | None = None) -> MarketSpace:
    """The pools of Automobiles card data ``cards`` (all 35 cards: 7 per colour), each cut
    to its first ``cards_per_colour`` cards in data-file order (base cards first)."""
    from transit_gym.envs.automobiles.data import CARD_COLOURS

    pools = [tuple(sorted(cards.cards_of(c), key=cards.card_id)) for c in CARD_COLOURS]
    smallest = min(len(p) for p in pools)
    if cards_per_colour is not None:
        if not 1 <= cards_per_colour <= smallest:
            raise ConfigError(f"--cards-per-colour must be 1..{smallest}, got "
                              f"{cards_per_colour}")
        pools = [p[:cards_per_colour] for p in pools]
    return MarketSpace(tuple(pools))


def sample_markets(space: MarketSpace, count: int | None, seed: int) -> list[int]:
    """All markets (``count`` None), or ``count`` distinct ones drawn from ``seed``, sorted."""
    if count is None:
        return list(range(space.size))
    if not 1 <= count <= space.size:
        raise ConfigError(f"--markets must be 1..{space.size} (the markets of these pools), "
                          f"got {count}")
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x6D61726B]))
    return sorted(int(m) for m in rng.choice(space.size, size=count, replace=False))


def game_seed(seed: int, market: int, round_: int) -> int:
    """The 63-bit seed of market ``market``'s games in round ``round_``; game ``i`` of them
    is game index ``i`` of that seed, so games depend on ``(seed, market, round, i)`` only."""
    low, high = np.random.SeedSequence([seed, market, round_]).generate_state(2, np.uint32)
    return (int(low) | int(high) << 32) >> 1


# ----- the schedule -----------------------------------------------------------------------------
def bracket_sizes(markets: int, finalists: int) -> list[int]:
    """Bracket size in each race round: every market in round 0, then halved (rounded up,
    never below ``finalists``) until ``finalists`` remain; the last entry is the size of
    the finalist list, which plays no race round."""
    sizes = [markets]
    while sizes[-1] > finalists:
        sizes.append(max(finalists, math.ceil(sizes[-1] / 2)))
    if len(sizes) == 1:
        sizes.append(markets)
    return sizes


def games_in_round(first: int, growth: int, round_: int) -> int:
    """Games per market in race round ``round_``."""
    return first * growth ** round_


def planned_games(markets: int, finalists: int, first: int, growth: int,
                  final_games: int) -> int:
    """Games the whole search plays (race rounds for both brackets plus the replay),
    counting a market that is in both brackets once (exact when the brackets are
    disjoint, which they are once the field exceeds twice the finalists)."""
    sizes = bracket_sizes(markets, finalists)
    total = markets * first
    for r, size in enumerate(sizes[1:-1], start=1):
        total += min(2 * size, markets) * games_in_round(first, growth, r)
    return total + min(2 * sizes[-1], markets) * final_games


# ----- scores and halving -----------------------------------------------------------------------
def tie_keys(seed: int, markets: Sequence[int]) -> dict[int, float]:
    """A seeded random number per market, to order markets with equal scores."""
    return {m: float(np.random.default_rng(np.random.SeedSequence([seed, m, 0x7469])).random())
            for m in markets}


def halve(bracket: Sequence[int], scores: Mapping[int, float], keep: int, best: bool,
          ties: Mapping[int, float]) -> list[int]:
    """The ``keep`` markets of ``bracket`` with the highest (``best``) or lowest scores,
    returned in that order. Equal scores are ordered by ``ties`` (then the market number),
    the worst end in exactly the reverse order of the best end, so halving a field both
    ways splits it into two disjoint halves."""
    ranked = sorted(bracket, key=lambda m: (-scores[m], ties[m], m))
    if not best:
        ranked.reverse()
    return ranked[:keep]


# ----- outcomes and statistics ------------------------------------------------------------------
def outcome_key(shares: np.ndarray) -> str:
    """A game's winners as seat digits (``"0"``, ``"1"``, ``"01"`` for a shared win)."""
    return "".join(str(s) for s in np.flatnonzero(np.asarray(shares) > 0))


def count_outcomes(shares: np.ndarray) -> dict[str, int]:
    """Games per winner set, from per-game seat win shares ``(n, P)``."""
    counts: dict[str, int] = {}
    for row in np.asarray(shares):
        key = outcome_key(row)
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def format_outcomes(counts: Mapping[str, int]) -> str:
    """``"0:12 1:9 01:1"``: the CSV form of outcome counts."""
    return " ".join(f"{k}:{v}" for k, v in sorted(counts.items()))


def parse_outcomes(text: str) -> dict[str, int]:
    """Inverse of :func:`format_outcomes`."""
    counts: dict[str, int] = {}
    for item in str(text).split():
        key, _, value = item.partition(":")
        counts[key] = counts.get(key, 0) + int(value)
    return counts


def merge_outcomes(parts: Sequence[Mapping[str, int]]) -> dict[str, int]:
    """Sum of outcome counts."""
    total: dict[str, int] = {}
    for part in parts:
        for key, value in part.items():
            total[key] = total.get(key, 0) + value
    return dict(sorted(total.items()))


def _share_matrix(keys: Sequence[str], players: int) -> np.ndarray:
    shares = np.zeros((len(keys), players))
    for row, key in enumerate(keys):
        seats = [int(c) for c in key]
        shares[row, seats] = 1.0 / len(seats)
    return shares


def seat_rates(counts: Mapping[str, int], players: int) -> np.ndarray:
    """Each seat's win rate (shared wins split) from outcome counts."""
    keys = list(counts)
    n = sum(counts.values())
    if n == 0:
        raise ValueError("no games")
    return np.array([counts[k] for k in keys], dtype=float) @ _share_matrix(keys, players) / n


def balance_score(counts: Mapping[str, int], players: int) -> float:
    """Balance (1 minus the largest gap between seat win rates) of outcome counts."""
    rates = seat_rates(counts, players)
    return float(1.0 - (rates.max() - rates.min()))


def balance_interval(counts: Mapping[str, int], players: int, seed: int, rounds: int = 1000,
                     level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the balance: games resampled with replacement
    (a multinomial draw over the outcome counts, the same as resampling game rows)."""
    keys = list(counts)
    n = sum(counts.values())
    p = np.array([counts[k] for k in keys], dtype=float) / n
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(n, p, size=rounds) @ _share_matrix(keys, players) / n
    values = 1.0 - (draws.max(axis=1) - draws.min(axis=1))
    tail = (1.0 - level) / 2.0
    return float(np.quantile(values, tail)), float(np.quantile(values, 1.0 - tail))
