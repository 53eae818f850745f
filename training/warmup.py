"""Compile (or load) every kernel of every game ahead of use, with a progress bar.

    python -m transit_gym.training.warmup [--games automobiles planes]

Each game is exercised through every public entry point once (AEC env, state
validation, batch API, jitted rollouts, built-in agents), so numba compiles each
kernel and fused loop the library calls and stores it in the disk cache (see
``envs/_numba_cache.py``). A later process, and ``make demo``, then starts at once.
With a warm cache this only loads the kernels (about a second a game).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TextIO

import numpy as np

from transit_gym.envs import _numba_cache
from transit_gym.envs.registry import available_games, env_module


def _aec_game(module, seed: int):
    """One random game through the wrapped AEC env; returns the raw env."""
    env = module.env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env.unwrapped


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
    """The built-in agents: the policy kernel from Python and inside jitted games."""
    from transit_gym.agents.registry import make_agent, policy_kernel
    from transit_gym.envs.core.rollout import play_games

    game = module.Game()
    play_games(game, policy_kernel(game.name), ["rule_based"] * game.num_players, 1, seed=seed)
    agent = make_agent("rule_based", game, seed=seed)
    state = game.new_state(seed)
    agent.act(game.observe(state, game.current_player(state)), game.legal_mask(state))


def _search(module, seed: int) -> None:
    """The search agent's simulation loop (``mcts``), one short search."""
    from transit_gym.agents.registry import make_agent

    game = module.Game()
    state = game.new_state(seed)
    make_agent("mcts:8", game, seed=seed).search(state, game.current_player(state))


#: what the warm-up runs for each game, in order
STEPS: tuple[tuple[str, Callable], ...] = (
    ("AEC env", _aec_game),
    ("validation", _validation),
    ("batch API", _batch),
    ("rollouts", _rollouts),
    ("agents", _agents),
    ("search agent", _search),
)


def warm_up(games: list[str], stream: TextIO | None = None, seed: int = 0) -> dict[str, float]:
    """Compile or load every kernel of ``games``; returns the CPU-seconds spent per game.

    Draws a progress bar on ``stream`` (stderr by default); the one-line compile notice
    is not written, the bar takes its place.
    """
    from transit_gym.training.progress import Progress

    stream = stream if stream is not None else sys.stderr
    _numba_cache.notice.shown = True
    bar = Progress(len(games) * len(STEPS), label="warm-up ", stream=stream)
    spent: dict[str, float] = {}
    for name in games:
        module = env_module(name)
        start = time.process_time()
        for label, run in STEPS:
            bar.label = f"warm-up {name}: {label:<10} "
            run(module, seed)
            bar.update()
        spent[name] = time.process_time() - start
    bar.close()
    return spent


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=None,
                        help="games to compile (default: every installed game)")
    args = parser.parse_args(argv)
    known = available_games()
    games = args.games if args.games else known
    unknown = [g for g in games if g not in known]
    if unknown:
        parser.error(f"unknown or uninstalled games {unknown}; available: {known}")
    spent = warm_up(games)
    for name, seconds in spent.items():
        print(f"{name}: {seconds:.1f} CPU-s", file=sys.stderr)
    return spent


if __name__ == "__main__":
    main()
