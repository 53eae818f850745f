"""Golden playthroughs (after OpenSpiel's): one seeded game per game and player count,
recorded as its actions and per-step digests, so any unintended rules change shows up
as the first step whose observation, mask or reward differs.

Regenerate after an intended rules change (and say why in the commit):

    python -m tests.golden.playthrough            # every game and player count
    python -m tests.golden.playthrough planes     # one game
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from transit_gym.envs.registry import available_games, env_module

HERE = Path(__file__).resolve().parent
SEED = 20261123
FORMAT = 1


def cases() -> list[tuple[str, int]]:
    """Every installed game at every player count."""
    out = []
    for name in available_games():
        cls = env_module(name).Game
        out += [(name, n) for n in range(cls.min_players, cls.max_players + 1)]
    return out


def path_of(name: str, players: int) -> Path:
    return HERE / f"{name}_{players}p.json"


def _digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def play(name: str, players: int, actions: list[int] | None = None) -> dict[str, Any]:
    """Play the golden game: choose seeded random legal actions, or replay ``actions``
    (each checked legal). Returns the record (actions, per-step digests, rewards)."""
    game = env_module(name).Game(num_players=players)
    state = game.new_state(SEED)
    rng = np.random.default_rng(SEED)
    record: dict[str, Any] = {"format": FORMAT, "game": name, "players": players,
                              "seed": SEED, "actions": [], "steps": []}
    i = 0
    while not game.is_over(state):
        seat = game.current_player(state)
        mask = game.legal_mask(state)
        obs = [game.observe(state, s) for s in range(players)]
        record["steps"].append(f"{seat}:{_digest(mask)}:{_digest(*obs)}")
        if actions is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            if i >= len(actions):
                raise AssertionError(f"step {i}: the game goes on past the recorded actions")
            action = actions[i]
        game.apply(state, action)  # raises IllegalActionError naming the legal ones
        record["actions"].append(action)
        i += 1
    record["rewards"] = [float(r) for r in game.rewards(state)]
    record["final_state"] = _digest(state.data)
    record["final_obs"] = _digest(*[game.observe(state, s) for s in range(players)])
    return record


def write(name: str, players: int) -> Path:
    record = play(name, players)
    target = path_of(name, players)
    target.write_text(json.dumps(record, separators=(",", ":")) + "\n")
    return target


def main(argv: list[str]) -> int:
    wanted = set(argv)
    for name, players in cases():
        if wanted and name not in wanted:
            continue
        target = write(name, players)
        print(f"wrote {target.relative_to(HERE.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
