"""Planes states from outside are checked before any kernel runs (hardening).

``violation(s, p, where)`` (``envs/planes/invariants.py``) range-checks every slot a kernel,
the encoder or the rule-based agent reads, the conservation of the 40 cubes and 60 cards
(In This Box, Contents) and the context of the pending decision. A tampered state is
refused by ``State.from_dict``, ``set_state``, unpickling and ``BatchEnv.load`` with a
``StateDictError`` naming the field; the cross-game fuzz (``tests/core/state_fuzz.py``)
covers the default options, the loop below the options that change the state's shape of
use (Player Decks rows, Zephyr's branches, all-cube blockages).
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from tests.core.random_play import mid_game
from tests.core.state_fuzz import mid_game_states, mutant_values, play_on
from transit_gym.envs import planes_v0
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.data import MAX_TYPES, NUM_COLORS


def _refused_everywhere(game, bad: State, field: str) -> None:
    payload = json.loads(json.dumps(bad.to_dict()))
    with pytest.raises(StateDictError, match=field):
        State.from_dict(payload)
    env = planes_v0.raw_env(**game.options)
    env.reset(seed=1)
    with pytest.raises(StateDictError, match=field):
        env.set_state(bad)
    with pytest.raises(StateDictError, match=field):
        pickle.loads(pickle.dumps(bad))
    batch = planes_v0.batch(2, seed=1, **game.options)
    with pytest.raises(StateDictError, match=field):
        batch.load(0, bad)


def _tampered(game, field: str, pos: int, value: int) -> State:
    bad = mid_game(game, 3, 25).copy()
    bad[field][pos] = value
    return bad


@pytest.mark.parametrize(("field", "pos", "value", "allowed"), [
    ("cubes", 3 * NUM_COLORS + 4, 10**10, "0..20"),       # Contents: 20 grey cubes
    ("cubes", 2 * NUM_COLORS, -1, "0..5"),                 # 5 party cubes per colour
    ("phase", 0, 20, "0..11"),                             # an internal step, not a decision
    ("in_play", 0, MAX_TYPES, "-1..14"),                   # 15 unique cards
    ("hand", 3 * MAX_TYPES, 1, "0..0"),                    # a seat beyond a 2-player table
    ("current", 0, 2, "0..1"),
    ("turns", 0, 2**62, None),
    ("gate_color", 0, 9, None),
    ("boarded", 0, 6, "0..5"),                             # planes have 5 slots
])
def test_tampered_fields_are_refused_with_field_and_range(field, pos, value, allowed):
    """One number changed in a mid-game 2-player state: refused on every way in, the
    message naming the field (and its allowed range where one applies)."""
    game = planes_v0.Game(num_players=2)
    bad = _tampered(game, field, pos, value)
    with pytest.raises(StateDictError, match=field) as info:
        game.validate(bad)
    if allowed is not None:
        assert f"allowed {allowed}" in str(info.value)
    _refused_everywhere(game, bad, field)


def test_move_fields_need_a_move_and_a_real_arrow():
    """Move Phase: outside a move no cube is active and the move's space is cleared; at a
    branch (Zephyr centre, Rule Clarifications) the arrow picked leaves the move's space."""
    game = planes_v0.Game(num_players=2)
    state = mid_game(game, 3, 25)
    if state["phase"][0] not in (st.PH_STEP, st.PH_BRANCH):
        bad = state.copy()
        bad["pos"][0] = 0
        with pytest.raises(StateDictError, match="pos"):
            game.validate(bad)
    zephyr = planes_v0.Game(num_players=2, airport="zephyr")
    a = zephyr.airport
    centre = next(i for i, row in enumerate(a.next) if len(row) > 1)
    s = zephyr.new_state(0)
    bad = s.copy()
    seat = int(bad["current"][0])
    bad["phase"][0] = st.PH_BRANCH
    own = bad["cubes"].reshape(-1, NUM_COLORS)
    sp = int(np.flatnonzero(own[:, seat])[0])
    bad["active"][seat] = own[sp, seat]
    own[sp, seat] = 0
    bad["pos"][0] = bad["start"][0] = centre
    not_ahead = next(i for i in range(a.num_spaces) if i not in a.next[centre])
    bad["branch"][0] = not_ahead
    with pytest.raises(StateDictError, match="branch"):
        zephyr.validate(bad)
    good = bad.copy()
    good["branch"][0] = a.next[centre][0]
    zephyr.validate(good)


def test_effect_flags_must_come_from_the_card_in_play():
    """Card Clarifications: Ignore Blockages, Skip, Backwards, Own Only and Move Twice
    hold only while their card is in play; a flag set without its card is refused."""
    game = planes_v0.Game(num_players=2)
    state = game.new_state(0)
    for field in ("ignore_blockages", "skip_owed", "backwards", "own_only",
                  "ignore_neutrals"):
        bad = state.copy()
        bad[field][0] = 1
        with pytest.raises(StateDictError, match=field):
            game.validate(bad)
    bad = state.copy()
    bad["moves_left"][0] = 2
    with pytest.raises(StateDictError, match="moves_left"):
        game.validate(bad)


@pytest.mark.parametrize("options", [
    {"player_decks": True},
    {"airport": "zephyr", "blockage_counts": "all"},
])
def test_one_slot_mutants_under_the_options_are_refused_or_play_on(options):
    """Every player count: each one-slot mutant of a mid-game state is refused with a
    ``StateDictError`` naming a field, or plays on with its invariants intact."""
    rng = np.random.default_rng(11)
    for players in (2, 3, 4):
        game = planes_v0.Game(num_players=players, **options)
        bases = mid_game_states(game, rng, 3)
        for _ in range(150):
            base = bases[int(rng.integers(len(bases)))]
            slot = int(rng.integers(base.size))
            data = base.copy()
            values = mutant_values(int(base[slot]), rng)
            data[slot] = values[int(rng.integers(len(values)))]
            state = State(game, data)
            try:
                game.validate(state)
            except StateDictError as exc:
                assert "planes state" in str(exc)
                continue
            play_on(game, state, rng)
