"""Racing Season delayed cards (R-YUC appendix, Performance: Adrenaline; Engine: Crate
Motor), on constructed positions, plus whole random games with these cards.

Board positions are on Daytona Beach: lane 0 holds six light gray spaces at 0-12 (2
segments each), eight white ones at 12-20, light gray again at 20-32; lane 1 three dark
gray spaces at 0-12 (4 segments), four light gray ones at 12-20; lane 2 two black
spaces at 0-12.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from tests.automobiles.table import PIT_STOP, STOP, Table, activate, moves, to_space
from transit_gym.agents.rule_based.automobiles import policy
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.core.rollout import play_games

# Garage, Pit, Handling, Performance, Engine
DELAYED_SET = ["Car Chief", "Crew Chief", "Steering", "Adrenaline", "Crate Motor"]


def table(players: int = 2, **options) -> Table:
    return Table(players, card_set=DELAYED_SET, **options)


def car(t: Table, seat: int) -> tuple[int, int, int]:
    return (int(t.s[st.CAR_SPACE + seat]), int(t.s[st.CAR_SEG + seat]),
            int(t.s[st.CAR_ABS + seat]))


def skip_buying(t: Table) -> None:
    """End the Buy Phase (white cubes cost nothing, so it is asked even without money)."""
    while t.phase() == "buy":
        t.act(STOP)


def crate_motor(t: Table, seat: int = 0, uses: int = 1, others: Iterable[int] = (1,)) -> None:
    """``seat`` activates ``uses`` Crate Motor cubes, ends its Action Phase after each and
    skips buying; each of ``others`` holds 7 yellow cubes in its bag (its End Phase draw)."""
    for other in others:
        t.give(other, "bag", yellow=7)
    t.turn(seat, active=dict(blue=uses))
    for _ in range(uses):
        t.act(activate("blue"), STOP)
    skip_buying(t)


def wear_gained(t: Table, seat: int) -> int:
    return int(t.s[st.STAT_WEAR + seat])


# ----- Adrenaline -------------------------------------------------------------------------------
def test_adrenaline_option_one_moves_the_green_cube_one_light_gray_space():
    """Adrenaline, first option: move the green cube 1 light gray space (``count``) now;
    choosing the space answers the choice, nothing waits for the Car Phase."""
    t = table()
    t.put_car(0, 0, 2)                      # lane 0 light gray [2, 4)
    t.put_car(1, 1, 20)
    t.give(0, "active", green=1, wear=1)    # the wear keeps the Action Phase open
    t.turn(0)
    t.act(activate("green"))
    assert t.phase() == "adrenaline" and STOP in t.legal()
    assert moves(t) == [t.space(0, 4)]      # the dark gray space of lane 1 is not offered
    t.act(to_space(t.space(0, 4)))
    assert t.on_track("green") == 1 and t.phase() == "action"
    assert t.s[st.ADR_BONUS] == 0


def test_adrenaline_option_two_moves_two_light_gray_spaces_per_position_gained():
    """Adrenaline, second option (the appendix's example): from 4th at the start of the
    Car Phase to 2nd at its end is 2 positions, so up to 2 x 2 = 4 light gray spaces,
    moved by the car on from where it stopped, with the usual adjacency."""
    t = table(4)
    t.put_car(0, 0, 2)                      # front at 4: 4th
    t.put_car(1, 1, 4)                      # dark gray [4, 8): front at 8
    t.put_car(2, 2, 0)                      # black [0, 6): front at 6
    t.put_car(3, 0, 30)                     # front at 32: leads
    t.turn(0, active=dict(green=1, light_gray=3))
    assert t.s[st.START_RANK] == 4
    t.act(activate("green"), STOP)          # option 2: the green cube waits
    assert t.s[st.ADR_BONUS] == 2 and t.on_track("green") == 0
    for at in (4, 6, 8):
        t.act(activate("light_gray"), to_space(t.space(0, at)))
    skip_buying(t)
    # nothing left to do: Buy Phase without money, then the Car Phase to [8, 10): 2nd
    assert t.phase() == "adrenaline_move" and t.current() == 0
    assert t.s[st.ADR_LEFT] == 4
    assert moves(t) == [t.space(0, 10)]    # light gray only: not the dark [8, 12)
    t.act(to_space(t.space(0, 10)), to_space(t.space(1, 12)), to_space(t.space(1, 14)))
    assert t.s[st.ADR_LEFT] == 1 and t.phase() == "adrenaline_move"
    t.act(to_space(t.space(1, 16)))
    # four spaces moved: the turn is over
    assert t.current() == 1 and t.phase() == "action"
    assert car(t, 0) == (t.space(1, 16), 0, 18)


def test_adrenaline_option_two_without_positions_gained_gives_nothing():
    """Adrenaline, second option: no position gained in the Car Phase, no spaces (the
    car passes nobody here: the others are far ahead)."""
    t = table(3)
    t.put_car(0, 0, 2)
    t.put_car(1, 1, 20)
    t.put_car(2, 0, 30)
    t.turn(0, active=dict(green=1, light_gray=2))
    t.act(activate("green"), STOP)
    for at in (4, 6):
        t.act(activate("light_gray"), to_space(t.space(0, at)))
    skip_buying(t)
    assert t.current() == 1 and t.phase() == "action"
    assert car(t, 0) == (t.space(0, 6), 0, 8)


def test_two_adrenaline_cubes_with_option_two_add_up():
    """Two Adrenaline cubes with the second option: each gives up to 2 spaces per
    position gained (chosen ruling: they add up), so 1 position gives 4 spaces."""
    t = table()
    t.put_car(0, 0, 2)                      # front 4
    t.put_car(1, 1, 4)                      # front 8
    t.turn(0, active=dict(green=2, light_gray=3))
    t.act(activate("green"), STOP, activate("green"), STOP)
    assert t.s[st.ADR_BONUS] == 4
    for at in (4, 6, 8):
        t.act(activate("light_gray"), to_space(t.space(0, at)))
    skip_buying(t)
    assert t.phase() == "adrenaline_move" and t.s[st.ADR_LEFT] == 4


def _adrenaline_then_three_whites(t):
    """Seat 0 (car on white at 12) activates Adrenaline (option 2, +2 spaces), moves
    three white spaces to 15 and skips buying, which starts its Adrenaline move."""
    t.turn(0, active=dict(green=1, white=3))
    t.act(activate("green"))   # no light gray space next to the car: option 2 is forced
    assert t.phase() == "action" and t.s[st.ADR_BONUS] == 2
    for at in (13, 14, 15):
        t.act(activate("white"), to_space(t.space(0, at)))
    skip_buying(t)


@pytest.mark.parametrize(("adrenaline_spaces", "wear"), [(0, 1), (2, 2)])
def test_adrenaline_spaces_count_for_the_decline_phase(adrenaline_spaces, wear):
    """Decline Phase: wear for the highest colour moved on this turn. After a Car Phase
    on white spaces (1 wear), the Adrenaline spaces on light gray make it 2 (chosen
    ruling: the car's extra spaces are moved on this turn like any other)."""
    t = table()
    t.put_car(0, 0, 12)                     # white [12, 13): front 13
    t.put_car(1, 1, 12)                     # light gray [12, 14): front 14
    _adrenaline_then_three_whites(t)
    assert t.phase() == "adrenaline_move" and t.s[st.ADR_LEFT] == 2
    for at in (16, 18)[:adrenaline_spaces]:
        t.act(to_space(t.space(1, at)))
    if adrenaline_spaces < 2:
        t.act(STOP)
    assert t.current() == 1
    assert wear_gained(t, 0) == wear
    assert t.count(0, "discard", "wear") + t.count(0, "active", "wear") == wear


def test_adrenaline_move_that_ends_behind_a_car_is_drafting():
    """Drafting: the car's final position counts, after the Adrenaline spaces. Ending in
    the rear segment behind a car means no Decline wear; the rear segment also ends the
    move (the same lane is blocked, the other lanes are not light gray there)."""
    t = table(3)
    t.put_car(0, 0, 12)                     # white: front 13
    t.put_car(2, 1, 12)                     # light gray [12, 14): front 14, passed
    t.put_car(1, 1, 16)                     # light gray [16, 18): front 18, ahead
    _adrenaline_then_three_whites(t)
    assert t.s[st.ADR_LEFT] == 2
    t.act(to_space(t.space(1, 16)))
    assert t.current() == 1                 # no further light gray step from the rear
    assert car(t, 0) == (t.space(1, 16), 1, 17)
    assert wear_gained(t, 0) == 0


# ----- Crate Motor ------------------------------------------------------------------------------
def test_crate_motor_moves_the_blue_cube_up_to_three_spaces_of_one_colour():
    """Crate Motor: up to 3 spaces (``count``) on one colour of any: the first space may
    be any colour, the next ones keep it."""
    t = table()
    t.put_car(0, 0, 2)
    t.put_car(1, 1, 20)
    t.turn(0, active=dict(blue=1, wear=1))
    t.act(activate("blue"))
    assert t.phase() == "move" and t.s[st.CRATE_AWARD] == 1
    assert moves(t) == sorted([t.space(0, 4), t.space(1, 4)])
    t.act(to_space(t.space(0, 4)))
    assert moves(t) == [t.space(0, 6)] and STOP in t.legal()   # light gray only now
    t.act(to_space(t.space(0, 6)), to_space(t.space(0, 8)))
    assert t.on_track("blue") == 1 and t.phase() == "action"


def _crate_race(blue: int = 1, **options) -> Table:
    """Seat 0 leads and uses ``blue`` Crate Motors without moving them; seats 1 and 2
    share the dark gray space [4, 8) of lane 1, seat 2 in front (2nd), seat 1 behind it
    (3rd): position order differs from turn order."""
    t = table(3, **options)
    t.put_car(0, 0, 20)                     # light gray [20, 22): front 22
    t.put_car(2, 1, 4)                      # front 8
    t.put_car(1, 1, 4, seg=1)               # front 7
    crate_motor(t, uses=blue, others=(1, 2))
    return t


def test_crate_motor_cars_behind_move_in_position_order_with_momentum_between():
    """Crate Motor: after the End Phase each car behind moves 1 space of any colour, in
    position order (seat 2 before seat 1, against turn order), each player deciding
    (current player changes); Momentum after each player's move: seat 1 moves up into the
    front segment seat 2 left before it decides."""
    t = _crate_race()
    assert t.current() == 2 and t.phase() == "crate_move"
    assert t.s[st.CRATE_SPACES + 2] == 1 and t.s[st.CRATE_SPACES + 1] == 1
    assert t.s[st.CRATE_SPACES + 0] == 0
    assert moves(t) == sorted([t.space(0, 8), t.space(1, 8), t.space(2, 8)])  # any colour
    t.act(to_space(t.space(1, 8)))
    assert t.current() == 1 and t.phase() == "crate_move"
    assert car(t, 1) == (t.space(1, 4), 0, 8)   # Momentum: filled the vacated segment
    assert car(t, 2) == (t.space(1, 8), 0, 12)
    t.act(to_space(t.space(1, 8)))              # behind seat 2, in its space
    assert car(t, 1) == (t.space(1, 8), 1, 11)
    assert t.current() == 1 and t.phase() == "action"   # seat 1's own turn now
    assert [wear_gained(t, seat) for seat in range(3)] == [0, 0, 0]
    assert t.size(1, "used") == 0 and t.size(2, "used") == 0


def test_crate_motor_position_order_is_taken_anew_after_each_players_move():
    """Crate Motor: "after each player moves ... momentum must be updated and positions
    may change": the next player to move is the waiting one in the best position now
    (chosen ruling). Seat 1 leaves lane 0's [6, 8); seat 3 moves up into its front
    segment and is now level with seat 2 on the inner lane, so seat 3 moves before 2."""
    t = table(5)
    t.put_car(0, 0, 20)                         # the Crate Motor user leads
    t.put_car(1, 0, 6)                          # front 8, lane 0: 2nd
    t.put_car(2, 1, 4)                          # front 8, lane 1: 3rd
    t.put_car(3, 0, 6, seg=1)                   # front 7, lane 0: 4th
    t.put_car(4, 1, 4, seg=1)                   # front 7, lane 1: 5th
    crate_motor(t, others=range(1, 5))
    assert t.current() == 1
    t.act(to_space(t.space(0, 8)))
    assert car(t, 3) == (t.space(0, 6), 0, 8)   # Momentum
    assert t.current() == 3 and t.phase() == "crate_move"
    t.act(STOP)
    assert t.current() == 2
    t.act(STOP)
    assert t.current() == 4
    t.act(STOP)
    assert t.current() == 1 and t.phase() == "action"


def test_two_crate_motors_give_two_spaces_to_each_car_behind():
    """Crate Motor, two blue cubes: each player behind moves up to 2 spaces (any colours)
    before the next player moves."""
    t = _crate_race(blue=2)
    assert t.current() == 2 and t.s[st.CRATE_SPACES + 2] == 2
    t.act(to_space(t.space(1, 8)))
    assert t.current() == 2 and t.s[st.CRATE_SPACES + 2] == 1
    t.act(to_space(t.space(0, 12)))             # lane 0 white [12, 13): another colour
    assert t.current() == 1 and t.s[st.CRATE_SPACES + 1] == 2
    t.act(STOP)                                 # "up to": zero is fine
    assert t.current() == 1 and t.phase() == "action"
    assert car(t, 1) == (t.space(1, 4), 0, 8)


def test_crate_motor_gives_nothing_to_cars_ahead_of_the_user():
    """Crate Motor: only players in a lower position than the user move."""
    t = table(3)
    t.put_car(0, 0, 4)                          # front 6
    t.put_car(1, 1, 20)                         # ahead
    t.put_car(2, 0, 2)                          # behind
    crate_motor(t)
    assert t.current() == 2 and t.phase() == "crate_move"
    assert t.s[st.CRATE_SPACES + 1] == 0
    t.act(STOP)
    assert t.current() == 1 and t.phase() == "action"


def test_crate_motor_with_accelerated_play_waits_for_the_players_own_turn():
    """Accelerated Play: actions of other players allowed by a card wait for their own
    turn. Seat 1's awarded space is moved at the start of its turn; its race position for
    the Action Phase is taken after that move."""
    t = table(2, accelerated_play=True)
    t.put_car(0, 0, 4)                          # light gray [4, 6): front 6
    t.put_car(1, 0, 2)                          # [2, 4): front 4, 2nd
    crate_motor(t)
    assert t.current() == 1 and t.phase() == "crate_move"
    assert int(t.s[st.TURN_SEAT]) == 1 and t.s[st.CRATE_SPACES + 1] == 1
    assert t.s[st.START_RANK] == 2
    t.act(to_space(t.space(1, 4)))              # dark gray [4, 8): front 8, passes seat 0
    assert t.phase() == "action" and t.current() == 1
    assert t.s[st.START_RANK] == 1 and t.s[st.CRATE_SPACES + 1] == 0
    assert wear_gained(t, 1) == 0 and PIT_STOP in t.legal()


def test_crate_motor_move_over_the_line_on_the_last_lap_ends_the_game_with_the_round():
    """Winning the Game: when a car on its final lap crosses the finish line the game ends
    after the current round, whoever's card moved it; the farthest car past the line
    wins. Seat 1 crosses with a Crate Motor space during seat 0's turn; seat 1 still has
    its turn, then the race is over and seat 1 wins."""
    t = table(2, laps=2)
    t.put_car(0, 0, 39)                         # white [39, 40): at the line, inner lane
    t.put_car(1, 1, 38)                         # light gray [38, 40): level, outer lane
    assert t.s[st.CAR_ABS + 0] == t.s[st.CAR_ABS + 1] == 40
    crate_motor(t)
    assert t.current() == 1 and t.phase() == "crate_move"
    t.act(to_space(t.space(1, 0)))              # dark gray [0, 4) of the next lap
    assert t.s[st.END_TRIGGERED] == 1 and not t.game.is_over(t.state)
    assert t.current() == 1 and t.phase() == "action"
    t.act(PIT_STOP)
    assert t.game.is_over(t.state)
    assert t.game.rewards(t.state).tolist() == [-1.0, 1.0]


def test_crate_motor_moves_of_the_rounds_last_player_come_before_the_round_ends():
    """Winning the Game with the last player of the round using Crate Motor: the cars
    behind move right after its End Phase, still in this round; a final-lap crossing
    then ends the game at once (the round is complete) and that car wins."""
    t = table(2, laps=2)
    t.put_car(1, 0, 39)                         # inner lane at the line: ahead
    t.put_car(0, 1, 38)
    crate_motor(t, seat=1, others=(0,))             # seat 0 started the round
    assert t.current() == 0 and t.phase() == "crate_move"
    t.act(to_space(t.space(1, 0)))
    assert t.game.is_over(t.state) and t.s[st.ROUNDS] == 1
    assert t.game.rewards(t.state).tolist() == [1.0, -1.0]


# ----- the rule-based agent ----------------------------------------------------------------------
def _agent_action(t: Table, seat: int) -> int:
    obs = t.game.observe(t.state, seat)
    mask = t.game.legal_mask(t.state)
    return int(policy(1, t.p, obs, mask, seeded_words(1)))


@pytest.mark.parametrize(("behind_at", "option_two"), [(4, True), (20, False)])
def test_rule_based_agent_takes_option_two_when_the_car_will_pass_a_car(behind_at,
                                                                        option_two):
    """The rule-based agent answers Adrenaline with the second option when the cubes
    placed this turn take the car past another car, else takes a light gray space."""
    t = table()
    t.put_car(0, 0, 2)
    t.put_car(1, 1, behind_at)                  # lane 1 at 4 ends at 8: passed at 10
    t.turn(0, active=dict(green=1, light_gray=3))
    for at in (4, 6, 8):
        t.act(activate("light_gray"), to_space(t.space(0, at)))
    t.act(activate("green"))
    assert t.phase() == "adrenaline"
    action = _agent_action(t, 0)
    assert (action == STOP) == option_two
    assert action in t.legal()


# ----- whole games --------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "accelerated", "cards"), [
    (2, False, DELAYED_SET),
    (3, True, DELAYED_SET),
    (4, False, ["Engineer", "Pit Crew", "Tires", "Adrenaline", "Rotary Engine"]),
    (5, True, ["Manager", "Pit Team", "Suspension", "Boost", "Crate Motor"]),
])
def test_random_games_with_the_delayed_cards_keep_every_invariant(players, accelerated,
                                                                  cards):
    """Whole random games with Adrenaline and/or Crate Motor in the market: after every
    step the state passes the jitted check and the invariants, and every observation
    lies in the declared bounds; the games end."""
    game = AutomobilesGame(num_players=players, card_set=cards,
                           accelerated_play=accelerated)
    low, high = game.obs_low_high()
    rng = np.random.default_rng(players)
    seen: set[str] = set()
    for seed in range(2):
        state = game.new_state(seed)
        while not game.is_over(state):
            seen.add(st.PHASE_NAMES[int(state.data[st.PHASE])])
            game.apply(state, int(rng.choice(game.legal_actions(state))))
            game.validate(state)
            obs = game.observe(state, max(game.current_player(state), 0))
            assert ((obs >= low) & (obs <= high)).all()
    if "Adrenaline" in cards:
        assert "adrenaline" in seen
    if "Crate Motor" in cards:
        assert "crate_move" in seen


