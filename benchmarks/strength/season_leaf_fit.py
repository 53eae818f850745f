"""Fit the Racing Season search's leaf weights to the winners of seeded self-play seasons.

    transit-gym season-leaf-fit [--seasons 3000] [--seed 0] [--every 4] [--workers N] \
        [--out agents/search/leaf_automobiles_season_weights.py]

Plays ``--seasons`` two-player seasons (default options) through the run layer
(``training.runs``: season ``i`` is ``play_seated`` at stream ``i`` of ``--seed``) with the
seats cycling through rule_based against tuned, tuned against rule_based and rule_based
against itself; every ``--every``-th decision records each player's features
(``leaf_automobiles_season.features``) and the number of races still to run, and the
season's winner labels the row. Per number of races still to run, a logistic regression of
the winner on the two players' feature difference (ridge ``RIDGE``) gives that row of
``WEIGHTS``; a row with no positions (no race left: the season is over) weighs the points
alone by ``DECIDED``. Writes the weights module (seed and size in its docstring).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from transit_gym.envs.core.game import Game, State
from transit_gym.training.runs.backends import check_backend, make_backend, run_with_progress
from transit_gym.training.runs.errors import tool_errors
from transit_gym.training.runs.options import add_run_arguments, check_counts
from transit_gym.training.runs.seating import play_seated
from transit_gym.training.runs.specs import load_agent
from transit_gym.training.runs.tasks import TaskGame
from transit_gym.training.tool_parser import ToolParser

#: the agents of every season, and the seat pairs (indices into ``AGENTS``) they cycle through
AGENTS = ("rule_based", "tuned")
PAIRS = ((0, 1), (1, 0), (0, 0))
#: ridge penalty of the logistic regressions (per unit of weight squared)
RIDGE = 1.0
#: weight of a season point once no race is left (the points decide)
DECIDED = 5.0
#: seasons per task
CHUNK = 50
WEIGHTS_FILE = (Path(__file__).resolve().parents[2] / "agents" / "search"
                / "leaf_automobiles_season_weights.py")


@dataclass(frozen=True)
class SeasonChunk(TaskGame):
    """Seasons ``first .. first + count - 1`` of a run seeded ``seed``, every ``every``-th
    decision recorded."""

    seed: int
    every: int
    first: int
    count: int


class Positions(NamedTuple):
    """The recorded positions of seasons ``first .. first + seasons - 1``, in season order:
    the feature difference player 0 - player 1, the races still to run and 1.0 when player 0
    won the season."""

    first: int
    seasons: int
    diff: np.ndarray
    stage: np.ndarray
    label: np.ndarray


class Recorder:
    """``before`` of ``play_seated``: every ``every``-th decision's feature difference and
    races still to run."""

    def __init__(self, game: Game, every: int):
        from transit_gym.agents.search.leaf_automobiles_season import NUM_FEATURES

        self.game, self.every = game, every
        self.decisions = 0
        self.rows = np.zeros((game.num_players, NUM_FEATURES), dtype=np.float64)
        self.found: list[tuple[np.ndarray, int]] = []

    def __call__(self, state: State, seat: int) -> None:
        from transit_gym.agents.search.leaf_automobiles_season import features

        if self.decisions % self.every == 0:
            left = features(state.data, self.game.params_of(state), self.rows)
            self.found.append((self.rows[0] - self.rows[1], int(left)))
        self.decisions += 1


def collect_chunk(chunk: SeasonChunk) -> Positions:
    """The positions of one chunk of seasons (a task of the backends)."""
    game = chunk.build()
    agents = [load_agent(spec, game) for spec in AGENTS]
    diffs, stages, labels = [], [], []
    for g in range(chunk.first, chunk.first + chunk.count):
        recorder = Recorder(game, chunk.every)
        played = play_seated(game, agents, PAIRS[g % len(PAIRS)], chunk.seed, stream=g,
                             before=recorder)
        rewards = played.rewards
        for diff, left in recorder.found:
            diffs.append(diff)
            stages.append(left)
            labels.append(1.0 if rewards[0] > rewards[1] else 0.0)
    return Positions(chunk.first, chunk.count, np.array(diffs),   # decision 0 is recorded
                     np.array(stages, dtype=np.int64), np.array(labels))


def collect(seasons: int, seed: int, every: int, workers: int | None = 1,
            ray_address: str | None | bool = False, progress: bool = False
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(diff, stage, label)`` of ``seasons`` seasons (see ``Positions``); the backend and
    the number of workers never change them."""
    chunks = [SeasonChunk("automobiles_season", 2, (), seed, every, first,
                          min(CHUNK, seasons - first)) for first in range(0, seasons, CHUNK)]
    backend = make_backend(workers, ray_address)
    if backend.name != "serial":   # compile (and fill the disk cache) before forking
        collect_chunk(SeasonChunk("automobiles_season", 2, (), seed, every, 0, 1))
    parts = sorted(run_with_progress(backend, ((collect_chunk, c) for c in chunks), seasons,
                                     progress, size=lambda part: part.seasons,
                                     label="seasons", unit="season"),
                   key=lambda part: part.first)
    return (np.concatenate([part.diff for part in parts]),
            np.concatenate([part.stage for part in parts]),
            np.concatenate([part.label for part in parts]))


