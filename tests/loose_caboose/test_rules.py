"""Loose Caboose! rules, one test per rule of the rulebook (sections named in each test)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.loose_caboose.table import Table
from transit_gym.envs.loose_caboose import kernels as k
from transit_gym.envs.loose_caboose import state as st
from transit_gym.envs.loose_caboose.data import CURVE, STRAIGHT
from transit_gym.envs.loose_caboose.rules import LooseCabooseGame

PASS, ROLL = k.A_PASS, k.A_ROLL


def lay(value, broken=False, turn=k.TURN_STRAIGHT):
    return k.play_action(value, int(broken), turn)


# ----- Setup ---
@pytest.mark.parametrize(("players", "removed"), [(2, 13), (3, 11), (4, 7)])
def test_setup_railway_caboose_removed_cards_and_hands(players, removed):
    """Setup 2-5: railway of 3 cards, caboose on the middle card, 13/11/7 cards removed
    unseen, 2 cards dealt each; the first player has drawn 1 card to start the turn."""
    game = LooseCabooseGame(num_players=players)
    state = game.new_state(4)
    s = state.data
    places = game.card_places(state)
    assert s[st.RAIL_HI] - s[st.RAIL_LO] == 3
    assert s[st.CABOOSE] - s[st.RAIL_LO] == 1
    assert len(places["removed"]) == removed
    hands = [len(places[f"hand_{i}"]) for i in range(players)]
    assert hands == [3] + [2] * (players - 1)
    assert s[st.DECK_LEN] == 50 - 3 - removed - 2 * players - 1
    game.check_invariants(state)


def test_setup_initial_railway_cards_connect_on_the_grid():
    """Setup 2 / Adding Tracks: the first three cards are laid with their rails connected."""
    game = LooseCabooseGame()
    for seed in range(30):
        s = game.new_state(seed).data
        cells = [int(c) for c in s[st.RAIL_CELL:st.RAIL_CELL + 3]]
        for before, after in zip(cells, cells[1:], strict=False):
            out = k.cell_out(before)
            assert k.cell_in(after) == out
            assert k.cell_x(after) == k.cell_x(before) + k.DX[out]
            assert k.cell_y(after) == k.cell_y(before) + k.DY[out]


def test_setup_long_initial_railway_follows_adding_tracks(tmp_path):
    """Setup 2 ("making sure that the rails connect properly", see Adding Tracks): an initial
    railway longer than 3 cards (a user data file) never overlaps or closes a loop, and its
    front can still be extended."""
    path = tmp_path / "long.toml"
    path.write_text(
        "[setup]\ninitial_railway = 16\ncards_removed = { 2 = 4, 3 = 4, 4 = 4 }\n"
        "hand_size = 2\n"
    )
    game = LooseCabooseGame(deck=str(path))
    for seed in range(200):
        state = game.new_state(seed)
        s = state.data
        lo, hi = s[st.RAIL_LO], s[st.RAIL_HI]
        assert hi - lo == 16
        cells = [int(c) for c in s[st.RAIL_CELL + lo:st.RAIL_CELL + hi]]
        spots = {(k.cell_x(c), k.cell_y(c)) for c in cells}
        assert len(spots) == 16, f"seed {seed}: cards overlap"
        for before, after in zip(cells, cells[1:], strict=False):
            assert k.cell_in(after) == k.cell_out(before)
        front = cells[-1]
        out = k.cell_out(front)
        ahead = (k.cell_x(front) + k.DX[out], k.cell_y(front) + k.DY[out])
        # leading into the back card would be a loop, into any other card a dead end
        assert ahead not in spots, f"seed {seed}: the front leads into the railway"
        assert any(k.placement_ok(s, turn) for turn in (0, 1, 2)), f"seed {seed}: blocked"
        game.check_invariants(state)


def test_deck_has_fifty_cards_and_one_broken_track_per_value():
    """Components (data 2.1): 50 Track cards, values 1-4, one Broken Track of each value."""
    data = LooseCabooseGame().data
    assert data.num_cards == 50
    assert sorted(data.values[data.broken == 1].tolist()) == [1, 2, 3, 4]
    assert set(data.values.tolist()) == {1, 2, 3, 4}


# ----- How to Play ---
def test_turn_starts_by_drawing_one_card_without_hand_limit():
    """How to Play: start by drawing 1 card into your hand (there is no hand limit)."""
    t = Table()
    big_hand = [t.card(v, False, None) for v in (1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4)]
    t.hand(1, big_hand)
    t.railway([t.card(2), t.card(2), t.card(2)], caboose=1)
    top = t.card(1)
    t.deck(t.filler(3) + [top])
    t.play(PASS)
    assert t.hand_of(1) == sorted(big_hand + [top])
    assert t.state.data[st.CURRENT] == 1
    t.check()


def test_first_decision_is_pass_or_lay_never_roll():
    """How to Play: you must take one action: add tracks, or pass (rolling needs cards laid)."""
    t = Table()
    t.railway([t.card(2), t.card(2), t.card(2)], caboose=1)
    t.deal([t.card(3, False, STRAIGHT)])
    mask = t.game.legal_mask(t.state)
    assert mask[PASS] == 1 and mask[ROLL] == 0
    assert mask[lay(3)] == 1
    assert mask.sum() == 2


def test_play_continues_with_same_value_only():
    """Add Tracks: one or more cards with the same value from your hand."""
    t = Table()
    t.railway([t.card(2), t.card(2), t.card(2)], caboose=1)
    t.deal([t.card(3, False, STRAIGHT), t.card(3, False, STRAIGHT), t.card(1, False, STRAIGHT)])
    t.play(lay(3))
    mask = t.game.legal_mask(t.state)
    assert mask[ROLL] == 1 and mask[PASS] == 0
    assert mask[lay(3)] == 1
    assert mask[lay(1)] == 0
    assert len(t.rail_cards()) == 4


def test_laid_cards_go_to_the_front_and_a_broken_track_joins_cards_of_its_value():
    """Add Tracks: cards of one value, Broken Tracks included, go to the front of the
    railway in the order laid; a card of another value (broken or not) may not join."""
    t = Table(geometry=False)
    rail = [t.card(2), t.card(2), t.card(2)]
    t.railway(rail, caboose=1)
    plain, broken = t.card(3), t.card(3, True)
    t.deal([plain, broken, t.card(1, True), t.card(4)])
    t.play(lay(3))
    mask = t.game.legal_mask(t.state)
    assert mask[lay(3, True)] == 1
    assert mask[lay(1, True)] == 0 and mask[lay(4)] == 0
    t.play(lay(3, True))
    assert t.rail_cards() == rail + [plain, broken]
    assert t.caboose() == 1, "laying does not move the caboose"


def test_dice_rolled_equal_the_card_value_not_the_number_of_cards():
    """Add Tracks example: two '3' cards roll three dice (each face here shows 1 wheel)."""
    t = Table(dice_faces=[1], geometry=False)
    t.railway([t.card(2), t.card(2), t.card(2)], caboose=0)
    t.deal([t.card(3), t.card(3)])
    t.play(lay(3), lay(3), ROLL)
    assert t.state.data[st.LAST_WHEELS] == 3
    assert t.caboose() == 3  # moved 3 of the 4 cards ahead


def test_wheels_move_the_caboose_toward_the_front_and_end_the_turn():
    """Add Tracks: move the caboose one card per wheel; ending on a card ends the turn."""
    t = Table(dice_faces=[2], geometry=False)
    t.railway([t.card(2), t.card(2), t.card(2)], caboose=0)
    t.deal([t.card(1), t.card(1)])
    t.play(lay(1), ROLL)
    assert t.caboose() == 2
    assert t.penalty_of(0) == []
    assert t.state.data[st.CURRENT] == 1


def test_a_roll_of_no_wheels_leaves_the_caboose_and_ends_the_turn():
    """Add Tracks: the caboose moves as many cards as wheels rolled, so blank dice leave it
    where it is; it ends on a Track card, which ends the turn with no penalty."""
    t = Table(dice_faces=[0], geometry=False)
    t.railway([t.card(2), t.card(2), t.card(2)], caboose=1)
    t.deal([t.card(4)])
    t.play(lay(4), ROLL)
    assert t.state.data[st.LAST_WHEELS] == 0
    assert t.caboose() == 1 and t.penalty_of(0) == [] and t.bank_of(0) == []
    assert t.state.data[st.CURRENT] == 1


def test_derailing_leaves_caboose_on_front_and_costs_missing_steps_from_the_back():
    """If the Caboose Derails (rulebook example): 3 wheels but only 1 card ahead: the caboose
    stays on the front card and 2 penalty cards come from the back, one at a time, in order."""
    t = Table(dice_faces=[1], geometry=False)
    back1, back2 = t.card(4), t.card(2)
    t.railway([back1, back2, t.card(1)], caboose=2)   # caboose on the front card
    t.deal([t.card(3)])
    t.play(lay(3), ROLL)       # laying adds 1 card ahead; 3 wheels: 2 steps missing
    assert t.caboose() == len(t.rail_cards()) - 1, "caboose left on the front card"
    assert t.penalty_of(0) == [back1, back2]
    assert t.state.data[st.STAT_DERAILS] == 1
    t.check()


def test_exact_roll_to_the_front_is_no_derailment():
    """If the Caboose Derails: only moving past the front derails; reaching it is fine."""
    t = Table(dice_faces=[1], geometry=False)
    t.railway([t.card(4), t.card(2), t.card(1)], caboose=1)
    t.deal([t.card(2)])
    t.play(lay(2), ROLL)       # 2 cards ahead, 2 wheels
    assert t.caboose() == 3
    assert t.penalty_of(0) == [] and t.state.data[st.STAT_DERAILS] == 0


def test_penalties_come_from_draw_pile_when_caboose_is_on_the_last_card():
    """Taking Penalty Cards, note: once the caboose is on the last available card (nothing
    behind it), the remaining penalties come from the top of the draw pile."""
    t = Table(dice_faces=[2], geometry=False)
    old, two = t.card(4), t.card(2)
    t.railway([old, two], caboose=1)
    t.hand(0, [t.card(2)])
    top, second = t.card(1), t.card(3)
    t.deck(t.filler(3) + [second, top])
    # 4 wheels, 1 ahead: 3 penalties: the two cards now behind the caboose, then the pile
    t.play(lay(2), ROLL)
    assert t.penalty_of(0) == [old, two, top]
    assert t.rail_cards()[t.caboose()] == t.rail_cards()[-1]
    t.check()


def test_the_caboose_card_is_never_taken_even_with_cards_ahead():
    """Taking Penalty Cards, note: with nothing behind the caboose (its card is the last
    available one) further penalties come from the draw pile, even while cards lie ahead
    of it. Here a pass onto a Broken Track banks the back card, then pays from the pile."""
    t = Table(geometry=False, pass_banks=True)
    back, broken, ahead = t.card(4), t.card(2, True), t.card(1)
    t.railway([back, broken, ahead], caboose=0)
    top = t.card(3)
    t.deck(t.filler(3) + [top])
    t.play(PASS)
    assert t.bank_of(0) == [back] and t.penalty_of(0) == [top]
    assert t.rail_cards() == [broken, ahead] and t.caboose() == 0
    t.check()


def test_matching_penalty_cards_cancel_out_into_the_discard_pile():
    """Cancelling Out Penalty Cards: a new card equal to the top card cancels with it; both
    go face up to the discard pile."""
    t = Table(geometry=False)
    top = t.card(3)
    t.penalty(0, [t.card(1), top])
    back = t.card(3)
    t.railway([back, t.card(2), t.card(2)], caboose=1)
    t.deck(t.filler(3))
    t.play(PASS)  # caboose to the front, one penalty: the 3 from the back
    assert sorted(t.discard_pile()) == sorted([top, back])
    assert [t.value(c) for c in t.penalty_of(0)] == [1]
    assert t.state.data[st.STAT_CANCELS] == 1


def test_each_card_cancels_only_once_and_cards_of_one_turn_cancel_each_other():
    """Cancelling Out Penalty Cards, notes: cards taken in one turn may cancel each other, and
    each card cancels only one other card."""
    t = Table(dice_faces=[1], geometry=False)
    a, b, c = t.card(2), t.card(2), t.card(2)
    t.railway([a, b, c, t.card(4)], caboose=3)
    t.deal([t.card(4)])
    # 1 card ahead after laying, 4 wheels: 3 penalties, the three 2s in order
    t.play(lay(4), ROLL)
    assert t.penalty_of(0) == [c]          # a and b cancelled, c stays
    assert sorted(t.discard_pile()) == sorted([a, b])


def test_a_penalty_from_the_draw_pile_cancels_like_any_other():
    """Cancelling Out Penalty Cards: whenever a card is added to the pile, including one drawn
    from the draw pile (Taking Penalty Cards, note), it cancels an equal top card."""
    t = Table(dice_faces=[1], geometry=False)
    t.penalty(0, [t.card(1)])
    back = t.card(2)
    t.railway([back], caboose=0)
    t.hand(0, [t.card(3)])
    drawn = t.card(2)
    t.deck(t.filler(3) + [drawn])
    # 3 wheels, 1 ahead: 2 penalties: the back 2, then (nothing behind) the draw pile's 2
    t.play(lay(3), ROLL)
    assert sorted(t.discard_pile()) == sorted([back, drawn])
    assert [t.value(c) for c in t.penalty_of(0)] == [1]
    t.check()


def test_a_banked_card_alone_under_the_pile_does_not_cancel_the_next_card():
    """Broken Tracks: the banked card lies face down at the bottom, so a face-up card of its
    value added on top has no top card to cancel (Cancelling Out Penalty Cards)."""
    t = Table(geometry=False)
    banked = t.card(3)
    t.bank(0, [banked])
    back = t.card(3)
    t.railway([back, t.card(2), t.card(2)], caboose=1)
    t.deck(t.filler(3))
    t.play(PASS)
    assert t.penalty_of(0) == [back] and t.bank_of(0) == [banked]
    assert t.discard_pile() == []


def test_broken_track_passed_over_banks_a_card_face_down_that_never_cancels():
    """Broken Tracks: passing over (or stopping on) a Broken Track banks a penalty card from
    the back, face down at the bottom of the pile, counted at the end, never cancelling."""
    t = Table(dice_faces=[1], geometry=False)
    back = t.card(3)
    t.penalty(0, [t.card(3)])
    t.railway([back, t.card(1), t.card(2, True), t.card(2), t.card(2)], caboose=1)
    t.deal([t.card(2)])
    t.play(lay(2), ROLL)  # 2 wheels: passes the Broken Track, stops on the next card
    assert t.bank_of(0) == [back]
    assert len(t.penalty_of(0)) == 1      # the banked 3 did not cancel the face-up 3
    points, _ = t.game.scores(t.state)[0]
    assert points == 6


def test_stopping_on_broken_tracks_and_several_broken_tracks_bank_one_card_each():
    """Broken Tracks: stopping on one counts, and each Broken Track passed banks a card."""
    t = Table(dice_faces=[1], geometry=False)
    b1, b2 = t.card(4), t.card(3)
    t.railway([b1, b2, t.card(1), t.card(1, True), t.card(3, True)], caboose=2)
    t.deal([t.card(2)])
    t.play(lay(2), ROLL)  # 2 wheels: pass the broken 1, stop on the broken 3
    assert t.bank_of(0) == sorted([b1, b2])
    assert t.state.data[st.STAT_BANKED] == 2


def test_the_broken_track_the_caboose_starts_on_is_not_passed_over():
    """Broken Tracks: only cards passed over or stopped on during the move count; the card
    the caboose starts from is neither (data 2.2, ambiguity resolved this way)."""
    t = Table(dice_faces=[1], geometry=False)
    t.railway([t.card(4), t.card(2, True), t.card(1), t.card(1)], caboose=1)
    t.deal([t.card(1)])
    t.play(lay(1), ROLL)
    assert t.bank_of(0) == [] and t.caboose() == 2


def test_play_continues_to_the_left():
    """How to Play: play continues to the left (seat order 0, 1, 2, 0...)."""
    t = Table(num_players=3, geometry=False)
    t.railway([t.card(2), t.card(2), t.card(2), t.card(2), t.card(2)], caboose=0)
    t.deck(t.filler(6))
    seats = []
    for _ in range(4):
        seats.append(int(t.state.data[st.CURRENT]))
        t.play(PASS)
    assert seats == [0, 1, 2, 0]


@pytest.mark.parametrize("bank_first", [True, False])
def test_option_bank_first_orders_banking_and_derailment_penalties(bank_first):
    """Ambiguity (data 2.2): banking before or after derailment penalties, an option."""
    t = Table(dice_faces=[1], geometry=False, bank_first=bank_first)
    first, second = t.card(4), t.card(2)
    t.railway([first, second, t.card(1), t.card(3, True)], caboose=2)
    t.deal([t.card(3)])
    t.play(lay(3), ROLL)  # 3 wheels, 2 ahead: passes the broken 3; 1 derail penalty
    if bank_first:
        assert t.bank_of(0) == [first] and t.penalty_of(0) == [second]
    else:
        assert t.penalty_of(0) == [first] and t.bank_of(0) == [second]


def test_pass_moves_caboose_one_card_and_costs_one_penalty():
    """Pass: advance the caboose 1 card and collect 1 penalty card."""
    t = Table(geometry=False)
    back = t.card(4)
    t.railway([back, t.card(1), t.card(2), t.card(2)], caboose=1)
    t.deck(t.filler(3))
    t.play(PASS)
    assert t.caboose() == 1   # moved from index 1 to 2; the back card left the railway
    assert t.penalty_of(0) == [back]
    assert t.state.data[st.STAT_PASSES] == 1


def test_pass_at_the_front_only_costs_one_penalty():
    """Pass: if the caboose is already at the end of the railway, just collect 1 card."""
    t = Table(geometry=False)
    back = t.card(4)
    t.railway([back, t.card(1), t.card(2)], caboose=2)
    t.deck(t.filler(3))
    t.play(PASS)
    assert t.caboose() == 1 and len(t.rail_cards()) == 2
    assert t.penalty_of(0) == [back]


def test_pass_on_a_broken_track_at_the_front_banks_nothing():
    """Pass / Broken Tracks: at the front the caboose does not move, so it neither passes
    over nor stops on a Broken Track (the card it starts on does not count, data 2.2)."""
    t = Table(geometry=False, pass_banks=True)
    back = t.card(4)
    t.railway([back, t.card(1), t.card(2, True)], caboose=2)
    t.deck(t.filler(3))
    t.play(PASS)
    assert t.bank_of(0) == [] and t.penalty_of(0) == [back]


@pytest.mark.parametrize("pass_banks", [True, False])
def test_option_pass_onto_broken_track_banks(pass_banks):
    """Ambiguity (data 2.2): does a pass that moves onto a Broken Track bank a card?"""
    t = Table(geometry=False, pass_banks=pass_banks)
    t.railway([t.card(4), t.card(1), t.card(2), t.card(2, True), t.card(1)], caboose=2)
    t.deck(t.filler(3))
    t.play(PASS)
    assert len(t.bank_of(0)) == (1 if pass_banks else 0)
    assert len(t.penalty_of(0)) == 1


# ----- Adding Tracks (grid geometry) ---
def test_straight_cards_lay_straight_and_curves_turn_left_or_right():
    """Adding Tracks: cards are placed vertically or horizontally; a straight card continues,
    a curve turns (either way, the card can be rotated)."""
    t = Table()
    t.railway([t.card(2), t.card(2), t.card(2)], caboose=1)
    t.deal([t.card(3, False, STRAIGHT), t.card(1, False, CURVE)])
    mask = t.game.legal_mask(t.state)
    assert mask[lay(3, False, k.TURN_STRAIGHT)] == 1
    assert mask[lay(3, False, k.TURN_LEFT)] == 0
    assert mask[lay(1, False, k.TURN_LEFT)] == 1 and mask[lay(1, False, k.TURN_RIGHT)] == 1
    assert mask[lay(1, False, k.TURN_STRAIGHT)] == 0
    t.play(lay(1, False, k.TURN_LEFT))
    s = t.state.data
    front = s[st.RAIL_HI] - 1
    assert k.cell_out(s[st.RAIL_CELL + front]) == 1  # was heading east, now north


def test_cards_cannot_overlap():
    """Adding Tracks: cards cannot overlap; a card with no legal placement cannot be played."""
    t = Table()
    L = k.TURN_LEFT
    # (0,0) east, (1,0) turns north, (1,1) turns west, (0,1) turns south: the front now
    # points into (0,0), which the back card occupies.
    cards = [t.card(1, False, STRAIGHT), t.card(2, False, CURVE), t.card(2, False, CURVE),
             t.card(2, False, CURVE)]
    t.railway(cards, caboose=1, turns=[0, L, L, L])
    t.deal([t.card(3, False, STRAIGHT), t.card(3, False, CURVE)])
    mask = t.game.legal_mask(t.state)
    assert mask[PASS] == 1
    assert mask.sum() == 1, "no placement is free, so only pass is legal"


def _set_cells(s, cells):
    """Place railway cards at (x, y, heading in, heading out), back to front."""
    for i, (x, y, d_in, d_out) in enumerate(cells):
        s[st.RAIL_CELL + i] = k.pack_cell(x, y, d_in, d_out)


def _front_right_below_the_back(back_heading_in: int) -> Table:
    """Three railway cards: the back card at (0,0) entered heading ``back_heading_in``, the
    front at (1,-1) heading west, so the next card goes to (0,-1), right below the back
    card. Turning right (north) runs into the back card; straight and left stay legal."""
    t = Table()
    t.railway([t.card(1, False, STRAIGHT), t.card(2, False, CURVE), t.card(2, False, CURVE)],
              caboose=1)
    s = t.state.data
    _set_cells(s, [(0, 0, back_heading_in, 0), (1, 0, 0, 3), (1, -1, 3, 2)])
    assert not k.placement_ok(s, k.TURN_RIGHT), "turning north runs into the back card"
    assert k.placement_ok(s, k.TURN_STRAIGHT)
    assert k.placement_ok(s, k.TURN_LEFT)
    return t


def test_railway_cannot_close_a_loop():
    """Adding Tracks: no card may be placed so that the railway makes a loop, i.e. the new
    card's rail would run into the back card's open end (heading north into the back card,
    its open end faces (0,-1))."""
    _front_right_below_the_back(1)


def test_a_rail_cannot_run_into_the_side_of_the_railway():
    """Adding Tracks (our reading of "no loop"): a curve whose rail would lead into the side
    of a railway card (the back card entered heading east: no open end below it) joins the
    railway to itself; nothing could ever be laid after it (the next card would overlap),
    so it is not a legal placement. Turning the other way, or laying a straight card,
    stays legal."""
    t = _front_right_below_the_back(0)
    t.deal([t.card(3, False, CURVE), t.card(4, False, STRAIGHT)])
    mask = t.game.legal_mask(t.state)
    assert mask[k.play_action(3, 0, k.TURN_RIGHT)] == 0
    assert mask[k.play_action(3, 0, k.TURN_LEFT)] == 1
    assert mask[k.play_action(4, 0, k.TURN_STRAIGHT)] == 1


def test_after_any_legal_card_the_railway_can_still_be_extended_somewhere():
    """Consequence of the reading: over random games on the grid, the front of the railway
    never points into an occupied cell, so the next card always has its cell free."""
    game = LooseCabooseGame(num_players=3)
    rng = np.random.default_rng(5)
    for seed in range(40):
        state = game.new_state(seed)
        while game.current_player(state) >= 0:
            s = state.data
            front = s[st.RAIL_CELL + s[st.RAIL_HI] - 1]
            d = k.cell_out(front)
            assert not k._cell_taken(s, k.cell_x(front) + k.DX[d], k.cell_y(front) + k.DY[d])
            game.apply(state, int(rng.choice(game.legal_actions(state))))


def test_plain_line_option_accepts_every_card_straight():
    """Option geometry=False: a plain line where any card fits (one straight action each)."""
    t = Table(geometry=False)
    t.railway([t.card(2), t.card(2), t.card(2)], caboose=1)
    t.deal([t.card(1, False, CURVE), t.card(4, True, None)])
    mask = t.game.legal_mask(t.state)
    assert mask[lay(1, False, k.TURN_STRAIGHT)] == 1
    assert mask[lay(4, True, k.TURN_STRAIGHT)] == 1
    assert mask[lay(1, False, k.TURN_LEFT)] == 0


# ----- Ending the Game ---
def test_game_ends_after_the_turn_of_the_player_who_drew_the_last_card():
    """Ending the Game: the draw pile is empty; whoever drew the last card completes the turn."""
    t = Table(geometry=False)
    t.railway([t.card(2), t.card(2), t.card(2), t.card(2)], caboose=1)
    t.hand(0, [t.card(1)])
    t.deck([t.card(3), t.card(4)])
    t.play(PASS)                                  # player 1 draws a card, one left
    assert t.state.data[st.END_TRIGGERED] == 0
    t.play(PASS)                                  # player 0 draws the last card
    assert t.state.data[st.END_TRIGGERED] == 1
    assert t.game.current_player(t.state) == 0, "the last drawer still plays the turn"
    t.play(PASS)
    assert t.game.is_over(t.state)
    t.check()


def test_a_penalty_that_empties_the_draw_pile_ends_the_game_after_that_turn():
    """Ending the Game: the game ends when the draw pile is empty; a player who takes its
    last card as a penalty (Taking Penalty Cards, note) drew the last card and finishes
    the turn, then the game is over (the next player does not get a turn)."""
    t = Table(dice_faces=[1], geometry=False)
    back = t.card(2)
    t.railway([back], caboose=0)
    t.hand(0, [t.card(3)])
    t.hand(1, [t.card(1)])
    last = t.card(4)
    t.deck([last])
    t.play(lay(3), ROLL)   # 3 wheels, 1 ahead: the back 2, then the draw pile's last card
    assert t.penalty_of(0) == [back, last]
    assert t.state.data[st.DECK_LEN] == 0
    assert t.game.is_over(t.state)
    assert t.places()["hand_final_1"] != [], "seat 1 never drew: its hand joined its pile"
    t.check()


def test_end_reshuffles_the_discards_when_the_last_turn_needs_penalties():
    """Ending the Game: if penalties are due with the caboose on the only railway card and
    the draw pile empty, the discard pile is shuffled into a new draw pile."""
    t = Table(geometry=False, dice_faces=[2])
    t.railway([t.card(2)], caboose=0)
    old = [t.card(3), t.card(4), t.card(4), t.card(3)]
    t.discard(old)
    t.hand(0, [t.card(2)])
    t.deck([])
    t.state.data[st.END_TRIGGERED] = 1
    t.play(lay(2), ROLL)  # 4 wheels, 1 ahead: the old railway card, then 2 reshuffled cards
    s = t.state.data
    from_reshuffle = [c for c in t.penalty_of(0) + t.discard_pile() + t.deck_cards()
                      if c in old]
    assert sorted(from_reshuffle) == sorted(old)
    assert s[st.DECK_LEN] == 2, "two of the four reshuffled cards were taken"
    assert s[st.STAT_UNPAID] == 0
    assert t.game.is_over(t.state)
    t.check()


def test_hands_join_penalty_piles_without_cancelling_at_the_end():
    """Ending the Game, note: every player's hand joins their pile and cancels nothing: not
    the pile's top card (a 2 on a 2 here) and not each other (two 4s)."""
    t = Table(geometry=False)
    t.railway([t.card(2), t.card(2), t.card(2)], caboose=2)
    t.penalty(1, [t.card(4)])
    t.hand(0, [t.card(3)])
    t.hand(1, [t.card(4), t.card(4), t.card(2)])
    last = t.card(1)
    t.deck([last])
    t.play(PASS)                     # seat 0 takes a back 2; seat 1 draws the last card
    t.play(PASS)                     # seat 1 takes a back 2 (pile 4, 2) and the game ends
    assert t.game.is_over(t.state)
    assert t.hand_of(0) == [] and t.hand_of(1) == []
    assert len(t.places()["hand_final_1"]) == 4
    info = t.game.final_info(t.state)
    assert info[1]["cards"] == 2 + 4           # pile 4 2, hand 4 4 2 1
    assert info[1]["points"] == 4 + 2 + 4 + 4 + 2 + 1
    assert info[1]["cancels"] == 0
    assert (info[0]["cards"], info[0]["points"]) == (2, 2 + 3), "seat 0's hand counts too"
    t.check()


