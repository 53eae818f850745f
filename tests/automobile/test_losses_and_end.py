"""P8 Losses and interest (with Sloan and Chrysler), P9 End of turn, Winning the game."""

from __future__ import annotations

import numpy as np
import pytest

from tests.automobile.table import Table
from transit_gym.agents.rule_based.automobile import policy
from transit_gym.envs.automobile import actions as a
from transit_gym.envs.automobile import kernels as k
from transit_gym.envs.automobile import market
from transit_gym.envs.automobile import state as st
from transit_gym.envs.automobile.data import CHRYSLER, SLOAN
from transit_gym.envs.automobile.economy import take_loan
from transit_gym.envs.automobile.rules import AutomobileGame
from transit_gym.envs.core.rollout import play_games


def _table(turn: int, chars: dict[int, str] | None = None, **options) -> Table:
    t = Table(num_players=3, **options)
    t.s[st.TURN] = turn
    t.start_p3(chars or {0: "kettering", 1: "howard", 2: "durant"})
    t.state["next_order"][:3] = [0, 1, 2]
    return t


# ----- P8 -----------------------------------------------------------------------------------
def test_loss_cubes_by_rank_per_segment_closed_spaces_count():
    """P8: per segment, backwards from the most advanced occupied space: 0, 1, 2... cubes;
    a closed space counts as occupied but takes none (the V. Close example)."""
    t = _table(0)
    t.factories(0, "Overland Model 40", 2)        # middle, most advanced
    t.closed("Buick Model 10", 0)                  # middle, 2nd: counted, no cubes
    t.factories(1, "Jackson Model 40", 1)          # middle, 3rd: 2 cubes
    t.factories(2, "Duryea", 1)                    # middle, 4th: 3 cubes
    t.factories(1, "Maxwell Model EA", 1)          # the only mass space: none
    t.factories(2, "Pathfinder 40", 1)             # premium, 2nd: 1 cube
    t.factories(0, "Space 11", 1)                  # premium, most advanced
    market.allocate_losses(t.s, t.p)
    assert [t.get("loss", s) for s in range(3)] == [0, 2, 3 + 1]


def test_losses_are_paid_at_the_turn_price_for_every_cube_held_plus_interest():
    """P8: pay $10/$20/$30/$40 per cube held (by turn), cubes are kept; then $50 interest per
    loan."""
    t = _table(1)
    t.s[st.LOSS + 0] = 4
    t.s[st.LOANS + 0] = 2
    t.s[st.BANK] -= 1000
    t.s[st.CASH + 0] += 1000
    t.s[st.LOSS + 2] = 1
    k._phase8(t.s, t.p)
    assert t.cash(0) == 3000 - 4 * 20 - 100 and t.get("loss", 0) == 4
    assert t.cash(2) == 2000 - 20
    assert t.get("stat_interest", 0) == 100 and t.get("stat_loss_paid", 0) == 80
    t.check()


@pytest.mark.parametrize(("mode", "held", "taken", "left"), [
    ("held", 9, 0, 4), ("held", 1, 1, 0), ("taken", 9, 3, 7), ("taken", 2, 5, 1),
])
def test_sloan_discards_half_rounded_up(mode, held, taken, left):
    """Sloan: in P8, after the allocation and before paying, discard half (rounded up) of
    the loss cubes held (RB: 9 -> discard 5, keep 4); option ``sloan="taken"`` halves the
    cubes taken this turn instead."""
    t = _table(0, {0: "sloan", 1: "howard", 2: "durant"}, sloan=mode)
    assert t.get("char_of", 0) == SLOAN
    t.s[st.LOSS] = held
    t.s[st.TURN_LOSS] = taken
    k._phase8(t.s, t.p)
    assert t.get("stat_loss_paid", 0) == left * 10


