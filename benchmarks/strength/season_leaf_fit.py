"""Fit the Racing Season search's leaf weights to the winners of seeded self-play seasons.

    transit-gym season-leaf-fit [--seasons 3000] [--seed 0] [--every 4] \
        [--out agents/search/leaf_automobiles_season_weights.py]

Plays ``--seasons`` two-player seasons (default options) with the seats cycling through
rule_based against tuned, tuned against rule_based and rule_based against itself; every
``--every``-th decision records each player's features
(``leaf_automobiles_season.features``) and the number of races still to run, and the
season's winner labels the row. Per number of races still to run, a logistic regression of
the winner on the two players' feature difference (ridge ``RIDGE``, Newton's method) gives
that row of ``WEIGHTS``; a row with no positions (no race left: the season is over) weighs
the points alone by ``DECIDED``. Writes the weights module (seed and size in its docstring).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from transit_gym.training.tool_parser import ToolParser

#: the seat pairs the seasons cycle through
PAIRS = (("rule_based", "tuned"), ("tuned", "rule_based"), ("rule_based", "rule_based"))
#: ridge penalty of the logistic regressions (per unit of weight squared)
RIDGE = 1.0
#: weight of a season point once no race is left (the points decide)
DECIDED = 5.0
WEIGHTS_FILE = (Path(__file__).resolve().parents[2] / "agents" / "search"
                / "leaf_automobiles_season_weights.py")


def collect(seasons: int, seed: int, every: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(diff, stage, label)``: per recorded position the feature difference player 0 -
    player 1, the races still to run and 1.0 when player 0 won the season."""
    from transit_gym.agents.search.leaf_automobiles_season import NUM_FEATURES, features
    from transit_gym.agents.tuned import jit_setup
    from transit_gym.envs.automobiles_season.rules import AutomobilesSeasonGame
    from transit_gym.envs.core.fused import split64
    from transit_gym.envs.core.rng import RNG_WORDS, seed_into
    from transit_gym.envs.core.variants import start_variant

    game = AutomobilesSeasonGame(num_players=2)
    policy, table, codes = jit_setup(game, ["rule_based", "tuned"])
    k = game.kernels
    lo, hi = split64(seed)
    s = np.zeros(game.layout.size, dtype=np.int64)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    obs = np.zeros(game.obs_size, dtype=np.float32)
    words = np.zeros(RNG_WORDS, dtype=np.int64)
    reward = np.zeros(2, dtype=np.float32)
    rows = np.zeros((2, NUM_FEATURES), dtype=np.float64)
    diffs, stages, labels = [], [], []
    for g in range(seasons):
        seats = [codes[a] for a in PAIRS[g % len(PAIRS)]]
        s[:] = 0   # the set-up of envs/core/loops.py's new_game, game g of the seed
        seed_into(s[:RNG_WORDS], lo, hi, g)
        p = start_variant(s, table, game.variant_slot)
        k.init(s, p)
        seed_into(words, lo ^ 0x5BD1E995, hi ^ 0x1B873593, g)
        found = []
        decision = 0
        while (player := k.current_player(s, p)) >= 0:
            if decision % every == 0:
                left = features(s, p, rows)
                found.append((rows[0] - rows[1], left))
            mask[:] = 0
            k.legal_mask(s, p, mask)
            obs[:] = 0.0
            k.observe(s, p, player, obs)
            k.apply(s, p, policy(seats[player], p, obs, mask, words))
            decision += 1
        k.rewards(s, p, reward)
        for diff, left in found:
            diffs.append(diff)
            stages.append(left)
            labels.append(1.0 if reward[0] > reward[1] else 0.0)
    return np.array(diffs), np.array(stages, dtype=np.int64), np.array(labels)


def logistic(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE,
             steps: int = 50) -> np.ndarray:
    """Weights ``w`` maximising the log-likelihood of ``y ~ sigmoid(x @ w)`` less
    ``ridge * |w|^2 / 2`` (Newton's method; no intercept: the seats are symmetric)."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        prob = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (y - prob) - ridge * w
        hess = (x * (prob * (1.0 - prob))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-10:
            break
    return w


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


def build(seasons: int, seed: int, every: int, num_stages: int = 4) -> tuple[np.ndarray, str]:
    """Collect, fit and render: ``(weights, module source)``."""
    diff, stage, label = collect(seasons, seed, every)
    weights = fit(diff, stage, label, num_stages)
    return weights, render(weights, seasons, seed, every, len(label))


def main(argv: list[str] | None = None) -> np.ndarray:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym season-leaf-fit --seasons 300 --out reports/w.py")
    parser.add_argument("--seasons", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=4, help="record every Nth decision")
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = parser.parse_args(argv)
    if args.seasons < 1 or args.every < 1:
        parser.error("--seasons and --every must be at least 1")
    weights, source = build(args.seasons, args.seed, args.every)
    args.out.write_text(source)
    print(f"wrote {args.out}")
    return weights
