"""The season campaign (R-YUC "In a season campaign...", "Awarding Points", "Setting Up
the Next Race", "Winning the Season Campaign"; DATA 5.2): points per track number and
place, the 2-player middle rule, the tie-break, what carries over between races, turn
order by finish, the allowance on track 1 only, the track order, and the options."""

from __future__ import annotations

import numpy as np
import pytest

from tests.automobiles_season.helpers import STOP, award_state, owner_bag, play_race, season
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import MAX_PLAYERS, NUM_COLOURS
from transit_gym.envs.automobiles_season import state as ss
from transit_gym.envs.automobiles_season.kernels import season_winner
from transit_gym.envs.automobiles_season_v0 import Game
from transit_gym.envs.core.errors import ConfigError, DataFileError

# R-YUC "Awarding Points" chart, tracks 1-5
FIRST = [4, 5, 6, 7, 8]
MIDDLE, LAST = 3, 2


def _places(state, race, n):
    s = state.data
    return [int(s[ss.PLACES + race * MAX_PLAYERS + k]) for k in range(n)]


def _points(state, n):
    return [int(state.data[ss.POINTS + k]) for k in range(n)]


def _cubes_of(game, state, player):
    """Every cube ``player`` owns (all piles of its race seat)."""
    seat = game.player_of(state).index(player)
    total = np.zeros(NUM_COLOURS, dtype=np.int64)
    for base in (st.BAG, st.ACTIVE, st.USED, st.DISCARD):
        start = base + seat * NUM_COLOURS
        total += state.data[start:start + NUM_COLOURS]
    return total


def test_awarding_points_follows_the_chart_for_tracks_1_to_5():
    """Awarding Points: first 4/5/6/7/8 on tracks 1-5, middle 3, last 2 (3 players)."""
    game = season(3, tracks=["daytona", "monza", "daytona", "monza", "daytona"],
                  sponsors=False)
    state = game.new_state(3)
    before = [0, 0, 0]
    for race in range(5):
        play_race(game, state, seed=race)
        places = _places(state, race, 3)
        assert sorted(places) == [1, 2, 3]
        gained = [a - b for a, b in zip(_points(state, 3), before, strict=True)]
        expected = [{1: FIRST[race], 2: MIDDLE, 3: LAST}[p] for p in places]
        assert gained == expected
        before = _points(state, 3)
    assert game.is_over(state)


def test_two_players_second_place_scores_middle_points_and_track_6_scores_as_track_5():
    """Awarding Points note: with 2 players second place scores middle (3), not last (2).
    Our decision (automobiles_season/data.toml): tracks past the chart's 5 score like track 5."""
    game = season(2, tracks=["monza"] * 6, sponsors=False)
    state = game.new_state(1)
    for race in range(6):
        play_race(game, state, seed=race)
        places = _places(state, race, 2)
        first = FIRST[min(race, 4)]
        assert sorted(places) == [1, 2]
    total = [sum(FIRST[min(r, 4)] if _places(state, r, 2)[k] == 1 else MIDDLE
                 for r in range(6)) for k in range(2)]
    assert _points(state, 2) == total
    assert first == 8


def test_the_season_winner_has_most_points_and_a_tie_goes_to_the_better_last_race():
    """Winning the Season Campaign: most points; tied players: best place in the last race."""
    game = season(3, sponsors=False)
    state = game.new_state(0)
    s = state.data
    last = game.num_races - 1
    s[ss.SEASON_PHASE] = ss.S_OVER
    s[ss.POINTS:ss.POINTS + 3] = (10, 10, 7)
    s[ss.PLACES + last * MAX_PLAYERS:ss.PLACES + last * MAX_PLAYERS + 3] = (2, 3, 1)
    assert season_winner(s, game.params) == 0
    s[ss.PLACES + last * MAX_PLAYERS:ss.PLACES + last * MAX_PLAYERS + 3] = (3, 2, 1)
    assert season_winner(s, game.params) == 1
    out = np.zeros(3, dtype=np.float32)
    game.kernels.rewards(s, game.params, out)
    assert out.tolist() == [-0.5, 1.0, -0.5]
    s[ss.POINTS:ss.POINTS + 3] = (9, 10, 11)
    assert season_winner(s, game.params) == 2


