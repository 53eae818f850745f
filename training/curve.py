"""Learning curves from scratch: MaskablePPO with and without reward shaping, scored against
random and rule-based seats at evenly spaced step counts.

    transit-gym learning-curve --game loose_caboose --steps 400000 --points 8 --out DIR

Each run (``off``: terminal rewards only; ``on``: ``reward_shaping="score"``, or
``--coefficient`` times it) trains a new policy from random weights on the batched env
(``training.vec_env``; the learner's seat drawn per game, the other seats random and
rule-based agents; no behaviour cloning, no hint), through ``training.train``'s
``make_model``. Before training and after every ``--steps/--points`` steps the greedy policy
plays ``--eval-games`` games against random seats and as many against rule-based seats
(``train.evaluate_batched``, the learner at every seat in turn, the same games at every
point), scored as the share won with a 95% Wilson interval (``training.stats``).

``DIR`` gets ``run_<name>.json`` per run (written at every point), each run's final
checkpoint ``<name>.zip`` (its game, options and, in ``recipe.json`` inside it, the recipe
and seeds), ``curve.json`` (every point: steps, seconds, score and interval per opponent;
the seeds, the recipe, the command), ``curve.md`` and ``curve.png`` (the intervals as
bands). A run already finished in ``DIR`` is not trained again; ``DIR`` keeps its settings
(``runs.folder``): other settings into it stop before any training.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.envs.core.options import check_reward_shaping
from transit_gym.envs.registry import game_class
from transit_gym.training.runs.folder import check_settings
from transit_gym.training.runs.options import parse_options
from transit_gym.training.stats import wilson_interval
from transit_gym.training.tool_parser import ToolParser
from transit_gym.training.train import add_game_arguments, parse_net

OPPONENTS = ("random", "rule_based")
#: the runs of ``--shaping``: name -> shaping on
RUN_CHOICES = {"both": ("off", "on"), "off": ("off",), "on": ("on",)}
#: the spec's targets from scratch with shaping: share of games won against each opponent
TARGETS = {"random": 0.90, "rule_based": 0.55}
#: offset of the evaluation games' seed from the run's seed
EVAL_SEED = 20_000
RECIPE_NAME = "recipe.json"


@dataclass(frozen=True)
class Recipe:
    """MaskablePPO's settings for every run of a curve (gamma 1, GAE lambda 0.95)."""

    envs: int = 64
    n_steps: int = 128          # rollout length per env
    batch_size: int = 1024
    epochs: int = 4
    learning_rate: float = 3e-4
    ent_coef: float = 0.01
    net: tuple[int, ...] = (64, 64)

    def check(self) -> None:
        """``ConfigError`` for a setting PPO cannot use."""
        for name in ("envs", "n_steps", "batch_size", "epochs"):
            if getattr(self, name) < 1:
                raise ConfigError(f"--{name.replace('_', '-')} must be positive, "
                                  f"got {getattr(self, name)}")
        if not self.learning_rate > 0 or not self.ent_coef >= 0:
            raise ConfigError(f"--lr must be positive and --ent-coef non-negative, got "
                              f"{self.learning_rate} and {self.ent_coef}")
        if not self.net or min(self.net) < 1:
            raise ConfigError(f"--net takes positive layer widths, got {list(self.net)}")


def marks(steps: int, points: int) -> list[int]:
    """The step counts after which a run is evaluated (besides step 0)."""
    if steps < 1 or points < 1:
        raise ConfigError(f"--steps and --points must be positive, got {steps} and {points}")
    return sorted({max(1, round(steps * k / points)) for k in range(1, points + 1)})


def shaping_of(name: str, coefficient: float) -> Any:
    """The env's ``reward_shaping`` value of run ``name``."""
    if name == "off":
        return None
    return "score" if coefficient == 1.0 else coefficient


