"""The designer report's opening: the flags ranked by severity (one screen), the proposed
changes, every flag with the rules that raise them, and the pictures of the market
tables (race length per market with the median band, the largest card share per market)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.benchmarks.balance import figures, flags

#: flags in the one-screen summary; the rest are in the "All flags" table
SCREEN = 15


def _figure(f: dict[str, Any]) -> str:
    lo, hi = f["interval"]
    if f["rule"] == "race_length":
        return f"{f['figure']:.1f} rounds ({lo:.1f}-{hi:.1f})"
    return f"{100 * f['figure']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"


def flag_rows(found: list[dict[str, Any]]) -> list[str]:
    """The flags as a Markdown table, in their order."""
    lines = ["| # | severity | rule | item | figure (95% interval) | what |",
             "| ---: | ---: | --- | --- | --- | --- |"]
    for rank, f in enumerate(found, 1):
        lines.append(f"| {rank} | {f['severity']:.2f} | {f['rule']} | {f['item']} ({f['kind']}) "
                     f"| {_figure(f)} | {f['text']} |")
    return lines


def fix_lines(fixes: list[dict[str, Any]]) -> list[str]:
    """One bullet per proposed fix: its data-file changes and how it was verified."""
    if not fixes:
        return ["None proposed (run with --fix)."]
    lines = []
    for fix in fixes:
        changes = "; ".join(f"{c['file']} [{c['entry']}] {c['field']}: {c['from']} -> {c['to']}"
                            for c in fix.get("changes", []))
        verified = fix.get("verified") or {}
        checked = ", ".join(f"{k} {v}" for k, v in verified.items()) or "not verified"
        lines.append(f"- **{fix.get('item', '?')}** ({fix.get('kind', '?')}): "
                     f"{changes or 'no change'}. Verified: {checked}.")
    return lines


def rules_lines() -> list[str]:
    return ["Rules (95% intervals; severity = how far the figure lies past the rule's line, "
            "in units of the line's distance from the neutral value):", "",
            f"- **dominant_card**: a card takes more than {flags.DOMINANCE:.0%} of a market's "
            "spending (cubes bought x the card's cost) or activations; severity (share - 0.5) "
            "/ 0.5.",
            f"- **race_length**: a market's mean rounds lie {flags.RACE_DEVIATION:.0%} or more "
            "from the median over the markets; severity (|rounds / median - 1| - 0.35) / 0.35.",
            "- **seat_advantage**: a seat's win-rate interval lies wholly above the fair share; "
            "severity |rate - fair| / fair.",
            "- **unbought_card**: no skill level (the random level is a baseline, not judged) "
            "buys a market card in any game; severity: the share of games in which the "
            "market's other cards are bought (how far it falls behind them).",
            f"- **power**: forbidding a card, driver or sponsor moves the score rate "
            f"{flags.POWER_POINTS * 100:.0f} points or more from the fair share, its interval "
            "excluding it; severity (|rate - fair| - 0.10) / 0.10."]


def made_by(setup: dict[str, Any] | None) -> list[str]:
    """How the one command made the report (nothing for a setup not of the one command:
    joined finished runs)."""
    if not setup or "levels" not in setup:
        return []
    generalist = sorted(name for specs in setup.get("vectors", {}).values()
                        for name, spec in specs.items() if spec == "tuned")
    data = ", ".join(f"{k} {Path(v).name}" for k, v in {**setup["options"],
                                                       **setup["season_options"]}.items()
                     if k.endswith("_data"))
    return ["", f"Made in one command: {setup['players']} players, {setup['games']} games a "
            f"set and level and a restricted item, seed {setup['seed']}, {data}; skill levels "
            f"{', '.join(setup['levels'])} (the last one plays the card-set balance sweep), "
            f"restricted play by {setup['power_agent']} in {setup['markets']} random markets "
            f"an item."
            + (f" Without a tuned vector of their own, played by the generalist tuned: "
               f"{', '.join(generalist)}." if generalist else "")]


def opening(found: list[dict[str, Any]], fixes: list[dict[str, Any]]) -> list[str]:
    """The report's first sections: summary, proposed changes, all flags and the rules."""
    top = found[:SCREEN]
    lines = ["", "## Summary: what looks degenerate", ""]
    if not found:
        lines.append("No flag raised.")
    else:
        more = len(found) - len(top)
        lines += [f"{len(found)} flags, most severe first"
                  + (f" (the first {len(top)}; all in \"All flags\" below)." if more else "."),
                  ""]
        lines += [f"{k}. **{f['item']}** ({f['rule']}, severity {f['severity']:.2f}): "
                  f"{f['text']}" for k, f in enumerate(top, 1)]
    lines += ["", "## Proposed changes", "", *fix_lines(fixes), "", "## All flags", ""]
    lines += [*flag_rows(found), ""] if found else ["None.", ""]
    return lines + rules_lines()


def market_pictures(markets: dict[str, Any], out: Path) -> list[Path]:
    """``race_length_markets.png`` (mean rounds per market, 95% interval, the median and
    the +-35% band) and ``card_share_markets.png`` (the largest card's share of spending
    and of activations per market, the 50% line); none without the data."""
    plt = figures.pyplot()
    written = []
    timed = {n: m for n, m in markets.items() if "rounds_mean" in m}
    if len(timed) >= 2:
        names = sorted(timed, key=lambda n: timed[n]["rounds_mean"])
        means = np.array([timed[n]["rounds_mean"] for n in names])
        lows = np.array([timed[n]["rounds_interval"][0] for n in names])
        highs = np.array([timed[n]["rounds_interval"][1] for n in names])
        mid = flags.median(list(means))
        outside = np.abs(means / mid - 1.0) >= flags.RACE_DEVIATION - flags.EPS
        fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(names)), 4.5))
        x = np.arange(len(names))
        ax.axhspan(mid * (1 - flags.RACE_DEVIATION), mid * (1 + flags.RACE_DEVIATION),
                   color="grey", alpha=0.2, label="median +-35%")
        ax.axhline(mid, color="black", linewidth=0.8, linestyle="--", label="median")
        ax.bar(x, means, color=np.where(outside, "tab:red", "tab:blue"),
               yerr=[np.maximum(means - lows, 0), np.maximum(highs - means, 0)], capsize=2)
        ax.set_xticks(x, names, rotation=30, ha="right")
        ax.set_ylabel("rounds (mean, 95% interval)")
        ax.set_title("race length per market (red: flagged)")
        ax.legend(fontsize=8)
        written.append(figures.save(fig, out / "race_length_markets.png", 110))
    shared = {n: m["shares"] for n, m in markets.items() if m.get("shares")}
    if shared:
        names = list(shared)
        fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(names)), 4.5))
        x = np.arange(len(names))
        for k, measure in enumerate(("spending", "activations")):
            best = [max(s.items(), key=lambda item, m=measure: item[1][m]) for s in
                    shared.values()]
            ax.bar(x + (k - 0.5) * 0.4, [b[1][measure] for b in best], 0.4, label=measure)
            for xi, (card, _) in zip(x, best, strict=True):
                ax.text(xi + (k - 0.5) * 0.4, 0.02, card, rotation=90, fontsize=6,
                        ha="center", va="bottom")
        ax.axhline(flags.DOMINANCE, color="black", linewidth=0.8, linestyle="--",
                   label="half")
        ax.set_xticks(x, names, rotation=30, ha="right")
        ax.set_ylim(0, 1)
        ax.set_ylabel("largest card's share")
        ax.set_title("the largest card's share of spending and activations per market")
        ax.legend(fontsize=8)
        written.append(figures.save(fig, out / "card_share_markets.png", 110))
    return written