@pytest.mark.parametrize(("turn", "held", "left"), [(0, 3, 2), (2, 5, 2), (3, 2, 0)])
def test_chrysler_discards_the_turn_number(turn, held, left):
    """Chrysler: in P8 discard as many loss cubes as the turn number."""
    t = _table(turn, {0: "chrysler", 1: "howard", 2: "durant"})
    assert t.get("char_of", 0) == CHRYSLER
    t.s[st.LOSS] = held
    k._phase8(t.s, t.p)
    assert t.get("loss", 0) == left
    assert t.get("stat_loss_paid", 0) == left * int(t.game.data.loss_price[turn])


@pytest.mark.parametrize(("mode", "cash", "loans", "forced", "unpaid"), [
    ("loan_then_debt", 30 + 500 - 50 - 50, 1, 1, 0),
    ("debt", -20, 0, 0, 0),
    ("forgive", 0, 0, 0, 20),
])
def test_shortfall_options(mode, cash, loans, forced, unpaid):
    """P8 with too little cash (the rulebook is silent): ``loan_then_debt`` takes loans then
    lets cash go negative; ``debt`` goes negative; ``forgive`` pays what there is."""
    t = _table(0, shortfall=mode)
    t.set_cash(0, 30)
    t.s[st.LOSS] = 5
    k._phase8(t.s, t.p)
    assert t.cash(0) == cash
    assert t.get("loans", 0) == loans and t.get("stat_forced_loans", 0) == forced
    assert t.get("stat_unpaid", 0) == unpaid
    t.check()


# ----- P9 -----------------------------------------------------------------------------------
def test_end_of_turn_restocks_everything():
    """P9: demand tiles back in the bag (the next turn draws from all 16), characters back
    with fresh R&D (unclaimed cubes do not carry over), the Executive Decisions display
    restocked, selection order from P6, next turn."""
    t = _table(1)
    t.state["next_order"][:3] = [2, 0, 1]
    t.s[st.CHAR_RD + 1] = 0                         # Kettering's 3 cubes were claimed
    t.s[st.RD + 0] += 3                             # (Chrysler's 2 stayed unclaimed)
    t.s[st.ADS_BOUGHT] = 2
    t.state["disc_avail"][:3] = [0, 0, 1]
    t.s[st.CLOSURES_USED] = 1
    t.s[st.PRODUCED + 3] = 1
    stock = t.get("rd_stock")
    k._phase9(t.s, t.p)
    assert t.get("turn") == 2 and t.phase == st.PH_SELECT and t.current == 2
    assert t.state["sel_order"][:3].tolist() == [2, 0, 1]
    assert t.state["char_rd"].tolist() == [1, 3, 1, 0, 1, 2]
    assert (t.state["char_seat"] == -1).all() and (t.state["char_of"][:3] == -1).all()
    assert t.get("rd_stock") == stock + 5 - 8       # 5 unclaimed back, 8 out again
    assert t.get("ads_bought") == 0 and t.state["disc_avail"][:3].tolist() == [2, 1, 1]
    assert t.get("closures_used") == 0 and t.get("produced", 3) == 0
    assert int(t.state["bag"].sum()) == 16 - 6
    t.check()


def test_character_rd_restock_from_a_short_stock_fills_top_to_bottom():
    """P9: the character display is restocked from the finite stock, Ford first."""
    t = _table(0)
    t.s[st.RD_STOCK] += int(t.state["char_rd"].sum())   # every cube back in the stock
    t.state["char_rd"][:] = 0
    t.set_rd(0, t.get("rd", 0) + t.get("rd_stock") - 4)   # ...but four
    k._restock(t.s, t.p)
    assert t.state["char_rd"].tolist() == [1, 3, 0, 0, 0, 0]
    t.check()


