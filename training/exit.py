"""Expert iteration: a network improved by the search that uses it (Anthony et al. 2017).

Each iteration plays self-play games in which every seat is the network-guided search
(:class:`~transit_gym.agents.search.net_mcts.NetSearchAgent`, Dirichlet noise at the
root, moves sampled in proportion to visits for the first ``--sample-moves`` decisions of
a seat, then the most visited); each decision gives a training sample: the observation,
the legal mask, the policy target (AlphaZero's visit distribution of the root;
``--target improved`` uses Gumbel AlphaZero's improved policy from the root's logits and
completed Q-values instead, see docs/learning.md for what it did on Loose Caboose!) and,
once the game ends, the reward of the seat that decided (value target). The torch twin
of the network is fitted on the samples of the last ``--buffer`` iterations; then the
network alone and with its search is scored against fixed opponents, with an Elo
estimate in the log.

``transit-gym exit --game loose_caboose --iterations 10 --out runs/lc``

``--teacher SPEC --teacher-games N`` starts the run from a teacher instead of a blank
network (iteration 0): N games in which every seat is the teacher (any agent spec:
``mcts:400``, ``tuned``, ``rule_based``), whose decisions become the first samples (a
search teacher's root visit distribution, any other teacher's chosen action), fitted for
``--teacher-epochs`` passes; expert iteration then goes on from that network, with the
teacher's samples in its buffer while they are recent (``--iterations 0``: the teacher's
network alone, a distillation). ``--dagger-rounds K --dagger-games N`` adds K iterations
after the teacher's in which the network plays and the teacher labels its positions
(``training/exit_dagger.py``).

Every game is seeded by (seed, iteration, game index), so the samples, and therefore
the trained weights, are the same on one worker, a process pool or a Ray cluster; the
fit runs single-threaded from a seed of (seed, iteration). ``--out`` keeps one
checkpoint and one sample file per iteration and a ``run.json`` with the settings and
the log; a rerun with the same settings resumes after the last finished iteration, one
with other settings stops (exit status 2) naming each difference.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import MISSING, asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.agents.learned.network import Network, NetworkRecord
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import Game
from transit_gym.envs.registry import cached_game, options_key
from transit_gym.training.exit_dagger import dagger_tasks
from transit_gym.training.exit_samples import Sampler, teacher_target
from transit_gym.training.runs.backends import check_backend, make_backend, run_with_progress
from transit_gym.training.runs.folder import differences, refuse
from transit_gym.training.runs.options import parse_options
from transit_gym.training.runs.seating import play_seated
from transit_gym.training.runs.seeds import derive
from transit_gym.training.runs.tasks import TaskGame
from transit_gym.training.tool_parser import ToolParser

#: settings that may change between a run and its resumption
RESUMABLE = ("iterations", "workers", "ray", "eval_games", "progress")


@dataclass(frozen=True)
class ExitSettings:
    """Everything that fixes a run (stored in ``run.json``)."""

    game: str
    players: int
    options: dict[str, Any]
    hidden: tuple[int, ...]
    iterations: int
    games: int
    simulations: int
    c_puct: float
    root_noise: float
    sample_moves: int
    target: str
    buffer: int
    epochs: int
    batch: int
    lr: float
    value_weight: float
    eval_games: int
    eval_opponents: tuple[str, ...]
    seed: int
    teacher: str | None = None   # agent spec whose games give iteration 0 (None: no warm start)
    teacher_games: int = 0
    teacher_epochs: int = 20
    dagger_rounds: int = 0      # iterations after the teacher's: the net plays, it labels
    dagger_games: int = 0
    workers: int | None = None
    ray: str | bool = False
    progress: bool = True


@dataclass(frozen=True)
class GameTask(TaskGame):
    """One self-play game: the network (as arrays) and its seed."""

    record_json: str
    weights: np.ndarray
    simulations: int
    c_puct: float
    root_noise: float
    sample_moves: int
    target: str
    seed: int


@dataclass(frozen=True)
class TeacherTask(TaskGame):
    """One game played by the teacher at every seat, and its seed."""

    teacher: str
    seed: int


def _game_seed(seed: int, iteration: int, index: int) -> int:
    """The seed of game ``index`` of ``iteration`` (``training.runs.seeds``, salted)."""
    return derive(seed, iteration, index, 0xE817)


def improved_policy(result, mask: np.ndarray, c_visit: float = 50.0,
                    c_scale: float = 1.0) -> np.ndarray:
    """Gumbel AlphaZero's policy target (Danihelka et al. 2022): the softmax over the legal
    actions of ``logits + sigma(completed Q)``, where a visited action's Q is its mean
    reward, an unvisited one's the mixed value estimate of the root, rewards are mapped to
    [0, 1] and ``sigma(q) = (c_visit + max visits) * c_scale * q``. With few simulations it
    still moves the target towards the actions the search found better."""
    logits = result.root_logits.astype(np.float64)
    visits = result.visits * mask
    visited = visits > 0
    prior = np.where(mask, np.exp(logits - logits[mask].max()), 0.0)
    prior /= prior.sum()
    total = visits.sum()
    if visited.any():
        weighted = (prior[visited] * result.values[visited]).sum() / prior[visited].sum()
        mixed = (result.root_value + total * weighted) / (1.0 + total)
    else:
        mixed = result.root_value
    completed = np.where(visited, result.values, mixed)
    sigma = (c_visit + visits.max()) * c_scale * (completed + 1.0) / 2.0
    score = np.where(mask, logits + sigma, -np.inf)
    target = np.exp(score - score.max())
    return target / target.sum()


def self_play_game(task: GameTask) -> dict[str, np.ndarray]:
    """Samples of one self-play game: ``obs``, ``mask``, ``policy``, ``value``."""
    from transit_gym.agents.search.net_mcts import NetSearchAgent

    game = task.build()
    net = Network(NetworkRecord.from_json(task.record_json), task.weights)
    agent = NetSearchAgent(game, net, simulations=task.simulations, c_puct=task.c_puct,
                           root_noise=task.root_noise, seed=task.seed)
    rng = np.random.default_rng([task.seed & 0xFFFFFFFF, task.seed >> 32, 7])
    moves = np.zeros(game.num_players, dtype=np.int64)

    def decide(state, player: int, mask: np.ndarray) -> tuple[np.ndarray, int]:
        result = agent.search(state, player)
        if task.target == "visits":
            visits = result.visits * mask
            target = visits / visits.sum()
        else:
            target = improved_policy(result, mask.astype(bool))
        if moves[player] < task.sample_moves:
            action = int(rng.choice(game.num_actions, p=target))
        else:
            action = result.action
        moves[player] += 1
        return target, action

    return _sampled_game(game, Sampler(game, decide), task.seed)


def _sampled_game(game: Game, sampler: Sampler, seed: int) -> dict[str, np.ndarray]:
    """The samples of one game of ``sampler`` at every seat (``training.runs.seating``;
    the game seeded by ``seed``, its agents seeded when made)."""
    played = play_seated(game, [sampler], [0] * game.num_players, seed, agent_seeds=[None])
    return sampler.decisions.samples(played.state)


def teacher_game(task: TeacherTask) -> dict[str, np.ndarray]:
    """Samples of one game with the teacher at every seat: ``obs``, ``mask``, ``policy``
    (a search teacher's root visit distribution, else its chosen action) and ``value``."""
    from transit_gym.agents.registry import make_agent

    game = task.build()
    agent = make_agent(task.teacher, game, seed=task.seed)
    return _sampled_game(game, Sampler(game, lambda state, player, mask: teacher_target(
        agent, state, player, mask)), task.seed)


def fit(net: Network, samples: dict[str, np.ndarray], settings: ExitSettings,
        iteration: int, epochs: int | None = None) -> tuple[Network, dict[str, float]]:
    """The network after ``epochs`` (default ``settings.epochs``) passes of Adam over
    ``samples``."""
    import torch

    from transit_gym.agents.learned.torch_net import TorchNet

    torch.set_num_threads(1)
    torch.manual_seed(_game_seed(settings.seed, iteration, 0xF17) & 0x7FFFFFFF)
    model = TorchNet.from_network(net)
    optimiser = torch.optim.Adam(model.parameters(), lr=settings.lr)
    obs = torch.from_numpy(samples["obs"])
    legal = torch.from_numpy(samples["mask"].astype(bool))
    target = torch.from_numpy(samples["policy"])
    value = torch.from_numpy(samples["value"])
    order_rng = np.random.default_rng([settings.seed, iteration, 0x0F17])
    n = len(obs)
    totals = {"policy_loss": 0.0, "value_loss": 0.0}
    steps = 0
    for _ in range(settings.epochs if epochs is None else epochs):
        order = torch.from_numpy(order_rng.permutation(n))
        for start in range(0, n, settings.batch):
            idx = order[start:start + settings.batch]
            logits, v = model(obs[idx])
            logits = logits.masked_fill(~legal[idx], -1e9)
            policy_loss = -(target[idx] * torch.log_softmax(logits, dim=1)).sum(1).mean()
            value_loss = ((v - value[idx]) ** 2).mean()
            loss = policy_loss + settings.value_weight * value_loss
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            totals["policy_loss"] += float(policy_loss.detach())
            totals["value_loss"] += float(value_loss.detach())
            steps += 1
    return model.to_network(), {k: v / max(steps, 1) for k, v in totals.items()}


def elo_from_score(score: float, games: int) -> float:
    """Elo difference implied by a score rate (clipped half a game from 0 and 1)."""
    half = 0.5 / max(games, 1)
    score = min(max(score, half), 1.0 - half)
    return -400.0 * math.log10(1.0 / score - 1.0)


def evaluate(game: Game, net: Network, settings: ExitSettings, iteration: int
             ) -> dict[str, float]:
    """Score rates of the network alone (``net``) and with its search (``net_mcts``)
    against each evaluation opponent, seats alternated (one learner seat; the others all
    the opponent), with the Elo each implies."""
    from transit_gym.agents.learned.net_agent import NetAgent
    from transit_gym.agents.registry import make_agent
    from transit_gym.agents.search.net_mcts import NetSearchAgent

    out: dict[str, float] = {}
    n = settings.eval_games
    if n <= 0:
        return out
    learners = {"net": NetAgent(game, net),
                "net_mcts": NetSearchAgent(game, net, simulations=settings.simulations,
                                           c_puct=settings.c_puct)}
    for opponent_spec in settings.eval_opponents:
        opponent = make_agent(opponent_spec, game, seed=settings.seed)
        for name, learner in learners.items():
            if name == "net_mcts" and opponent_spec == "random":
                continue
            score = 0.0
            for g in range(n):
                seed = _game_seed(settings.seed, 10_000 + iteration, g)
                learner_seat = g % game.num_players
                seats = [0 if seat == learner_seat else 1 for seat in range(game.num_players)]
                rewards = play_seated(game, [learner, opponent], seats, seed,
                                      agent_seeds=[seed, seed + 1]).rewards
                best = rewards.max()
                if rewards[learner_seat] == best:
                    score += 1.0 / int((rewards == best).sum())
            rate = score / n
            out[f"{name}_vs_{opponent_spec}"] = rate
            out[f"{name}_vs_{opponent_spec}_elo"] = elo_from_score(rate, n)
    return out


class Run:
    """The ``--out`` folder of a run: settings, log, checkpoints and samples."""

    def __init__(self, out: Path, settings: ExitSettings):
        self.out, self.settings = out, settings
        out.mkdir(parents=True, exist_ok=True)
        self.meta_path = out / "run.json"
        self.log: list[dict[str, Any]] = []
        if self.meta_path.exists():
            stored = json.loads(self.meta_path.read_text())
            self._check(stored["settings"])
            self.log = stored["log"]
        self._save()

    def _check(self, stored: dict[str, Any]) -> None:
        # a run stored before a setting existed had that setting's default
        defaults = {f.name: f.default for f in fields(ExitSettings) if f.default is not MISSING}
        mine = asdict(self.settings)
        known = {k: v for k, v in stored.items() if k in mine}   # settings since removed: not
        refuse(self.out, differences(known, mine, ignore=RESUMABLE, defaults=defaults),
               "a run")

    def _save(self) -> None:
        self.meta_path.write_text(json.dumps({"settings": asdict(self.settings),
                                              "log": self.log}, indent=2, default=str))

    @property
    def done(self) -> int:
        return len(self.log)

    def checkpoint(self, iteration: int) -> Path:
        return self.out / f"net_{iteration:03d}.npz"

    def samples_path(self, iteration: int) -> Path:
        return self.out / f"samples_{iteration:03d}.npz"

    def record(self, iteration: int, net: Network, samples: dict[str, np.ndarray],
               entry: dict[str, Any]) -> None:
        net = with_recipe(net, self.settings, iteration)
        net.save(self.checkpoint(iteration))
        with self.samples_path(iteration).open("wb") as handle:
            np.savez_compressed(handle, **samples)
        net.save(self.out / "latest.npz")
        self.log.append(entry)
        self._save()


#: settings that do not change the weights, left out of the recipe a checkpoint records
NOT_RECIPE = ("workers", "ray", "eval_games", "eval_opponents", "progress")


def with_recipe(net: Network, settings: ExitSettings, iteration: int) -> Network:
    """``net`` whose record names the run that made it: the ``transit-gym exit`` settings
    that fix the weights (``extra["exit"]``, the game and its options among them) and the
    iteration it is the network of (``extra["iteration"]``)."""
    recipe = {k: v for k, v in asdict(settings).items() if k not in NOT_RECIPE}
    extra = {**net.record.extra, "exit": json.loads(json.dumps(recipe)),
             "iteration": iteration}
    return Network(replace(net.record, extra=extra), net.weights)


def train(settings: ExitSettings, out: Path) -> Network:
    """Run (or resume) expert iteration; returns the last network."""
    game = cached_game(settings.game, settings.players,
                       options_key(settings.options))
    check_backend(settings.workers, settings.ray)
    run = Run(out, settings)
    if run.done:
        net = Network.load(run.checkpoint(run.done - 1))
    else:
        net = Network.initial(game, settings.hidden, seed=settings.seed)
    writer = _tensorboard(out)
    options = options_key(settings.options)
    # iteration 0 is the teacher's, 1..dagger_rounds are DAgger rounds
    first = 1 + settings.dagger_rounds if settings.teacher else 0
    for iteration in range(run.done, settings.iterations + first):
        started = time.perf_counter()
        if 0 < iteration < first:

            count = settings.dagger_games
            tasks = dagger_tasks(settings, net, iteration, options, _game_seed)
        elif iteration < first:
            count = settings.teacher_games
            tasks = [(teacher_game, TeacherTask(settings.game, settings.players, options,
                                                settings.teacher,
                                                _game_seed(settings.seed, iteration, g)))
                     for g in range(count)]
        else:
            count = settings.games
            tasks = [(self_play_game, GameTask(settings.game, settings.players, options,
                                                net.record.to_json(), net.weights,
                                                settings.simulations, settings.c_puct,
                                                settings.root_noise, settings.sample_moves,
                                                settings.target,
                                                _game_seed(settings.seed, iteration, g)))
                     for g in range(count)]
        backend = make_backend(settings.workers, settings.ray)
        games = list(run_with_progress(backend, tasks, count, settings.progress,
                                       size=lambda _: 1))
        # completion order varies with the backend: sort by content so the fit is the same
        games.sort(key=content_order)
        samples = {k: np.concatenate([g[k] for g in games]) for k in games[0]}
        play_seconds = time.perf_counter() - started
        # the teacher's fits (its games and the DAgger rounds) take every earlier sample
        keep = iteration if iteration < first else settings.buffer - 1
        run_samples = _with_earlier(samples, run, iteration, keep)
        net, losses = fit(net, run_samples, settings, iteration,
                          settings.teacher_epochs if iteration < first else None)
        scores = evaluate(game, net, settings, iteration)
        entry = {"iteration": iteration, "games": count,
                 "source": (settings.teacher if iteration == 0 < first else
                            f"dagger:{settings.teacher}" if iteration < first else "self-play"),
                 "samples": int(len(samples["value"])),
                 "buffer": int(len(run_samples["value"])), **losses, **scores,
                 "play_seconds": round(play_seconds, 1),
                 "seconds": round(time.perf_counter() - started, 1)}
        run.record(iteration, net, samples, entry)
        _log(entry, writer)
    if writer is not None:
        writer.close()
    return net


def content_order(game: dict[str, np.ndarray]) -> tuple:
    """The sort key that puts a round's games in one order whatever order they finished
    in: length, the first observations and the values, then (only to break a tie, so the
    order is unchanged where those differ) every observation, mask and target. Two games
    equal on all of these are the same samples, so their order cannot change the fit."""
    return (len(game["value"]), game["obs"].tobytes()[:256], game["value"].tobytes(),
            game["obs"].tobytes(), game["mask"].tobytes(), game["policy"].tobytes())


def _with_earlier(new: dict[str, np.ndarray], run: Run, iteration: int, keep: int
                  ) -> dict[str, np.ndarray]:
    """The samples of the last ``keep`` earlier iterations followed by the new ones."""
    first = max(0, iteration - keep)
    parts = []
    for it in range(first, iteration):
        with np.load(run.samples_path(it)) as data:
            parts.append({k: data[k] for k in data.files})
    parts.append(new)
    return {k: np.concatenate([p[k] for p in parts]) for k in new}


def _tensorboard(out: Path):
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        print("note: tensorboard is not installed; the log goes to run.json only "
              "(pip install 'transit-gym[train]')", file=sys.stderr)
        return None
    return SummaryWriter(str(out / "tensorboard"))


def _log(entry: dict[str, Any], writer) -> None:
    shown = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in entry.items()}
    print(json.dumps(shown), flush=True)
    if writer is not None:
        for key, value in entry.items():
            if isinstance(value, (int, float)) and key != "iteration":
                writer.add_scalar(key, value, entry["iteration"])


