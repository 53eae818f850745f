"""Racing Season cards that change piles (R-YUC appendix: Garage, Pit, Engine), on
constructed positions, with the base rules they lean on (R-BASE Card Clarifications: the
activated cube is in the used pile first, removed cubes go to the stock; Action Phase: an
effect applies in full or not at all, missing wear never blocks it; Rule Clarifications:
"up to" allows zero; Drawing Cubes: the discard pile refills an empty bag only when a
cube must be drawn from it). Whole games with these cards and base cards close the file.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.automobiles import table
from tests.automobiles.table import (
    DRAW,
    STOP,
    Table,
    activate,
    agent_answer,
    card_colour,
    colour,
    from_active,
    from_discard,
)
from transit_gym.agents.rule_based.automobiles import policy
from transit_gym.envs import automobiles_v0
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.encode import O_DECISION, O_PICKS, O_WAITING
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.game import State
from transit_gym.envs.core.rollout import play_games, random_rollouts

PILE_NAMES = ("factory_support", "maintenance_staff", "performance_testing", "air_jacks",
              "impact_wrench", "pit_mechanic", "internal_combustion")


def card_table(card: str, players: int = 2, keep: bool = True, **options) -> Table:
    """``table.card_table`` with seat 0 on turn and the cube of ``card`` put in the active
    pile."""
    t = table.card_table(card, players=players, keep=keep, **options)
    t.give(0, "active", **{card_colour(card): 1})
    return t


def picks(t: Table) -> tuple[int, int, int]:
    s = t.s
    return int(s[st.PK_LEFT]), int(s[st.PK_MUST]), int(s[st.PK_COUNT])


# ----- Factory Support ----------------------------------------------------------------------
def test_factory_support_draws_one_then_must_remove_the_drawn_cube_or_another():
    """Factory Support: draw 1 cube from the bag, then you MUST remove 1 cube from your
    active or discard pile; it may be the cube just drawn."""
    t = card_table("Factory Support")
    t.turn(0, bag=dict(black=1), discard=dict(white=2))
    t.act(activate("yellow"))
    assert t.count(0, "active", "black") == 1 and t.size(0, "bag") == 0
    assert t.phase() == "factory_support"
    assert sorted(t.legal()) == sorted([from_active("black"), from_active("wear"),
                                        from_discard("white")])   # no STOP: "must"
    stock = t.stock("black")
    t.act(from_active("black"))      # the cube just drawn
    assert t.count(0, "active", "black") == 0 and t.stock("black") == stock + 1
    assert t.phase() == "action" and t.count(0, "discard", "white") == 2


def test_factory_support_may_remove_from_the_discard_pile_instead():
    """Factory Support: the removed cube may come from the discard pile."""
    t = card_table("Factory Support")
    t.turn(0, bag=dict(black=1), discard=dict(wear=2))
    t.act(activate("yellow"), from_discard("wear"))
    assert t.count(0, "discard", "wear") == 1 and t.count(0, "active", "black") == 1
    assert t.count(0, "used", "yellow") == 1      # the activated cube stays in the used pile


def test_factory_support_draw_refills_an_empty_bag_from_the_discard_pile():
    """Drawing Cubes: the bag is empty, so the whole discard pile goes into the bag before
    the draw; the removal then finds the discard pile empty."""
    t = card_table("Factory Support")
    t.turn(0, discard=dict(dark_gray=3))
    t.act(activate("yellow"))
    assert t.count(0, "active", "dark_gray") == 1 and t.count(0, "bag", "dark_gray") == 2
    assert t.size(0, "discard") == 0
    assert sorted(t.legal()) == sorted([from_active("dark_gray"), from_active("wear")])


def test_factory_support_needs_a_cube_to_draw():
    """All-or-nothing: with an empty bag and an empty discard pile nothing can be drawn,
    so Factory Support cannot be activated."""
    t = card_table("Factory Support")
    t.turn(0)
    assert activate("yellow") not in t.legal()


# ----- Maintenance Staff ----------------------------------------------------------------------
def test_maintenance_staff_removes_active_cubes_then_up_to_twice_as_many_discards():
    """Maintenance Staff: remove any number N of active cubes (any kind), then up to 2N
    cubes of the discard pile (bonus = 2 per cube)."""
    t = card_table("Maintenance Staff")
    t.turn(0, active=dict(white=1, wear=1), discard=dict(wear=6))
    t.act(activate("yellow"))
    assert t.phase() == "maintenance_staff" and STOP in t.legal()
    assert sorted(t.legal()) == sorted([STOP, from_active("wear"), from_active("white")])
    t.act(from_active("wear"), from_active("white"), STOP)
    assert t.phase() == "remove" and picks(t)[:2] == (4, 0)
    assert t.stock("white") == t.game.cards.supply[colour("white")]
    t.act(*[from_discard("wear")] * 4)
    assert t.phase() == "action" and t.count(0, "discard", "wear") == 2


def test_maintenance_staff_with_no_active_cube_removed_removes_nothing():
    """Maintenance Staff: "any number" includes zero, and twice zero is zero."""
    t = card_table("Maintenance Staff")
    t.turn(0, discard=dict(wear=3))
    t.act(activate("yellow"), STOP)
    assert t.phase() == "action" and t.count(0, "discard", "wear") == 3
    assert t.count(0, "active", "wear") == 1


def test_maintenance_staff_discard_removals_may_stop_early():
    """Maintenance Staff: "up to" twice as many (one active cube: up to 2, may stop)."""
    t = card_table("Maintenance Staff")
    t.turn(0, discard=dict(wear=3))
    t.act(activate("yellow"), from_active("wear"))
    assert t.phase() == "remove" and picks(t)[0] == 2 and STOP in t.legal()
    t.act(from_discard("wear"))
    t.act(STOP)
    assert t.count(0, "discard", "wear") == 2


# ----- Performance Testing --------------------------------------------------------------------
def test_performance_testing_removes_its_own_cube_then_draws_up_to_three():
    """Performance Testing: first remove this very cube (it is in the used pile), then draw
    up to 3 cubes from the bag, one at a time."""
    t = card_table("Performance Testing")
    t.give(0, "bag", light_gray=5)
    stock = t.stock("yellow")
    t.turn(0)
    t.act(activate("yellow"))
    assert t.count(0, "used", "yellow") == 0 and t.stock("yellow") == stock + 1
    assert t.phase() == "performance_testing"
    assert sorted(t.legal()) == [STOP, DRAW]
    assert t.game.describe_action(t.state, STOP) == "stop drawing"
    t.act(DRAW, DRAW, DRAW)
    assert t.count(0, "active", "light_gray") == 3 and t.phase() == "action"
    assert t.game.final_info(t.state)[0]["wear_gained"] == 0


def test_performance_testing_may_draw_none_and_still_removes_itself():
    """Performance Testing: "up to 3" allows zero; the cube is removed anyway."""
    t = card_table("Performance Testing")
    t.turn(0, bag=dict(light_gray=5))
    t.act(activate("yellow"), STOP)
    assert t.count(0, "active", "light_gray") == 0 and t.size(0, "bag") == 5
    assert t.count(0, "used", "yellow") == 0


def test_performance_testing_with_nothing_to_draw_only_removes_itself():
    """Performance Testing with an empty bag and discard pile: it can still be applied in
    full (the draws are "up to"), and no draw is offered."""
    t = card_table("Performance Testing")
    t.turn(0)
    assert activate("yellow") in t.legal()
    t.act(activate("yellow"))
    assert t.phase() == "action" and t.count(0, "used", "yellow") == 0


def test_performance_testing_refills_the_bag_only_when_a_draw_needs_it():
    """Drawing Cubes: one cube in the bag, two in the discard pile: the first draw empties
    the bag without a refill; the second refills it from the discard pile."""
    t = card_table("Performance Testing")
    t.turn(0, bag=dict(black=1), discard=dict(white=2))
    t.act(activate("yellow"), DRAW)
    assert t.count(0, "active", "black") == 1 and t.count(0, "discard", "white") == 2
    t.act(DRAW)
    assert t.count(0, "active", "white") == 1 and t.count(0, "bag", "white") == 1
    assert t.size(0, "discard") == 0


# ----- Air Jacks --------------------------------------------------------------------------------
def test_air_jacks_removes_up_to_the_number_of_colours_in_the_discard_pile():
    """Air Jacks, the card's example: 1 yellow, 2 dark gray, 3 blue, 1 green and 2 wear
    cubes in the discard pile are 5 colours: up to 5 cubes may be removed."""
    t = card_table("Air Jacks")
    t.turn(0, discard=dict(yellow=1, dark_gray=2, blue=3, green=1, wear=2))
    t.act(activate("purple"))
    assert t.phase() == "remove" and picks(t)[:2] == (5, 0) and STOP in t.legal()
    t.act(from_discard("wear"), from_discard("wear"), from_discard("yellow"))
    # the count was fixed when played: removing whole colours does not lower it
    assert picks(t)[0] == 2
    t.act(from_discard("blue"), from_discard("blue"))
    assert t.phase() == "action" and t.size(0, "discard") == 4


def test_air_jacks_with_an_empty_discard_pile_does_nothing():
    """Air Jacks: no colour in the discard pile, up to 0 removals (still playable)."""
    t = card_table("Air Jacks")
    t.turn(0)
    t.act(activate("purple"))
    assert t.phase() == "action" and t.count(0, "used", "purple") == 1


# ----- Impact Wrench ----------------------------------------------------------------------------
def test_impact_wrench_removes_up_to_four_discards_then_all_wear_of_the_used_pile():
    """Impact Wrench: choose up to 4 discarded cubes to remove, then remove every wear
    cube now in the used pile (the wear gained this Action Phase)."""
    t = card_table("Impact Wrench")
    t.turn(0, discard=dict(wear=5, white=1), used=dict(wear=2))
    t.act(activate("purple"))
    assert t.phase() == "impact_wrench" and picks(t)[0] == 4
    assert t.count(0, "used", "wear") == 2        # not before the removals
    stock = t.stock("wear")
    t.act(from_discard("wear"), from_discard("white"), STOP)
    assert t.count(0, "used", "wear") == 0 and t.stock("wear") == stock + 1 + 2
    assert t.count(0, "discard", "wear") == 4 and t.phase() == "action"


def test_impact_wrench_stops_by_itself_after_four_removals():
    """Impact Wrench: "up to 4": after the fourth the used wear goes at once."""
    t = card_table("Impact Wrench")
    t.turn(0, discard=dict(wear=6), used=dict(wear=1))
    t.act(activate("purple"), *[from_discard("wear")] * 4)
    assert t.phase() == "action" and t.count(0, "discard", "wear") == 2
    assert t.count(0, "used", "wear") == 0


def test_impact_wrench_does_not_touch_wear_gained_later():
    """Impact Wrench does not remove wear gained by a later action (here the Steering
    cube activated after it gains 1 wear, which stays in the used pile)."""
    t = card_table("Impact Wrench")
    t.turn(0, active=dict(red=1, dark_gray=1), used=dict(wear=1))
    t.act(activate("purple"))
    assert t.count(0, "used", "wear") == 0
    t.act(activate("red"))
    assert t.count(0, "used", "wear") == 1


def test_impact_wrench_lifts_wear_cubes_placed_on_the_track():
    """Impact Wrench: the wear removed includes wear on the track (cubes on the board are
    still in the used pile). No base card places a wear cube, so the placement is built
    by hand: the wear cube leaves the list of placed cubes, and the farthest remaining
    cube is where the car will go."""
    t = card_table("Impact Wrench")
    track = t.game.track
    near, far = t.space(0, 6), t.space(0, 10)
    s = t.s
    for i, (space, name) in enumerate(((near, "white"), (far, "wear"))):
        s[st.PLACED_SPACE + i] = space
        s[st.PLACED_COLOUR + i] = colour(name)
        s[st.PLACED_ABS + i] = int(track.end[space])
        s[st.PLACED_SEG + i] = 0
        s[st.STOCK + colour(name)] -= 1
        s[st.ON_TRACK + colour(name)] += 1
    s[st.PLACED_N] = 2
    s[st.FAR] = 1
    t.turn(0)
    s[st.PLACED_N] = 2        # start_turn clears the placements; this is mid-turn
    s[st.FAR] = 1
    s[st.STD_TURN] = 1
    t.game.check_invariants(t.state)
    stock = t.stock("wear")
    t.act(activate("purple"))
    assert t.on_track("wear") == 0 and t.on_track("white") == 1
    assert s[st.PLACED_N] == 1 and s[st.PLACED_COLOUR] == colour("white")
    assert s[st.FAR] == 0 and s[st.PLACED_SPACE] == near
    assert t.stock("wear") == stock + 1


# ----- Pit Mechanic -----------------------------------------------------------------------------
def test_pit_mechanic_removes_up_to_six_wear_then_two_more_when_smallest():
    """Pit Mechanic: remove up to 6 wear cubes from the discard pile; if the discard pile
    is then smaller than every other player's, remove up to 2 more cubes of any kind."""
    t = card_table("Pit Mechanic", players=3)
    t.give(0, "discard", wear=7, white=2)
    t.give(1, "discard", white=4)
    t.give(2, "discard", white=4)
    t.turn(0)
    t.act(activate("purple"))
    assert t.phase() == "pit_mechanic" and picks(t)[0] == 6
    assert sorted(t.legal()) == [STOP, from_discard("wear")]    # wear only
    t.act(*[from_discard("wear")] * 6)
    # 3 cubes left against 4 and 4: the extra removals of any kind
    assert t.phase() == "remove" and picks(t)[:2] == (2, 0)
    t.act(from_discard("white"), from_discard("white"))
    assert t.phase() == "action" and t.size(0, "discard") == 1


