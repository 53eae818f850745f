"""Taking a Turn (order, end-of-turn draw, the deck), Winning the Game (triggers, the
round, scoring, tie-breaks), rewards, final info and what each seat may see."""

from __future__ import annotations

import numpy as np
import pytest

from transit_gym.envs.core.rng import RNG_WORDS
from transit_gym.envs.planes import kernels as k
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.encode import O_HAND, O_SEATS, PLAYER_BLOCK

from .table import Table, empty_table


def finish_turn(t: Table) -> None:
    """Play the seat to move through its turn with the plainest choices."""
    seat = t.current
    while t.current == seat and t.phase != st.PH_OVER:
        legal = t.legal()
        if t.STOP in legal:
            t.play(t.STOP)
        elif t.PASS() in legal:
            t.play(t.PASS())
        else:
            t.play(legal[0])


# ----- turns ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "first", "order"), [
    (2, 0, [0, 1, 0, 1]), (3, 0, [0, 1, 2, 0]), (4, 2, [2, 3, 0, 1, 2]),
])
def test_turns_go_clockwise_from_the_starting_player(n, first, order):
    """How to Play: each round every player takes one turn in clockwise order."""
    t = Table(n, first_player=first, seed=3)
    seen = []
    for _ in order:
        seen.append(t.current)
        finish_turn(t)
    assert seen == order


def test_empty_hand_may_draw_one_card_at_the_end_of_the_turn():
    """Goal Phase: with no cards left in hand you may draw one card (``end_draw="may"``)."""
    t = empty_table()
    t.put("S4", red=1)
    t.move(0)
    t.play(t.SPACE("S4"), t.DROP("red"))
    assert t.phase == st.PH_DRAW and t.legal() == [t.PASS(), t.DRAW]
    t.play(t.DRAW)
    assert t.hand_size(0) == 1 and t.current == 1
    t2 = empty_table()
    t2.put("S4", red=1)
    t2.move(0)
    t2.play(t2.SPACE("S4"), t2.DROP("red"), t2.PASS())
    assert t2.hand_size(0) == 0 and t2.current == 1


def test_empty_hand_always_draws_with_the_reference_sheet_option():
    """Reference sheet: 'If you have no cards left ... draw 1 card' (``end_draw="must"``)."""
    t = empty_table(end_draw="must")
    t.put("S4", red=1)
    t.put("S8", blue=1)
    t.move(0)
    t.play(t.SPACE("S4"), t.DROP("red"))
    assert t.hand_size(0) == 1 and t.current == 1


def test_a_hand_with_cards_draws_nothing_at_the_end_of_the_turn():
    """Goal Phase: with cards remaining in hand you do not draw."""
    t = empty_table()
    t.put("S4", red=1, grey=5)
    t.give(0, "Move Twice")
    t.move(0)
    t.play(t.SPACE("S4"), t.DROP("grey"), t.STOP)
    assert t.hand_size(0) == 1 and t.current == 1


def test_an_empty_deck_is_rebuilt_from_the_shuffled_discards():
    """Rule Clarifications: if the draw deck runs out, shuffle the discards into a deck."""
    t = empty_table()
    t.empty_deck_into_discard()
    t.put("S4", red=1)
    discards = t.discard_size()
    t.move(0)
    t.play(t.SPACE("S4"), t.DROP("red"), t.DRAW)
    assert t.hand_size(0) == 1
    assert t.discard_size() == 0 and t.deck_size() == discards - 1


def test_no_hand_limit():
    """Rule Clarifications: there is no hand limit."""
    t = empty_table()
    t.put("S4", red=1)
    t.give(0, *["Draw 3 Discard 1"] * 4, *["Move Twice"] * 4, *["Regroup"] * 4)
    t.turn(0)
    t.play(t.CARD("Draw 3 Discard 1"))
    assert t.hand_size(0) == 14
    t.play(t.CARD("Move Twice"))
    assert t.hand_size(0) == 13