def test_bags_stock_and_card_set_carry_over_and_turn_order_follows_the_finish():
    """Setting Up the Next Race: same card set and stock, each bag keeps its cubes (all put
    back into it), first place becomes the start player and turn order is the finish."""
    game = season(3, card_set="random")
    state = award_state(game, seed=5)
    # between races every cube of a player is in their bag (Sponsor Clarifications)
    for seat in range(3):
        for base in (st.ACTIVE, st.USED, st.DISCARD):
            assert not state.data[base + seat * NUM_COLOURS:
                                  base + (seat + 1) * NUM_COLOURS].any()
    bags = {k: owner_bag(game, state, k).copy() for k in range(3)}
    stock_before = state["stock"].copy()
    cards_before = state["card_of"].copy()
    while int(state.data[ss.SEASON_PHASE]) != ss.S_RACE:   # take sponsors, use nothing
        mask = game.legal_mask(state)
        game.apply(state, STOP if mask[STOP] else int(np.flatnonzero(mask)[0]))
    assert game.race_no(state) == 1
    assert np.array_equal(state["stock"], stock_before)
    assert np.array_equal(state["card_of"], cards_before)
    for k in range(3):
        assert np.array_equal(_cubes_of(game, state, k), bags[k])
    finish = [int(v) for v in state.data[ss.FINISH:ss.FINISH + 3]]
    places = _places(state, 0, 3)
    assert [places[k] for k in finish] == [1, 2, 3]
    assert game.player_of(state) == finish
    assert int(state["start_player"][0]) == 0
    assert game.current_player(state) == finish[0]


def test_allowance_only_on_the_first_track():
    """Note to Setting Up the Next Race: the starting spaces' allowance is spent only on
    track 1; from track 2 the race starts with the start player's Action Phase."""
    game = season(3, sponsors=False)
    state = game.new_state(2)
    assert int(state["phase"][0]) == st.PH_SETUP_BUY
    assert int(state["money"][0]) > 0
    play_race(game, state)
    assert game.race_no(state) == 1
    assert int(state["phase"][0]) == st.PH_ACTION
    assert int(state["money"][0]) == 0
    assert not state["stat_bought"].any(), "nothing bought before race 2 started"
    # each player holds a hand of 7 drawn from the carried-over bag
    for seat in range(3):
        assert state["active"][seat * NUM_COLOURS:(seat + 1) * NUM_COLOURS].sum() == 7


def test_laps_are_the_same_on_every_track_and_the_tracks_run_in_the_given_order():
    """Season setup 3: the structure (laps, tracks, order) is fixed for the season."""
    game = season(2, tracks=["monza", "daytona", "monza"], laps=2, sponsors=False)
    state = game.new_state(0)
    assert game.track_names(state) == ["monza", "daytona", "monza"]
    seen = []
    while not game.is_over(state):
        seen.append(game.race_game(state).track.name)
        assert game.race_game(state).laps == 2
        play_race(game, state)
    assert seen == [game.races_games[i].track.name for i in (0, 1, 0)]


def test_random_tracks_are_drawn_from_the_seed_like_shuffled_track_cards():
    """Season setup 3: "randomize it by drawing track cards": the order is fixed by the
    seed; every track of the pool is used before one repeats."""
    game = Game(num_players=2, tracks="random", races=5, laps=1, drivers=False)
    orders = {tuple(game.track_names(game.new_state(seed))) for seed in range(12)}
    assert len(orders) > 1
    for order in orders:
        assert sorted(order[:2]) == ["daytona", "monza"]
        assert sorted(order[2:4]) == ["daytona", "monza"]
    assert game.track_names(game.new_state(4)) == game.track_names(game.new_state(4))


def test_the_season_ends_after_the_last_race_without_sponsor_awards():
    """Our decision: sponsors only prepare the next race, so none are awarded after the
    last one; the season is over as soon as its points are recorded."""
    game = season(3)
    state = game.new_state(0)
    while game.race_no(state) < 2 or int(state.data[ss.SEASON_PHASE]) != ss.S_RACE:
        if int(state.data[ss.SEASON_PHASE]) == ss.S_RACE:
            play_race(game, state)
        else:
            game.apply(state, int(np.flatnonzero(game.legal_mask(state))[0]))
    play_race(game, state)
    assert game.is_over(state)
    assert int(state.data[ss.SEASON_PHASE]) == ss.S_OVER
    info = game.final_info(state)
    assert [i["points"] for i in info] == _points(state, 3)
    assert sum(i["winner"] for i in info) == 1
    assert len(info[0]["races"]) == 3
    assert all(e["sponsor"] is None for e in info[0]["races"][2]["sponsor_effects"])