def _finished(t: Table, scores: list[list[int]]) -> None:
    """Mark the game over with the given penalty piles (values)."""
    for seat, values in enumerate(scores):
        t.penalty(seat, [t.card(v, False, None) for v in values])
    t.railway([t.card(2, False, None)], caboose=0)
    t.deck(t.filler(0))
    t.state.data[st.PHASE] = st.PHASE_OVER


def test_fewest_penalty_points_wins():
    """Ending the Game: add up the penalty pile; the fewest points wins."""
    t = Table(num_players=3)
    _finished(t, [[4, 4], [1, 2], [3, 3, 1]])
    assert list(t.game.rewards(t.state)) == [-0.5, 1.0, -0.5]
    assert [i["rank"] for i in t.game.final_info(t.state)] == [3, 1, 2]


def test_tie_on_points_goes_to_fewest_cards():
    """Ending the Game: tied players - the one with the fewest penalty cards wins."""
    t = Table(num_players=2)
    _finished(t, [[2, 2], [4]])
    assert list(t.game.rewards(t.state)) == [-1.0, 1.0]


def test_points_decide_before_the_number_of_cards():
    """Ending the Game: fewest points wins even with more cards; cards only break ties."""
    t = Table(num_players=2)
    _finished(t, [[1, 1, 1], [4]])
    assert list(t.game.rewards(t.state)) == [1.0, -1.0]
    assert [i["rank"] for i in t.game.final_info(t.state)] == [1, 2]