def test_player_decks_draw_and_discard_to_the_own_pile():
    """Optional Rules, Player Decks: each player draws from and discards to their own
    deck; a personal deck is rebuilt from its own discards."""
    t = empty_table(player_decks=True)
    t.put("S4", red=1)
    t.give(0, "Draw 1")
    t.turn(0)
    deck1 = t.deck_size(1)
    t.play(t.CARD("Draw 1"))
    assert t.deck_size(0) == 13 and t.deck_size(1) == deck1
    t.play(t.SPACE("S4"), t.DROP("red"))
    assert t.discard_size(0) == 1 and t.discard_size(1) == 0
    t.check()


def test_player_decks_rebuild_a_personal_deck_from_its_own_discards():
    """Player Decks: in the rare case a personal deck runs out, shuffle that player's own
    discard pile into a new personal deck."""
    t = empty_table(player_decks=True)
    t.put("S4", red=1)
    t.empty_deck_into_discard(0)
    own = t.discard_size(0)
    t.move(0)
    t.play(t.SPACE("S4"), t.DROP("red"), t.DRAW)
    assert t.hand_size(0) == 1 and t.discard_size(0) == 0 and t.deck_size(0) == own - 1
    assert t.deck_size(1) == 15 and t.discard_size(1) == 0


# ----- the end ------------------------------------------------------------------------------------
def test_a_full_plane_ends_the_game_after_the_round():
    """Winning the Game: when a colour's planes are all full the game ends once every
    player has had the same number of turns."""
    t = empty_table(3, end_draw="must")
    t.board("G1", 4)
    t.put("S9", red=1)
    t.put("S4", blue=1)
    t.put("S6", green=1)
    t.move(0)
    t.play(t.SPACE("S9"), t.BOARD("G1"))
    assert t.s[st.END_TRIGGERED] == 1 and t.current == 1
    finish_turn(t)
    assert t.current == 2
    finish_turn(t)
    assert t.phase == st.PH_OVER and t.game.current_player(t.state) == -1
    assert not t.game.legal_mask(t.state).any()


def test_the_last_seat_of_the_round_ends_the_game_at_once():
    """Winning the Game: triggered in the round's last turn, the game ends after it."""
    t = empty_table(2, end_draw="must")
    t.board("G2", 4)
    t.put("S12", blue=1)
    t.move(1)
    t.play(t.SPACE("S12"), t.BOARD("G2"))
    assert t.phase == st.PH_OVER


def test_one_full_neutral_plane_is_not_all_grey_planes():
    """Winning the Game: any one colour, neutrals included, fills ALL of its planes."""
    t = empty_table()
    t.board("N1", 4)
    t.board("N2", 4)
    t.put("S8", red=1, grey=1)
    t.put("S1", red=1, grey=1)
    t.move(0)
    t.play(t.SPACE("S8"), t.DROP("red"), t.BOARD("N2"))
    assert t.boarded("N2") == 5 and t.s[st.END_TRIGGERED] == 0
    t.move(0)
    t.play(t.SPACE("S1"), t.DROP("red"), t.BOARD("N1"))
    assert t.boarded("N1") == 5 and t.s[st.TRACK] == 10
    assert t.s[st.END_TRIGGERED] == 1


def test_an_unassigned_colours_full_plane_ends_the_game():
    """Winning the Game: any one colour, neutrals included, filling all of its planes ends
    the game; with two players green is neutral and has its one plane at G3."""
    t = empty_table(end_draw="must")
    t.board("G3", 4)
    t.put("S1", red=1, green=1)
    t.put("S4", blue=1)
    t.move(0)
    t.play(t.SPACE("S1"), t.DROP("red"), t.BOARD("G3"))
    assert t.boarded("G3") == 5 and t.s[st.TRACK] == 5 and t.s[st.END_TRIGGERED] == 1
    assert t.hand_size(0) == 2                        # and the neutral boarding drew 2
    assert t.current == 1 and t.phase != st.PH_OVER


