"""``fix.md``: a fix search's result in plain words, its before/after table with intervals,
the Pareto front and the checks on every market that holds a changed card."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from transit_gym.benchmarks.balance import fixes_band as band
from transit_gym.benchmarks.balance.fixes_data import describe

#: kinds judged by balance (a board: its lowest over the markets), the others by power
BALANCE_KINDS = ("market", "board")
CHECKS = ("balance", "seats fair", "race length", "card power", "card bought")


def _figure(kind: str, entry: dict[str, Any]) -> str:
    low, high = entry["interval"]
    if kind in BALANCE_KINDS:
        return f"balance {entry['figure']:.3f} ({low:.3f}-{high:.3f})"
    return f"{100 * entry['figure']:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)"


def _rounds(entry: dict[str, Any]) -> str:
    return ", ".join(f"{name} {r:.1f}" for name, r in sorted(entry["rounds"].items()))


def markdown(fix: dict[str, Any]) -> str:
    """The whole ``fix.md``."""
    kind, item, v = fix["kind"], fix["item"], fix["verified"]
    setup = fix["setup"]
    players = int(setup["players"])
    who = {"driver": "take it in the draft", "sponsor": "take it"}.get(kind, "buy it")
    what = (f"power: score rate of the seat that may not {who}" if kind not in BALANCE_KINDS
            else "balance: 1 - the largest gap between seat win rates" +
            (" (the lowest of the markets)" if kind == "board" else ""))
    band_text = (f"power within {100 * band.POWER_TOLERANCE:.0f} points of the fair share "
                 f"{1 / players:.3f} (the whole 95% interval)" if kind not in BALANCE_KINDS
                 else f"balance at least {band.MIN_BALANCE:.2f}" +
                 (" in every market" if kind == "board" else ""))
    if kind == "card":
        band_text += f", the card still bought ({band.MIN_BOUGHT:g} cube a player and game)"
    agent = ("the shipped generalist vector (tuned)" if kind in ("driver", "sponsor")
             else "its own tuned vector (tuned:markets)")
    change = describe(tuple(fix["changes"]))
    verdict = {
        "fix": f"**Proposed fix: {change}.** Verified inside the band.",
        "in band today": "**No change needed**: the item is inside the band today.",
        "none closer": "**No fix reaches the band**, and no candidate searched comes closer "
                       "to it than today's data (the front below).",
        "unverified": f"**{change} reaches the band on {v['games']} games**, too few to "
                      f"propose it (1000 or more).",
    }.get(fix.get("status", ""), f"**No fix reaches the band.** The closest candidate, "
                                  f"{change}, is shown; it is not proposed.")
    lines = [f"# Fix search: {item} ({kind})", "",
             f"{players} players, each market played by {agent} in every seat; markets "
             f"judged for the item: {', '.join(fix['markets'])}. "
             f"Figure: {what}. Band: {band_text}{_length_band(kind, setup)}. "
             f"Search: {setup.get('screen_games')} games a "
             f"market per candidate, the {setup.get('retune')} closest re-tuned; "
             f"verification: {v['games']} games a market on fresh seeds (seed {v['seed']}).",
             *_market_cards(fix), *_reproduced(fix), *_no_op(fix), "", verdict, "",
             "## Before and after (verification games, 95% intervals)", "",
             "| data | vectors | figure | race length (rounds) | median | distance | in band |",
             "| --- | --- | --- | --- | ---: | ---: | --- |"]
    for label, vectors, entry in (("today", "today's", v["before"]),
                                  (change, "today's (not re-tuned)", v["without_retune"]),
                                  (change, "re-tuned to the change", v)):
        lines.append(f"| {label} | {vectors} | {_figure(kind, entry)} | {_rounds(entry)} | "
                     f"{_number(entry['median'])} | {entry['distance']:.3f} | "
                     f"{'yes' if entry['in_band'] else 'no'} |")
    for t in fix.get("tried", []):
        lines += ["", f"Also verified, not chosen: {t['text']}, {_figure(kind, t)}, distance "
                      f"{t['distance']:.3f} ({'in' if t['in_band'] else 'not in'} the band)."]
    lines += ["", "## Pareto front: numbers changed against distance from the band", "",
              "Distance: how far the figures lie outside their bands (0: inside), from the "
              "search's games: with the vectors re-tuned to the change, and with today's.", "",
              *_points(kind, fix["front"]), "",
              "Every candidate measured with re-tuned vectors (the front is drawn from them):",
              "", *_points(kind, fix.get("retuned", []))]
    lines += ["", "## The checks on every market holding a changed card", "",
              "Before: today's data and vectors; after: the change, vectors re-tuned. "
              f"Checks: {', '.join(CHECKS)} (the card bought at least "
              f"{band.MIN_BOUGHT:g} cube a player and game).", "",
              "| market | card | " + " | ".join(CHECKS) + " | rounds | balance |",
              "| --- | --- | " + " | ".join("---" for _ in CHECKS) + " | ---: | ---: |"]
    for m in v["other_markets"]:
        cells = [f"{_ok(m['before'][c])} -> {_ok(m['after'][c])}" for c in CHECKS]
        lines.append(f"| {m['market']} | {m['card']} | " + " | ".join(cells) +
                     f" | {m['before']['rounds']:.1f} -> {m['after']['rounds']:.1f} | "
                     f"{m['before']['balance_value']:.3f} -> "
                     f"{m['after']['balance_value']:.3f} |")
    broken = []
    for m in v["other_markets"]:
        lost = [c for c in CHECKS if m["before"][c] and not m["after"][c]]
        if lost:
            broken.append(f"{m['market']} ({', '.join(lost)})")
    lines += ["", "What it costs elsewhere: " + ("checks this change breaks: " + "; ".join(broken)
                                                if broken else "no check that passed before "
                                                "fails after the change."), ""]
    for path in fix.get("patch") or []:
        option = Path(path).stem
        lines += [f"Patch: `{Path(path).name}` (env option `{option}=FILE`).", ""]
    return "\n".join(lines)


def _reproduced(fix: dict[str, Any]) -> list[str]:
    """Whether the search measured today's data where the report flagged it."""
    if fix.get("reproduced") is None or not fix.get("flagged"):
        return []
    kind, flag, before = fix["kind"], fix["flagged"], fix["verified"]["before"]
    verdict = ("within the flag's interval: the item is judged where it was flagged"
               if fix["reproduced"] else "OUTSIDE the flag's interval: the setting differs")
    return ["", f"Flagged at {_figure(kind, flag)}; today's data on the verification games: "
                f"{_figure(kind, before)}, {verdict}."]


