"""Setup and the end of the race (rulebook: Setup 1-10, Winning the Game, Finish Line
Example, Car Phase lap counting) and the statistics the balance tool reads."""

from __future__ import annotations

import numpy as np
import pytest

from tests.automobiles.table import STOP, Table, activate, buy, to_space
from transit_gym.envs.automobiles import kernels as k
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.board import crossings
from transit_gym.envs.automobiles.data import NUM_COLOURS
from transit_gym.envs.automobiles.rules import AutomobilesGame


def bag(game, state, seat):
    base = st.BAG + seat * NUM_COLOURS
    return state.data[base:base + NUM_COLOURS].copy()


# ----- Setup --------------------------------------------------------------------------------
def test_every_player_starts_with_twelve_cubes_taken_from_the_stock():
    """Setup 6: 5 white, 2 light gray, 5 yellow per player, out of the cube supply."""
    game = AutomobilesGame(num_players=5)
    state = game.new_state(3)
    for seat in range(5):
        assert bag(game, state, seat).tolist() == [5, 2, 0, 0, 0, 5, 0, 0, 0, 0]
    stock = state["stock"]
    assert stock[0] == 30 - 25 and stock[1] == 28 - 10 and stock[5] == 40 - 25
    game.check_invariants(state)


def test_allowance_purchases_in_turn_order_with_the_grid_allowance():
    """Setup 7-9: from the start player clockwise each player buys one or more cubes with
    the allowance of its grid slot ($10, $11, ...); unspent money is lost; bought cubes go
    into the bag; then everyone draws 7 and the start player begins."""
    game = AutomobilesGame(num_players=3, start_player=1)
    state = game.new_state(0)
    s = state.data
    assert game.current_player(state) == 1 and s[st.MONEY] == 10 and s[st.PHASE] == 0
    assert STOP not in game.legal_actions(state)          # one or more cubes
    game.apply(state, buy("black"))                       # $7
    assert s[st.MONEY] == 3 and bag(game, state, 1)[3] == 1
    game.apply(state, STOP)                               # $3 lost
    assert game.current_player(state) == 2 and s[st.MONEY] == 11
    game.apply(state, buy("dark_gray"))
    game.apply(state, STOP)
    assert game.current_player(state) == 0 and s[st.MONEY] == 12
    game.apply(state, buy("blue"))
    game.apply(state, STOP)
    for seat in range(3):
        active = state["active"][seat * NUM_COLOURS:(seat + 1) * NUM_COLOURS]
        assert active.sum() == 7 and bag(game, state, seat).sum() == 13 - 7
    assert game.current_player(state) == 1 and st.PHASE_NAMES[s[st.PHASE]] == "action"
    assert state["stat_bought"][1 * NUM_COLOURS + 3] == 1


def test_cars_take_the_grid_in_turn_order_from_the_start_player():
    """Setup 5: race cars on the grid in player order P1, P2, P3 from the start player."""
    game = AutomobilesGame(num_players=3, start_player=2)
    state = game.new_state(0)
    grid = game.track.grid
    assert [int(state["car_space"][seat]) for seat in (2, 0, 1)] == [int(g) for g in grid[:3]]
    assert game.race_order(state) == [2, 0, 1]


