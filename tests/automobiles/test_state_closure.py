"""Automobiles (and season) saved states that cannot lead play astray: each state below
passed every check once, and legal play from it reached a state the validator refuses.
Now each is refused with a ``StateDictError`` naming the field or the rule, and the
counters that one legal move raises saturate where the validator's range ends."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.random_play import at_phase, reach
from tests.core.step_closure import closure_failures, observation_failures, refused
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import NUM_COLOURS
from transit_gym.envs.core.errors import StateDictError
from transit_gym.envs.core.validate import MAX_COUNTER
from transit_gym.envs.registry import game_class

MOVING_EFFECTS = [("First Game", st.PH_SUSPENSION), ("Money, Money, Money", st.PH_TIRES),
                  ("Expert Invitational", st.PH_STEERING), ("Squeaky Clean", st.PH_CAMBER_TOE),
                  ("Rinse & Repeat", st.PH_BURNOUT), ("Squeaky Clean", st.PH_ADRENALINE)]


@pytest.mark.parametrize(("card_set", "phase"), MOVING_EFFECTS,
                         ids=[f"{c}-{p}" for c, p in MOVING_EFFECTS])
def test_the_resolving_cube_must_wait_in_the_used_pile(card_set, phase):
    """Action Phase: a used cube goes to the used pile, then its card's effect; these
    effects end in a move of that cube. A state whose resolving cube is not in the used
    pile (it sits in the discard pile instead) is refused: two moves later the used
    count would go to -1."""
    game = game_class("automobiles")(num_players=2, card_set=card_set)
    state = reach(game, at_phase(phase))
    game.validate(state)
    seat, colour = int(state["turn_seat"][0]), int(state["act_colour"][0])
    used = state["used"].reshape(-1, NUM_COLOURS)
    discard = state["discard"].reshape(-1, NUM_COLOURS)
    discard[seat, colour] += used[seat, colour]
    used[seat, colour] = 0
    refused(game, state, "used|Adrenaline")


def test_a_live_race_has_played_fewer_rounds_than_the_limit():
    """Not a rule (the ``max_rounds`` guard): the round that reaches the limit ends the
    race, so a live race at ``rounds == max_rounds`` is refused (it used to end in a state
    that no longer loaded)."""
    game = game_class("automobiles")(num_players=2, max_rounds=30)
    state = reach(game, at_phase(st.PH_ACTION))
    state["rounds"][0] = 30
    refused(game, state, "rounds")
    state["rounds"][0] = 29
    game.validate(state)


def test_delayed_card_fields_need_their_card_in_the_market():
    """Racing Season, Adrenaline and Crate Motor: their spaces exist only with the card in
    the market; First Game has neither, so a bonus or awarded spaces are refused."""
    game = game_class("automobiles")(num_players=3)
    state = reach(game, at_phase(st.PH_ACTION))
    for field in ("adr_bonus", "crate_award", "crate_spaces"):
        bad = state.copy()
        bad[field][0] = 1
        refused(game, bad, field)


def test_crate_spaces_without_accelerated_play_are_moved_at_once():
    """Racing Season, Crate Motor: without Accelerated Play the cars behind move their
    spaces right after the End Phase that awarded them, so outside that move no seat
    holds spaces (the seat used to be sent to a move it may not make); during the move
    the turn's award is already handed out."""
    game = game_class("automobiles")(num_players=3, card_set="Squeaky Clean")
    state = reach(game, at_phase(st.PH_ACTION))
    bad = state.copy()
    bad["crate_spaces"][1] = 2
    refused(game, bad, "crate_spaces")
    state = reach(game, at_phase(st.PH_CRATE_MOVE))
    game.validate(state)
    state["crate_award"][0] = 1
    refused(game, state, "crate_award")


def test_counters_at_the_top_of_their_range_admit_one_more_move():
    """``bought_n`` saturates like the statistics: at the cap a purchase keeps the state
    valid; money at the largest accepted value is observed inside the declared space."""
    game = game_class("automobiles")(num_players=2)
    state = reach(game, at_phase(st.PH_BUY))
    state["bought_n"][0] = MAX_COUNTER
    game.validate(state)
    assert closure_failures(game, state.data.copy()) == []
    state["money"][0] = 1 << 32
    game.validate(state)
    assert observation_failures(game, state.data.copy()) == []


def test_season_keeping_a_sponsor_needs_one():
    """Racing Season sponsors: a player who keeps the sponsor then removes one from the
    market; a player who owns none cannot be at that decision (it read sponsor row -1)."""
    from transit_gym.envs.automobiles_season import state as sst

    game = game_class("automobiles_season")(num_players=3, races=3)
    state = reach(game, lambda s: int(s["season_phase"][0]) == sst.S_DROP, moves=4000)
    game.validate(state)
    awardee = int(state["finish"][int(state["award_k"][0])])
    state["owned"][awardee] = -1
    refused(game, state, "owned|sponsor")


def test_a_move_left_over_at_the_buy_phase_is_refused():
    """How to Move on the Track: a used cube's move ends before the next action, so at the
    setup purchases and the Action and Buy Phases no move is in progress; a ``phase``
    changed from a move half made to the Buy Phase is refused (ending that Buy Phase
    used to place the stale move's cube)."""
    game = game_class("automobiles")(num_players=2)
    state = reach(game, lambda s: at_phase(st.PH_MOVE)(s) and int(s["mv_steps"][0]) > 0)
    game.validate(state)
    state["phase"][0] = st.PH_BUY
    refused(game, state, "mv_steps")


