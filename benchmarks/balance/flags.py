"""Flags for degenerate play: pure functions from the designer report's tables (plain JSON,
made by ``designer_tables``) to flag dicts, ranked most severe first.

The five rules (``rule`` ids) and their lines:

- ``dominant_card``: a card takes more than half (``DOMINANCE``) of a market's spending
  (cubes bought times the card's cost) or of its activations. Figure: that share.
- ``race_length``: a market's mean race length lies 35% (``RACE_DEVIATION``) or more away
  from the median over the markets judged. Figure: its mean rounds.
- ``seat_advantage``: a seat's 95% win-rate interval lies wholly above the fair share
  (with more than 2 players also: wholly below, when no seat lies above). Figure: its rate.
- ``unbought_card``: a market card that no judged skill level buys in any game (the
  uniform ``random`` level is a baseline, not a skill: ``BASELINE_LEVELS``). Figure: the
  share of games in which it was bought (0).
- ``power``: forbidding a card, driver or sponsor moves the restricted seat's score rate
  10 points (``POWER_POINTS``) or more from the fair share, with the rate's 95% interval
  excluding the fair share. Figure: that score rate.

Severity, comparable across rules: how far the figure lies past the rule's line, in units
of the line's distance from the neutral value (so 0: on the line, 1: a whole line further):
``(share - 0.5) / 0.5``; ``(|rounds / median - 1| - 0.35) / 0.35``; ``|rate - fair| /
fair`` (the line is the fair share itself); ``(|rate - fair| - 0.10) / 0.10``; for a card
nobody buys, the share of games in which the market's other cards are bought (on average,
by the judged levels: how far it falls behind its market). Each flag: ``kind`` (card,
driver, sponsor, market, board), ``item`` (as the data file spells it), ``rule``,
``figure``, ``interval`` [lo, hi], ``markets`` (names concerned), ``severity``, ``text``
(one plain sentence). A driver's or sponsor's power flag also carries ``setting``: where
restricted play measured it (``agent``, ``seed``, ``games``, ``options`` of the run and the
card lists of its random ``markets``), so a fix search judges the item where it was flagged.
"""

from __future__ import annotations

from typing import Any

from transit_gym.training.stats import wilson_interval

DOMINANCE = 0.5
RACE_DEVIATION = 0.35
POWER_POINTS = 0.10
BASELINE_LEVELS = ("random",)
RULES = ("dominant_card", "race_length", "seat_advantage", "unbought_card", "power")
KINDS = ("card", "driver", "sponsor", "market", "board")
#: power kinds of ``card_power`` and the flag kind of their items
POWER_KINDS = {"cards": "card", "drivers": "driver", "sponsors": "sponsor"}
#: comparisons "at the line" tolerate float rounding (0.35 is not exact in binary)
EPS = 1e-9

Flag = dict[str, Any]


def flag(kind: str, item: str, rule: str, figure: float, interval: list[float],
         markets: list[str], severity: float, text: str) -> Flag:
    """One flag dict (the schema of the module docstring)."""
    if kind not in KINDS or rule not in RULES:
        raise ValueError(f"flag kind {kind!r} / rule {rule!r}: kinds are {KINDS}, rules "
                         f"{RULES}")
    return {"kind": kind, "item": item, "rule": rule, "figure": float(figure),
            "interval": [float(interval[0]), float(interval[1])], "markets": list(markets),
            "severity": round(float(severity), 4), "text": text}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _span(interval: list[float], pct: bool = True) -> str:
    lo, hi = interval
    return f"{_pct(lo)}-{_pct(hi)}" if pct else f"{lo:.1f}-{hi:.1f}"


def _merge(per_market: list[tuple[str, Flag]]) -> list[Flag]:
    """One flag per item: the most severe market's, naming every market concerned."""
    best: dict[str, Flag] = {}
    markets: dict[str, list[str]] = {}
    for market, f in per_market:
        markets.setdefault(f["item"], []).append(market)
        if f["item"] not in best or f["severity"] > best[f["item"]]["severity"]:
            best[f["item"]] = f
    out = []
    for item, f in best.items():
        others = [m for m in markets[item] if m not in f["markets"]]
        text = f["text"] if not others else f["text"][:-1] + f"; also in {', '.join(others)}."
        out.append({**f, "markets": markets[item], "text": text})
    return out


def dominant_cards(markets: dict[str, Any]) -> list[Flag]:
    """A card taking more than half of a market's spending or activations."""
    found = []
    for market, m in markets.items():
        for card, share in m.get("shares", {}).items():
            measure = max(("spending", "activations"), key=lambda k: share[k])
            value = share[measure]
            if value <= DOMINANCE + EPS:
                continue
            text = (f"{card} takes {_pct(value)} of the {measure} in {market} (95% "
                    f"{_span(share[f'{measure}_interval'])}).")
            found.append((market, flag("card", card, "dominant_card", value,
                                       share[f"{measure}_interval"], [market],
                                       (value - DOMINANCE) / DOMINANCE, text)))
    return _merge(found)