def test_random_start_player_comes_from_the_seed():
    """Setup 4: "choose a random player" for the Starting Player card: the default
    (start_player='random') draws it from the seed."""
    game = AutomobilesGame(num_players=4)
    firsts = {int(game.new_state(seed).data[st.START_PLAYER]) for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert game.new_state(9) == game.new_state(9)


def test_random_card_set_draws_one_card_per_colour_from_the_seed():
    """Setup 3: one card of each colour chosen at random (card_set='random')."""
    game = AutomobilesGame(num_players=2, card_set="random")
    markets = [tuple(game.market(game.new_state(seed)).values()) for seed in range(30)]
    assert len(set(markets)) > 10
    assert game.market(game.new_state(4)) == game.market(game.new_state(4))
    for market in markets:
        colours = [game.cards.colours[game.cards.card_id(name)] for name in market]
        assert colours == list(range(NUM_COLOURS))


def test_default_game_uses_the_first_game_set_three_laps_and_daytona():
    """Setup notes: first game on Daytona Beach with Manager, Crew Chief, Suspension,
    Gearbox, Hybrid Engine; lap markers on space 3."""
    game = AutomobilesGame()
    market = game.market(game.new_state(0))
    assert [market[c] for c in ("yellow", "purple", "red", "green", "blue")] == [
        "Manager", "Crew Chief", "Suspension", "Gearbox", "Hybrid Engine"]
    assert game.laps == 3 and game.track.name == "Daytona Beach"
    assert game.track.allowance.tolist() == [10, 11, 12, 13, 14]


# ----- laps and the end ---------------------------------------------------------------------
def finishing_table(players: int = 3, **options) -> Table:
    """Seat 1 sits just behind the line on its final lap (2 crossings of 3 made)."""
    t = Table(players, **options)
    t.put_car(0, 0, 30, lap=2)
    t.put_car(1, 0, 39, lap=2)          # white [39, 40), 2 crossings
    if players > 2:
        t.put_car(2, 1, 20, lap=2)
    for seat in range(players):
        t.give(seat, "bag", white=7)
    t.give(1, "active", light_gray=1)
    return t


def test_final_lap_crossing_ends_the_game_after_the_round():
    """Winning the Game: a car on its final lap crossing the line ends the game once the
    round is complete, so everyone has the same number of turns."""
    t = finishing_table(3)
    t.turn(1)
    t.act(activate("light_gray"), to_space(t.space(0, 0)))   # nothing left to activate
    t.act(STOP)                                   # end the Buy Phase (a wear cube costs $0)
    assert crossings(t.s, t.p, 1) == 3 and t.s[st.END_TRIGGERED] == 1
    assert t.current() == 2                       # the round goes on
    t.act(STOP, STOP)
    assert t.game.is_over(t.state) and t.s[st.ROUNDS] == 1
    assert t.game.current_player(t.state) == -1 and not t.game.legal_mask(t.state).any()


def test_game_goes_on_while_no_car_has_finished():
    """Winning the Game: only the crossing made on the Final Lap space ends the game (here
    the third crossing of a 4-lap race)."""
    t = finishing_table(3, laps=4)
    t.turn(1)
    t.act(activate("light_gray"), to_space(t.space(0, 0)), STOP)
    assert crossings(t.s, t.p, 1) == 3 and t.s[st.END_TRIGGERED] == 0
    t.act(STOP, STOP)
    assert not t.game.is_over(t.state) and t.current() == 0


@pytest.mark.parametrize("counts", [None, False, True])
def test_the_run_from_the_grid_across_the_line_is_not_a_lap_by_default(counts):
    """Setup 5 / Car Phase / Winning the Game: the lap marker counts laps (its start
    space is the number of laps; 'Final Lap' is the last one), so by default
    (grid_crossing_counts=False) the first crossing, out of the grid just behind the
    line, does not move the marker: a 1-lap race needs a whole lap more. With the
    literal option (True) that crossing counts and ends a 1-lap race at once."""
    options = {} if counts is None else {"grid_crossing_counts": counts}
    t = Table(2, laps=1, **options)
    counts = bool(counts)
    assert t.s[st.CAR_SPACE] == t.game.track.grid[0]          # P1, white [39, 40)
    t.turn(0, active=dict(light_gray=1), bag=dict(white=7))
    t.act(activate("light_gray"), to_space(t.space(0, 0)), STOP)
    assert t.s[st.CAR_SPACE] == t.space(0, 0)                  # across the line
    assert crossings(t.s, t.p, 0) == int(counts)
    assert t.s[st.END_TRIGGERED] == int(counts)
    assert (t.game.progress_past_line(t.state, 0) > 0) == counts
    if not counts:
        t.s[st.CAR_ABS] += t.game.track.lap_length            # one whole lap later
        assert crossings(t.s, t.p, 0) == 1
        assert t.game.progress_past_line(t.state, 0) == 2


def test_final_info_and_game_summary_report_the_statistics():
    """Per seat: rank, winner, progress past the line, rounds, wear gained, cubes bought
    and activated per colour; per game: rounds, lead changes (leader after each turn),
    the round of the last change, ranks and winners."""
    game = AutomobilesGame(num_players=2)
    from transit_gym.agents.rule_based.automobiles import policy
    from transit_gym.envs.core.rollout import play_games
    result = play_games(game, policy, ["rule_based", "random"], 3, seed=7)
    for i in range(3):
        state = result.state(game, i)
        assert game.is_over(state)
        info = game.final_info(state)
        summary = game.game_summary(state)
        assert summary["ranks"] == [d["rank"] for d in info]
        assert len(summary["winners"]) == 1 and info[summary["winners"][0]]["winner"]
        assert summary["rounds"] == info[0]["rounds"] > 0
        assert 0 <= summary["last_lead_change_round"] <= summary["rounds"]
        assert summary["lead_changes"] >= 0
        for seat in range(2):
            assert set(info[seat]["bought"]) == set(info[seat]["activated"])
            assert len(info[seat]["bought"]) == NUM_COLOURS
            assert info[seat]["wear_gained"] == int(state["stat_wear"][seat])
            assert sum(info[seat]["activated"].values()) == int(
                state["stat_activated"][seat * NUM_COLOURS:(seat + 1) * NUM_COLOURS].sum())
        winner = summary["winners"][0]
        assert info[winner]["past_line"] >= 0
        assert np.isclose(result.rewards[i].sum(), 0.0)


def test_lead_changes_are_counted_after_each_turn():
    """Statistics: the leader (race position 1) is compared after every turn."""
    t = Table(2)
    t.put_car(0, 0, 2, lap=1)           # front edge 4
    t.put_car(1, 0, 4, lap=1)           # front edge 6: leads
    t.s[st.LEADER] = 1
    t.turn(0, active=dict(dark_gray=1), bag=dict(white=7))
    t.act(activate("dark_gray"), to_space(t.space(1, 4)))    # lane 1 [4, 8): front 8
    t.act(STOP)
    assert t.s[st.LEAD_CHANGES] == 1 and t.s[st.LEADER] == 0
    assert t.s[st.LAST_LEAD_ROUND] == 1


def test_max_rounds_guard_ends_a_game_that_would_not_finish():
    """max_rounds (engine guard, not a rule): the game ends after that many rounds,
    ranked by race position."""
    game = AutomobilesGame(num_players=2, max_rounds=2)
    state = game.new_state(0)
    while not game.is_over(state):
        legal = game.legal_actions(state)
        game.apply(state, k.A_PIT_STOP if k.A_PIT_STOP in legal else legal[0])
    assert int(state.data[st.ROUNDS]) == 2
    assert sorted(game.scores(state)) == [1, 2]


def test_tie_for_first_place_goes_to_the_inner_lane():
    """Winning the Game: "Ties are broken by whichever race car is in the innermost lane":
    two cars level past the line on their last lap, the inner one wins the +1."""
    t = Table(2)
    t.put_car(0, 1, 8, lap=3)           # lane 1 [8, 12): front edge 12
    t.put_car(1, 0, 10, lap=3)          # lane 0 [10, 12): front edge 12, inner
    assert t.s[st.CAR_ABS] == t.s[st.CAR_ABS + 1]
    t.s[st.PHASE] = st.PH_OVER
    assert t.game.scores(t.state) == [2, 1]
    assert t.game.rewards(t.state).tolist() == pytest.approx([-1.0, 1.0])
