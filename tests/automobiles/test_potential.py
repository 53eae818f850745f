"""Automobiles' reward-shaping strength and laps driven (``envs/automobiles/potential.py``):
the Car Phase target counted for the seat on turn, and wear as an immediate cost."""

from __future__ import annotations

import numpy as np
import pytest

from tests.automobiles.table import PIT_STOP, STOP, Table, buy
from transit_gym.envs.automobiles import kernels as k
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.potential import WEAR_WEIGHT, laps_driven, strengths
from transit_gym.envs.automobiles.rules import AutomobilesGame


def measures(game, state) -> tuple[np.ndarray, np.ndarray]:
    """(laps driven, shaping strength) of every seat."""
    laps = np.zeros(game.num_players)
    strength = np.zeros(game.num_players)
    laps_driven(state.data, game.params_of(state), laps)
    strengths(state.data, game.params_of(state), strength)
    return laps, strength


def test_a_wear_cube_bought_in_setup_costs_its_share_of_the_buyers_cubes_at_once():
    """Setup 6-7: 12 cubes, no wear, then the allowance buys cubes into the bag; a wear
    cube is for sale at $0 (option ``buy_wear``). After a white and a wear cube the buyer
    holds 1 wear of 14 cubes: its strength is its laps less ``WEAR_WEIGHT / 14``, the other
    seat's its laps; laps driven do not change."""
    game = AutomobilesGame(num_players=2, start_player=0)
    state = game.new_state(5)
    laps0, strength0 = measures(game, state)
    np.testing.assert_allclose(strength0, laps0)
    game.apply(state, buy("white"))
    game.apply(state, buy("wear"))
    laps, strength = measures(game, state)
    np.testing.assert_allclose(laps, laps0)
    assert strength[0] < laps[0]
    assert strength[0] == pytest.approx(laps[0] - WEAR_WEIGHT / 14)
    assert strength[1] == pytest.approx(laps[1])


def test_a_pit_stop_removing_wear_raises_the_strength_by_its_share():
    """Alternative Turn - Pit Stop: every wear cube of the active pile goes back to the
    stock and the car stays; 5 wear of 14 cubes gone raise the strength by
    ``WEAR_WEIGHT * 5 / 14``."""
    t = Table(2)
    t.give(0, "active", wear=5, light_gray=2)
    t.give(0, "bag", white=7)
    t.turn(0)
    laps0, strength0 = measures(t.game, t.state)
    assert strength0[0] == pytest.approx(laps0[0] - WEAR_WEIGHT * 5 / 14)
    t.act(PIT_STOP)
    laps, strength = measures(t.game, t.state)
    assert laps[0] == laps0[0] and strength[0] > strength0[0]
    assert strength[0] - strength0[0] == pytest.approx(WEAR_WEIGHT * 5 / 14)


@pytest.mark.parametrize("players", [2, 4])
def test_laps_driven_of_the_seat_on_turn_are_where_the_car_phase_moves_its_car(players):
    """Car Phase: the car moves to the space of the farthest cube placed this turn. At every
    decision of random games with cubes placed, the seat on turn's laps driven equal its
    car's laps once the Car Phase has moved it; the other seats' are their cars'."""
    game = AutomobilesGame(num_players=players)
    p = game.params
    rng = np.random.default_rng(players)
    checked = 0
    for seed in range(3):
        state = game.new_state(seed)
        while not game.is_over(state):
            s = state.data
            laps = np.zeros(players)
            laps_driven(s, p, laps)
            seat = int(s[st.TURN_SEAT])
            moved = s.copy()
            k._car_phase(moved, p, seat)
            for other in range(players):
                assert laps[other] == moved[st.CAR_ABS + other] / p[st.P_LAP]
            checked += int(s[st.PLACED_N] > 0 and s[st.FAR] >= 0
                           and moved[st.CAR_ABS + seat] != s[st.CAR_ABS + seat])
            legal = game.legal_actions(state)
            game.apply(state, STOP if STOP in legal and rng.random() < 0.1
                       else int(rng.choice(legal)))
    assert checked > 0   # decisions with the car behind its placed cubes were seen
