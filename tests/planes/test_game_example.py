"""The rulebook's game example (A Game Example, rounds 1-3, turns 1-9), replayed as one
chained game on Flying Cloud with the rulebook's own cubes and cards.

Three players in turn order Red, Yellow, Blue start at P1, P2, P3; Green is unassigned
(its plane at G4 shows "Draw 2 Cards"). The engine gives seat ``i`` colour ``i`` of
(red, blue, green, yellow), so the example's Yellow is seat 1 (engine "blue"), its Blue is
seat 2 (engine "green") and its Green is the unassigned engine "yellow"; ``Example`` speaks
the example's colour names. Flying Cloud is RECONSTRUCTED and fitted to this example
(``envs/planes/airports/flying_cloud.toml``): P1 S0, P4 S4, P2 S6, P3 S12; gates G1 at S9,
G2 at S1, G3 at S3, N1 at S6, N2 at S2. Blockages count every cube (the default
``blockage_counts="all"``): turn 5 stacks 4 + 4 cubes that include neutral ones.

The rulebook fixes who plays which card and what happens; the exact drops are the ones
that make those things happen on this layout. The cards the example draws (Yellow's
"Move Only Your Party" in turn 2, Red's Help Desk card in turn 7, Blue's card in turn 6)
come from a shuffled deck: ``Example.rigged`` picks generator words under which the draw
gives them, as a stacked deck would.
"""

from __future__ import annotations

import copy

from transit_gym.envs.core.rng import seeded_words
from transit_gym.envs.planes import state as st
from transit_gym.envs.planes.data import POI_NAMES
from transit_gym.envs.planes.rules import PlanesGame

from .table import Table

RED, YELLOW, BLUE = 0, 1, 2
ENGINE = {"red": "red", "yellow": "blue", "blue": "green", "green": "yellow", "grey": "grey"}
EXAMPLE = {v: k for k, v in ENGINE.items()}
HANDS = {
    RED: ("Choose One", "Skip 1 Space", "Gather at Fast Food"),
    YELLOW: ("Draw 3 Discard 1", "Move Twice", "Move Backwards"),
    BLUE: ("Skip 1 Space", "Draw 1", "Draw 3 Discard 1"),
}


class Example(Table):
    """A three-player Table in the example's colour names."""

    def __init__(self) -> None:
        super().__init__(3, airport="flying_cloud", blockage_counts="all")
        assert (self.game.params == PlanesGame(num_players=3).params).all()   # defaults
        self.clear_hands()
        for seat, cards in HANDS.items():
            self.give(seat, *cards)
        self.game.validate(self.state)

    def at(self, space_id: str) -> dict[str, int]:
        return {EXAMPLE[c]: n for c, n in self.cubes(space_id).items()}

    def drops(self, *colours: str) -> list[int]:
        return [self.DROP(ENGINE[c]) for c in colours]

    def pass_goal(self) -> None:
        """Goal Phase: the player chooses not to score (asked only when a goal is met)."""
        if self.phase == st.PH_GOAL:
            self.play(self.PASS())

    def rigged(self, action: int, seat: int, *wanted: str) -> None:
        """Play ``action`` with generator words under which the cards it draws for ``seat``
        include ``wanted``."""
        for seed in range(100_000):
            trial = self.state.copy()
            trial.data[:4] = seeded_words(seed, 0)
            before = trial["hand"].reshape(st.MAX_PLAYERS, -1)[seat].copy()
            self.game.apply(trial, action)
            gained = trial["hand"].reshape(st.MAX_PLAYERS, -1)[seat] - before
            if all(gained[self.card(name)] >= wanted.count(name) for name in wanted):
                self.s[:4] = seeded_words(seed, 0)
                self.play(action)
                return
        raise AssertionError(f"no generator words draw {wanted}")

    def can_board_g1_from_s4(self) -> bool:
        """Could Red, on her next move, pick up S4 and board G1 (no card played)?"""
        other = copy.copy(self)
        other.state = self.state.copy()
        other.s = other.state.data
        other.move(RED)
        other.play(other.SPACE("S4"))
        active = {c: int(other.state["active"][other.color(ENGINE[c])]) for c in ENGINE}
        rest = [c for c, n in active.items() for _ in range(n) if c != "red"]
        rest += ["red"] * (active["red"] - 1)
        for c in rest:
            if other.phase != st.PH_STEP:
                return False
            other.play(other.DROP(ENGINE[c]))
        return other.phase == st.PH_STEP and other.BOARD("G1") in other.legal()


