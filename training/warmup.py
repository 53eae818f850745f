"""Compile (or load) the kernels of the games ahead of use, on several cores, with a
progress bar.

    python -m transit_gym.training.warmup [--games automobiles planes] [--demo] [--jobs 2]

Each game is exercised through its public entry points once (AEC env, state validation,
batch API, jitted rollouts, built-in agents, the search agent), so numba compiles each
kernel and fused loop the library calls and stores it in the disk cache (see
``envs/_numba_cache.py``). ``--demo`` compiles only what ``make demo`` uses (the AEC env,
the text table and the rule-based agents called from Python); everything else then
compiles on first use, with its one-line notice. With a warm cache this only loads the
kernels (about a second a game).

The games are shared out over ``--jobs`` worker processes (default: the number of cores,
at most 2 by default on the Makefile's 2-core target), each filling the same on-disk
cache. numba writes each cache file to a unique temporary name and renames it into place
(``numba.core.caching``: ``_open_for_write``), so concurrent writers never leave a torn
file; its index update (read, add the overload, write) is not atomic across processes, so
``envs/_numba_cache.py`` holds a file lock around each save (a lost index entry made a
later process compile again). At worst two workers both compile one shared function. The
Racing Season season is warmed in the same
worker as Automobiles, after it: the season calls the race kernels and loads them from
the cache instead of compiling them twice.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TextIO

import numpy as np

from transit_gym.envs import _numba_cache
from transit_gym.envs.registry import available_games, env_module


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


#: what the warm-up runs for each game, in order
STEPS: tuple[tuple[str, Callable], ...] = (
    ("AEC env", _aec_game),
    ("agents", _agents),
    ("validation", _validation),
    ("batch API", _batch),
    ("rollouts", _rollouts),
    ("jit agents", _jitted_agents),
    ("search agent", _search),
)
#: the steps ``make demo`` needs (``training/demo.py``: AEC games between rule-based agents)
DEMO_STEPS = ("AEC env", "agents")
#: games warmed in one worker, in this order (the later ones call the first one's kernels)
FAMILIES = (("automobiles", "automobiles_season"),)
#: cold compile CPU-seconds of every step per game (measured on a loaded 2-core machine),
#: used to share the games out evenly over the workers
COST = {"automobiles": 90, "automobile": 55, "automobiles_season": 54, "planes": 49,
        "loose_caboose": 26}


def steps_for(demo: bool) -> tuple[tuple[str, Callable], ...]:
    """The warm-up steps: all of them, or only those ``make demo`` uses."""
    return tuple(s for s in STEPS if not demo or s[0] in DEMO_STEPS)


def share_out(games: list[str], jobs: int) -> list[list[str]]:
    """``games`` in at most ``jobs`` groups of similar total cost; a family stays in one
    group, in its order."""
    units: list[list[str]] = []
    for name in games:
        family = next((f for f in FAMILIES if name in f), (name,))
        members = [g for g in family if g in games]
        if members not in units:
            units.append(members)
    groups: list[list[str]] = [[] for _ in range(max(1, min(jobs, len(units))))]
    loads = [0] * len(groups)
    for unit in sorted(units, key=lambda u: -sum(COST.get(g, 50) for g in u)):
        i = loads.index(min(loads))
        groups[i].extend(unit)
        loads[i] += sum(COST.get(g, 50) for g in unit)
    return [g for g in groups if g]


def _warm_group(games: list[str], seed: int, demo: bool, done: Any = None) -> dict[str, float]:
    """Run the steps for each game in turn (in this process); ``done`` gets one message a
    finished step. Returns the CPU-seconds spent per game."""
    _numba_cache.notice.silent = True
    spent: dict[str, float] = {}
    for name in games:
        module = env_module(name)
        start = time.process_time()
        for label, run in steps_for(demo):
            run(module, seed)
            if done is not None:
                done.put(f"{name}: {label}")
        spent[name] = time.process_time() - start
    return spent


_queue: Any = None


def _init_worker(messages: Any) -> None:
    global _queue
    _queue = messages


def _worker(games: list[str], seed: int, demo: bool) -> dict[str, float]:
    return _warm_group(games, seed, demo, _queue)


def warm_up(games: list[str], stream: TextIO | None = None, seed: int = 0, demo: bool = False,
            jobs: int = 1) -> dict[str, float]:
    """Compile or load the kernels of ``games`` (all steps, or the demo's) in ``jobs``
    processes; returns the CPU-seconds spent per game (in its worker).

    Draws a progress bar on ``stream`` (stderr by default); the one-line compile notice
    is not written, the bar takes its place.
    """
    from transit_gym.training.progress import Progress

    stream = stream if stream is not None else sys.stderr
    _numba_cache.notice.silent = True
    groups = share_out(games, jobs)
    bar = Progress(len(games) * len(steps_for(demo)), label="warm-up ", stream=stream)
    if len(groups) == 1:
        spent = _warm_group(groups[0], seed, demo, _BarQueue(bar))
        bar.close()
        return spent
    context = multiprocessing.get_context("spawn")
    messages = context.Queue()
    spent = {}
    with ProcessPoolExecutor(len(groups), mp_context=context, initializer=_init_worker,
                             initargs=(messages,)) as pool:
        futures = [pool.submit(_worker, group, seed, demo) for group in groups]
        while not all(f.done() for f in futures) or not messages.empty():
            try:
                what = messages.get(timeout=0.2)
            except queue.Empty:
                continue
            bar.label = f"warm-up {what:<32} "
            bar.update()
        for future in futures:
            spent.update(future.result())
    bar.close()
    return {name: spent[name] for name in games}


class _BarQueue:
    """The ``done.put`` of one process: advances the bar directly."""

    def __init__(self, bar: Any):
        self.bar = bar

    def put(self, what: str) -> None:
        self.bar.label = f"warm-up {what:<32} "
        self.bar.update()


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=None,
                        help="games to compile (default: every installed game)")
    parser.add_argument("--demo", action="store_true",
                        help="only what `make demo` uses (AEC env, text table, rule-based "
                             "agents); the rest compiles on first use")
    parser.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 2),
                        help="worker processes (default: the cores, at most 2)")
    args = parser.parse_args(argv)
    known = available_games()
    games = args.games if args.games else known
    unknown = [g for g in games if g not in known]
    if unknown:
        parser.error(f"unknown or uninstalled games {unknown}; available: {known}")
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    spent = warm_up(games, demo=args.demo, jobs=args.jobs)
    for name, seconds in spent.items():
        print(f"{name}: {seconds:.1f} CPU-s", file=sys.stderr)
    return spent


if __name__ == "__main__":
    main()
