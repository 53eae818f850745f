"""Racing Season drivers (R-YUC "Drivers" module and the Driver 01-10 appendix; shared
data section 5.1): the draft, the ``drivers=`` option, each ability (use, decline, not
offered when it cannot apply, its numbers), the base game unchanged with drivers off,
and whole random games with drivers on.

Positions use the Daytona Beach board: lane 0 is light gray at positions 0-12 (2-segment
spaces) and white at 12-20; lane 1 is dark gray at 0-12 (4 segments); wear chart white 1,
light gray 2, dark gray 3, black 4.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.automobiles.table import (
    DRAW,
    PIT_STOP,
    STOP,
    Table,
    activate,
    buy,
    colour,
    from_active,
    from_discard,
    to_space,
)
from transit_gym.agents.rule_based.automobiles import policy
from transit_gym.envs.automobiles import kernels as k
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.encode import O_DRIVER_POOL, O_DRIVERS, observe
from transit_gym.envs.automobiles.invariants import violation
from transit_gym.envs.automobiles.racing_season.driver_data import (
    DRIVERS_FILE,
    NUM_DRIVERS,
    load_drivers,
)
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.errors import ConfigError, DataFileError, StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rng import seeded_words

USE = k.A_USE_DRIVER


def pick(number: int) -> int:
    return k.A_DRIVER + number - 1


def driver_table(number: int, players: int = 2, **options) -> Table:
    """Seat 0 holds driver ``number``; its car in lane 0, light gray space [2, 4)."""
    t = Table(players, drivers=True, **options)
    t.s[st.DRIVER_POOL:st.DRIVER_POOL + NUM_DRIVERS] = 0
    t.s[st.DRIVER_OF:st.DRIVER_OF + st.MP] = 0
    t.s[st.DRIVER_OF + 0] = number
    t.put_car(0, 0, 2)
    t.park_others(*range(1, players))
    return t


def checked(t: Table, *actions: int) -> None:
    """Play ``actions``; after each, the Python invariants and the jitted validity check."""
    where = np.zeros(3, dtype=np.int64)
    for a in actions:
        assert a in t.legal(), f"{a} not legal in {t.phase()}: {t.legal()}"
        t.act(a)
        assert violation(t.s, t.p, where) == 0, (t.phase(), where)


# ----- the option --------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["yes", 1, None, "ALL", 2.0])
def test_drivers_option_rejects_anything_but_false_true_or_all(bad):
    """The drivers module is on, off, or the online all-ten variant: nothing else."""
    with pytest.raises(ConfigError, match="drivers"):
        AutomobilesGame(num_players=2, drivers=bad)


def test_driver_table_numbers_come_from_the_data_file():
    """Driver appendix numbers (DATA 5.1): 01 one space per wear, 03 up to 3, 04 up to 3,
    05 $1 each, 06 one space, 07 one cube per wear, 08 up to 3, 09 up to 2."""
    d = load_drivers()
    assert d.names[0] == "Driver 01" and d.extra == 1
    assert list(d.amounts) == [1, 1, 3, 3, 0, 1, 1, 3, 2, 0]
    assert d.prices[4] == 1
    assert d.phases == ("decline", "action", "action", "buy", "buy", "car", "decline", "end",
                        "end", "end")


def test_driver_table_with_a_wrong_phase_is_refused(tmp_path):
    """The kernels implement each card's printed phase: a table naming another is an error."""
    text = DRIVERS_FILE.read_text()
    bad = tmp_path / "drivers.toml"
    bad.write_text(text.replace('phase = "car"', 'phase = "end"'))
    with pytest.raises(DataFileError, match="phase of driver 6"):
        load_drivers(bad)