@pytest.mark.parametrize(("trigger", "more_turns"), [(0, []), (1, [2, 0]), (2, [0])])
def test_the_round_ends_with_the_seat_before_the_starting_player(trigger, more_turns):
    """Winning the Game: the game ends after the current round, when each player has had
    the same number of turns; with seat 1 starting, seat 0 plays last in each round.
    (Shorter Games, ``end_at=1``: the first cube boarded triggers the end.)"""
    t = empty_table(3, first_player=1, end_draw="must", end_at=1)
    gate = {0: "G3", 1: "G1", 2: "G2"}[trigger]      # seat 1 starts at P1, seat 0 at P3
    access = {"G1": "S9", "G2": "S12", "G3": "S2"}[gate]
    t.put(access, **{("red", "blue", "green")[trigger]: 1})
    for seat in range(3):
        t.put(("S0", "S4", "S7")[seat], **{("red", "blue", "green")[seat]: 1})
    t.move(trigger)
    t.play(t.SPACE(access), t.BOARD(gate))
    assert t.s[st.END_TRIGGERED] == 1
    for seat in more_turns:
        assert t.phase != st.PH_OVER and t.current == seat
        finish_turn(t)
    assert t.phase == st.PH_OVER


@pytest.mark.parametrize("end_at", [12, 8])
def test_the_boarding_track_end_space_triggers_the_end(end_at):
    """Winning the Game: the token on '12' (Optional Rules, Shorter Games: an earlier
    space such as '8')."""
    t = empty_table(end_at=end_at)
    left = end_at - 1
    for gate in ("G3", "G4", "N1"):
        t.board(gate, min(4, left))
        left -= min(4, left)
    t.put("S9", red=1)
    t.move(0)
    assert t.s[st.TRACK] == end_at - 1 and t.s[st.END_TRIGGERED] == 0
    t.play(t.SPACE("S9"), t.BOARD("G1"))
    assert t.s[st.TRACK] == end_at and t.s[st.END_TRIGGERED] == 1


def test_round_limit_ends_the_game_and_none_plays_on():
    """``max_rounds`` (not in the rulebook) ends the game after that many rounds."""
    t = Table(2, max_rounds=2, seed=1)
    for _ in range(4):
        finish_turn(t)
    assert t.phase == st.PH_OVER and t.s[st.END_TRIGGERED] == 2
    assert t.game.final_info(t.state)[0]["round_limit_reached"]
    t2 = Table(2, max_rounds=None, seed=1)
    for _ in range(20):
        finish_turn(t2)
    assert t2.phase != st.PH_OVER


# ----- scoring and ties ---------------------------------------------------------------------------
def _over(t: Table) -> None:
    t.s[st.PHASE] = st.PH_OVER
    t.s[st.END_TRIGGERED] = 1


def _score_goals(t: Table, seat: int, *names: str) -> None:
    for name in names:
        t.give(seat, name)
        k.score_goal(t.s, seat, t.card(name))


def test_example_scoring_goals_plus_five_per_own_cube_boarded():
    """Example Scoring: goals 1+1+2+3 = 7 VP and 4 boarded cubes x 5 = 20: 27 VP."""
    t = empty_table()
    _score_goals(t, 0, "Draw 1", "Choose One", "Regroup", "Move Twice")
    t.board("G1", 4)
    t.board("N1", 3)                       # grey cubes score nobody
    t.board("G3", 2)                       # nor do unassigned colours
    assert k.score(t.s, t.p, 0) == 27 and k.score(t.s, t.p, 1) == 0
    _over(t)
    assert t.game.rewards(t.state).tolist() == [1.0, -1.0]
    t.check()


def test_tie_goes_to_most_own_cubes_boarded():
    """Winning the Game: tied players: most party cubes boarded on their plane wins."""
    t = empty_table()
    t.board("G1", 1)
    _score_goals(t, 0, "Draw 2 Discard 1", "Draw 1")           # 5 + 3 = 8
    _score_goals(t, 1, "Draw 3 Discard 1", "Move Twice", "Regroup")   # 8, no cube
    _over(t)
    assert t.game.scores(t.state) == [8, 8]
    assert t.game.rewards(t.state).tolist() == [1.0, -1.0]


