"""The Automobile observation: the round code and the per-slot bounds and
one-hot groups of ``AutomobileGame.obs_low_high`` / ``obs_one_hot_groups``."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.envs.automobile import encode as e
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.rules import AutomobileGame

OPTION_SETS = [
    {},
    {"shortfall": "debt", "frontier": "open", "sloan": "taken", "durant_borrow": True,
     "parts_with_new_factory": True, "markers_on_closed": False},
    {"shortfall": "forgive", "reward": "cash"},
]
P3 = range(st.PH_ACTION, st.PH_CLOSE + 1)


def _observed_games(game: AutomobileGame, seeds: range):
    """(state, seat, observation) for every seat after every step of random games."""
    for seed in seeds:
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while True:
            for seat in range(game.num_players):
                yield state, seat, game.observe(state, seat)
            if game.current_player(state) < 0:
                return
            game.apply(state, int(rng.choice(game.legal_actions(state))))


def test_the_round_is_coded_only_during_the_three_action_rounds():
    """P3 has three action rounds (RB P3); after them the round counter rests at 3. The
    round code is one-hot on the state's round during P3 and empty in every other phase,
    and never spills into the next field (the space of a pending build or production)."""
    game = AutomobileGame(3)
    seen_after_p3 = 0
    for state, seat, obs in _observed_games(game, range(3)):
        rounds = obs[e.OBS.slice("round")]
        phase = int(state["phase"][0])
        if phase in P3:
            assert rounds.sum() == 1.0 and rounds[int(state["round"][0])] == 1.0
        else:
            assert not rounds.any(), f"round coded in phase {phase}"
            seen_after_p3 += int(state["round"][0]) == 3
        deciding = phase != st.PH_OVER and int(state["current"][0]) == seat
        if not (deciding and phase in (st.PH_BUILD_WHAT, st.PH_PRODUCE)):
            assert not obs[e.OBS.slice("ctx_space")].any()
    assert seen_after_p3 > 0   # P4-P6 and later P2 decisions were observed


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_observation_lies_within_the_declared_bounds(players, options):
    """Over random games of every player count and option set, each slot lies within
    ``obs_low_high`` and each one-hot group sums to at most 1 (exactly 1 for the decision,
    the turn, each space's segment and each present player's character)."""
    game = AutomobileGame(players, **options)
    low, high = game.obs_low_high()
    assert low.shape == high.shape == (game.obs_size,) and (low <= high).all()
    groups = game.obs_one_hot_groups()
    for _state, _seat, obs in _observed_games(game, range(4)):
        bad = np.flatnonzero((obs < low) | (obs > high))
        assert bad.size == 0, [(game.obs_layout().locate(int(i)), obs[i], low[i], high[i])
                               for i in bad[:5]]
        for g in groups:
            assert obs[g].sum() <= 1.0, (g, obs[g])
        assert obs[e.OBS.slice("decision")].sum() == 1.0
        assert obs[e.OBS.slice("turn")].sum() == 1.0


def test_bounds_are_tight_where_the_rules_fix_a_value():
    """Printed constants observe as single values (each space's cost, RB board), absent
    seats as zeros, the present-seat flag as 1; a premium space never shows a discount
    (RB P6 C)."""
    game = AutomobileGame(3)
    low, high = e.low_high(game.params)
    open_low, open_high = game.obs_low_high()   # fixed slots opened for Gymnasium's boxes
    assert (open_low < open_high).all()
    fixed = low == high
    assert (open_low[~fixed] == low[~fixed]).all() and (open_high[~fixed] == high[~fixed]).all()
    b = e.O_SPACES + 0 * e.SPACE_BLOCK + e.S_COST
    assert low[b] == high[b] == np.float32(game.data.cost[0] / e.CASH_SCALE)
    for k in range(3, st.MAX_PLAYERS):
        block = slice(e.O_PLAYERS + k * e.PLAYER_BLOCK, e.O_PLAYERS + (k + 1) * e.PLAYER_BLOCK)
        assert not high[block].any()
    assert low[e.O_PLAYERS + e.B_PRESENT] == high[e.O_PLAYERS + e.B_PRESENT] == 1.0
    premium = int(np.flatnonzero(game.data.segment == 2)[0])
    assert high[e.O_SPACES + premium * e.SPACE_BLOCK + e.S_DISC] == 0.0