def _hidden(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--hidden takes sizes like 64,64, got {text!r}"
                                         ) from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"--hidden sizes must be >= 1, got {text!r}")
    return sizes


def build_parser() -> argparse.ArgumentParser:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym exit --game loose_caboose --iterations 1 --games 10 "
                                "--simulations 16 --eval-games 10 --out runs/lc_exit")
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option as JSON (repeatable)")
    parser.add_argument("--hidden", type=_hidden, default=(64, 64))
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--games", type=int, default=50, help="self-play games an iteration")
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--c-puct", type=float, default=1.5)
    parser.add_argument("--root-noise", type=float, default=0.25)
    parser.add_argument("--sample-moves", type=int, default=8)
    parser.add_argument("--target", choices=("improved", "visits"), default="visits",
                        help="policy target: the root's visit distribution (AlphaZero, the "
                             "default) or Gumbel AlphaZero's improved policy")
    parser.add_argument("--buffer", type=int, default=3, help="iterations of samples fitted")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--value-weight", type=float, default=1.0)
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--eval-vs", nargs="+", default=["random", "rule_based"])
    parser.add_argument("--teacher", default=None, metavar="SPEC",
                        help="agent spec whose games start the run (iteration 0), e.g. "
                             "mcts:400, tuned or rule_based")
    parser.add_argument("--teacher-games", type=int, default=200)
    parser.add_argument("--teacher-epochs", type=int, default=20)
    parser.add_argument("--dagger-rounds", type=int, default=0,
                        help="with --teacher: rounds after its games in which the network "
                             "plays and the teacher labels its positions (DAgger)")
    parser.add_argument("--dagger-games", type=int, default=0,
                        help="games the network plays in each DAgger round")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--ray", nargs="?", const="", default=False, metavar="ADDRESS")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--out", type=Path, required=True)
    return parser