def test_pit_mechanic_compares_with_each_player_strictly():
    """Pit Mechanic: fewer than EACH other player (a tie with one of them is not fewer):
    no extra removal."""
    t = card_table("Pit Mechanic", players=3)
    t.give(0, "discard", wear=2, white=3)
    t.give(1, "discard", white=9)
    t.give(2, "discard", white=3)
    t.turn(0)
    t.act(activate("purple"), from_discard("wear"), from_discard("wear"))
    assert t.phase() == "action" and t.size(0, "discard") == 3


def test_pit_mechanic_may_remove_fewer_wear_and_then_counts():
    """Pit Mechanic: "up to 6" - stopping after one wear cube, the count is taken then."""
    t = card_table("Pit Mechanic")
    t.give(0, "discard", wear=3)
    t.give(1, "discard", white=3)
    t.turn(0)
    t.act(activate("purple"), from_discard("wear"), STOP)
    assert t.phase() == "remove" and picks(t)[0] == 2      # 2 < 3


def test_pit_mechanic_without_wear_goes_straight_to_the_count():
    """Pit Mechanic with no discarded wear: nothing to remove first; an empty discard pile
    against a non-empty one is the smallest, but there is nothing left to remove."""
    t = card_table("Pit Mechanic")
    t.give(0, "discard", black=1)
    t.give(1, "discard", white=3)
    t.turn(0)
    t.act(activate("purple"))
    assert t.phase() == "remove" and picks(t)[0] == 1
    t2 = card_table("Pit Mechanic")
    t2.give(1, "discard", white=3)
    t2.turn(0)
    t2.act(activate("purple"))
    assert t2.phase() == "action"


