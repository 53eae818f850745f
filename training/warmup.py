"""Compile (or load) the kernels of the games ahead of use, on several cores, with a
progress bar.

    transit-gym warmup [--games automobiles planes] [--demo] [--jobs 2]

Each game is exercised through its public entry points once (AEC env, state validation,
batch API, jitted rollouts, built-in agents, the search agent, the ``tuned`` agent and the
network agents ``net`` and ``net_mcts`` where the game has them, each inside the jitted
whole-game loop as well where tournaments and sweeps put it there), so numba compiles each
kernel and fused loop the tools call and stores it in the disk cache (see
``envs/_numba_cache.py``). ``--demo`` compiles only what ``make demo`` uses (the AEC env,
the text table and the rule-based agents called from Python); everything else then
compiles on first use, after its one-line notice. With a warm cache this only loads the
kernels (about a second a game).

The work is cut into ``(game, step)`` units, taken in turn by ``--jobs`` worker processes
(default: the number of cores, at most 2 on the Makefile's 2-core target), all filling
the same on-disk cache: every game's first step first, so the kernels the other steps
call are compiled early. ``envs/_numba_cache.py`` holds a file lock around each kernel's
first compile, so a worker that needs a kernel another worker is compiling waits and then
loads it from the cache instead of compiling it again, and a lock around each save (numba
writes each cache file atomically, but its index update is not). The Racing Season season
calls the race's kernels: its units come after Automobiles' in each step.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import re
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from transit_gym.envs import _numba_cache
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.registry import env_module
from transit_gym.training import kernel_cache
from transit_gym.training.tool_parser import ToolParser


def _aec_game(module, seed: int):
    """One random game through the wrapped AEC env and its text table; returns the raw
    env."""
    env = module.env(render_mode="ansi")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    raw = env.unwrapped
    raw.game.render_text(raw.game_state)
    return raw


def _validation(module, seed: int) -> None:
    """Validation of outside states (the ``violation`` kernel) and determinization."""
    from transit_gym.envs.core.rng import seeded_words

    game = module.Game()
    state = game.new_state(seed)
    game.validate(state)
    determinize = game.kernels.determinize
    if determinize is not None:
        determinize(state.data.copy(), game.params_of(state), 0, seeded_words(seed, 1))


def _batch(module, seed: int) -> None:
    """The batch API: reset, steps with auto-reset, loading a slot."""
    from transit_gym.envs.core.rng import seeded_words

    batch = module.batch(2, seed=seed)
    words = seeded_words(seed, 2)
    for _ in range(8):
        batch.step(batch.random_actions(words))
    batch.load(0, batch.state(1))


def _rollouts(module, seed: int) -> None:
    """Whole random games inside numba."""
    from transit_gym.envs.core.rollout import random_rollouts

    random_rollouts(module.Game(), 1, seed=seed)


def _agents(module, seed: int) -> None:
    """The built-in rule-based agent called from Python (as in the AEC env and the demo)."""
    from transit_gym.agents.registry import make_agent

    game = module.Game()
    agent = make_agent("rule_based", game, seed=seed)
    state = game.new_state(seed)
    agent.act(game.observe(state, game.current_player(state)), game.legal_mask(state))


def _jitted_agents(module, seed: int) -> None:
    """The built-in agents' policy kernel inside jitted games (tournaments, sweeps)."""
    from transit_gym.agents.registry import policy_kernel
    from transit_gym.envs.core.rollout import play_games

    game = module.Game()
    play_games(game, policy_kernel(game.name), ["rule_based"] * game.num_players, 1, seed=seed)


def _search(module, seed: int) -> None:
    """The search agent's simulation loop (``mcts``), one short search."""
    from transit_gym.agents.registry import make_agent

    game = module.Game()
    state = game.new_state(seed)
    make_agent("mcts:8", game, seed=seed).search(state, game.current_player(state))


def _tuned(module, seed: int) -> None:
    """The parameter-vector agent ``tuned`` (games that have one): called from Python (AEC
    env, play, tournaments against search agents) and inside the jitted whole-game loop
    (sweeps, tournaments against built-in agents)."""
    from transit_gym.agents.registry import make_agent, play_specs
    from transit_gym.agents.tuned import TUNED_MODULES

    game = module.Game()
    if game.name not in TUNED_MODULES:
        return
    state = game.new_state(seed)
    make_agent("tuned", game, seed=seed).act_state(state, game.current_player(state))
    specs = ["tuned", *["rule_based"] * (game.num_players - 1)]
    play_specs(game, specs, 1, seed=seed)


def _networks(module, seed: int) -> None:
    """The network agents ``net`` and ``net_mcts`` (games with a shipped network), one
    move each, at the player count of the game's shipped network."""
    from transit_gym.agents.learned.net_agent import CHECKPOINTS
    from transit_gym.agents.registry import make_agent

    name = module.Game.name
    shipped = sorted(int(m.group(1)) for p in CHECKPOINTS.glob(f"{name}_*p_net.npz")
                     if (m := re.fullmatch(rf"{name}_(\d+)p_net", p.stem)))
    if not shipped:
        return
    game = module.Game(num_players=shipped[0])
    state = game.new_state(seed)
    for spec in ("net", "net_mcts:8"):
        make_agent(spec, game, seed=seed).act_state(state, game.current_player(state))