def settings_from_args(args: argparse.Namespace) -> ExitSettings:
    options = parse_options(args.option)
    for name in ("iterations", "games", "simulations", "epochs", "batch", "buffer"):
        least = 0 if name == "iterations" and args.teacher is not None else 1
        if getattr(args, name) < least:
            raise ConfigError(f"--{name} must be >= {least}"
                              f"{' with --teacher' if least == 0 else ''}, "
                              f"got {getattr(args, name)}")
    if args.eval_games < 0 or args.sample_moves < 0:
        raise ConfigError("--eval-games and --sample-moves must be >= 0")
    if args.teacher is not None:
        for name in ("teacher_games", "teacher_epochs"):
            if getattr(args, name) < 1:
                raise ConfigError(f"--{name.replace('_', '-')} must be >= 1 with --teacher, "
                                  f"got {getattr(args, name)}")
        from transit_gym.envs.registry import game_class
        from transit_gym.training.runs.specs import check_agents

        check_agents([args.teacher], game_class(args.game)(num_players=args.players,
                                                              **options))
    if args.dagger_rounds < 0:
        raise ConfigError(f"--dagger-rounds must be >= 0, got {args.dagger_rounds}")
    if args.dagger_rounds > 0 and (args.teacher is None or args.dagger_games < 1):
        raise ConfigError(f"--dagger-rounds {args.dagger_rounds} needs --teacher and "
                          f"--dagger-games >= 1 (got teacher {args.teacher!r}, "
                          f"--dagger-games {args.dagger_games})")
    return ExitSettings(args.game, args.players, options, tuple(args.hidden), args.iterations,
                        args.games, args.simulations, args.c_puct, args.root_noise,
                        args.sample_moves, args.target, args.buffer, args.epochs, args.batch,
                        args.lr, args.value_weight, args.eval_games, tuple(args.eval_vs), args.seed,
                        args.teacher, args.teacher_games if args.teacher else 0,
                        args.teacher_epochs if args.teacher else 0,
                        args.dagger_rounds, args.dagger_games if args.dagger_rounds else 0,
                        args.workers, args.ray, not args.no_progress)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = settings_from_args(args)
        train(settings, args.out)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