# ----- Internal Combustion ----------------------------------------------------------------------
def test_internal_combustion_discards_one_then_takes_up_to_three_back_with_wear():
    """Internal Combustion: put 1 active cube into the discard pile (must), then take up
    to 3 discarded cubes into the active pile, gaining 1 wear per cube taken; the cube
    just discarded may come back."""
    t = card_table("Internal Combustion", keep=False)
    t.turn(0, active=dict(black=1), discard=dict(dark_gray=2, wear=1))
    t.act(activate("blue"))
    assert t.phase() == "internal_combustion" and t.legal() == [from_active("black")]
    t.act(from_active("black"))
    assert t.count(0, "discard", "black") == 1 and t.phase() == "internal_combustion_take"
    assert picks(t)[0] == 3 and STOP in t.legal()
    t.act(from_discard("black"), from_discard("dark_gray"), from_discard("dark_gray"))
    assert t.count(0, "active", "black") == 1 and t.count(0, "active", "dark_gray") == 2
    assert t.count(0, "used", "wear") == 3 and t.phase() == "action"


def test_internal_combustion_needs_another_active_cube():
    """All-or-nothing: with no other cube in the active pile nothing can be discarded."""
    t = card_table("Internal Combustion", keep=False)
    t.turn(0, discard=dict(dark_gray=2), bag=dict(white=5))
    assert activate("blue") not in t.legal()


