"""One-slot mutations of mid-game states, loaded as a saved state would be.

Run as ``python -m tests.core.state_fuzz GAME [--mutants N] [--seed S]``: for states a few
random moves into seeded games of every player count, each mutant (one slot of the state
vector changed) must either be rejected by ``Game.validate`` with a ``StateDictError`` or
play on (a few hundred random moves, or to the end) with its invariants intact. Any other
exception, a hang, or a crash (a segfault kills the process) is a failure; the test suite
runs this in a subprocess so that a crash shows as a failed test. With
``NUMBA_BOUNDSCHECK=1`` numba raises ``IndexError`` on an out-of-bounds access instead of
reading or writing outside the arrays.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.registry import game_class

#: moves played from an accepted mutant (damage shows within a few moves; a kernel that
#: loops forever is caught by the caller's timeout)
PLAY_STEPS = 250


def mid_game_states(game, rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """``count`` running states, each some random legal moves into a seeded game."""
    states = []
    seed = 0
    while len(states) < count:
        state = game.new_state(seed)
        seed += 1
        for _ in range(int(rng.integers(0, 60))):
            if game.current_player(state) < 0:
                break
            game.apply(state, int(rng.choice(game.legal_actions(state))))
        if game.current_player(state) >= 0:
            states.append(state.data.copy())
    return states


def mutant_values(old: int, rng: np.random.Generator) -> list[int]:
    return [-1, 2**62, -(2**62), 10**10, old + 1, old - 1, int(rng.integers(-5, 300))]


def play_on(game, state: State, rng: np.random.Generator) -> None:
    """Up to ``PLAY_STEPS`` random legal moves (or to the end), observing every seat and
    checking the invariants after each move."""
    for _ in range(PLAY_STEPS):
        for seat in range(game.num_players):
            game.observe(state, seat)
        if game.current_player(state) < 0:
            game.rewards(state)
            return
        legal = game.legal_actions(state)
        if not legal:
            raise AssertionError("accepted state reached a live position with no legal action")
        game.apply(state, int(rng.choice(legal)))
        game.check_invariants(state)


def run(name: str, mutants: int, seed: int) -> tuple[int, int]:
    """Fuzz ``mutants`` one-slot mutations per player count; (accepted, rejected)."""
    cls = game_class(name)
    rng = np.random.default_rng(seed)
    accepted = rejected = 0
    for players in range(cls.min_players, cls.max_players + 1):
        game = cls(num_players=players)
        bases = mid_game_states(game, rng, 4)
        for _ in range(mutants):
            base = bases[int(rng.integers(len(bases)))]
            slot = int(rng.integers(base.size))
            values = mutant_values(int(base[slot]), rng)
            data = base.copy()
            data[slot] = values[int(rng.integers(len(values)))]
            try:
                state = State(game, data)
                game.validate(state)
            except StateDictError as exc:
                if str(exc).strip() == "":
                    raise AssertionError("a rejection must say what is wrong") from exc
                rejected += 1
                continue
            accepted += 1
            try:
                play_on(game, state, rng)
            except Exception as exc:
                field, pos = game.layout.locate(slot)
                raise AssertionError(
                    f"{name} {players}p: state with {field}[{pos}] = {int(data[slot])} "
                    f"(was {int(base[slot])}) was accepted, then: {exc!r}") from exc
    return accepted, rejected


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--mutants", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    accepted, rejected = run(args.game, args.mutants, args.seed)
    print(f"{args.game}: {accepted} accepted mutants played on, {rejected} rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
