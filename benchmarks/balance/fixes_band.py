"""The fair band a fix must reach, how far a measurement is from it, and the Pareto front
of (numbers changed, distance from the band).

- a card (driver, sponsor): its power, the score rate of the seat that may not take it,
  within ``POWER_TOLERANCE`` of the fair share ``1 / players``; a card's markets must also
  keep their race length within ``LENGTH_TOLERANCE`` of the median over the markets judged,
  and a card must still be bought (``MIN_BOUGHT`` cubes a player and game at least); a
  market that is no named set (``own``: a driver's random markets) is held to its own race
  length on today's data instead of the median (its cards, not the item, set its length);
- a market: balance (1 - the largest gap between seat win rates) at least ``MIN_BALANCE``
  and its race length within ``LENGTH_TOLERANCE`` of that median;
- a board (its grid allowances): the balance of every market judged at least
  ``MIN_BALANCE``, the race lengths as for a market;
- a sponsor: its power only (played in the season campaign, which has no race length).

The distance from the band is the sum of how far each figure lies outside its band (score
rate and balance in their own units, race length as a fraction of the median, cubes bought
short of ``MIN_BOUGHT``); 0 inside.
The search ranks by the distance of the point figures; a fix is in the band only when the
intervals are (:func:`power_in_band`, the whole Wilson interval within the band).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np

POWER_TOLERANCE = 0.05
LENGTH_TOLERANCE = 0.20
MIN_BALANCE = 0.90
#: a card the unrestricted seats buy fewer cubes of a game is no longer played: forbidding
#: it then costs nothing, so its power sits at the fair share without the card being fair
MIN_BOUGHT = 1.0


def power_distance(rate: float, fair: float, tolerance: float = POWER_TOLERANCE) -> float:
    """How far a score rate lies outside ``fair +- tolerance`` (0 inside)."""
    return max(0.0, abs(rate - fair) - tolerance)


def power_in_band(interval: list[float], fair: float,
                  tolerance: float = POWER_TOLERANCE) -> bool:
    """Whether the whole interval lies within ``fair +- tolerance``."""
    low, high = interval
    return fair - tolerance <= low and high <= fair + tolerance


def length_distance(rounds: float, median: float,
                    tolerance: float = LENGTH_TOLERANCE) -> float:
    """How far a race length lies outside ``median * (1 +- tolerance)``, as a fraction of
    the median (0 inside)."""
    return max(0.0, abs(rounds / median - 1.0) - tolerance)


def balance_distance(value: float, minimum: float = MIN_BALANCE) -> float:
    """How far a balance lies below ``minimum`` (0 at or above it)."""
    return max(0.0, minimum - value)


def median_length(lengths: dict[str, float], changed: dict[str, float]) -> float:
    """The median race length over the markets judged, ``changed`` markets replaced."""
    return float(np.median([changed.get(name, rounds) for name, rounds in lengths.items()]))


def reference_lengths(lengths: dict[str, float], markets: dict[str, Any],
                      own: Collection[str] = ()) -> tuple[float, dict[str, float]]:
    """The median over the named markets (``markets``' race lengths replacing today's) and
    the length each of ``markets`` is held to: the median, or for ``own`` markets their
    length today."""
    named = {n: r for n, r in lengths.items() if n not in own}
    median = median_length(named, {n: m["rounds"] for n, m in markets.items()})
    return median, {n: lengths[n] if n in own else median for n in markets}


def distance(kind: str, item: str, figures: dict[str, Any], lengths: dict[str, float],
             players: int, own: Collection[str] = ()) -> dict[str, Any]:
    """The item's distance from its band, and its parts, for ``figures`` of its markets
    (``fixes_measure.measure``) with ``lengths`` the race lengths of every market judged
    today (``own``: markets held to their own length)."""
    markets = {n: m for n, m in figures["markets"].items() if "rounds" in m}
    median, held = reference_lengths(lengths, markets, own) if markets else (None, {})
    parts = {f"length {name}": length_distance(m["rounds"], held[name])
             for name, m in markets.items()}
    if kind == "market":
        parts[f"balance {item}"] = balance_distance(markets[item]["balance"])
    elif kind == "board":
        parts.update({f"balance {name}": balance_distance(m["balance"])
                      for name, m in markets.items()})
    else:
        parts[f"power {item}"] = power_distance(figures["power"]["rate"], 1.0 / players)
        bought = figures["power"].get("bought")
        if bought is not None:   # a card (a driver has no cubes)
            parts[f"bought {item}"] = max(0.0, MIN_BOUGHT - bought)
    return {"distance": float(sum(parts.values())), "parts": parts, "median": median}


def in_band(kind: str, item: str, figures: dict[str, Any], lengths: dict[str, float],
            players: int, own: Collection[str] = ()) -> bool:
    """The band test of a verified measurement: race lengths within the band, a card still
    bought, and the power's whole interval (a card) or the balance (a market) within its
    band (a board: the balance of every market)."""
    measured = distance(kind, item, figures, lengths, players, own)
    if any(v > 0 for k, v in measured["parts"].items() if not k.startswith("power")):
        return False
    if kind in ("market", "board"):   # the balances are among the parts
        return True
    return power_in_band(figures["power"]["interval"], 1.0 / players)


def pareto_front(points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The points no other point beats on both (``numbers``, ``distance``): fewer numbers
    and no larger distance, or as few numbers and a smaller distance. Sorted by numbers;
    of equal points the first given is kept."""
    front = []
    for p in sorted(points, key=lambda q: (q["numbers"], q["distance"])):
        if not front or p["distance"] < front[-1]["distance"]:
            front.append(p)
    return front
