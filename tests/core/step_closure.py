"""Validation that holds across steps: from every accepted state, every legal action leads
to a state the validator accepts, and every accepted state's observation lies inside the
declared observation space.

Run as ``python -m tests.core.step_closure GAME [--tampered N] [--seed S]``. The sampled
states are states reached by random play (the option sets below and every set the game's
``random_options`` lists, every player count) and tampered copies of them that
``Game.validate`` still accepts, edited as ``tests.core.tamper`` does (extreme values,
counters moved by one, fields spliced from other moments of real games, seats swapped,
phases changed, units moved between zones). For each, every seat's observation must lie
within ``Game.obs_low_high()``, and every legal action is applied to a copy, whose result
must pass ``Game.validate`` (an error raised by a step counts as a failure too). The test
suite runs this in a subprocess, so that a crash or a hang shows as a failed test.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np
import pytest

from tests.core.tamper import tampered
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.registry import game_class

#: option sets whose states are sampled (and transplanted into one another), per game:
#: the defaults and the variants whose decisions the defaults never reach
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "loose_caboose": [{}, {"first_player": "random", "pass_banks": False}],
    "automobiles": [{}, {"card_set": "random", "card_pool": "all", "drivers": True,
                         "accelerated_play": True},
                    {"card_set": "random", "card_pool": "expansion", "drivers": "all"}],
    "automobiles_season": [{}, {"drivers": "all", "accelerated_play": True, "races": 3}],
    "automobile": [{}, {"frontier": "open", "shortfall": "debt", "durant_borrow": True}],
    "planes": [{}, {"airport": "zephyr", "player_decks": True, "max_rounds": 3}],
}
#: random games played per option set and player count; every state they pass through
#: (each decision the game reached) goes into the pool the samples are drawn from
GAMES_PLAYED = 3
#: moves played at most in each of those games
MAX_MOVES = 400
#: states of the pool sampled as they are (reached by random play)
REACHED = 8


#: states whose every legal action ``run`` checked, and how many of them were tampered
CHECKED = [0, 0]


def played_states(game: Game, rng: np.random.Generator) -> list[np.ndarray]:
    """Every state of ``GAMES_PLAYED`` seeded random games (up to ``MAX_MOVES`` moves
    each; the end states included), so that every kind of decision the games reached is
    in the pool."""
    out = []
    for _ in range(GAMES_PLAYED):
        state = game.new_state(int(rng.integers(1 << 30)))
        out.append(state.data.copy())
        for _ in range(MAX_MOVES):
            if game.current_player(state) < 0:
                break
            game.apply(state, int(rng.choice(game.legal_actions(state))))
            out.append(state.data.copy())
    return out


def accepts(game: Game, data: np.ndarray) -> str | None:
    """None when ``game.validate`` accepts ``data``, else its message."""
    try:
        game.validate(State(game, data))
    except StateDictError as exc:
        return str(exc)
    return None


def closure_failures(game: Game, data: np.ndarray) -> list[tuple[int, str]]:
    """(action, message) for each legal action of the accepted state ``data`` whose result
    the validator rejects."""
    state = State(game, data)
    if game.current_player(state) < 0:
        return []
    failures = []
    for action in game.legal_actions(state):
        after = data.copy()
        try:
            game.kernels.apply(after, game.params_of(after), int(action))
        except Exception as exc:   # noqa: BLE001 - any error of a step is a failure
            failures.append((int(action), f"the step raised {exc!r}"))
            continue
        message = accepts(game, after)
        if message is not None:
            failures.append((int(action), message))
    return failures


def observation_failures(game: Game, data: np.ndarray) -> list[tuple[int, str]]:
    """(seat, message) for each seat whose observation of ``data`` leaves the declared
    observation space (``Game.obs_low_high``)."""
    low, high = game.obs_low_high()
    state = State(game, data)
    out = []
    for seat in range(game.num_players):
        obs = game.observe(state, seat)
        bad = np.flatnonzero((obs < low) | (obs > high))
        if bad.size:
            i = int(bad[0])
            name, pos = game.obs_layout().locate(i)
            out.append((seat, f"observation {name}[{pos}] = {float(obs[i])} outside "
                              f"{float(low[i])}..{float(high[i])}"))
    return out


def option_sets(name: str) -> list[dict[str, Any]]:
    """The option sets sampled for game ``name``: ``OPTION_SETS`` and every set of the
    game's ``random_options``."""
    sets = list(OPTION_SETS[name])
    for options in game_class(name).random_options:
        if dict(options) not in sets:
            sets.append(dict(options))
    return sets


def run(name: str, tampered_count: int, seed: int, limit: int = 20) -> list[str]:
    """The failures (at most ``limit``) of the step-closure property for game ``name``."""
    cls = game_class(name)
    rng = np.random.default_rng(seed)
    failures: list[str] = []
    seen: set[tuple[str, str]] = set()   # one report per tampered field and rejection
    checked = CHECKED
    checked[:] = [0, 0]
    for players in range(cls.min_players, cls.max_players + 1):
        games = [cls(num_players=players, **options) for options in option_sets(name)]
        pools = [played_states(g, rng) for g in games]
        for game, pool in zip(games, pools, strict=True):
            donors = [d for other in pools for d in other if d.size == pool[0].size]
            bases = [pool[int(i)] for i in rng.choice(len(pool), REACHED, replace=False)]
            samples = [(d, "reached by random play") for d in bases]
            bases = pool   # tampered copies start from any state the games went through
            for _ in range(tampered_count):
                data, what = tampered(game, bases, donors, rng)
                if accepts(game, data) is None:
                    samples.append((data, what))
            for data, what in samples:
                checked[0] += 1
                checked[1] += int(what != "reached by random play")
                problems = [(f"seat {seat} observes", message)
                            for seat, message in observation_failures(game, data)]
                problems += [(f"action {action} "
                              f"({game.describe_action(State(game, data), action)})", message)
                             for action, message in closure_failures(game, data)]
                for action, message in problems:
                    key = (what.split(" ")[0], message.split(":")[0])
                    if key in seen:
                        continue
                    seen.add(key)
                    failures.append(f"{name} {players}p {game.options}: state ({what}; "
                                    f"{_phase(game, data)}) accepted, {action} -> {message}")
                    if len(failures) >= limit:
                        return failures
    return failures


def refused(game: Game, state: State, match: str) -> None:
    """``game.validate`` refuses ``state`` with a ``StateDictError`` matching ``match``."""
    with pytest.raises(StateDictError, match=match):
        game.validate(state)


def _phase(game: Game, data: np.ndarray) -> str:
    if "phase" in game.layout.fields:
        return f"phase {int(data[game.layout.slice('phase')][0])}"
    return "no phase field"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--tampered", type=int, default=400,
                        help="tampered copies tried per option set and player count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=20)
    args = parser.parse_args(argv)
    failures = run(args.game, args.tampered, args.seed, args.limit)
    for line in failures:
        print(line)
    print(f"checked {CHECKED[0]} accepted states ({CHECKED[1]} tampered)")
    print(f"{args.game}: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