# ----- the draft ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("start", [0, 1])
def test_draft_last_player_picks_first_then_reverse_turn_order(players, start):
    """Drivers module: players + 1 drivers revealed; the player right of the start player
    picks first, then reverse turn order; the rest go back to the box; then Setup 7
    (allowance purchases) begins with the start player."""
    game = AutomobilesGame(num_players=players, drivers=True, start_player=start)
    state = game.new_state(7)
    s = state.data
    assert st.PHASE_NAMES[s[st.PHASE]] == "driver_draft"
    assert int(s[st.DRIVER_POOL:st.DRIVER_POOL + NUM_DRIVERS].sum()) == players + 1
    order = []
    for _ in range(players):
        seat = game.current_player(state)
        order.append(seat)
        legal = game.legal_actions(state)
        assert all(pick(1) <= a < pick(1) + NUM_DRIVERS for a in legal)
        assert len(legal) == players + 1 - len(order) + 1
        game.apply(state, legal[0])
    assert order == [(start - 1 - i) % players for i in range(players)]
    assert not s[st.DRIVER_POOL:st.DRIVER_POOL + NUM_DRIVERS].any()   # back to the box
    held = s[st.DRIVER_OF:st.DRIVER_OF + players]
    assert len(set(held.tolist())) == players and held.min() >= 1
    assert st.PHASE_NAMES[s[st.PHASE]] == "setup_buy" and game.current_player(state) == start


def test_draft_all_variant_reveals_all_ten():
    """The BGA table option drivers="all": the picks are made from all ten drivers."""
    game = AutomobilesGame(num_players=3, drivers="all")
    state = game.new_state(1)
    assert len(game.legal_actions(state)) == NUM_DRIVERS


def test_draft_pool_is_seeded_and_public():
    """Same seed, same revealed drivers; everyone sees them (observation)."""
    game = AutomobilesGame(num_players=4, drivers=True)
    a, b = game.new_state(11), game.new_state(11)
    pool = a.data[st.DRIVER_POOL:st.DRIVER_POOL + NUM_DRIVERS]
    assert np.array_equal(pool, b.data[st.DRIVER_POOL:st.DRIVER_POOL + NUM_DRIVERS])
    pools = {tuple(game.new_state(seed).data[st.DRIVER_POOL:st.DRIVER_POOL + NUM_DRIVERS])
             for seed in range(8)}
    assert len(pools) > 1
    out = np.zeros(game.obs_size, dtype=np.float32)
    observe(a.data, game.params, 2, out)
    assert np.array_equal(out[O_DRIVER_POOL:O_DRIVER_POOL + NUM_DRIVERS], pool)


def test_every_seats_driver_is_public_in_player_order():
    """Drivers lie face up next to each sheet: the observation shows all of them, each
    in the observer-relative order of the player blocks."""
    t = driver_table(7, players=3)
    t.s[st.DRIVER_OF + 1] = 2
    t.s[st.DRIVER_OF + 2] = 9
    out = np.zeros(t.game.obs_size, dtype=np.float32)
    observe(t.s, t.p, 1, out)
    for k_rel, number in enumerate((2, 9, 7)):   # seat 1, then 2, then 0
        block = out[O_DRIVERS + k_rel * NUM_DRIVERS:O_DRIVERS + (k_rel + 1) * NUM_DRIVERS]
        assert block.tolist() == [1.0 if d == number - 1 else 0.0 for d in range(NUM_DRIVERS)]


# ----- base game unchanged ------------------------------------------------------------------
def test_drivers_off_is_the_base_game():
    """drivers=False (default): no draft, no driver action ever legal, every driver field
    stays 0; the same seed gives the same game as a game built without the option."""
    base = AutomobilesGame(num_players=3)
    off = AutomobilesGame(num_players=3, drivers=False)
    a, b = base.new_state(5), off.new_state(5)
    rng = np.random.default_rng(0)
    first = st.LAYOUT.offset("driver_of")
    while not base.is_over(a):
        la, lb = base.legal_mask(a), off.legal_mask(b)
        assert np.array_equal(la, lb)
        assert not la[k.A_USE_DRIVER:].any()
        action = int(rng.choice(np.flatnonzero(la)))
        base.apply(a, action)
        off.apply(b, action)
        assert np.array_equal(a.data, b.data)
        assert not a.data[first:].any()