def test_internal_combustion_taking_none_back_gains_no_wear():
    """Internal Combustion: "up to 3" allows zero, and no cube taken means no wear."""
    t = card_table("Internal Combustion")
    t.turn(0, discard=dict(dark_gray=2))
    t.act(activate("blue"), from_active("wear"), STOP)
    assert t.count(0, "used", "wear") == 0 and t.count(0, "discard", "wear") == 1


def test_internal_combustion_works_with_an_empty_wear_stock():
    """Action Phase: missing wear in the stock never blocks an effect; the cubes come
    back and no wear is gained."""
    t = card_table("Internal Combustion")
    t.give(0, "discard", dark_gray=2)
    t.empty_stock("wear")
    t.turn(0)
    assert activate("blue") in t.legal()
    t.act(activate("blue"), from_active("wear"), from_discard("dark_gray"))
    assert t.count(0, "active", "dark_gray") == 1 and t.count(0, "used", "wear") == 0


# ----- observation ------------------------------------------------------------------------------
def test_pile_decisions_are_observed_by_the_deciding_seat():
    """Observation: the deciding seat sees which pile decision is pending and its pick
    counts (Air Jacks' allowance); the other seat only sees that it waits."""
    t = card_table("Air Jacks")
    t.turn(0, discard=dict(white=1, wear=2))
    t.act(activate("purple"))
    mine, other = t.game.observe(t.state, 0), t.game.observe(t.state, 1)
    assert mine[O_DECISION + st.PH_REMOVE] == 1 and mine[O_PICKS] == 2
    assert other[O_WAITING] == 1 and other[O_PICKS] == 0
    t = card_table("Internal Combustion")
    t.turn(0, discard=dict(white=1))
    t.act(activate("blue"))
    assert t.game.observe(t.state, 0)[O_DECISION + st.PH_INTERNAL_COMBUSTION] == 1