def test_banked_and_hand_cards_count_in_points_and_in_the_tie_break():
    """Ending the Game: points include banked cards and the hand added at the end; the
    tie-break counts the same cards. Seats 0 and 2 tie seat 1 on 4 points, with 2 cards."""
    t = Table(num_players=3)
    _finished(t, [[3], [4], [2]])
    t.bank(0, [t.card(1)])
    t.hand_final(2, [t.card(2)])
    assert t.game.scores(t.state) == [(4, 2), (4, 1), (4, 2)]
    assert list(t.game.rewards(t.state)) == [-0.5, 1.0, -0.5]
    t.check()


def test_full_tie_shares_the_victory():
    """Ending the Game: if still tied, all tied players share the victory."""
    t = Table(num_players=3)
    _finished(t, [[2, 1], [1, 2], [4, 4]])
    r = t.game.rewards(t.state)
    assert list(r) == [0.5, 0.5, -1.0]
    assert [i["winner"] for i in t.game.final_info(t.state)] == [True, True, False]


def test_score_reward_option_is_zero_sum_difference():
    """Option reward='score': mean of the others' points minus one's own."""
    t = Table(num_players=3, reward="score")
    _finished(t, [[4], [1], [2, 3]])
    r = t.game.rewards(t.state)
    assert np.allclose(r, [(1 + 5) / 2 - 4, (4 + 5) / 2 - 1, (4 + 1) / 2 - 5])
    assert abs(float(r.sum())) < 1e-6


