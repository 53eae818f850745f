"""The rulebook's worked examples played on the engine.

* the example turn of the blue player (Example Start of Turn, Action Phase Example Parts 1
  and 2, Buy Phase Example, Car Phase Example, Decline Phase Example, End Phase Example) as
  one chained turn on one state, with the example card set (Important Note About Rulebook
  Examples: Car Chief, Crew Chief, Steering, Gearbox, Rotary Engine);
* the four statements of the Drafting Example on one position;
* the Finish Line Example played through a whole final round to the real end of the game;
* the reconstructed costs and values (data.toml) checked against every constraint those
  examples put on them (E1-E6 in data.toml).

The example pictures are not in the text, so the cube colours the text leaves out are
chosen to agree with what it says. The example turn is on Monza (track_monza.toml), where
lane 0 is white at 48-56 (1-segment spaces) and light gray at 0-16 (2 segments), and lane
1 holds dark gray+black spaces at 4-12: there the blue car can end its turn drafting and
"prepared to move on a black space next turn" as Part 2 says. The other examples are on
Daytona Beach (track_daytona.toml): lane 0 is light gray at 0-12 (2-segment spaces) and
white at 32-40 (1 segment); lane 1 is dark gray at 0-12 (4 segments) and light gray at
32-40 (2 segments).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.automobiles.table import (
    EXAMPLE_SET,
    STOP,
    Table,
    activate,
    buy,
    colour,
    from_active,
    from_discard,
    to_space,
)
from transit_gym.envs.automobiles import kernels as k
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.board import crossings, drafting, first_steps
from transit_gym.envs.automobiles.data import COLOURS, load_cards

# ----- the example turn ---------------------------------------------------------------------
BLUE, PURPLE, AHEAD_1, AHEAD_2, BEHIND = range(5)


def _start_of_turn(purple_drafted: bool) -> Table:
    """Example Start of Turn: 5 cars, the blue player 4th on his second lap, 7 cubes in his
    active pile. His bag holds the 3 cubes Crew Chief will draw; his discard pile the 5
    wear of Part 1 and the cubes that give Rotary Engine its 4 colours later."""
    t = Table(5, card_set=list(EXAMPLE_SET), track="monza")
    t.put_car(BLUE, 0, 51, lap=1)                 # lane 0 white [51, 52), 1 crossing made
    if purple_drafted:
        t.put_car(PURPLE, 0, 4, lap=2)            # lane 0 light gray [4, 6)
    else:
        t.put_car(PURPLE, 1, 4, lap=2)            # lane 1 dark gray [4, 8): not in front
    t.put_car(AHEAD_1, 1, 20, lap=2)
    t.put_car(AHEAD_2, 2, 20, lap=2)
    t.put_car(BEHIND, 0, 30, lap=1)
    t.give(BLUE, "active", purple=1, red=1, yellow=1, blue=1, green=1, dark_gray=1, black=1)
    t.give(BLUE, "bag", wear=2, yellow=1)
    t.give(BLUE, "discard", wear=5, white=1, light_gray=3, blue=1)
    for seat in range(1, 5):
        t.give(seat, "bag", white=7)
    t.turn(BLUE)
    return t


def _crew_chief_draws_wear_wear_then_a_cube(t: Table) -> None:
    """Action Phase Example Part 1 needs the draws in the order wear, wear, non-wear: pick
    the first generator seed that gives it (the draw itself is the engine's)."""
    before = t.s.copy()
    for seed in range(64):
        t.s[:] = before
        t.rig(seed)
        t.act(activate("purple"))
        if t.count(BLUE, "active", "wear") == 2:
            return
    raise AssertionError("no seed draws wear, wear, then the yellow cube")


def _play_example_turn(t: Table) -> dict[str, int]:
    """The blue player's whole turn; returns the numbers the examples state."""
    seen: dict[str, int] = {"rank": int(t.s[st.START_RANK]),
                            "crossings": int(crossings(t.s, t.p, BLUE))}
    # Action Phase Example Part 1: Crew Chief draws a wear, another wear, then a yellow
    # cube, then removes the 5 wear of the discard pile; the 2 drawn wear stay active.
    wear_stock = t.stock("wear")
    _crew_chief_draws_wear_wear_then_a_cube(t)
    assert t.count(BLUE, "active", "yellow") == 2 and t.size(BLUE, "bag") == 0
    assert t.count(BLUE, "discard", "wear") == 0 and t.stock("wear") == wear_stock + 5
    assert t.count(BLUE, "active", "wear") == 2
    # Part 2, "after the blue player used a red and a yellow cube": Steering (+1 wear, the
    # dark gray gear to the discard pile, up to 3 light gray spaces: none taken), then Car
    # Chief (the discarded white removed, a light gray gained).
    t.act(activate("red"), from_active("dark_gray"), STOP)
    assert t.count(BLUE, "discard", "dark_gray") == 1 and t.count(BLUE, "used", "wear") == 1
    t.act(activate("yellow"), from_discard("white"))
    assert t.count(BLUE, "used", "light_gray") == 1 and t.count(BLUE, "discard", "white") == 0
    # "He activates his 2 wear to place them in his discard pile": 4 colours there now.
    t.act(activate("wear"), activate("wear"))
    discard = [c for c in COLOURS if t.count(BLUE, "discard", c) > 0]
    assert sorted(discard) == sorted(["light_gray", "dark_gray", "blue", "wear"])
    # Rotary Engine: 4 white spaces, +1 wear.
    t.act(activate("blue"))
    assert t.s[st.MV_LEFT] == 4 and t.count(BLUE, "used", "wear") == 2
    for at in (52, 53, 54, 55):
        t.act(to_space(t.space(0, at)))
    # Gearbox, 4th of 5: up to 4 light gray spaces (not last: no bonus), +1 wear; he moves 2.
    t.act(activate("green"))
    seen["gearbox"] = int(t.s[st.MV_LEFT])
    assert t.count(BLUE, "used", "wear") == 3
    t.act(to_space(t.space(0, 0)), to_space(t.space(0, 2)), STOP)
    if t.phase() == "action":
        t.act(STOP)                               # no more actions this turn
    # Buy Phase Example: the 2 cubes left are worth $5; "another" green for $4; $1 unspent.
    assert t.phase() == "buy" and t.size(BLUE, "active") == 2
    assert t.count(BLUE, "active", "black") == 1 and t.count(BLUE, "active", "yellow") == 1
    seen["money"] = int(t.s[st.MONEY])
    t.act(buy("green"))
    assert t.count(BLUE, "used", "green") == 1 and t.s[st.MONEY] == 1
    assert t.on_track("green") == 1              # the Gearbox cube, still a used cube
    t.act(STOP)                                   # Car, Decline and End Phases follow
    seen["wear_gained"] = int(t.s[st.STAT_WEAR + BLUE])
    return seen


def test_example_turn_action_buy_car_decline_and_end_phase_examples_chained():
    """Example Start of Turn (4th place, second lap), Action Phase Example Part 1 (Crew
    Chief: wear, wear, then a cube; the 5 discarded wear removed, the 2 drawn stay),
    Part 2 (2 wear to the discard pile, Rotary Engine 4 white spaces +1 wear, Gearbox up to
    4 light gray spaces as 4th of 5, 2 taken, +1 wear), Buy Phase Example (the cubes left
    are worth $5, a $4 cube bought, $1 left unspent), Car Phase Example (to the farthest
    cube, across the line: lap marker +1), Decline Phase Example (drafting the purple car:
    the 2 light gray wear are not gained) and End Phase Example (track, active and used
    cubes to the discard pile, 7 new cubes drawn), all on one state."""
    t = _start_of_turn(purple_drafted=True)
    seen = _play_example_turn(t)
    assert seen["rank"] == 4 and seen["crossings"] == 1
    assert seen["gearbox"] == 4
    assert seen["money"] == 5
    # Car Phase: the car stands on the farthest cube, right behind the purple car, next
    # to a space a black gear may take next turn (lane 1, dark gray+black).
    assert t.s[st.CAR_SPACE + BLUE] == t.space(0, 2)
    assert crossings(t.s, t.p, BLUE) == seen["crossings"] + 1
    black = np.zeros(t.game.track.num_spaces, dtype=np.int8)
    assert first_steps(t.s, t.p, BLUE, 1 << colour("black"), black, 0) == 1
    assert black[t.space(1, 4)] == 1
    # Decline Phase: drafting, so only the 3 Action Phase wear (Steering, Rotary, Gearbox).
    assert seen["wear_gained"] == 3
    # End Phase: nothing on the track, in the used pile; 7 new active cubes. The bag was
    # empty after Crew Chief, so the discard pile went into the bag first (Drawing Cubes).
    assert t.size(BLUE, "used") == 0 and int(t.s[st.ON_TRACK:st.ON_TRACK + 10].sum()) == 0
    assert t.size(BLUE, "active") == 7
    owned = {c: sum(t.count(BLUE, pile, c) for pile in ("bag", "active", "discard"))
             for c in COLOURS}
    # 20 cubes at the start; 5 wear and 1 white removed; 1 light gray, 3 wear and 1 green
    # gained or bought.
    assert owned == {"white": 0, "light_gray": 4, "dark_gray": 1, "black": 1, "wear": 5,
                     "yellow": 2, "purple": 1, "red": 1, "green": 2, "blue": 2}
    assert t.current() == PURPLE and t.phase() == "action"


def test_decline_phase_example_without_the_draft_two_wear_would_be_gained():
    """Decline Phase Example: "If he wasn't drafting, 2 wear would have been added": the
    same turn with the purple car one lane over gains the light gray line of the Wear Chart
    on top of the 3 Action Phase wear."""
    t = _start_of_turn(purple_drafted=False)
    seen = _play_example_turn(t)
    assert seen["rank"] == 4 and seen["money"] == 5
    assert not drafting(t.s, t.p, BLUE)
    assert seen["wear_gained"] == 3 + 2


# ----- Drafting Example ---------------------------------------------------------------------
def test_drafting_example_all_four_statements_on_one_position():
    """Drafting Example: purple drafts in the segment behind green; blue drafts in the
    space behind purple; red drafts no one; yellow drafts in the space behind red. Checked
    for each car as its own Decline Phase would (a light gray move: 2 wear unless
    drafting)."""
    t = Table(5)
    green, purple, blue, red, yellow = range(5)
    t.put_car(green, 1, 8, seg=0)       # lane 1 dark gray [8, 12), front segment
    t.put_car(purple, 1, 8, seg=1)      # the segment right behind green
    t.put_car(blue, 1, 4, seg=0)        # lane 1 [4, 8): the space behind purple's
    t.put_car(red, 0, 4, seg=0)         # lane 0 light gray [4, 6); [6, 8) is empty
    t.put_car(yellow, 0, 2, seg=0)      # lane 0 [2, 4): the space behind red's
    expected = {purple: True, blue: True, red: False, yellow: True}
    assert {seat: bool(drafting(t.s, t.p, seat)) for seat in expected} == expected
    t.s[st.PLACED_N] = 1                # as if each had just moved on light gray
    t.s[st.TOP_COLOUR] = colour("light_gray")
    t.s[st.AERO] = 0
    wear = {seat: int(k.decline_wear(t.s, t.p, seat)) for seat in expected}
    assert wear == {purple: 0, blue: 0, red: 2, yellow: 0}


# ----- Finish Line Example ------------------------------------------------------------------
def _drive(t: Table, seat: int, steps: list[tuple[str, int, int]]) -> None:
    """Seat's turn: one gear cube per (colour, lane, position) step, then end the turn."""
    assert t.current() == seat
    for name, lane, at in steps:
        t.act(activate(name), to_space(t.space(lane, at)))
    while not t.game.is_over(t.state) and t.current() == seat:
        t.act(STOP)


def test_finish_line_example_played_through_the_final_round():
    """Finish Line Example: every car crosses the line on its final lap in the last round;
    green went farthest and wins; red and yellow are level, red on the inside lane takes
    2nd and yellow 3rd; purple 4th; blue a close 5th. The game ends only when the round is
    complete (Winning the Game), through the engine's own end of turn."""
    t = Table(5)
    green, red, yellow, purple, blue = range(5)
    t.put_car(green, 0, 39, lap=2)      # all on the final lap (2 of 3 crossings made)
    t.put_car(red, 0, 38, lap=2)
    t.put_car(yellow, 1, 36, lap=2)     # lane 1 light gray [36, 38)
    t.put_car(purple, 0, 37, lap=2)
    t.put_car(blue, 1, 34, lap=2)       # lane 1 light gray [34, 36)
    t.give(green, "active", light_gray=6)
    t.give(red, "active", white=1, light_gray=4)
    t.give(yellow, "active", light_gray=1, dark_gray=2)
    t.give(purple, "active", white=2, light_gray=3)
    t.give(blue, "active", light_gray=2, dark_gray=1)
    for seat in range(5):
        t.give(seat, "bag", yellow=7)
        assert crossings(t.s, t.p, seat) == 2
    t.turn(green)
    _drive(t, green, [("light_gray", 0, at) for at in (0, 2, 4, 6, 8, 10)])
    assert t.s[st.END_TRIGGERED] == 1 and not t.game.is_over(t.state)   # the round goes on
    _drive(t, red, [("white", 0, 39)] + [("light_gray", 0, at) for at in (0, 2, 4, 6)])
    _drive(t, yellow, [("light_gray", 1, 38), ("dark_gray", 1, 0), ("dark_gray", 1, 4)])
    _drive(t, purple, [("white", 0, 38), ("white", 0, 39)]
           + [("light_gray", 0, at) for at in (0, 2, 4)])
    assert not t.game.is_over(t.state)
    _drive(t, blue, [("light_gray", 1, 36), ("light_gray", 1, 38), ("dark_gray", 1, 0)])
    assert t.game.is_over(t.state) and t.s[st.ROUNDS] == 1
    assert all(crossings(t.s, t.p, seat) == 3 for seat in range(5))
    assert t.s[st.CAR_ABS + red] == t.s[st.CAR_ABS + yellow]          # level
    assert t.game.scores(t.state) == [1, 2, 3, 4, 5]
    assert t.game.rewards(t.state).tolist() == pytest.approx([1.0, -0.25, -0.25, -0.25,
                                                               -0.25])
    info = t.game.final_info(t.state)
    assert [row["past_line"] for row in info] == [12, 8, 8, 6, 4]
    assert info[green]["winner"] and not any(row["winner"] for row in info[1:])


# ----- reconstructed costs and values against the examples --------------------------------
def test_reconstructed_costs_and_values_agree_with_every_rulebook_example():
    """data.toml E1-E6: two cubes of the example set (or gears) worth $5 together (Buy
    Phase Example), a $4 cube of that set (bought as "another"), something at most $1 so
    the unspent $1 was a choice, a cube under every allowance (Setup 7), cost and value
    differing (Pit Team clarification), wear worth nothing."""
    cards = load_cards()
    names = ["3rd Gear", "4th Gear", "5th Gear", "6th Gear", *EXAMPLE_SET]
    idx = [cards.names.index(name) for name in names]
    values = [int(cards.values[i]) for i in idx]
    costs = [int(cards.costs[i]) for i in idx]
    assert any(values[a] + values[b] == 5 for a in range(len(idx)) for b in range(a, len(idx)))
    assert 4 in costs
    assert min(int(c) for c in cards.costs) <= 1
    wear = cards.names.index("Wear")
    assert min(int(c) for i, c in enumerate(cards.costs) if i != wear) <= 10
    assert any(int(c) != int(v) for c, v in zip(cards.costs, cards.values, strict=True))
    assert int(cards.values[wear]) == 0