#: what the warm-up runs for each game, in order (the first step compiles the rules
#: kernels every later step calls)
STEPS: tuple[tuple[str, Callable], ...] = (
    ("AEC env", _aec_game),
    ("agents", _agents),
    ("validation", _validation),
    ("batch API", _batch),
    ("rollouts", _rollouts),
    ("jit agents", _jitted_agents),
    ("search agent", _search),
    ("tuned agent", _tuned),
    ("network agents", _networks),
)
#: the steps ``make demo`` needs (``training/demo.py``: AEC games between rule-based agents)
DEMO_STEPS = ("AEC env", "agents")
#: games that call another game's kernels, warmed after it in each round of steps
LATER = ("automobiles_season",)


def steps_for(demo: bool) -> tuple[tuple[str, Callable], ...]:
    """The warm-up steps: all of them, or only those ``make demo`` uses."""
    return tuple(s for s in STEPS if not demo or s[0] in DEMO_STEPS)


def work_units(games: list[str], demo: bool) -> list[tuple[str, str]]:
    """``(game, step)`` in the order the workers take them: step by step, every game's
    first step (the rules kernels the others call) before any game's second; within a
    step, games that call another game's kernels last (they would wait for its compile)."""
    order = sorted(games, key=lambda g: g in LATER)
    return [(game, label) for label, _ in steps_for(demo) for game in order]


def _warm_units(units: list[tuple[str, str]], seed: int, done: Any = None
                ) -> dict[str, float]:
    """Run the ``(game, step)`` units in turn (in this process); ``done`` gets one message a
    finished unit. Returns the CPU-seconds spent per game."""
    spent: dict[str, float] = {}
    runs = dict(STEPS)
    for name, label in units:
        start = time.process_time()
        runs[label](env_module(name), seed)
        spent[name] = spent.get(name, 0.0) + time.process_time() - start
        if done is not None:
            done.put(f"{name}: {label}")
    return spent


_queue: Any = None


def _init_worker(messages: Any) -> None:
    global _queue
    _queue = messages


def _worker(unit: tuple[str, str], seed: int) -> dict[str, float]:
    _numba_cache.notice.silent = True   # the parent's bar says what is compiling
    return _warm_units([unit], seed, _queue)


def warm_up(games: list[str], stream: TextIO | None = None, seed: int = 0, demo: bool = False,
            jobs: int = 1) -> dict[str, float]:
    """Compile or load the kernels of ``games`` (all steps, or the demo's) in ``jobs``
    processes; returns the CPU-seconds spent per game (in all workers).

    Draws a progress bar on ``stream`` (stderr by default); the one-line compile notice
    is not written meanwhile, the bar takes its place.
    """
    quiet, _numba_cache.notice.silent = _numba_cache.notice.silent, True
    try:
        return _warm_up(games, sys.stderr if stream is None else stream, seed, demo, jobs)
    finally:
        _numba_cache.notice.silent = quiet


def _warm_up(games: list[str], stream: TextIO, seed: int, demo: bool, jobs: int
             ) -> dict[str, float]:
    from transit_gym.training.runs.progress import Progress

    units = work_units(games, demo)
    bar = Progress(len(units), label="warm-up ", stream=stream)
    if jobs == 1 or len(units) == 1:
        spent = _warm_units(units, seed, _BarQueue(bar))
        bar.close()
        return spent
    context = multiprocessing.get_context("spawn")
    messages = context.Queue()
    spent = dict.fromkeys(games, 0.0)
    with ProcessPoolExecutor(min(jobs, len(units)), mp_context=context,
                             initializer=_init_worker, initargs=(messages,)) as pool:
        futures = [pool.submit(_worker, unit, seed) for unit in units]
        while not all(f.done() for f in futures) or not messages.empty():
            try:
                what = messages.get(timeout=0.2)
            except queue.Empty:
                continue
            bar.label = f"warm-up {what:<32} "
            bar.update()
        for future in futures:
            for name, seconds in future.result().items():
                spent[name] += seconds
    bar.close()
    return spent


class _BarQueue:
    """The ``done.put`` of one process: advances the bar directly."""

    def __init__(self, bar: Any):
        self.bar = bar

    def put(self, what: str) -> None:
        self.bar.label = f"warm-up {what:<32} "
        self.bar.update()


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = ToolParser(description=__doc__.split("\n\n")[0],
                        example="transit-gym warmup --games loose_caboose --demo")
    parser.add_games("games to compile")
    parser.add_argument("--demo", action="store_true",
                        help="only what `make demo` uses (AEC env, text table, rule-based "
                             "agents); the rest compiles on first use")
    parser.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 2),
                        help="worker processes (default: the cores, at most 2)")
    parser.add_argument("--pack", type=Path, default=None, metavar="FILE",
                        help="then write the kernel cache to FILE (.tar.gz) for --unpack "
                             "on another install (training/kernel_cache.py)")
    parser.add_argument("--unpack", type=Path, default=None, metavar="FILE",
                        help="first put the kernels of FILE into this install's cache (it "
                             "must match this Python, numba, numpy and CPU)")
    args = parser.parse_args(argv)
    games = parser.installed_games(args.games)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    if args.unpack:
        try:
            count = kernel_cache.unpack(args.unpack)
        except ConfigError as exc:
            parser.error(str(exc))
        print(f"unpacked {count} cache files from {args.unpack}", file=sys.stderr)
    spent = warm_up(games, demo=args.demo, jobs=args.jobs)
    for name, seconds in spent.items():
        print(f"{name}: {seconds:.1f} CPU-s", file=sys.stderr)
    if args.pack:
        size = kernel_cache.pack(args.pack)
        print(f"packed the kernel cache into {args.pack} ({size / 1e6:.1f} MB)",
              file=sys.stderr)
    return spent