def median(values: list[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def race_length(markets: dict[str, Any]) -> list[Flag]:
    """Markets whose mean race length is 35% or more from the median over the markets."""
    rounds = {name: m["rounds_mean"] for name, m in markets.items() if "rounds_mean" in m}
    if len(rounds) < 2:
        return []
    mid = median(list(rounds.values()))
    out = []
    for name, value in rounds.items():
        deviation = abs(value / mid - 1.0)
        if deviation < RACE_DEVIATION - EPS:
            continue
        side = "shorter" if value < mid else "longer"
        text = (f"Races in {name} last {value:.1f} rounds (95% "
                f"{_span(markets[name]['rounds_interval'], pct=False)}), "
                f"{100 * deviation:.0f}% {side} than the median {mid:.1f} of the "
                f"{len(rounds)} markets.")
        out.append(flag("market", name, "race_length", value, markets[name]["rounds_interval"],
                        [name], (deviation - RACE_DEVIATION) / RACE_DEVIATION, text))
    return out


def seat_advantage(markets: dict[str, Any], players: int) -> list[Flag]:
    """Per market the seat whose win-rate interval lies wholly above the fair share (the
    most above it); with more than 2 players, failing that, the seat most below it."""
    fair = 1.0 / players
    out = []
    for name, m in markets.items():
        rates, intervals = m["seat_win_rate"], m["seat_win_interval"]
        high = [s for s in range(players) if intervals[s][0] > fair + EPS]
        low = [s for s in range(players) if intervals[s][1] < fair - EPS] if players > 2 else []
        if not high and not low:
            continue
        seat = max(high or low, key=lambda s: abs(rates[s] - fair))
        verb = "wins" if high else "wins only"
        text = (f"In {name} seat {seat} {verb} {_pct(rates[seat])} of the games (95% "
                f"{_span(intervals[seat])}); the fair share is {_pct(fair)}.")
        out.append(flag("market", name, "seat_advantage", rates[seat], intervals[seat], [name],
                        abs(rates[seat] - fair) / fair, text))
    return out


def unbought_cards(skill: dict[str, Any]) -> list[Flag]:
    """Market cards that no judged level bought in any game (``skill["markets"]``: market
    -> card -> level -> [games in which a seat bought it, games]); severity: the share of
    games in which the judged levels bought the market's other cards, on average (how far
    the card falls behind its market)."""
    levels = skill.get("levels", [])
    judged = [lv for lv in levels if lv not in BASELINE_LEVELS] or levels

    def bought(per_level: dict[str, list[int]]) -> tuple[int, int]:
        counts = [per_level[lv] for lv in judged if lv in per_level]
        return sum(k for k, _ in counts), sum(n for _, n in counts)

    found = []
    for market, cards in skill.get("markets", {}).items():
        shares = {card: bought(per_level) for card, per_level in cards.items()}
        for card, (k, games) in shares.items():
            if k or not games:
                continue
            others = [b / n for c, (b, n) in shares.items() if c != card and n]
            peers = sum(others) / len(others) if others else 0.0
            interval = list(wilson_interval(0, games))
            text = (f"No skill level buys {card} in {market}: bought in 0 of {games} games by "
                    f"{', '.join(judged)} (95% at most {_pct(interval[1])}; the market's "
                    f"other cards in {_pct(peers)}).")
            found.append((market, flag("card", card, "unbought_card", 0.0, interval, [market],
                                       peers, text)))
    return _merge(found)


def power(table: dict[str, Any], markets: dict[str, Any] | None = None) -> list[Flag]:
    """Cards, drivers and sponsors whose restriction moves the score rate 10 points or more
    from the fair share, the interval excluding it (``table``: ``card_power``'s summary;
    ``markets``: the report's markets, to name those holding a flagged card)."""
    fair = table["fair_share"]
    run = table.get("settings", {})
    holders = {name: m.get("cards", []) for name, m in (markets or {}).items()}
    out = []
    for kind, rows in table.get("kinds", {}).items():
        if kind not in POWER_KINDS:
            continue
        for row in rows:
            rate, (lo, hi) = row["score_rate"], row["interval"]
            gap = abs(rate - fair)
            if gap < POWER_POINTS - EPS or lo <= fair <= hi:
                continue
            item = row["item"]
            if rate < fair:
                text = (f"Forbidding {item} costs {100 * gap:.1f} points: the restricted seat "
                        f"scores {_pct(rate)} (95% {_span(row['interval'])}) against the fair "
                        f"{_pct(fair)}.")
            else:
                text = (f"A seat forbidden {item} gains {100 * gap:.1f} points ({_pct(rate)}, "
                        f"95% {_span(row['interval'])}): the agent does better without it.")
            found = flag(POWER_KINDS[kind], item, "power", rate, row["interval"],
                         [n for n, cards in holders.items() if item in cards],
                         (gap - POWER_POINTS) / POWER_POINTS, text)
            if kind != "cards" and run:
                found["setting"] = power_setting(run, row)
            out.append(found)
    return out


def power_setting(run: dict[str, Any], row: dict[str, Any]) -> dict[str, Any]:
    """Where restricted play measured an item: the run's agent, seed, games and options,
    and the item's markets (card lists; None for the season's sponsors)."""
    return {"agent": run.get("agent", "tuned"), "seed": run.get("seed"),
            "games": run.get("games"), "options": [list(o) for o in run.get("options", [])],
            "markets": [list(m) if m else None for m in row.get("markets", [])]}


def ranked(flags: list[Flag]) -> list[Flag]:
    """Most severe first (ties: by rule, then item)."""
    return sorted(flags, key=lambda f: (-f["severity"], RULES.index(f["rule"]), f["item"]))


def all_flags(tables: dict[str, Any]) -> list[Flag]:
    """Every flag the tables raise, ranked (a part missing from ``tables`` raises none)."""
    markets = tables.get("markets", {})
    found = dominant_cards(markets) + race_length(markets)
    if markets:
        found += seat_advantage(markets, tables["players"])
    if tables.get("skill"):
        found += unbought_cards(tables["skill"])
    for table in tables.get("power", []):
        found += power(table, markets)
    return ranked(found)
