"""Automobile saved states whose loss cubes cannot run past their range: a player's loss
cubes saturate at ``loss_cap``, the most play can give (the largest value a saved state may
hold), so a state accepted with every player at the cap plays on into accepted states."""

from __future__ import annotations

import numpy as np

from tests.core.step_closure import closure_failures
from transit_gym.envs.automobile.market import loss_cap
from transit_gym.envs.core.game import State
from transit_gym.envs.registry import game_class


def test_loss_cubes_at_the_cap_stay_at_the_cap():
    """LOSS CUBES AND R&D CUBES, P5/P7/P8 (idle salesmen, unsold cars and factory ranks
    give loss cubes): a state with every player's loss cubes at the cap is accepted, every
    legal action from it leads to an accepted state, and the count stays at the cap (it
    used to pass it by the next loss taken)."""
    game = game_class("automobile")(num_players=3)
    state = game.new_state(5)
    cap = int(loss_cap(game.params))
    rng = np.random.default_rng(5)
    for _ in range(300):
        if game.current_player(state) < 0:
            break
        state["loss"][:3] = cap
        state["turn_loss"][:3] = np.minimum(state["turn_loss"][:3] + cap, cap)
        game.validate(state)
        assert closure_failures(game, state.data.copy()) == []
        game.apply(state, int(rng.choice(game.legal_actions(state))))
        assert state["loss"][:3].max() <= cap
    game.validate(State(game, state.data))