# ----- Observation ---
def test_observation_shows_own_hand_and_hides_other_hands():
    """Setup 4-5: hands are secret and removed cards unseen: swapping a card of seat 1's hand
    with a removed card changes nothing seat 0 sees, while its own hand is shown."""
    from transit_gym.envs.loose_caboose.encode import O_HAND

    t = Table()
    t.railway([t.card(2), t.card(2), t.card(2)], caboose=1)
    t.hand(0, [t.card(3, False, STRAIGHT)])
    t.hand(1, [t.card(1, False, STRAIGHT), t.card(1, False, STRAIGHT)])
    t.deck(t.filler(3))
    before = t.game.observe(t.state, 0)
    seat1_before = t.game.observe(t.state, 1)
    assert before[O_HAND + ((3 - 1) * 2 + 0) * 2 + STRAIGHT] == 1
    s = t.state.data
    given_up = t.hand_of(1)[0]
    swapped_in = next(c for c in t.places()["removed"] if t.value(c) == 4)
    s[st.LOC + given_up], s[st.LOC + swapped_in] = st.Z_REMOVED, st.Z_HAND + 1
    t.check()
    assert np.array_equal(t.game.observe(t.state, 0), before)
    assert not np.array_equal(t.game.observe(t.state, 1), seat1_before), "seat 1 sees its hand"


