"""The learning curve's picture and markdown page, drawn from ``curve.json``
(``training.curve``): one panel per opponent, the share of games won over environment steps,
each run a line with its 95% Wilson interval as a band, the spec's targets dashed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

COLOURS = {"off": "#7f7f7f", "on": "#1f77b4"}
LABELS = {"off": "terminal reward only", "on": "reward shaping"}


def _series(run: dict[str, Any], kind: str) -> tuple[list[int], ...]:
    points = run["points"]
    return ([p["steps"] for p in points], [p[kind]["score"] for p in points],
            [p[kind]["low"] for p in points], [p[kind]["high"] for p in points])


def draw(result: dict[str, Any], path: Path, dpi: int = 110) -> Path:
    """``path``: the curve's PNG (matplotlib's Agg canvas, no display needed)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9.0, 3.9))
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(result["targets"]), sharey=True)
    for ax, (kind, target) in zip(axes, result["targets"].items(), strict=True):
        for name, run in result["runs"].items():
            steps, score, low, high = _series(run, kind)
            ax.fill_between(steps, low, high, color=COLOURS[name], alpha=0.2, linewidth=0)
            ax.plot(steps, score, marker="o", markersize=3, color=COLOURS[name],
                    label=LABELS[name])
        ax.axhline(target, color="#d62728", linestyle="--", linewidth=1,
                   label="the spec's target")
        ax.set_title(f"against {kind.replace('_', '-')} seats")
        ax.set_xlabel("environment steps (learner decisions)")
        ax.set_ylim(0.0, 1.0)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(f"share of games won ({result['eval_games']} games, 95% interval)")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=8,
               frameon=False)
    fig.suptitle(f"{result['game']}, {result['players']} players: MaskablePPO from scratch, "
                 f"seed {result['seed']}")
    fig.tight_layout(rect=(0.0, 0.07, 1.0, 1.0))
    fig.savefig(path, dpi=dpi)
    return path


def _shown(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def _cell(row: dict[str, Any]) -> str:
    return f"{row['score']:.1%} [{row['low']:.1%}, {row['high']:.1%}]"


def markdown(result: dict[str, Any], picture: str) -> str:
    """The page: the command, the recipe, the picture and every point of every run."""
    kinds = list(result["targets"])
    recipe = ", ".join(f"{key} {_shown(value)}" for key, value in result["recipe"].items())
    lines = [f"# Learning curve: {result['game']}, {result['players']} players", "",
             "```", result["command"], "```", "",
             f"MaskablePPO from scratch (gamma 1, GAE lambda 0.95; {recipe}), trained against "
             f"random and rule-based seats; seed {result['seeds']['model_and_env']} (policy "
             f"and training games), evaluation games seeded "
             f"{result['seeds']['evaluation']}, {result['eval_games']} games against each "
             "opponent per point, the learner at every seat in turn; score: the share of games "
             "won, with its 95% Wilson interval.", "", f"![learning curve]({picture})", ""]
    for name, run in result["runs"].items():
        lines += [f"## {LABELS[name]} (`reward_shaping={run['reward_shaping']}`)", "",
                  "| steps | training s | wall s | " + " | ".join(
                      f"vs {k.replace('_', '-')}" for k in kinds) + " |",
                  "| ---: | ---: | ---: |" + " --- |" * len(kinds)]
        lines += [f"| {p['steps']:,} | {p['train_seconds']} | {p['wall_seconds']} | "
                  + " | ".join(_cell(p[k]) for k in kinds) + " |" for p in run["points"]]
        lines.append("")
    return "\n".join(lines)