# ----- saved states ----------------------------------------------------------------------------
def test_a_tampered_pile_decision_is_refused_when_loaded():
    """A saved state whose pending pile decision names no cube of that card
    (or waits for another seat) is refused with a StateDictError, never run."""
    t = card_table("Internal Combustion")
    t.turn(0, discard=dict(dark_gray=2))
    t.act(activate("blue"), from_active("wear"))
    assert t.phase() == "internal_combustion_take"
    t.game.validate(t.state)
    for field, value in (("act_colour", -1), ("act_colour", colour("yellow")),
                         ("current", 1)):
        data = t.s.copy()
        data[t.game.layout.offset(field)] = value
        with pytest.raises(StateDictError, match="pile card"):
            t.game.validate(State(t.game, data))


# ----- the rule-based agent ------------------------------------------------------------------
def test_agent_removes_wear_with_pile_cards():
    """Agent: removal effects take wear first (Factory Support from the discard pile, Pit
    Mechanic's wear, Maintenance Staff's active wear)."""
    t = card_table("Factory Support")
    t.turn(0, bag=dict(black=1), discard=dict(wear=1, white=1))
    t.act(activate("yellow"))
    assert agent_answer(t) == from_discard("wear")
    t = card_table("Pit Mechanic")
    t.turn(0, discard=dict(wear=2))
    assert agent_answer(t) == activate("purple")
    t.act(activate("purple"))
    assert agent_answer(t) == from_discard("wear")
    t = card_table("Maintenance Staff")
    t.turn(0)
    t.act(activate("yellow"))
    assert agent_answer(t) == from_active("wear")


