"""Saved states that cannot corrupt memory.

Every state entering from outside goes through ``Game.validate`` (the game's jitted
``violation`` check, then the invariants, then "a live game has a legal action"). These
tests change one slot of mid-game states and load them: each mutant is rejected with a
``StateDictError`` naming the field, or it plays on to the end. The mutation runs happen in
subprocesses, so a segfault or a hang fails the test instead of killing the test run.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.registry import available_games, env_module

ROOT = Path(__file__).resolve().parents[2]
GAMES = available_games()

#: the reproducers of the issue: (game, field, position, value)
REPORTED = [
    ("loose_caboose", "turn_value", 0, 10**10),
    ("automobiles", "card_of", 0, 1000),
    ("automobile", "turn", 0, 48),
]


def _fuzz(game: str, mutants: int, env: dict[str, str] | None = None, timeout: int = 600):
    return subprocess.run(
        [sys.executable, "-m", "tests.core.state_fuzz", game, "--mutants", str(mutants)],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize("name", GAMES)
def test_one_slot_mutations_are_rejected_or_play_out(name):
    """Normal build, in a subprocess: no crash, no hang, no other exception."""
    result = _fuzz(name, 150)
    assert result.returncode == 0, (
        f"{name} fuzz failed (exit {result.returncode}):\n{result.stdout}\n{result.stderr[-3000:]}"
    )
    assert "accepted mutants played on" in result.stdout


#: games whose bounds-checked runs share one fresh cache (the season calls the race's kernels,
#: so it reuses them instead of compiling them again)
BOUNDS_GROUPS = [(name,) for name in GAMES if not name.startswith("automobiles")] + [
    tuple(name for name in GAMES if name.startswith("automobiles"))]


@pytest.mark.bounds
@pytest.mark.parametrize("names", BOUNDS_GROUPS, ids="+".join)
def test_mutations_under_numba_bounds_checking(names, tmp_path):
    """The same run with ``NUMBA_BOUNDSCHECK=1`` and a fresh kernel cache: an out-of-bounds
    access raises instead of passing silently. The kernels compile with bounds checks and
    without LLVM's optimisations (``NUMBA_OPT=0``: the accesses are the same, the compile
    about a third shorter): 20-90 s a game on one core."""
    env = {"NUMBA_BOUNDSCHECK": "1", "NUMBA_OPT": "0",
           "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    for name in names:
        result = _fuzz(name, 80, env=env, timeout=900)
        assert result.returncode == 0, (
            f"{name} bounds-checked fuzz failed:\n{result.stdout}\n{result.stderr[-3000:]}"
        )


def test_every_game_is_fuzzed_under_bounds_checking():
    assert sorted(n for group in BOUNDS_GROUPS for n in group) == sorted(GAMES)


def _mid_game_dict(name: str) -> tuple[object, dict]:
    module = env_module(name)
    game = module.Game(num_players=module.Game.min_players)
    state = game.new_state(7)
    rng = np.random.default_rng(7)
    for _ in range(20):
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    assert game.current_player(state) >= 0
    return game, state.to_dict()


@pytest.mark.parametrize(("name", "field", "pos", "value"),
                         [r for r in REPORTED if r[0] in GAMES])
def test_reported_tampered_states_are_refused_everywhere(name, field, pos, value):
    """The reported crashes: one number changed in a mid-game ``to_dict()``. Loading it is
    refused with a ``StateDictError`` naming the field, by ``State.from_dict``,
    ``set_state``, unpickling and the batch API."""
    game, payload = _mid_game_dict(name)
    payload = json.loads(json.dumps(payload))
    payload["fields"][field][pos] = value
    with pytest.raises(StateDictError, match=field):
        State.from_dict(payload)
    data = game.new_state(7).data.copy()
    data[game.layout.slice(field)][pos] = value
    bad = State(game, data)
    module = env_module(name)
    env = module.raw_env(num_players=game.num_players)
    env.reset(seed=1)
    with pytest.raises(StateDictError, match=field):
        env.set_state(bad)
    with pytest.raises(StateDictError, match=field):
        pickle.loads(pickle.dumps(bad))
    batch = module.batch(2, seed=1, num_players=game.num_players)
    with pytest.raises(StateDictError, match=field):
        batch.load(0, bad)


@pytest.mark.parametrize("name", GAMES)
def test_rejections_are_state_dict_errors_for_any_garbage(name):
    """Wrong types, shapes, missing or extra fields and huge values in a state dict all
    raise ``StateDictError`` (never IndexError, OverflowError, TypeError, KeyError)."""
    game, payload = _mid_game_dict(name)
    field = next(iter(payload["fields"]))
    bad_payloads = []
    for value in ("x", 1.5, True, None, [1], 2**70, -(2**70)):
        p = json.loads(json.dumps(payload))
        p["fields"][field] = [value] * len(p["fields"][field])
        bad_payloads.append(p)
    p = json.loads(json.dumps(payload))
    del p["fields"][field]
    bad_payloads.append(p)
    p = json.loads(json.dumps(payload))
    p["fields"]["no_such_field"] = [0]
    bad_payloads.append(p)
    p = json.loads(json.dumps(payload))
    p["fields"][field] = p["fields"][field] + [0]
    bad_payloads.append(p)
    for key, value in (("game", "chess"), ("game", 3), ("options", "x"), ("fields", [])):
        p = json.loads(json.dumps(payload))
        p[key] = value
        bad_payloads.append(p)
    bad_payloads += [[], "state", {}]
    for p in bad_payloads:
        with pytest.raises(StateDictError):
            State.from_dict(p)