def test_forced_steps_that_never_end_raise_instead_of_stopping():
    """Setup 7-9: the allowance purchases go round the table once, ending at the start
    player. With ``start_player`` outside the table (refused by the validator) and nothing
    affordable, ``settle`` would pass the purchases round forever: after
    ``MAX_FORCED_STEPS`` it raises ``StateDictError`` naming the game and the limit (it
    used to stop silently, leaving the state half resolved)."""
    from transit_gym.envs.automobiles.kernels import MAX_FORCED_STEPS, settle

    game = game_class("automobiles")(num_players=3)
    state = reach(game, at_phase(st.PH_SETUP_BUY))
    state["start_player"][0] = -1
    refused(game, state, "start_player")
    state["stock"][:] = 0
    with pytest.raises(StateDictError, match=f"automobiles state cannot be played: one step "
                                             f"took {MAX_FORCED_STEPS} forced steps"):
        settle(state.data, game.params_of(state))


def test_season_awards_that_never_end_raise_instead_of_stopping():
    """Racing Season, sponsors: each player's award takes at most seven forced steps.
    An award counter far below the first place (refused by the validator) would take more
    than ``MAX_FORCED_STEPS``: ``settle_awards`` raises ``StateDictError`` (it used to
    return as if a decision were waiting)."""
    from transit_gym.envs.automobiles.kernels import MAX_FORCED_STEPS
    from transit_gym.envs.automobiles.racing_season.sponsors import settle_awards
    from transit_gym.envs.automobiles_season import state as sst

    game = game_class("automobiles_season")(num_players=3, races=3)
    state = game.new_state(0)
    state["award_k"][0] = -1
    refused(game, state, "award_k")
    data = np.zeros_like(state.data)   # every slot the counter walks over reads player 0
    data[sst.SEASON_PHASE] = sst.S_PICK
    data[sst.MARKET:sst.OWNED] = -1        # no sponsor to take ...
    data[sst.OWNED:sst.OWNED + sst.MP] = -1    # ... and none owned
    data[sst.AWARD_K] = -(MAX_FORCED_STEPS + 10)
    with pytest.raises(StateDictError, match=f"automobiles_season state cannot be played: "
                                             f"the awards took {MAX_FORCED_STEPS} forced"):
        settle_awards(data, game.params_of(state))


def _pick_edge(game, state, counter: str, most: int) -> None:
    """``counter`` at the most the card or driver allows is accepted (and every legal
    move from there too); one more is refused."""
    made = 0 if counter == "pk_left" else int(state["pk_left"][0])
    state[counter][0] = most - made
    game.validate(state)
    assert closure_failures(game, state.data.copy()) == []
    state[counter][0] = most - made + 1
    refused(game, state, "picks")


def test_engineer_picks_made_and_left_fit_the_card():
    """Engineer: "Choose up to 3 cubes from your active pile ... then remove" as many: the
    cubes chosen and those still allowed add up to the card's 3, so ``pk_count`` (or
    ``pk_left``) beyond that is refused, not only beyond the supply."""
    game = game_class("automobiles")(num_players=2, card_set="Fine Tuning")
    state = reach(game, at_phase(st.PH_ENGINEER))
    _pick_edge(game, state, "pk_count", 3)


def test_the_removal_after_the_engineer_never_owes_more_than_it_allows():
    """Engineer: the cubes that must be removed are the cubes chosen, and the removal
    allows no more than that (``pk_must`` never above ``pk_left``)."""
    game = game_class("automobiles")(num_players=2, card_set="Fine Tuning")
    state = reach(game, lambda s: at_phase(st.PH_REMOVE)(s) and int(s["pk_must"][0]) > 0)
    state["pk_must"][0] = int(state["pk_left"][0])
    game.validate(state)
    state["pk_must"][0] = int(state["pk_left"][0]) + 1
    refused(game, state, "picks")


@pytest.mark.parametrize(("card_set", "phase", "most"), [
    ("Expert Invitational", st.PH_MECHANIC, 2),   # Mechanic: remove up to 2
    ("Broken Down", st.PH_BOOST, 3),              # Boost: draw up to 3
], ids=["mechanic", "boost"])
def test_card_picks_left_fit_the_card(card_set, phase, most):
    """Mechanic ("remove up to 2 cubes"), Boost (its draws): ``pk_left`` starts at the
    card's number and only counts down."""
    game = game_class("automobiles")(num_players=2, card_set=card_set)
    state = reach(game, at_phase(phase))
    _pick_edge(game, state, "pk_left", most)


def test_driver_picks_fit_the_driver():
    """Racing Season appendix, Driver 08: "remove up to 3 wear cubes" before drawing, and
    Driver 03: "up to 3" discard cubes into the bag; the picks made and left add up to
    the driver's number."""
    game = game_class("automobiles")(num_players=4, drivers="all")
    for phase in (st.PH_DRIVER_WEAR, st.PH_DRIVER_TO_BAG):
        state = reach(game, at_phase(phase), moves=3000)
        _pick_edge(game, state, "pk_count", 3)