def test_agent_uses_factory_support_only_when_a_poor_cube_can_go():
    """Agent: Factory Support must remove a cube, so it is activated only when a wear or
    white cube is in the active or discard pile."""
    t = card_table("Factory Support", keep=False)
    t.turn(0, active=dict(black=1), bag=dict(black=2), discard=dict(dark_gray=2))
    assert activate("yellow") in t.legal() and agent_answer(t) != activate("yellow")
    t = card_table("Factory Support", keep=False)
    t.turn(0, active=dict(black=1), bag=dict(black=2), discard=dict(dark_gray=2, white=1))
    assert agent_answer(t) == activate("yellow")
    t.act(activate("yellow"))
    assert agent_answer(t) == from_discard("white")


def test_agent_internal_combustion_drops_the_worst_and_takes_back_strong_cubes():
    """Agent: Internal Combustion discards the least wanted active cube and takes back a
    black gear (worth a wear cube), never a white one."""
    t = card_table("Internal Combustion")
    t.turn(0, active=dict(dark_gray=1), discard=dict(black=1, white=2))
    assert agent_answer(t) == activate("blue")
    t.act(activate("blue"))
    assert agent_answer(t) == from_active("wear")
    t.act(from_active("wear"))
    assert agent_answer(t) == from_discard("black")
    t.act(from_discard("black"))
    assert agent_answer(t) == STOP


def test_agent_draws_with_performance_testing():
    """Agent: Performance Testing's draws cost nothing, so all are taken."""
    t = card_table("Performance Testing")
    t.turn(0, bag=dict(white=4))
    t.act(activate("yellow"))
    assert agent_answer(t) == DRAW


# ----- whole games ----------------------------------------------------------------------------
#: every pile card at least once, each with base cards of the other colours
PILE_SETS = (
    ("Factory Support", "Pit Mechanic", "Steering", "Gearbox", "Internal Combustion"),
    ("Maintenance Staff", "Air Jacks", "Suspension", "Boost", "Hybrid Engine"),
    ("Performance Testing", "Impact Wrench", "Aerodynamics", "Nitro", "Internal Combustion"),
)


def test_a_set_naming_pile_cards_is_accepted():
    """Any mix of the 35 cards as five names."""
    game = AutomobilesGame(num_players=2, card_set=list(PILE_SETS[0]))
    assert game.card_set == PILE_SETS[0]


@pytest.mark.parametrize("cards", PILE_SETS)
def test_random_games_with_pile_cards_keep_every_invariant(cards):
    """A random 3-player game per set through the Game API: every cube in one place and
    every field in range after every step; the game ends."""
    game = AutomobilesGame(num_players=3, card_set=list(cards))
    rng = np.random.default_rng(5)
    state = game.new_state(5)
    seen = set()
    while not game.is_over(state):
        game.apply(state, int(rng.choice(game.legal_actions(state))))
        game.check_invariants(state)
        assert game.kernels.violation(state.data, game.params, np.zeros(3, np.int64)) == 0
        seen.add(st.PHASE_NAMES[int(state.data[st.PHASE])])
    assert seen & {"factory_support", "maintenance_staff", "performance_testing",
                   "impact_wrench", "pit_mechanic", "internal_combustion", "remove"}


@pytest.mark.parametrize("cards", PILE_SETS)
def test_jitted_games_batch_and_aec_play_the_pile_cards(cards):
    """The jitted loops (rule-based against random, and random rollouts), the batch API
    and the AEC env run games with these cards to the end."""
    game = AutomobilesGame(num_players=3, card_set=list(cards))
    result = play_games(game, policy, ["rule_based", "random", "rule_based"], 4, seed=11)
    for i in range(4):
        state = result.state(game, i)
        game.check_invariants(state)
        assert game.is_over(state)
    activated = sum(info["activated"][c] for i in range(4)
                    for info in game.final_info(result.state(game, i))
                    for c in ("yellow", "purple", "blue"))
    assert activated > 0
    assert random_rollouts(game, 3, seed=2) > 0
    batch = automobiles_v0.batch(4, seed=3, num_players=2, card_set=list(cards))
    rng = np.random.default_rng(0)
    for _ in range(300):
        batch.step(batch.sample_actions(rng))
    env = automobiles_v0.env(num_players=2, card_set=list(cards))
    env.reset(seed=4)
    for agent in env.agent_iter(max_iter=400):
        _, _, term, trunc, _ = env.last()
        mask = env.observe(agent)["action_mask"]
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(mask))))