# ----- Driver 02 (Action) ---------------------------------------------------------------------
def test_driver_02_takes_one_discard_cube_into_the_active_pile_usable_normally():
    """Driver 02: during the Action Phase, 1 cube of the discard pile into the active pile;
    it can then be used like any active cube. Once a turn."""
    t = driver_table(2)
    t.turn(0, active=dict(white=1), discard=dict(light_gray=1, wear=2))
    assert USE in t.legal()
    checked(t, USE)
    assert t.phase() == "driver_to_active" and STOP not in t.legal()
    checked(t, from_discard("light_gray"))
    assert t.count(0, "active", "light_gray") == 1 and t.phase() == "action"
    assert USE not in t.legal() and PIT_STOP not in t.legal()   # used; standard turn
    checked(t, activate("light_gray"), to_space(t.space(0, 4)))
    assert t.on_track("light_gray") == 1


def test_driver_02_not_offered_with_an_empty_discard_pile_or_to_another_driver():
    """No decision is asked when the ability cannot apply."""
    t = driver_table(2)
    t.turn(0, active=dict(white=1))
    assert USE not in t.legal()
    t2 = driver_table(6)
    t2.turn(0, active=dict(white=1), discard=dict(white=1))
    assert USE not in t2.legal()


# ----- Driver 03 (Action) ---------------------------------------------------------------------
def test_driver_03_returns_up_to_three_discard_cubes_to_the_bag():
    """Driver 03: up to 3 cubes of any colours from the discard pile back into the bag."""
    t = driver_table(3)
    t.turn(0, active=dict(light_gray=1), discard=dict(black=2, blue=2))
    checked(t, USE, from_discard("black"), from_discard("blue"), from_discard("black"))
    assert t.phase() == "action"                  # the third cube ends it
    assert t.count(0, "bag", "black") == 2 and t.count(0, "bag", "blue") == 1
    assert t.size(0, "discard") == 1


def test_driver_03_zero_is_a_valid_choice():
    """'Up to': stopping after none or one is allowed."""
    t = driver_table(3)
    t.turn(0, active=dict(light_gray=1), discard=dict(black=2))
    checked(t, USE)
    assert STOP in t.legal()
    checked(t, from_discard("black"), STOP)
    assert t.count(0, "bag", "black") == 1 and t.phase() == "action"
    assert USE not in t.legal()


# ----- Driver 04 (Buy) ------------------------------------------------------------------------
def test_driver_04_declares_then_draws_exactly_and_sorts_each_cube():
    """Driver 04: declare up to 3, draw exactly that many, then each cube is removed to the
    stock, put in the active pile (its value counts as money: Buy Phase) or back in the bag."""
    t = driver_table(4)
    t.turn(0, active=dict(white=1), bag=dict(wear=1, yellow=1, light_gray=1))
    checked(t, STOP)                                   # end the Action Phase
    assert t.phase() == "buy" and USE in t.legal()
    money = int(t.s[st.MONEY])
    checked(t, USE, DRAW, DRAW)
    assert DRAW in t.legal()
    checked(t, DRAW)
    assert DRAW not in t.legal()                       # at most 3
    checked(t, STOP)
    assert t.phase() == "driver_sort" and t.size(0, "bag") == 0
    held = t.s[st.DRIVER_HELD:st.DRIVER_HELD + 10]
    assert held.sum() == 3
    checked(t, buy("wear"))                            # A_STOCK: back to the stock
    assert t.stock("wear") == t.game.cards.supply[colour("wear")]
    checked(t, from_active("yellow"))
    assert t.s[st.MONEY] == money + t.s[st.VALUE + colour("yellow")]
    assert t.count(0, "active", "yellow") == 1
    checked(t, STOP)                                   # the rest back into the bag
    assert t.count(0, "bag", "light_gray") == 1 and t.phase() == "buy"
    assert not t.s[st.DRIVER_HELD:st.DRIVER_HELD + 10].any()
    assert USE not in t.legal()