# ----- Winning the game -------------------------------------------------------------------
def test_end_of_game_factories_at_full_value_loans_repaid_most_cash_wins():
    """Winning the game: after turn 4 (no P9) each factory on the board pays its building
    cost, the parts factory $500; loans are repaid at $600; the most cash wins."""
    t = _table(3)
    t.factories(0, "Overland Model 40", 2, parts=True)
    t.closed("Duryea", 0)
    t.factories(1, "Cord 810", 1)
    t.s[st.LOANS + 1] = 2
    k._phase8(t.s, t.p)
    assert t.phase == st.PH_OVER and t.game.current_player(t.state) == -1
    assert not t.game.legal_mask(t.state).any()
    assert t.cash(0) == 2000 + 800 + 500
    assert t.cash(1) == 2000 - 2 * 50 + 700 - 1200
    assert t.cash(2) == 2000
    assert t.game.rewards(t.state).tolist() == [1.0, -0.5, -0.5]
    info = t.game.final_info(t.state)
    assert info[0]["winner"] and info[0]["rank"] == 1 and info[0]["factory_value"] == 1300
    assert info[1]["rank"] == 3 and info[1]["loans"] == 2
    t.check()


def test_the_game_ends_after_the_fourth_turn_without_p9():
    """Course of play / P9: four turns; after turn 4's P8 the game ends (P9 skipped: the
    turn-4 tiles stay out of the bag)."""
    game = AutomobileGame(num_players=4)
    result = play_games(game, policy, ["rule_based", "random", "random", "rule_based"], 5, 9)
    for i in range(5):
        state = result.state(game, i)
        assert state["turn"][0] == 3 and state["phase"][0] == st.PH_OVER
        assert int(state["bag"].sum()) == 16 - 2 * 4 - 2
        game.check_invariants(state)


def test_ties_go_to_the_earliest_in_the_last_pass_order():
    """Winning the game: tied players: the one earliest in the order of play, i.e. who
    passed first in the last P6."""
    t = _table(3)
    t.state["next_order"][:3] = [2, 1, 0]
    k._phase8(t.s, t.p)
    assert len(set(t.game.scores(t.state))) == 1
    assert t.game.rewards(t.state).tolist() == [-0.5, -0.5, 1.0]
    assert [i["rank"] for i in t.game.final_info(t.state)] == [3, 2, 1]


@pytest.mark.parametrize(("mode", "cash", "unpaid"), [("debt", 300 - 1200, 0),
                                                   ("forgive", 0, 900)])
def test_final_loan_repayment_with_too_little_cash(mode, cash, unpaid):
    """Winning the game: loans repaid at $600 each; with too little cash the ``shortfall``
    option decides (negative cash, or pay what there is)."""
    t = _table(3, shortfall=mode)
    t.s[st.LOANS + 0] = 2
    t.set_cash(0, 400)                              # $100 interest in P8 leaves $300
    k._phase8(t.s, t.p)
    assert t.cash(0) == cash and t.get("stat_unpaid", 0) == unpaid


def test_cash_reward_option_is_zero_sum():
    """Option ``reward="cash"``: own cash minus the others' mean, in thousands."""
    t = _table(3, reward="cash")
    t.set_cash(0, 5000)
    k._phase8(t.s, t.p)
    r = t.game.rewards(t.state)
    assert np.allclose(r, [3.0, -1.5, -1.5]) and abs(float(r.sum())) < 1e-6


# ----- audit additions ------------------------------------------------------------------------
def test_p8_a_closed_tile_on_the_most_advanced_space_pushes_the_ranks_back():
    """P8: a closed factory piece "counts as an occupied space": on the most advanced space
    of a segment it makes the first open space behind it take one cube; closed tiles in
    between count too; one behind the last factory changes nothing. Mass and middle are
    ranked separately."""
    t = _table(0)
    t.closed("Space 10", 0)                        # middle, most advanced: counted
    t.factories(1, "Overland Model 40", 1)         # middle 2nd: 1 cube
    t.closed("Buick Model 10", 2)                  # middle 3rd: counted
    t.factories(2, "Jackson Model 40", 2)          # middle 4th: 3 cubes
    t.closed("Duryea", 0)                          # behind everything: nothing
    t.factories(0, "Space 09", 1)                  # mass, most advanced: none
    t.closed("Space 07", 1)                        # mass 2nd: counted
    t.factories(2, "Maxwell Model EA", 1)          # mass 3rd: 2 cubes
    market.allocate_losses(t.s, t.p)
    assert [t.get("loss", s) for s in range(3)] == [0, 1, 3 + 2]
    assert [t.get("turn_loss", s) for s in range(3)] == [0, 1, 5]