@pytest.mark.parametrize(("options", "match"), [
    ({"tracks": ["daytona", "monza"]}, "3-8 tracks"),
    ({"tracks": ["daytona"] * 9}, "3-8 tracks"),
    ({"tracks": "everywhere"}, "tracks must be"),
    ({"tracks": ["daytona", "monza", "nowhere"]}, "nowhere"),
    ({"tracks": ["daytona", "monza", "x.toml"]}, "built-in"),
    ({"tracks": "random", "races": 6}, "races"),
    ({"tracks": "random", "races": 2}, "races"),
    ({"tracks": ["daytona"] * 3, "races": 4}, "races=4"),
    ({"sponsors": "yes"}, "sponsors"),
    ({"drivers": "yes"}, "drivers"),
    ({"laps": 0}, "laps"),
    ({"card_set": "no such set"}, "card_set"),
])
def test_bad_options_are_config_errors(options, match):
    with pytest.raises(ConfigError, match=match):
        Game(num_players=2, **{"drivers": False, **options})


@pytest.mark.parametrize(("text", "match"), [
    ("[standard_removal]\nfirst = 3\nmiddle = 6\nlast = 12\n[[sponsor]]\nname = 'A1'\n",
     "money"),
    ("[standard_removal]\nfirst = 3\nmiddle = 6\nlast = 12\n[[sponsor]]\nname = 'Z1'\n",
     "family letter"),
    ("[standard_removal]\nfirst = 3\nmiddle = 6\nlast = 12\n[[sponsor]]\nname = 'A1'\n"
     "money = [1, 2]\n", "3 entries"),
    ("[standard_removal]\nfirst = 3\nmiddle = 6\nlast = 12\n[[sponsor]]\nname = 'B1'\n"
     "extra_remove = [1, 2, 3]\nmoney = [1, 1, 1]\n", "unknown keys"),
    ("[standard_removal]\nfirst = 3\nmiddle = 6\nlast = 12\n[[sponsor]]\nname = 'D1'\n"
     "gain = [1, 1, 1]\ngain_colours = [['white'], ['pink'], ['red']]\n", "pink"),
    ("[standard_removal]\nfirst = 3\nmiddle = 6\nlast = 'x'\n", "last"),
])
def test_bad_sponsor_files_are_data_file_errors(tmp_path, text, match):
    path = tmp_path / "sponsors.toml"
    path.write_text(text)
    with pytest.raises(DataFileError, match=match):
        Game(num_players=2, drivers=False, sponsor_data=str(path))


def test_a_sponsor_file_replaces_the_table(tmp_path):
    """sponsor_data=: the RECONSTRUCTED amounts are replaceable by a transcribed file."""
    path = tmp_path / "sponsors.toml"
    path.write_text("[standard_removal]\nfirst = 1\nmiddle = 2\nlast = 4\n"
                    "[[sponsor]]\nname = 'A1'\nmoney = [20, 21, 22]\n"
                    "[[sponsor]]\nname = 'B1'\nextra_remove = [0, 0, 1]\n")
    game = Game(num_players=2, drivers=False, sponsor_data=str(path))
    assert game.sponsor_data.names == ("A1", "B1")
    assert game.sponsor_data.standard.tolist() == [1, 2, 4]
    assert game.sponsor_data.table[0, :, 0].tolist() == [20, 21, 22]
    assert "sponsor_data" in game.embedded_files()


@pytest.mark.parametrize("pool", ["random_expansion", "random_all"])
def test_expansion_track_pools_draw_every_pool_track_before_a_repeat(pool):
    """Track cards of the expansion (talladega, monte_carlo, tucson; R-YUC season: the
    tracks are drawn): the season draws ``races`` tracks from the whole pool, no track
    twice before every pool track has run, and each race plays on its own track."""
    from transit_gym.envs.automobiles_season.rules import EXPANSION_TRACKS, RANDOM_POOLS

    game = Game(num_players=2, tracks=pool, races=4, drivers=False)
    assert game.pool == list(RANDOM_POOLS[pool])
    assert set(EXPANSION_TRACKS) <= set(game.pool)
    seen = set()
    for seed in range(6):
        state = game.new_state(seed)
        names = game.track_names(state)
        k = min(len(game.pool), 4)
        assert len(set(names[:k])) == k, f"a repeat before the pool is used up: {names}"
        assert game.race_game(state) is game.races_games[game.pool.index(names[0])]
        seen |= set(names)
    assert seen == set(game.pool), "every pool track is drawn for some seed"