def test_driver_04_reshuffles_only_when_drawing_from_an_empty_bag():
    """Drawing Cubes: the discard pile refills the bag only when a cube must be drawn
    from an empty bag; the declared number is capped by the cubes there are."""
    t = driver_table(4)
    t.turn(0, active=dict(white=1), bag=dict(black=1), discard=dict(blue=1))
    checked(t, STOP, USE, DRAW, DRAW)
    assert DRAW not in t.legal()                       # only 2 cubes to draw
    checked(t, STOP)
    held = t.s[st.DRIVER_HELD:st.DRIVER_HELD + 10]
    assert held[colour("black")] == 1 and held[colour("blue")] == 1
    assert t.size(0, "discard") == 0


# ----- Driver 05 (Buy) ------------------------------------------------------------------------
def test_driver_05_removes_discard_cubes_for_one_dollar_each():
    """Driver 05: remove any number of discard cubes (wear included), $1 each."""
    t = driver_table(5, buy_wear=False)
    t.give(0, "active", yellow=3)                      # money
    t.turn(0, discard=dict(wear=3, white=2), bag=dict(white=7))
    checked(t, STOP)
    money = int(t.s[st.MONEY])
    assert money >= 1 and USE in t.legal()
    checked(t, USE, from_discard("wear"))
    assert t.s[st.MONEY] == money - 1 and t.count(0, "discard", "wear") == 2
    while from_discard("wear") in t.legal():
        checked(t, from_discard("wear"))
    assert money >= 4       # enough for the three wear cubes and more
    assert t.count(0, "discard", "wear") == 0 and t.s[st.MONEY] == money - 3
    assert t.phase() == "driver_pay"    # whites left to remove, money left: still asked
    checked(t, STOP)
    assert t.phase() != "driver_pay" and USE not in t.legal()   # once a turn


def test_driver_05_needs_money():
    """'If you have no money during your Buy Phase, you will not get a benefit.'"""
    t = driver_table(5)
    t.give(0, "active", wear=1)                        # worth $0
    t.turn(0, discard=dict(wear=2))
    checked(t, STOP)
    assert t.s[st.MONEY] == 0
    assert t.phase() != "buy" or USE not in t.legal()
    assert t.count(0, "discard", "wear") >= 2


# ----- Driver 06 (Car) ------------------------------------------------------------------------
def test_driver_06_one_more_space_of_any_colour_and_its_wear_applies():
    """Driver 06: after the normal move, 1 more space of any colour; the Decline wear
    follows the highest colour moved on, this space included (dark gray: 3)."""
    t = driver_table(6)
    t.turn(0, active=dict(light_gray=1), bag=dict(white=7))
    checked(t, activate("light_gray"), to_space(t.space(0, 4)), STOP)
    assert t.phase() == "driver_car"
    dark = t.space(1, 6)
    assert to_space(dark) in t.legal() and to_space(t.space(0, 6)) in t.legal()
    checked(t, to_space(dark))
    assert t.s[st.CAR_SPACE + 0] == dark
    assert t.count(0, "discard", "wear") == 3


def test_driver_06_declined_leaves_the_car_and_wear():
    t = driver_table(6)
    t.turn(0, active=dict(light_gray=1), bag=dict(white=7))
    checked(t, activate("light_gray"), to_space(t.space(0, 4)), STOP, STOP)
    assert t.s[st.CAR_SPACE + 0] == t.space(0, 4)
    assert t.count(0, "discard", "wear") == 2


