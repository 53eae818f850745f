"""Every way of loading a state refuses garbage with ``StateDictError``.

``State.from_dict``, ``set_state``, ``BatchEnv.load`` and unpickling must never let an
``IndexError``, ``OverflowError``, ``TypeError`` or ``KeyError`` escape, whatever the
options, format, vector type or game of the thing being loaded.
"""

from __future__ import annotations

import inspect
import json

import numpy as np
import pytest

from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import State, _restore_state
from transit_gym.envs.registry import available_games, env_module, game_class

GAMES = available_games()
GARBAGE = [1.5, "x", [1, [2]], {"a": 1}, -1, 10**30, -(10**30), []]


def _base(name: str) -> dict:
    cls = game_class(name)
    return json.loads(json.dumps(cls(num_players=cls.min_players).new_state(0).to_dict()))


@pytest.mark.parametrize("name", GAMES)
def test_invalid_options_in_a_state_dict(name):
    """Any garbage value of any option (and of the player count, and unknown options) is a
    ``StateDictError`` naming the problem, never another exception."""
    cls = game_class(name)
    base = _base(name)
    cases = [{"num_players": v} for v in (99, 0, "2", True, 2.0, [2])]
    cases.append({"num_players": cls.min_players, "no_such_option": 1})
    for option in inspect.signature(cls._build).parameters:
        cases += [{"num_players": cls.min_players, option: v} for v in GARBAGE]
    for options in cases:
        payload = json.loads(json.dumps(base))
        payload["options"] = options
        try:
            State.from_dict(payload)
        except StateDictError as exc:
            assert str(exc)
        # an accepted value is one the option allows (e.g. -1 as a sentinel); it was
        # validated like any other state


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("key", "value"), [
    ("format", True), ("format", 2), ("format", "1"), ("format", None), ("format", 1.0),
    ("game", None), ("game", ["x"]), ("game", "chess"), ("extra", 1),
    ("fields", {"x": [[1]]}), ("data_files", "x"), ("data_files", {"track": 1}),
])
def test_wrong_format_game_and_entries(name, key, value):
    """Only format 1 (an int, not ``True``), a known game name, the known entries."""
    payload = _base(name)
    payload[key] = value
    with pytest.raises(StateDictError):
        State.from_dict(payload)


@pytest.mark.parametrize("name", GAMES)
def test_set_state_batch_load_and_unpickling_refuse_foreign_states(name):
    """A state of another configuration, a float or short vector, or no ``State`` at all,
    is refused by ``set_state``, ``BatchEnv.load`` and the unpickling hook; floats are
    never silently truncated into a state."""
    module = env_module(name)
    cls = game_class(name)
    game = cls(num_players=cls.min_players)
    other = cls(num_players=cls.min_players + 1)
    good = game.new_state(0)
    env = module.raw_env(num_players=game.num_players)
    env.reset(seed=0)
    batch = module.batch(2, seed=0, num_players=game.num_players)
    bad = [other.new_state(0), State(game, good.data.astype(np.float64)),
           State(game, good.data[:-1].copy()), State(game, list(good.data)), "state"]
    for state in bad:
        with pytest.raises(StateDictError):
            env.set_state(state)
        with pytest.raises(StateDictError):
            batch.load(0, state)
    for data in (good.data.astype(np.float64), good.data[:3], good.data.reshape(1, -1),
                 "x", None):
        with pytest.raises(StateDictError):
            _restore_state(game, data)
    env.set_state(good)
    batch.load(1, good)
    assert np.array_equal(env.state(), good.data)
    assert np.array_equal(batch.state(1).data, good.data)


@pytest.mark.parametrize("error", [KeyError, TypeError, ZeroDivisionError, IndexError,
                                   OverflowError, AssertionError])
def test_crashing_invariant_check_becomes_state_dict_error(monkeypatch, error):
    """A game's Python invariant check that trips over a garbage state (any lookup, type or
    arithmetic error) surfaces as ``StateDictError``, not as that error."""
    name = GAMES[0]
    cls = game_class(name)
    game = cls(num_players=cls.min_players)

    def broken(self, state):
        raise error("garbage")

    monkeypatch.setattr(cls, "check_invariants", broken)
    with pytest.raises(StateDictError, match="inconsistent"):
        game.validate(game.new_state(0))


@pytest.mark.parametrize("name", GAMES)
def test_batch_load_of_a_finished_game_reports_it_done(name):
    """``BatchEnv.load`` of a finished, untouched game: the slot reports done with that
    game's terminal rewards, the auto-reset starts a new game there, and the next ``step``
    of the whole batch works."""
    module = env_module(name)
    cls = game_class(name)
    game = cls(num_players=cls.min_players)
    state = game.new_state(3)
    rng = np.random.default_rng(3)
    while game.current_player(state) >= 0:
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    batch = module.batch(2, seed=5, num_players=game.num_players)
    batch.load(1, state)
    assert batch.dones.tolist() == [False, True]
    assert np.array_equal(batch.rewards[1], game.rewards(state))
    assert batch.rewards[1].any()
    assert batch.episodes[1] == 1 and batch.players[1] >= 0 and batch.masks[1].any()
    assert not np.array_equal(batch.state(1).data, state.data)
    batch.step(batch.random_actions(np.array([1, 2, 3, 4], dtype=np.int64)))
    assert batch.players.min() >= 0