def test_rule_based_agents_finish_games_with_the_delayed_cards():
    """The jitted rule-based agent plays every new decision (batch rollouts in numba)."""
    game = AutomobilesGame(num_players=3, card_set=DELAYED_SET)
    result = play_games(game, policy, ["rule_based", "rule_based", "random"], 3, seed=5)
    for i in range(3):
        state = result.state(game, i)
        game.check_invariants(state)
        assert game.is_over(state)


def test_the_card_rows_hold_the_numbers_used_above():
    """The numbers come from the card rows (DATA 2.3, CONFIRMED): Adrenaline 1 light gray
    space / 2 per position gained, Crate Motor 3 spaces / 1 per cube for each car
    behind."""
    game = AutomobilesGame(num_players=2, card_set=DELAYED_SET)
    cards = game.cards
    adr, crate = cards.card_id("Adrenaline"), cards.card_id("Crate Motor")
    assert (int(cards.count[adr]), int(cards.bonus[adr])) == (1, 2)
    assert (int(cards.count[crate]), int(cards.bonus[crate])) == (3, 1)


# ----- saved states from outside -------------------------------------------------------
@pytest.mark.parametrize(("field", "value", "phase"), [
    ("crate_spaces", -1, None),
    ("adr_left", 10**9, None),
    ("crate_award", 10**12, None),
    (None, None, "crate_move"),        # the seat on turn, no spaces, no Accelerated Play
    (None, None, "adrenaline"),        # no Adrenaline cube resolving
    (None, None, "adrenaline_move"),
])
def test_a_tampered_saved_state_with_delayed_card_fields_is_refused(field, value, phase):
    """A saved state whose delayed-card fields are out of range, or whose pending decision
    play could not have left, is refused with a StateDictError (never played on)."""
    from transit_gym.envs.core.errors import StateDictError
    from transit_gym.envs.core.game import State

    game = AutomobilesGame(num_players=3, card_set=DELAYED_SET)
    state = game.new_state(4)
    rng = np.random.default_rng(0)
    while st.PHASE_NAMES[int(state.data[st.PHASE])] != "action":
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    data = state.to_dict()
    bad = State.from_dict(data)
    if field is not None:
        bad[field][0] = value
    if phase is not None:
        bad.data[st.PHASE] = st.PHASE_NAMES.index(phase)
        if phase == "adrenaline_move":
            bad.data[st.CURRENT] = (int(bad.data[st.TURN_SEAT]) + 1) % 3
    with pytest.raises(StateDictError):
        State.from_dict(bad.to_dict())