# ----- Driver 01 (Decline) --------------------------------------------------------------------
def test_driver_01_one_light_gray_space_per_decline_wear():
    """Driver 01: up to 1 light gray space per wear gained in the Decline Phase (2 here)."""
    t = driver_table(1)
    t.turn(0, active=dict(light_gray=2), bag=dict(white=7))
    checked(t, activate("light_gray"), to_space(t.space(0, 4)))
    checked(t, activate("light_gray"), to_space(t.space(0, 6)), STOP)
    assert t.phase() == "driver_decline" and t.s[st.PK_LEFT] == 2
    assert all(a in (STOP, to_space(t.space(0, 8))) for a in t.legal())
    checked(t, to_space(t.space(0, 8)), to_space(t.space(0, 10)))
    assert t.s[st.CAR_SPACE + 0] == t.space(0, 10) and t.current() == 1
    assert t.count(0, "discard", "wear") == 2          # no new wear for this move


def test_driver_01_nothing_when_drafting():
    """'If you would have gained 2 wear ... but ended up drafting, no benefit.'"""
    t = driver_table(1)
    t.put_car(1, 0, 4, seg=0)
    t.turn(0, active=dict(light_gray=1), bag=dict(white=7))
    checked(t, activate("light_gray"), to_space(t.space(0, 4)), STOP)
    assert t.count(0, "discard", "wear") == 0 and t.current() == 1


# ----- Driver 07 (Decline) --------------------------------------------------------------------
def test_driver_07_up_to_means_fewer_is_fine():
    """Driver 07: "up to" 2 extra cubes: one, then stop."""
    t = driver_table(7)
    t.turn(0, active=dict(light_gray=1), bag=dict(white=12))
    checked(t, activate("light_gray"), to_space(t.space(0, 4)), STOP, DRAW, STOP)
    assert t.size(0, "active") == 8


# ----- Driver 08 (End) ------------------------------------------------------------------------
def test_driver_08_removes_up_to_three_wear_before_drawing():
    """Driver 08: before drawing, up to 3 wear cubes from the sheet (any pile) or the
    track; the 7 cubes are drawn after."""
    t = driver_table(8)
    t.turn(0, active=dict(white=1, wear=2), discard=dict(wear=2), bag=dict(white=7))
    checked(t, STOP, STOP)
    assert t.phase() == "driver_wear" and t.size(0, "active") == 0
    checked(t, from_discard("wear"), from_discard("wear"), from_discard("wear"))
    assert t.count(0, "discard", "wear") == 1          # 3 removed, the 4th stays
    assert t.size(0, "active") == 7 and t.current() == 1


def test_driver_08_applies_in_a_pit_stop_turn():
    """A pit stop turn still has its End Phase."""
    t = driver_table(8)
    t.turn(0, active=dict(wear=2, white=1), discard=dict(wear=1), bag=dict(white=7))
    checked(t, PIT_STOP)
    assert t.phase() == "driver_wear"
    checked(t, from_discard("wear"))
    assert t.count(0, "discard", "wear") == 0 and t.current() == 1


# ----- Driver 09 (End) ------------------------------------------------------------------------
@pytest.mark.parametrize(("number", "moved"), [
    pytest.param(7, True, id="driver_07_one_extra_cube_per_decline_wear"),
    pytest.param(9, False, id="driver_09_up_to_two_more_cubes_after_drawing"),
])
def test_driver_draws_two_extra_cubes_after_the_seven(number, moved):
    """Driver 07 (Decline): 2 wear in the Decline Phase (a light gray move) -> up to 2
    extra cubes; Driver 09 (End): up to 2 more cubes after drawing, moved or not. Both:
    7 + 2 = 9."""
    t = driver_table(number)
    if moved:
        t.turn(0, active=dict(light_gray=1), bag=dict(white=12))
        checked(t, activate("light_gray"), to_space(t.space(0, 4)), STOP)
    else:
        t.turn(0, active=dict(white=1), bag=dict(white=12))
        checked(t, STOP, STOP)
    assert t.phase() == "driver_extra" and t.size(0, "active") == 7
    checked(t, DRAW, DRAW)
    assert t.size(0, "active") == 9 and t.current() == 1



