"""Validation holds across steps (DESIGN "Wave 3 additions"): saved states cannot lead
play astray.

``violation`` checks the relations the kernels rely on, not only each slot's range, so
from every state the validator accepts, every legal action leads to a state it accepts
again, and every seat's observation lies inside the declared observation space.
``tests/core/step_closure.py`` samples states reached by random play (every option set of
``OPTION_SETS`` and ``Game.random_options``) and tampered copies of them that are still
accepted (``tests/core/tamper.py``: spliced fields, seat swaps, phase changes, units moved
between zones, counters moved by one or to the top of their range), applies every legal
action to each and validates the result; it runs in a subprocess (seeded), so that a
crash or a hang shows as a failed test. A larger sweep on another seed is a command line:
``python -m tests.core.step_closure GAME --tampered N --seed S``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.core.random_play import at_phase, reach
from tests.core.step_closure import OPTION_SETS, closure_failures, option_sets, refused
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.core.validate import MAX_COUNTER
from transit_gym.envs.registry import available_games, game_class

ROOT = Path(__file__).resolve().parents[2]
GAMES = available_games()
#: tampered copies tried per game, shared out over its option sets and player counts
TAMPERED = 3000


def _per_set(name: str, total: int) -> int:
    cls = game_class(name)
    combos = len(option_sets(name)) * (cls.max_players - cls.min_players + 1)
    return max(30, total // combos)


def _closure_run(name: str, total: int, seed: int) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tests.core.step_closure", name, "--tampered",
         str(_per_set(name, total)), "--seed", str(seed)],
        cwd=ROOT, capture_output=True, text=True, timeout=1800, env=dict(os.environ))
    assert result.returncode == 0, (
        f"{name}: accepted states whose next legal move is rejected:\n{result.stdout[-6000:]}"
        f"\n{result.stderr[-3000:]}")
    assert f"{name}: 0 failures" in result.stdout


def test_every_game_has_option_sets():
    assert set(GAMES) <= set(OPTION_SETS)


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_from_an_accepted_state_is_accepted(name):
    _closure_run(name, TAMPERED, seed=0)


@pytest.mark.parametrize("name", GAMES)
def test_a_counter_at_its_cap_stays_at_the_cap(name):
    """Counters saturate at ``MAX_COUNTER``: a statistic loaded at the cap is accepted, and
    no step takes it past the cap (it used to overflow the accepted range by one)."""
    cls = game_class(name)
    game = cls(num_players=cls.min_players)
    state = game.new_state(2)
    rng = np.random.default_rng(2)
    for _ in range(10):
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    counters = [f for f in game.layout.names() if f.startswith(("stat_", "turns"))]
    assert counters, name
    for field in counters:
        state[field][:] = MAX_COUNTER
    game.validate(state)
    for _ in range(200):
        if game.current_player(state) < 0:
            break
        assert closure_failures(game, state.data.copy()) == []
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    for field in counters:
        assert state[field].max() == MAX_COUNTER, field
    game.validate(State(game, state.data))


# ----- reported states: each was accepted, and its next legal move made a state the
# ----- validator rejects; now each is refused, naming the field






def test_boost_pending_without_a_boost_card_in_the_market_is_refused():
    """R-BASE Boost: the draws belong to the Boost card being resolved; with another
    card of that colour in the market (pk_left used to go to -1) the state is refused."""
    from transit_gym.envs.automobiles import state as st

    game = game_class("automobiles")(num_players=3, card_set="Broken Down")
    state = reach(game, at_phase(st.PH_BOOST), moves=600)
    game.validate(state)
    colour = int(state["act_colour"][0])
    cards = game.cards
    other = next(c for c in range(cards.num_cards)
                 if cards.colours[c] == colour and c != int(state["card_of"][colour]))
    state["card_of"][colour] = other
    state["cost"][colour] = game.params[st.P_CARD_COST + other]
    state["value"][colour] = game.params[st.P_CARD_VALUE + other]
    refused(game, state, "act_colour")
    state = reach(game, at_phase(st.PH_BOOST), moves=600)
    state["pk_left"][0] = 0   # a Boost with no draw left would have moved on
    refused(game, state, "phase")


def test_camber_and_toe_without_a_cube_colour_is_refused():
    """R-YUC Camber & Toe: the gear to discard is picked while its cube resolves; an
    ``act_colour`` of -1 at that decision is refused."""
    from transit_gym.envs.automobiles import state as st

    game = game_class("automobiles")(num_players=2, card_set="Squeaky Clean")
    state = reach(game, at_phase(st.PH_CAMBER_TOE), moves=600)
    game.validate(state)
    state["act_colour"][0] = -1
    refused(game, state, "act_colour")


@pytest.mark.parametrize("field", ["current", "turn_seat", "std_turn"])
def test_season_draft_tampering_is_refused(field):
    """R-YUC Drivers: the draft goes from the seat right of the start player round to
    the start player, before any turn; changing the deciding seat (a seat would end the
    draft without a driver) or starting a turn mid-draft is refused."""
    from transit_gym.envs.automobiles import state as st

    game = game_class("automobiles_season")(num_players=3)
    state = game.new_state(4)
    assert int(state["phase"][0]) == st.PH_DRIVER_DRAFT
    game.validate(state)
    value = int(state[field][0])
    state[field][0] = 1 if field == "std_turn" else (value + 1) % 3
    with pytest.raises(StateDictError):
        game.validate(state)


def test_planes_phase_from_another_game_is_refused():
    """Planes, Taking a Turn: the action phase comes before the one move of the turn, so
    it needs ``moves_left`` 1 and no card in play; a ``phase`` copied from a state after
    the move (``moves_left`` 0) is refused."""
    from transit_gym.envs.planes import state as st

    game = game_class("planes")(num_players=3)
    state = reach(game, at_phase(st.PH_GOAL), moves=600)
    state["phase"][0] = st.PH_ACTION
    refused(game, state, "moves_left|in_play")
