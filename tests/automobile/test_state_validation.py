"""Saved Automobile states are checked before any kernel runs on them.

``envs/automobile/violation.py`` range-checks every field a kernel uses as an index, loop
bound or count, the conserved quantities (money, R&D cubes, demand tiles, markers) and the
pending decision. The one-slot mutation fuzz over every game is ``tests/core/
test_state_fuzz.py``; these tests pin the reported reproducer, a false-positive check over
whole random games and one named example per kind of check.
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from tests.core.random_play import mid_game
from transit_gym.envs import automobile_v0
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.rules import AutomobileGame
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import State

OPTION_SETS = [
    {},
    {"shortfall": "forgive", "frontier": "open", "sloan": "taken", "markers_on_closed": False,
     "durant_borrow": True, "parts_with_new_factory": True},
]


def _advance_to(game: AutomobileGame, phase: int, seed: int = 0) -> State:
    """The first state of a seeded random game whose pending decision is ``phase``."""
    for s in range(seed, seed + 50):
        state = game.new_state(s)
        rng = np.random.default_rng(s)
        while game.current_player(state) >= 0:
            if state["phase"][0] == phase:
                return state
            game.apply(state, int(rng.choice(game.legal_actions(state))))
    raise AssertionError(f"no game reached phase {phase}")


def test_reported_turn_48_is_refused_by_every_loader():
    """The reproducer: a mid-game ``to_dict()`` with ``turn`` = 48 crashed
    ``State.from_dict`` + ``set_state``. Every loader now refuses it naming the field and
    the allowed turns 0..3 (RB: the game lasts four turns)."""
    game = AutomobileGame(3)
    state = mid_game(game, 7, 40)
    payload = json.loads(json.dumps(state.to_dict()))
    payload["fields"]["turn"][0] = 48
    with pytest.raises(StateDictError, match=r"field turn = 48, allowed 0\.\.3"):
        State.from_dict(payload)
    bad = state.copy()
    bad["turn"][0] = 48
    env = automobile_v0.raw_env(num_players=3)
    env.reset(seed=1)
    with pytest.raises(StateDictError, match="turn"):
        env.set_state(bad)
    with pytest.raises(StateDictError, match="turn"):
        pickle.loads(pickle.dumps(bad))
    batch = automobile_v0.batch(2, seed=1, num_players=3)
    with pytest.raises(StateDictError, match="turn"):
        batch.load(0, bad)


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_state_of_random_games_is_accepted(players, options):
    """No false alarm: every state reached by legal play (all phases P1-P9 and the end,
    both ends of every option) passes the check."""
    game = AutomobileGame(players, **options)
    where = np.full(3, -1, dtype=np.int64)
    for seed in range(3):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while True:
            code = game.kernels.violation(state.data, game.params, where)
            assert code == 0, game._violation_message(state.data, code, where)
            if game.current_player(state) < 0:
                break
            game.apply(state, int(rng.choice(game.legal_actions(state))))
        State.from_dict(state.to_dict())   # the finished game loads too


def _set(state: State, field: str, pos: int, value: int) -> State:
    bad = state.copy()
    bad[field][pos] = value
    return bad


@pytest.mark.parametrize(("field", "pos", "value", "message"), [
    ("phase", 0, 15, r"field phase = 15, allowed 0\.\.14"),
    ("current", 0, 3, r"field current = 3, allowed 0\.\.2"),
    ("pos", 0, -1, r"field pos = -1"),
    ("round", 0, 3, r"field round = 3, allowed 0\.\.2"),
    ("ctx_mode", 0, 4, r"field ctx_mode = 4, allowed 0\.\.3"),
    ("cash", 0, 10**10, r"field cash\[0\] = 10000000000"),
    ("rd", 1, -2, r"field rd\[1\] = -2"),
    ("loans", 2, 3, r"field loans\[2\] = 3, allowed 0\.\.2"),
    ("loss", 0, 2**62, r"field loss\[0\]"),
    ("owner", 25, 3, r"field owner\[25\] = 3, allowed -1\.\.2"),
    ("factories", 0, 4, r"field factories\[0\] = 4, allowed 0\.\.3"),
    ("tiles", 9, 3, r"field tiles\[9\] = 3, allowed 0\.\.0"),
    ("bag", 0, -1, r"field bag\[0\] = -1"),
    ("sel_order", 0, 7, r"field sel_order\[0\] = 7, allowed 0\.\.2"),
    ("char_seat", 0, 9, r"field char_seat\[0\] = 9, allowed -1\.\.2"),
    ("stat_revenue", 0, -5, r"field stat_revenue\[0\] = -5"),
])
def test_out_of_range_fields_are_named_with_their_allowed_range(field, pos, value, message):
    """A value no kernel can index with is refused naming the field, the value and the
    allowed range (P3 state of a 3-player game: rounds 0-2, seats 0-2, RB Loans: two)."""
    game = AutomobileGame(3)
    state = _advance_to(game, st.PH_ACTION)
    with pytest.raises(StateDictError, match=message):
        game.validate(_set(state, field, pos, value))


def test_conservation_breaks_are_refused():
    """Money moves between the bank and the players, R&D cubes between the stock, the
    character tiles and the players, demand tiles between the bag and the hands: a state
    where one side changed alone is refused."""
    game = AutomobileGame(4)
    state = mid_game(game, 3, 30)
    for field, meaning in (("cash", "money"), ("bank", "money"), ("rd_stock", "R&D"),
                           ("char_rd", "R&D"), ("bag", "demand tiles")):
        bad = _set(state, field, 0, int(state[field][0]) + 1)
        with pytest.raises(StateDictError, match=meaning):
            game.validate(bad)


def test_a_tile_value_not_in_the_bag_is_refused():
    """The 16 demand tiles carry the values 2-5 (RB Components); a held tile of value 7
    is no tile of the game (it would index the bag outside its kinds in P9)."""
    game = AutomobileGame(3)
    state = mid_game(game, 1, 10)
    with pytest.raises(StateDictError, match=r"field tiles\[0\] = 7"):
        game.validate(_set(state, "tiles", 0, 7))


def test_the_decision_must_belong_to_the_seat_whose_turn_it_is():
    """P3: the seat to move is the one at ``pos`` in the character order of play; a state
    naming another seat is refused."""
    game = AutomobileGame(3)
    state = _advance_to(game, st.PH_ACTION)
    other = (int(state["current"][0]) + 1) % 3
    with pytest.raises(StateDictError, match="does not fit the seat to move"):
        game.validate(_set(state, "current", 0, other))


def test_a_production_question_on_another_players_space_is_refused():
    """IV. Produce cars asks about the player's own spaces only; a context naming a space
    the player does not own is refused (the kernels would put the cars on it)."""
    game = AutomobileGame(3)
    state = _advance_to(game, st.PH_PRODUCE)
    seat = int(state["current"][0])
    foreign = [i for i in range(26) if state["owner"][i] != seat]
    with pytest.raises(StateDictError, match="ctx_space"):
        game.validate(_set(state, "ctx_space", 0, foreign[0]))


def test_an_executive_decision_without_its_marker_is_refused():
    """P6 C: a discount stack can only be placed while one of that size is on the display;
    a pending placement with the display empty is refused."""
    game = AutomobileGame(3)
    state = _advance_to(game, st.PH_EXEC)
    bad = state.copy()
    bad["phase"][0] = st.PH_EXEC_SPACE
    bad["ctx_mode"][0] = st.EXEC_DISC2
    bad["disc_avail"][:] = 0
    with pytest.raises(StateDictError):
        game.validate(bad)