def test_game_example_turns_1_to_9_on_flying_cloud():
    """A Game Example, Setup and rounds 1-3, every turn through the real legal mask."""
    ex = Example()
    # Setup: standard 3-player set-up, Green unassigned with its plane on "Draw 2 Cards".
    assert ex.at("S0") == {"red": 5} and ex.at("S6") == {"yellow": 5}
    assert ex.at("S12") == {"blue": 5} and ex.at("S4") == {"green": 5}
    assert all(ex.at(f"S{i}") == {"grey": 2} for i in (1, 2, 3, 5, 7, 8, 9, 10, 11, 13))
    planes = {g: int(ex.s[st.GATE_COLOR + ex.gate(g)]) for g in ("G1", "G2", "G3", "G4")}
    assert planes == {"G1": ex.color("red"), "G2": ex.color(ENGINE["yellow"]),
                      "G3": ex.color(ENGINE["blue"]), "G4": ex.color(ENGINE["green"])}
    assert ex.color(ENGINE["green"]) >= ex.game.num_players      # unassigned: neutral

    # Round 1, Red: no action, picks up all 5 of her cubes and moves them; no goal.
    assert ex.current == RED and ex.phase == st.PH_ACTION
    ex.play(ex.PASS(), ex.SPACE("S0"), *ex.drops(*["red"] * 5))
    ex.pass_goal()
    assert ex.at("S0") == {} and ex.at("S4") == {"red": 1, "green": 5}
    assert all(ex.at(s) == {"red": 1, "grey": 2} for s in ("S1", "S2", "S3", "S5"))

    # Round 1, Yellow: plays Draw 3 Discard 1, then moves; no goal.
    assert ex.current == YELLOW
    ex.rigged(ex.CARD("Draw 3 Discard 1"), YELLOW, "Move Only Your Party")
    assert ex.phase == st.PH_DISCARD and ex.hand_size(YELLOW) == 5
    spare = next(n for n in ex.hand(YELLOW)
                 if n not in ("Move Twice", "Move Backwards", "Move Only Your Party"))
    ex.play(ex.CARD(spare), ex.SPACE("S6"), *ex.drops("yellow", "yellow", "yellow"), ex.STOP)
    ex.pass_goal()
    assert ex.hand_size(YELLOW) == 4 and ex.state["discard"][ex.card("Draw 3 Discard 1")] == 1
    assert ex.at("S9") == {"yellow": 3, "grey": 2} and ex.at("S6") == {}

    # Round 1, Blue: Red is in position to board her plane (S4's 6 cubes reach G1 at S9).
    assert ex.current == BLUE and ex.can_board_g1_from_s4()
    # Skip 1 Space; she skips the space next to gate N2 and makes a blockage on Red's road.
    ex.play(ex.CARD("Skip 1 Space"), ex.SPACE("S12"), *ex.drops("blue", "blue", "blue"),
            ex.SKIP)
    assert ex.s[st.POS] == ex.sp("S2") == ex.game.airport.gate_access[ex.gate("N2")]
    ex.play(*ex.drops("blue", "blue"))
    assert ex.at("S2") == {"red": 1, "grey": 2}                   # skipped: no cube
    assert ex.at("S4") == {"red": 1, "blue": 1, "green": 5} and ex.blocked("S4")
    # Goal: A Blank Space (Draw 1's goal): her own start S12 is blank and empty.
    assert ex.phase == st.PH_GOAL
    ex.play(ex.CARD("Draw 1"))
    assert ex.goals(BLUE) == {"Draw 1": 1} and ex.at("S12") == {}
    assert ex.current == RED                                      # one card left: no draw
    assert not ex.can_board_g1_from_s4()                          # S4's 7 cubes overshoot

    # Round 2, Red: no action, moves 3 active cubes; goal: 1 Single Red Cube.
    ex.play(ex.PASS(), ex.SPACE("S5"))
    assert sum(ex.state["active"]) == 3
    ex.play(*ex.drops("red", "grey", "grey"))
    assert ex.at("S6") == {"red": 1}
    ex.play(ex.CARD("Choose One"))
    assert ex.goals(RED) == {"Choose One": 1}

    # Round 2, Yellow: Move Twice. First move: 4 active cubes one space, a blockage.
    assert ex.current == YELLOW
    ex.play(ex.CARD("Move Twice"), ex.SPACE("S7"))
    assert sum(ex.state["active"]) == 4
    ex.play(*ex.drops("yellow"), ex.STOP)
    assert ex.blocked("S8") and ex.total("S8") == 8
    assert ex.current == YELLOW and ex.phase == st.PH_START
    # Second move: all 8 active cubes, the blockage goes, and a party cube boards.
    ex.play(ex.SPACE("S8"))
    assert sum(ex.state["active"]) == 8 and not ex.blocked("S8")
    ex.play(*ex.drops("yellow", *["grey"] * 6), ex.BOARD("G2"))
    assert ex.boarded("G2") == 1 and ex.s[st.TRACK] == 1
    ex.pass_goal()
    assert ex.goals(YELLOW) == {}

    # Round 2, Blue: no action; removes the blockage and moves the 7 active cubes, making
    # a new blockage in front of gate G1; goal: 5 Cubes (3 Colors); then draws 1.
    assert ex.current == BLUE
    ex.play(ex.PASS(), ex.SPACE("S4"))
    assert sum(ex.state["active"]) == 7 and not ex.blocked("S4")
    ex.play(*ex.drops("red", "blue", "green", "green", "green"), ex.STOP)
    assert ex.sp("S9") == ex.game.airport.gate_access[ex.gate("G1")] and ex.blocked("S9")
    assert ex.at("S1") == {"red": 1, "blue": 1, "grey": 3}
    ex.play(ex.CARD("Draw 3 Discard 1"))
    assert ex.goals(BLUE) == {"Draw 1": 1, "Draw 3 Discard 1": 1} and ex.hand_size(BLUE) == 0
    assert ex.phase == st.PH_DRAW
    ex.rigged(ex.DRAW, BLUE, "Move Only Your Party")
    assert ex.hand(BLUE) == {"Move Only Your Party": 1}

    # Round 3, Red: Skip 1 Space, 5 active cubes; skipping the space next to G3 she boards
    # a neutral cube, draws 2 at once; goal: Visited a Help Desk, a newly drawn card.
    assert ex.current == RED
    ex.play(ex.CARD("Skip 1 Space"), ex.SPACE("S1"))
    assert sum(ex.state["active"]) == 5
    ex.play(*ex.drops("red"), ex.SKIP)
    assert ex.s[st.POS] == ex.sp("S3") == ex.game.airport.gate_access[ex.gate("G3")]
    ex.play(*ex.drops("blue", "grey", "grey"))
    hand = ex.hand_size(RED)
    ex.rigged(ex.BOARD("N1"), RED, "One to Help Desk")
    assert ex.boarded("N1") == 1 and ex.s[st.TRACK] == 2 and ex.hand_size(RED) == hand + 2
    assert ex.at("S3") == {"red": 1, "blue": 1, "grey": 2}       # skipped: no cube
    ex.play(ex.CARD("One to Help Desk"))
    assert ex.at("S5") == {"red": 1, "grey": 1}
    assert POI_NAMES[ex.game.poi[ex.sp("S5")]] == "help_desk"
    assert ex.goals(RED) == {"Choose One": 1, "One to Help Desk": 1}

    # Round 3, Yellow: Move Backwards boards one of his cubes on his plane (track 3);
    # goal: 4 Cubes (4 Unique Colors).
    assert ex.current == YELLOW
    ex.play(ex.CARD("Move Backwards"), ex.SPACE("S9"))
    ex.play(*ex.drops("yellow", "yellow", "yellow", "green", "green", "green", "grey",
                      "grey"), ex.BOARD("G2"))
    assert ex.boarded("G2") == 2 and ex.s[st.TRACK] == 3
    assert ex.at("S6") == {"red": 1, "yellow": 1, "blue": 1, "grey": 1}
    ex.play(ex.CARD("Move Only Your Party"))
    assert ex.goals(YELLOW) == {"Move Only Your Party": 1}

    # Round 3, Blue: her single cube at G3's space sits among other cubes, so without a
    # card it could not board; Move Only Your Party moves it alone into G3 (track 4).
    assert ex.current == BLUE
    assert ex.at("S3") == {"red": 1, "blue": 1, "green": 1, "grey": 2}
    ex.play(ex.CARD("Move Only Your Party"), ex.SPACE("S3"))
    assert ex.state["active"].tolist() == [0, 0, 1, 0, 0]
    ex.play(ex.BOARD("G3"))
    assert ex.boarded("G3") == 1 and ex.s[st.TRACK] == 4
    # Out of cards: no goal; she draws 1 card.
    assert ex.phase == st.PH_DRAW and ex.hand_size(BLUE) == 0
    ex.play(ex.DRAW)
    assert ex.hand_size(BLUE) == 1 and ex.current == RED
    ex.game.validate(ex.state)
    # Goal VP (1 VP Choose One, 2 VP Help Desk; 3 VP; 1 VP Draw 1, 3 VP Draw 3) plus 5
    # per own cube boarded on the own plane (Yellow 2, Blue 1).
    assert ex.game.scores(ex.state) == [1 + 2, 3 + 2 * 5, 1 + 3 + 5]