@pytest.mark.parametrize(("turn", "price"), [(0, 10), (1, 20), (2, 30), (3, 40)])
def test_p8_cubes_are_paid_at_the_present_turns_price_and_a_loan_costs_50(turn, price):
    """P8: every cube held costs the price above the present turn box ($10 in turn 1, the
    RB example; turns 2-4 INFERRED $20/$30/$40); the cubes are kept; then $50 per loan.
    After turn 4 the loan is repaid at $600 (Winning the game)."""
    t = _table(turn)
    t.s[st.LOSS + 1] = 3
    take_loan(t.s, t.p, 1)
    k._phase8(t.s, t.p)
    assert t.get("stat_loss_paid", 1) == 3 * price and t.get("stat_interest", 1) == 50
    assert t.get("loss", 1) == 3
    assert t.cash(1) == 2000 + 500 - 3 * price - 50 - (600 if turn == 3 else 0)
    assert t.cash(0) == 2000 and t.cash(2) == 2000
    t.check()


def test_ties_are_broken_among_the_tied_players_only():
    """Winning the game: the first passer of the last P6 wins only if tied for the most
    cash; among the tied players the earliest passer wins."""
    t = _table(3)
    t.state["next_order"][:3] = [1, 2, 0]
    t.set_cash(0, 3000)
    t.set_cash(2, 3000)
    k._phase8(t.s, t.p)
    assert int(k.winner(t.s, t.p)) == 2
    assert t.game.rewards(t.state).tolist() == [-0.5, -0.5, 1.0]
    assert [i["rank"] for i in t.game.final_info(t.state)] == [2, 3, 1]


@pytest.mark.parametrize(("mode", "left"), [("held", 7 - 4), ("taken", 7 - 2)])
def test_p5_p7_and_p8_loss_cubes_of_one_turn_add_up_before_sloan_and_payment(mode, left):
    """P5 (two idle salesmen: 2 cubes), P7 (one unsold car: 1 cube) and P8 (second
    middle-class space: 1 cube) add to the 3 cubes already held; Sloan then discards half
    of the 7 held (option ``held``) or of the 4 taken this turn (``taken``), rounded up,
    and the rest is paid at $10 (turn 1)."""
    t = _table(0, {0: "sloan", 1: "howard", 2: "durant"}, sloan=mode)
    t.factories(0, "Duryea", 3, cars=10)
    t.factories(1, "Buick Model B", 1)             # more advanced middle space, no cars
    t.salesmen(0, middle=5)
    t.s[st.LOSS] = 3
    for seat in range(3):
        t.set_tiles(seat, [2])
    t.to_phase(k._phase4)                          # P4 (nothing), P5: 3 boxes in turn 1
    assert t.phase == st.PH_EXEC
    assert t.get("stat_sold_salesmen", 0) == 3 and t.get("loss", 0) == 3 + 2
    while t.phase == st.PH_EXEC:
        t.play(a.A_PASS)
    assert t.get("stat_sold_demand", 0) == 6 and t.get("stat_unsold", 0) == 1
    assert t.get("stat_loss_taken", 0) == 4
    assert t.get("loss", 0) == left and t.get("stat_loss_paid", 0) == 10 * left
    assert t.cash(0) == 2000 + 9 * 150 - 10 * left
    assert t.get("loss", 1) == 0 and t.get("turn") == 1
    t.check()