def _no_op(fix: dict[str, Any]) -> list[str]:
    """The screened candidates that play as today's data under today's vectors (they keep
    their places in the search: re-tuned agents may play them differently)."""
    if "no_op" not in fix:
        return []
    same = fix["no_op"]
    names = f": {'; '.join(same)}" if same else ""
    return ["", f"Plays as today's data under today's vectors: {len(same)} of the "
                f"{fix['screened']} screened candidates (their screened figures equal today's "
                f"data's on the same games, to the last digit; they keep their places in the "
                f"pair pool and the re-tuning, where re-tuned agents may play them){names}."]


def _length_band(kind: str, setup: dict[str, Any]) -> str:
    """The race-length part of the band (a sponsor's seasons have none)."""
    if kind == "sponsor":
        return " (the season campaign has no race length; its vectors are not re-tuned)"
    return (f", and the race length of these markets within "
            f"{100 * band.LENGTH_TOLERANCE:.0f}% of the median over all "
            f"{len(setup['sets'])} markets")


def _market_cards(fix: dict[str, Any]) -> list[str]:
    """The random markets a driver was flagged in (restricted play's), and how their race
    length is judged."""
    cards = fix.get("market_cards") or {}
    if not cards or fix["kind"] == "sponsor":
        return []
    return ["", "The item is judged where restricted play flagged it: these random markets "
            "(the race length of each held within "
            f"{100 * band.LENGTH_TOLERANCE:.0f}% of its own length today, its cards set it):",
            "", *(f"- {name}: {', '.join(c)}" for name, c in cards.items())]


def _points(kind: str, points: list[dict[str, Any]]) -> list[str]:
    """A table of measured candidates: re-tuned figure and distance, then today's."""
    lines = ["| numbers | change | figure (re-tuned) | distance | without re-tuning |",
             "| ---: | --- | --- | ---: | --- |"]
    for p in points:
        old = p.get("without_retune") or p
        lines.append(f"| {p['numbers']} | {p['text']} | {_figure(kind, p)} | "
                     f"{p['distance']:.3f} | {_figure(kind, old)}, {old['distance']:.3f} |")
    return lines


def _number(value: float | None) -> str:
    """One decimal, or ``-`` where there is no figure (a sponsor's seasons: no median)."""
    return "-" if value is None else f"{value:.1f}"


def _ok(value: bool) -> str:
    return "pass" if value else "FAIL"
