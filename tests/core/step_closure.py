"""Validation that holds across steps (issue 24, item 3): from every accepted state, every
legal action leads to a state the validator accepts.

Run as ``python -m tests.core.step_closure GAME [--tampered N] [--seed S]``. The sampled
states are states reached by random play (several option sets per game, every player
count) and tampered copies of them that ``Game.validate`` still accepts: one slot changed
(``state_fuzz.mutant_values``, plus values at the counter cap) or one whole field copied
from another reached state, possibly of another option set (a ``phase`` from another
airport, a ``current`` from another point of the draft). For each, every legal action is
applied to a copy and the result must pass ``Game.validate``. The test suite runs this in
a subprocess, so that a crash in a kernel shows as a failed test.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from tests.core.state_fuzz import mutant_values
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import Game, State
from transit_gym.envs.core.validate import MAX_COUNTER
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


def cap_values(old: int) -> list[int]:
    """Values at and around the counter cap (a counter accepted at its cap must not pass
    it on the next step)."""
    return [MAX_COUNTER, MAX_COUNTER - 1, MAX_COUNTER + 1, old + 2]


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
        game.kernels.apply(after, game.params, int(action))
        message = accepts(game, after)
        if message is not None:
            failures.append((int(action), message))
    return failures


def tampered(game: Game, bases: list[np.ndarray], donors: list[np.ndarray],
             rng: np.random.Generator) -> tuple[np.ndarray, str]:
    """A tampered copy of one of ``bases`` and what was changed."""
    base = bases[int(rng.integers(len(bases)))]
    data = base.copy()
    names = game.layout.names()
    if rng.random() < 0.5:   # one slot
        slot = int(rng.integers(base.size))
        values = mutant_values(int(base[slot]), rng) + cap_values(int(base[slot]))
        data[slot] = values[int(rng.integers(len(values)))]
        field, pos = game.layout.locate(slot)
        return data, f"{field}[{pos}] {int(base[slot])} -> {int(data[slot])}"
    name = names[int(rng.integers(len(names)))]   # one field from another state
    donor = donors[int(rng.integers(len(donors)))]
    where = game.layout.slice(name)
    data[where] = donor[where]
    return data, f"{name} copied from another state"


def run(name: str, tampered_count: int, seed: int, limit: int = 20) -> list[str]:
    """The failures (at most ``limit``) of the step-closure property for game ``name``."""
    cls = game_class(name)
    rng = np.random.default_rng(seed)
    failures: list[str] = []
    seen: set[tuple[str, str]] = set()   # one report per tampered field and rejection
    checked = CHECKED
    checked[:] = [0, 0]
    for players in range(cls.min_players, cls.max_players + 1):
        games = [cls(num_players=players, **options) for options in OPTION_SETS[name]]
        pools = [played_states(g, rng) for g in games]
        donors = [d for pool in pools for d in pool]
        for game, pool in zip(games, pools, strict=True):
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
                for action, message in closure_failures(game, data):
                    key = (what.split(" ")[0], message.split(":")[0])
                    if key in seen:
                        continue
                    seen.add(key)
                    failures.append(f"{name} {players}p {game.options}: state ({what}; "
                                    f"{_phase(game, data)}) accepted, action {action} "
                                    f"({game.describe_action(State(game, data), action)}) "
                                    f"-> {message}")
                    if len(failures) >= limit:
                        return failures
    return failures


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