def test_then_to_most_goal_cards():
    """Winning the Game: still tied: most scored goals (quantity of cards) wins."""
    t = empty_table()
    _score_goals(t, 0, "Move Twice")                            # 3 VP, 1 card
    _score_goals(t, 1, "Draw 1", "Regroup")                     # 3 VP, 2 cards
    _over(t)
    assert t.game.rewards(t.state).tolist() == [-1.0, 1.0]
    info = t.game.final_info(t.state)
    assert [i["rank"] for i in info] == [2, 1] and info[1]["winner"]


def test_a_complete_tie_is_shared():
    """Winning the Game: a tie beyond that is 'play again': a draw here (open question Q7)."""
    t = empty_table(3)
    _score_goals(t, 0, "Move Twice")
    _score_goals(t, 1, "Move Backwards")
    _score_goals(t, 2, "Draw 1")
    _over(t)
    assert t.game.rewards(t.state).tolist() == pytest.approx([0.5, 0.5, -1.0])
    t2 = empty_table()
    _over(t2)
    assert t2.game.rewards(t2.state).tolist() == [0.0, 0.0]


def test_score_reward_mode_is_own_vp_minus_the_others_mean():
    """Option ``reward="score"``: zero-sum score differences instead of win/loss."""
    t = empty_table(3, reward="score")
    _score_goals(t, 0, "Move Twice")
    _score_goals(t, 1, "Draw 1")
    _over(t)
    assert t.game.rewards(t.state).tolist() == pytest.approx([2.5, -0.5, -2.0])


def test_final_info_reports_score_rank_winner_and_statistics():
    """Winning the Game: final scores, ranks and winners in ``infos``."""
    t = Table(2, seed=0)
    while not t.game.is_over(t.state):
        finish_turn(t)
    info = t.game.final_info(t.state)
    for seat, entry in enumerate(info):
        assert entry["score"] == k.score(t.s, t.p, seat)
        assert {"rank", "winner", "own_cubes_boarded", "goals_scored", "goal_vp",
                "cubes_boarded_as_mover", "moves", "cards_drawn"} <= set(entry)
    assert sum(e["winner"] for e in info) >= 1


# ----- hidden information -----------------------------------------------------------------------
def test_a_seat_sees_its_own_hand_and_only_the_size_of_others():
    """Setup 7: hands are hidden from the other players until played."""
    t = Table(3, seed=2)
    game = t.game
    obs = game.observe(t.state, 0)
    assert obs[O_HAND:O_HAND + 15].sum() == 3
    hands = t.state["hand"].reshape(4, -1)
    swapped = t.state.copy()
    other = swapped["hand"].reshape(4, -1)
    deck = swapped["deck"].reshape(4, -1)
    t_old = int(np.flatnonzero(other[1])[0])
    t_new = int(np.flatnonzero((deck[0] > 0) & (hands[1] == 0))[0])
    other[1, t_old] -= 1
    deck[0, t_old] += 1
    other[1, t_new] += 1
    deck[0, t_new] -= 1
    game.check_invariants(swapped)
    assert np.array_equal(game.observe(swapped, 0), obs)
    assert not np.array_equal(game.observe(swapped, 1), game.observe(t.state, 1))
    block = O_SEATS + 1 * PLAYER_BLOCK
    assert obs[block] == 3                   # seat 1's hand size is public


@pytest.mark.parametrize("n", [2, 4])
def test_no_seat_sees_the_order_of_the_deck(n):
    """Setup 7 / hidden information: the deck is face down. Which card comes next is
    fixed only by the generator, and no observation depends on the generator."""
    t = Table(n, seed=11)
    reseeded = t.state.copy()
    reseeded.data[:RNG_WORDS] = Table(n, seed=12).state.data[:RNG_WORDS]
    for seat in range(n):
        assert np.array_equal(t.game.observe(reseeded, seat), t.game.observe(t.state, seat))
    drawn = set()
    for seed in range(12, 20):
        state = t.state.copy()
        state.data[:RNG_WORDS] = Table(n, seed=seed).state.data[:RNG_WORDS]
        drawn.add(int(k.draw_card(state.data, t.p, 0)))
    assert len(drawn) > 1                     # the same observation, different next cards