def score(game: Game, policy, eval_games: int, seed: int) -> dict[str, dict[str, float]]:
    """The greedy policy's share of games won against each opponent, with its 95% Wilson
    interval."""
    from transit_gym.training.train import evaluate_batched

    result = evaluate_batched(game, policy, eval_games, seed, kinds=OPPONENTS)
    rows = {}
    for kind, row in result.items():
        wins = round(row["win_rate"] * row["games"])
        low, high = wilson_interval(wins, row["games"])
        rows[kind] = {"score": row["win_rate"], "low": round(low, 4), "high": round(high, 4),
                      "wins": wins, "games": row["games"],
                      "mean_reward": round(row["mean_reward"], 4)}
    return rows


def train_run(game: Game, name: str, shaping: Any, steps: int, points: int, recipe: Recipe,
              seed: int, eval_games: int, out: Path, about: dict[str, Any],
              progress: bool = True) -> dict[str, Any]:
    """Train run ``name`` from scratch, scoring it at step 0 and at every mark; writes
    ``out/run_<name>.json`` at every point and the checkpoint ``out/<name>.zip``."""
    import torch

    from transit_gym.agents.learned.ppo import write_metadata
    from transit_gym.training.train import NOT_SAVED, Progress, make_model, vec_callback
    from transit_gym.training.vec_env import SelfPlayVecEnv

    torch.set_num_threads(1)
    began = time.perf_counter()
    env = SelfPlayVecEnv(game, recipe.envs, list(OPPONENTS), seed=seed, reward_shaping=shaping)
    model = make_model(env, seed, n_steps=recipe.n_steps, batch_size=recipe.batch_size,
                       learning_rate=recipe.learning_rate, n_epochs=recipe.epochs,
                       net_arch=recipe.net, scaled=True, ent_coef=recipe.ent_coef)
    bar = Progress(steps, enabled=progress)
    callback = vec_callback(env, bar, 0, 1, 0, 0, seed, out / name)
    run: dict[str, Any] = {"name": name, "reward_shaping": shaping, "seed": seed,
                           "command": about["command"],
                           "finished": False, "points": []}
    learning = 0.0
    for mark in [0, *marks(steps, points)]:
        if mark > model.num_timesteps:
            started = time.perf_counter()
            model.learn(total_timesteps=mark - model.num_timesteps, callback=callback,
                        reset_num_timesteps=False)
            learning += time.perf_counter() - started
        row = {"steps": int(model.num_timesteps), "train_seconds": round(learning, 1),
               **score(game, model.policy, eval_games, seed + EVAL_SEED),
               "wall_seconds": round(time.perf_counter() - began, 1)}
        run["points"].append(row)
        bar.line(f"{name}: steps={row['steps']:,} train={row['train_seconds']}s " + " ".join(
            f"vs_{kind}={row[kind]['score']:.3f} [{row[kind]['low']:.2f}, "
            f"{row[kind]['high']:.2f}]" for kind in OPPONENTS))
        write_json(out / f"run_{name}.json", run)
    bar.close()
    model.save(str(out / name), exclude=NOT_SAVED)
    write_metadata(out / name, game)
    with zipfile.ZipFile(out / f"{name}.zip", "a") as archive:
        archive.writestr(RECIPE_NAME, json.dumps({**about, "run": name,
                                                  "reward_shaping": shaping}, indent=2))
    run["finished"] = True
    run["checkpoint"] = f"{name}.zip"
    write_json(out / f"run_{name}.json", run)
    return run


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n")


def finished_run(path: Path) -> dict[str, Any] | None:
    """The run stored at ``path`` when it finished, else None (it is trained again)."""
    if not path.exists():
        return None
    run = json.loads(path.read_text(encoding="utf-8"))
    return run if run.get("finished") else None