# ----- a turn with nothing for the driver ---------------------------------------------------------
@pytest.mark.parametrize(("number", "bag"), [
    pytest.param(6, 7, id="driver_06_not_offered_without_a_normal_move"),
    pytest.param(7, 12, id="driver_07_no_decline_wear_no_draw"),
    pytest.param(8, 7, id="driver_08_not_offered_without_wear"),
    pytest.param(9, 6, id="driver_09_not_offered_with_nothing_to_draw"),
])
def test_driver_not_offered_when_the_ability_cannot_apply(number, bag):
    """A turn without a move, wear or cubes left: no decision is asked. Driver 06: no
    normal move, no extra space; 07: no Decline wear, no extra cube; 08: no wear to remove;
    09: bag and discard empty after the 7. The car stays, 7 cubes are drawn."""
    t = driver_table(number)
    t.turn(0, active=dict(white=1), bag=dict(white=bag))
    checked(t, STOP, STOP)
    assert t.current() == 1 and t.size(0, "active") == 7
    assert t.s[st.CAR_SPACE + 0] == t.space(0, 2)


# ----- Driver 10 (End) ------------------------------------------------------------------------
def test_driver_10_discards_some_drawn_cubes_and_draws_that_many_once():
    """Driver 10: after drawing, any number of the drawn cubes to the discard pile, then
    that many drawn; only once."""
    t = driver_table(10)
    t.give(0, "active", white=1)
    t.give(0, "bag", wear=2, black=5, blue=5)
    t.rig(3)
    t.turn(0)
    checked(t, STOP, STOP)
    assert t.phase() == "driver_redraw" and t.size(0, "active") == 7
    drawn_wear = t.count(0, "active", "wear")
    choose = [from_active("wear")] * drawn_wear or [from_active("black")]
    checked(t, *choose)
    discard_before = t.size(0, "discard")
    checked(t, STOP)
    assert t.size(0, "active") == 7 and t.current() == 1
    assert t.size(0, "discard") == discard_before      # bag not empty: no reshuffle


# ----- agents and whole games ---------------------------------------------------------------------
def test_rule_based_agent_drafts_by_preference_and_uses_driver_04():
    """The rule-based agent takes its most preferred revealed driver and uses an ability
    whose decision is offered (Driver 04: declares three)."""
    from transit_gym.agents.rule_based.automobiles_tables import DRIVER_PREFERENCE

    game = AutomobilesGame(num_players=2, drivers="all")
    state = game.new_state(0)
    obs = np.zeros(game.obs_size, dtype=np.float32)
    seat = game.current_player(state)
    observe(state.data, game.params, seat, obs)
    a = policy(1, game.params, obs, game.legal_mask(state), seeded_words(1))
    assert a == pick(int(DRIVER_PREFERENCE[0]))
    t = driver_table(4)
    t.turn(0, active=dict(white=1), bag=dict(white=5))
    checked(t, STOP)
    observe(t.s, t.p, 0, obs := np.zeros(t.game.obs_size, dtype=np.float32))
    assert policy(1, t.p, obs, t.game.legal_mask(t.state), seeded_words(1)) == USE


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_games_with_drivers_keep_every_invariant(players):
    """Random and rule-based seats, drivers on ("all" for odd seeds): after every step the
    Python invariants and the jitted validity check hold, and the game ends."""
    where = np.zeros(3, dtype=np.int64)
    for seed in range(2):
        game = AutomobilesGame(num_players=players, drivers=True if seed == 0 else "all")
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        obs = np.zeros(game.obs_size, dtype=np.float32)
        used = set()
        while not game.is_over(state):
            seat = game.current_player(state)
            mask = game.legal_mask(state)
            if seat % 2 == 0:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                obs[:] = 0
                observe(state.data, game.params, seat, obs)
                action = int(policy(1, game.params, obs, mask, seeded_words(1)))
            assert mask[action]
            used.add(st.PHASE_NAMES[int(state.data[st.PHASE])])
            game.apply(state, action)
            game.check_invariants(state)
            assert violation(state.data, game.params, where) == 0, where
        assert "driver_draft" in used
        assert any(name.startswith("driver_") and name != "driver_draft" for name in used)


