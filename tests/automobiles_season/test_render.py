"""The season picture: the race picture with the season standings."""

from __future__ import annotations

import numpy as np

from transit_gym.envs.automobiles import render as race_render
from transit_gym.envs.automobiles_season import render as season_render
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.core import render

from .helpers import award_state, season


def test_the_season_picture_shows_the_standings_below_the_race():
    """The season picture lacked standings. After race 1 the strip
    names the race, the races done and every seat's points (R-YUC "Awarding Points"),
    most points first."""
    game = season(players=3)
    state = award_state(game)
    points = [int(state.data[ss.POINTS + k]) for k in range(3)]
    assert sum(points) > 0
    lines = season_render.standings_lines(game, state)
    assert lines[0][0] == "SEASON RACE 1/3, 1 DONE: STANDINGS" and lines[0][1] is None
    seats = [seat for _, seat in lines[1:]]
    assert sorted(seats) == [0, 1, 2]
    assert [points[k] for k in seats] == sorted(points, reverse=True)
    for text, seat in lines[1:]:
        assert f"P{seat} {points[seat]} PTS" in text
    race = race_render.render_rgb(game.race_game(state), game.race_state(state))
    picture = game.render_rgb(state)
    assert picture.shape[1] == race.shape[1] and picture.shape[0] > race.shape[0]
    assert np.array_equal(picture[:race.shape[0]], race)
    strip = picture[race.shape[0]:]
    assert len(np.unique(strip.reshape(-1, 3), axis=0)) > 2   # text drawn in the strip
    with render.zoomed(2):
        assert game.render_rgb(state).shape[:2] == (2 * picture.shape[0], 2 * picture.shape[1])