def curve(game: Game, runs: tuple[str, ...], steps: int, points: int, recipe: Recipe,
          seed: int, eval_games: int, out: Path, command: str, coefficient: float = 1.0,
          progress: bool = True) -> dict[str, Any]:
    """Train (or keep the finished) ``runs``, then write ``curve.json``, ``curve.md`` and
    ``curve.png`` from every finished run in ``out``; returns the curve."""
    options = {k: v for k, v in game.options.items() if k != "num_players"}
    settings = {"game": game.name, "players": game.num_players, "options": options,
                "steps": steps, "points": points, "eval_games": eval_games, "seed": seed,
                "coefficient": coefficient, "recipe": asdict(recipe)}
    out.mkdir(parents=True, exist_ok=True)
    check_settings(out, settings, tool="learning-curve", games_file="curve.json",
                   growable=(), what="the runs of a curve")
    about = {**settings, "seeds": {"model_and_env": seed, "evaluation": seed + EVAL_SEED},
             "opponents_in_training": list(OPPONENTS), "command": command}
    for name in runs:
        if finished_run(out / f"run_{name}.json") is None:
            train_run(game, name, shaping_of(name, coefficient), steps, points, recipe, seed,
                      eval_games, out, about, progress)
        elif progress:
            print(f"{name}: finished in {out}, kept", flush=True)
    done = {name: run for name in RUN_CHOICES["both"]
            if (run := finished_run(out / f"run_{name}.json")) is not None}
    result = {**about, "targets": TARGETS, "runs": done}
    write_json(out / "curve.json", result)
    from transit_gym.training.curve_report import draw, markdown

    draw(result, out / "curve.png")
    (out / "curve.md").write_text(markdown(result, "curve.png"))
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym learning-curve --game loose_caboose --steps 8192 "
                                "--points 2 --eval-games 20 --envs 16 --out curves/lc")
    add_game_arguments(parser)
    parser.add_argument("--steps", type=int, default=400_000, help="steps of each run")
    parser.add_argument("--points", type=int, default=8,
                        help="evaluations after step 0, evenly spaced")
    parser.add_argument("--shaping", choices=list(RUN_CHOICES), default="both",
                        help="which runs: without shaping (off), with it (on) or both")
    parser.add_argument("--coefficient", type=float, default=1.0,
                        help="the shaped run's coefficient of the 'score' potential")
    parser.add_argument("--eval-games", type=int, default=200,
                        help="games against each opponent at every point")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=Recipe.envs, help="games per batch")
    parser.add_argument("--n-steps", type=int, default=Recipe.n_steps,
                        help="rollout length per game slot")
    parser.add_argument("--batch-size", type=int, default=Recipe.batch_size)
    parser.add_argument("--epochs", type=int, default=Recipe.epochs)
    parser.add_argument("--lr", type=float, default=Recipe.learning_rate)
    parser.add_argument("--ent-coef", type=float, default=Recipe.ent_coef)
    parser.add_argument("--net", default=",".join(map(str, Recipe.net)),
                        help="hidden layers, e.g. 64,64")
    parser.add_argument("--option", action="append", default=[],
                        help="game option key=value (repeatable)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    net = parse_net(parser, args.net)
    if args.eval_games < 1:
        parser.error(f"--eval-games must be positive, got {args.eval_games}")
    options = parse_options(args.option)
    if "reward_shaping" in options:
        parser.error("--option reward_shaping: the curve trains with and without shaping; "
                     "choose the runs with --shaping and the coefficient with --coefficient")
    recipe = Recipe(args.envs, args.n_steps, args.batch_size, args.epochs, args.lr,
                    args.ent_coef, net)
    recipe.check()
    marks(args.steps, args.points)
    check_reward_shaping("--coefficient", args.coefficient)
    cls = game_class(args.game)
    game = cls(num_players=args.players or cls.min_players, **options)
    command = shlex.join(["transit-gym", "learning-curve",
                          *(sys.argv[1:] if argv is None else argv)])
    result = curve(game, RUN_CHOICES[args.shaping], args.steps, args.points, recipe, args.seed,
                   args.eval_games, args.out, command, args.coefficient,
                   progress=not args.no_progress)
    print(f"wrote {args.out / 'curve.json'}, curve.md and curve.png")
    return result