@pytest.mark.parametrize(("field", "slot", "value"), [
    ("driver_of", 0, 11), ("driver_of", 0, -1), ("driver_of", 4, 3), ("driver_pool", 0, 2),
    ("driver_used", 0, 2), ("driver_wear", 0, -1), ("driver_held", 0, 1),
])
def test_tampered_driver_fields_are_refused_on_load(field, slot, value):
    """A saved state with a driver field out of range (or a cube conjured into
    Driver 04's hand) is refused with a StateDictError naming the problem."""
    game = AutomobilesGame(num_players=3, drivers=True)
    state = game.new_state(2)
    rng = np.random.default_rng(2)
    for _ in range(40):
        game.apply(state, int(rng.choice(game.legal_actions(state))))
    payload = state.to_dict()
    assert State.from_dict(payload) == state
    payload["fields"][field][slot] = value
    with pytest.raises(StateDictError):
        State.from_dict(payload)


def test_a_driver_held_twice_or_also_in_the_pool_is_refused():
    game = AutomobilesGame(num_players=3, drivers=True)
    state = game.new_state(4)
    while st.PHASE_NAMES[int(state.data[st.PHASE])] == "driver_draft":
        game.apply(state, game.legal_actions(state)[0])
    payload = state.to_dict()
    twice = json.loads(json.dumps(payload))
    twice["fields"]["driver_of"][1] = twice["fields"]["driver_of"][0]
    pooled = json.loads(json.dumps(payload))
    pooled["fields"]["driver_pool"][pooled["fields"]["driver_of"][0] - 1] = 1
    for bad in (twice, pooled):
        with pytest.raises(StateDictError, match="driver"):
            State.from_dict(bad)


def test_observation_bounds_hold_with_drivers_on():
    """Observation bounds for the driver fields: every observation of drivers games lies
    within obs_low_high, and each seat's driver block holds at most one 1."""
    game = AutomobilesGame(num_players=3, drivers="all")
    low, high = game.obs_low_high()
    groups = game.obs_one_hot_groups()
    rng = np.random.default_rng(5)
    state = game.new_state(5)
    while not game.is_over(state):
        for seat in range(3):
            obs = game.observe(state, seat)
            assert ((obs >= low) & (obs <= high)).all()
            assert all(obs[g].sum() <= 1.0 for g in groups)
        game.apply(state, int(rng.choice(game.legal_actions(state))))


def test_drivers_all_is_labelled_as_the_bga_table_option():
    """``drivers="all"`` is Board Game Arena's table option (R-YUC, the
    Yucata/online rules, has no draft from all ten), in the option docs and the docs pages."""
    import re
    from pathlib import Path

    from transit_gym.envs.automobiles import rules
    from transit_gym.envs.automobiles_season import rules as season_rules

    root = Path(__file__).resolve().parents[2]
    texts = {"rules.py": rules.__doc__, "season_rules.py": season_rules.__doc__}
    for page in ("README.md", "docs/automobiles.md", "docs/racing_season/season.md",
                 "docs/racing_season/drivers.md"):
        texts[page] = (root / page).read_text()
    for name, text in texts.items():
        spots = [text[max(m.start() - 120, 0):m.end() + 120]
                 for m in re.finditer(r'(?:drivers=)?`*"all"`*', text)]
        spots = [s for s in spots if "driver" in s and "card_pool" not in s]
        meanings = [s for s in spots if "all ten" in s]   # where the option is explained
        assert meanings, f"{name} does not explain drivers='all'"
        for spot in meanings:
            assert "BGA" in spot or "Board Game Arena" in spot, (name, spot)
        for spot in spots:
            assert "online variant" not in spot and "online draft" not in spot, (name, spot)