# ----- Options and data files ---
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"geometry": "yes"}, "geometry"),
        ({"first_player": 2}, "first_player"),
        ({"first_player": "last"}, "first_player"),
        ({"reward": "points"}, "reward"),
        ({"dice_faces": []}, "dice_faces"),
        ({"dice_faces": [0, 7]}, "dice_faces"),
        ({"pass_banks": 1}, "pass_banks"),
    ],
)
def test_bad_options_are_rejected_with_the_option_named(options, message):
    with pytest.raises(ValueError, match=message):
        LooseCabooseGame(num_players=2, **options)


def test_first_player_option_starts_and_draws_first():
    """How to Play: whoever last traveled by train goes first (option first_player): that
    seat draws the first card and decides first."""
    game = LooseCabooseGame(num_players=3, first_player=2)
    state = game.new_state(7)
    assert game.current_player(state) == 2
    places = game.card_places(state)
    assert [len(places[f"hand_{i}"]) for i in range(3)] == [2, 2, 3]


def test_first_player_random_is_fixed_by_the_seed():
    """How to Play: a seeded random first player when asked for ('random')."""
    game = LooseCabooseGame(num_players=4, first_player="random")
    firsts = {int(game.new_state(seed).data[st.FIRST_PLAYER]) for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert game.new_state(9).data[st.FIRST_PLAYER] == game.new_state(9).data[st.FIRST_PLAYER]


def test_user_deck_file_replaces_the_sections_it_gives(tmp_path):
    """A user who owns the game passes the printed counts and dice as a data file."""
    path = tmp_path / "deck.toml"
    path.write_text(
        "[dice]\ncount = 4\nfaces = [0, 1, 1, 1, 1, 2]\n"
        "[deck]\ncards = [\n"
        "{ value = 1, broken = false, shape = 'straight', count = 11 },\n"
        "{ value = 2, broken = false, shape = 'curve', count = 11 },\n"
        "{ value = 3, broken = false, shape = 'straight', count = 12 },\n"
        "{ value = 4, broken = false, shape = 'curve', count = 12 },\n"
        "{ value = 1, broken = true, shape = 'straight', count = 1 },\n"
        "{ value = 2, broken = true, shape = 'straight', count = 1 },\n"
        "{ value = 3, broken = true, shape = 'straight', count = 1 },\n"
        "{ value = 4, broken = true, shape = 'straight', count = 1 },\n]\n"
    )
    game = LooseCabooseGame(deck=str(path))
    assert game.data.num_cards == 50
    assert list(game.data.faces) == [0, 1, 1, 1, 1, 2]
    assert game.data.cards_removed[2] == 13   # [setup] kept from the default file
    game.check_invariants(game.new_state(1))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[deck]\ncards = [{ value = 5, broken = false, shape = 'straight', count = 50 }]\n",
         "value"),
        ("[deck]\ncards = [{ value = 1, broken = false, shape = 'loop', count = 50 }]\n",
         "shape"),
        ("[deck]\ncards = [{ value = 1, broken = false, shape = 'curve', count = 5 }]\n",
         "at least"),
        ("[dice]\ncount = 4\nfaces = []\n", "faces"),
        ("[setup]\ninitial_railway = 3\nhand_size = 2\n", "cards_removed"),
        ("[decks]\n", "unknown keys"),
        ("not toml = = =\n", "not valid TOML"),
    ],
)
def test_bad_deck_files_say_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as err:
        LooseCabooseGame(deck=str(path))
    assert "bad.toml" in str(err.value)


def test_missing_deck_file_is_named():
    with pytest.raises(ValueError, match="does not exist"):
        LooseCabooseGame(deck="no/such/file.toml")
