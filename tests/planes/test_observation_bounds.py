"""Planes observations stay inside ``PlanesGame.obs_low_high()`` and every one-hot group
of ``obs_one_hot_groups()`` holds at most one 1, for every player count
under the options that change what is seen (Player Decks: own deck and discards, one copy
of each card; Zephyr's branches; all-cube blockages; Shorter Games)."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.envs import planes_v0
from transit_gym.envs.planes.encode import OBS

OPTIONS = [
    {},
    {"player_decks": True},
    {"airport": "zephyr", "blockage_counts": "all", "end_at": 6},
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_observation_lies_inside_its_declared_bounds(players, options):
    game = planes_v0.Game(num_players=players, max_rounds=25, **options)
    low, high = game.obs_low_high()
    assert (low <= high).all() and np.isfinite(high).all()
    groups = game.obs_one_hot_groups()
    rng = np.random.default_rng(players)
    for seed in range(2):
        state = game.new_state(seed)
        step = 0
        while True:
            if step % 4 == 0 or game.current_player(state) < 0:
                for seat in range(players):
                    obs = game.observe(state, seat)
                    bad = np.flatnonzero((obs < low) | (obs > high))
                    assert bad.size == 0, [(OBS.locate(int(i)), float(obs[i]), float(high[i]))
                                           for i in bad[:5]]
                    for group in groups:
                        assert obs[group].sum() <= 1.0, (group, obs[group])
            if game.current_player(state) < 0:
                break
            game.apply(state, int(rng.choice(game.legal_actions(state))))
            step += 1


def test_bounds_are_tight_where_the_components_fix_them():
    """In This Box: 5 cubes per party colour, 20 grey, planes of 5 slots; slots of spaces,
    gates and seats the game does not have are fixed at 0."""
    game = planes_v0.Game(num_players=2)
    low, high = game.exact_obs_low_high()
    open_low, open_high = game.obs_low_high()   # fixed slots opened for Gymnasium's boxes
    assert (open_low < open_high).all()
    fixed = low == high
    assert (open_low[~fixed] == low[~fixed]).all() and (open_high[~fixed] == high[~fixed]).all()
    cubes = high[OBS.slice("cubes")].reshape(-1, 5)
    assert cubes[0].tolist() == [5, 5, 5, 5, 20]
    gates = high[OBS.slice("gates")].reshape(-1, 6)
    assert gates[0, 5] == 5 and not gates[game.airport.num_gates:].any()
    seats = high[OBS.slice("seats")].reshape(4, -1)
    assert seats[:2].all() and not seats[2:].any()
    track = OBS.slice("track")
    assert low[track][1] == high[track][1] == 12