def logistic(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Weights ``w`` maximising the log-likelihood of ``y ~ sigmoid(x @ w)`` less
    ``ridge * |w|^2 / 2`` (no intercept: the seats are symmetric). That is strictly concave,
    so its maximum is where its gradient is zero: ``scipy.optimize.root`` (Powell's hybrid
    method) finds it with the exact Hessian. A fit that does not converge is a
    ``RuntimeError``."""
    from scipy.optimize import root
    from scipy.special import expit

    def gradient(w: np.ndarray) -> np.ndarray:
        return x.T @ (expit(x @ w) - y) + ridge * w

    def hessian(w: np.ndarray) -> np.ndarray:
        prob = expit(x @ w)
        return (x * (prob * (1.0 - prob))[:, None]).T @ x + ridge * np.eye(x.shape[1])

    result = root(gradient, np.zeros(x.shape[1]), jac=hessian, method="hybr",
                  options={"xtol": 1e-12})
    if not result.success:
        raise RuntimeError(f"the logistic fit did not converge: {result.message}")
    return result.x


def fit(diff: np.ndarray, stage: np.ndarray, label: np.ndarray,
        num_stages: int) -> np.ndarray:
    """One row of weights per number of races still to run (0 .. num_stages - 1; more
    races left are counted as the last row)."""
    weights = np.zeros((num_stages, diff.shape[1]))
    weights[0, 0] = DECIDED
    clipped = np.minimum(stage, num_stages - 1)
    for left in range(1, num_stages):
        rows = clipped == left
        if rows.any():
            weights[left] = logistic(diff[rows], label[rows])
    return weights


def render(weights: np.ndarray, seasons: int, seed: int, every: int, rows: int) -> str:
    """The source of the weights module."""
    from transit_gym.agents.search.leaf_automobiles_season import FEATURES

    lines = ['"""Fitted weights of the Racing Season leaf evaluation (two players): '
             f"{rows} positions",
             f"of {seasons} seasons, seed {seed}, every {every}th decision; made by",
             f"``transit-gym season-leaf-fit --seasons {seasons} --seed {seed} "
             f"--every {every}``.",
             "", "Row ``k``: races still to run (the current one included); columns:",
             "``leaf_automobiles_season.FEATURES``.", '"""', "",
             "import numpy as np", "", "# columns:"]
    lines += ["#   " + " ".join(FEATURES[i:i + 8]) for i in range(0, len(FEATURES), 8)]
    lines.append("WEIGHTS = np.array([")
    for row in weights:
        cells = [f"{v:.6g}" for v in row]
        lines.append("    [" + ", ".join(cells[:8]) + ",")
        lines += ["     " + ", ".join(cells[i:i + 8]) + "," for i in range(8, len(cells), 8)]
        lines[-1] = lines[-1][:-1] + "],"
    lines.append("])")
    return "\n".join(lines) + "\n"


def build(seasons: int, seed: int, every: int, num_stages: int = 4,
          workers: int | None = 1, ray_address: str | None | bool = False,
          progress: bool = False) -> tuple[np.ndarray, str]:
    """Collect, fit and render: ``(weights, module source)``."""
    diff, stage, label = collect(seasons, seed, every, workers, ray_address, progress)
    weights = fit(diff, stage, label, num_stages)
    return weights, render(weights, seasons, seed, every, len(label))


def main(argv: list[str] | None = None) -> np.ndarray:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym season-leaf-fit --seasons 300 --out reports/w.py")
    parser.add_argument("--seasons", type=int, default=3000)
    parser.add_argument("--every", type=int, default=4, help="record every Nth decision")
    add_run_arguments(parser, out_help="the weights module to write (default: the shipped "
                                       "agents/search/leaf_automobiles_season_weights.py)")
    args = parser.parse_args(argv)
    with tool_errors(parser):
        check_counts(args.seed, seasons=args.seasons, every=args.every)
        check_backend(args.workers, args.ray)
        weights, source = build(args.seasons, args.seed, args.every, workers=args.workers,
                                ray_address=args.ray, progress=not args.quiet)
    out = args.out or WEIGHTS_FILE
    out.write_text(source)
    print(f"wrote {out}")
    return weights
