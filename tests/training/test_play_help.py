"""Human play for a newcomer who has not read the rules: ``h`` alone explains the pending
decision and every kind of action on its menu, and every cube action of Automobiles (and its
season) names the card the cube stands for (the rulebooks' "a green cube is a Gearbox cube").
A seeded game of every game is walked through play's input loop, answering ``h`` at each
decision; every decision and action kind of every game has a help text."""

from __future__ import annotations

import importlib
import io
import random
import re

import pytest

from transit_gym.envs.automobile import state as auto1_state
from transit_gym.envs.automobiles import render as autos_render
from transit_gym.envs.automobiles import state as autos_state
from transit_gym.envs.automobiles.data import COLOURS, WEAR
from transit_gym.envs.automobiles.encode import (
    A_ACTIVE,
    A_DISCARD,
    A_SPACE,
    A_STOCK,
    A_STOP,
    NUM_ACTIONS,
)
from transit_gym.envs.automobiles_season import render as season_render
from transit_gym.envs.automobiles_season import state as season_state
from transit_gym.envs.loose_caboose import state as lc_state
from transit_gym.envs.planes import encode as planes_encode
from transit_gym.envs.planes import state as planes_state
from transit_gym.envs.registry import game_class
from transit_gym.training import play

#: (game, players, options, decisions walked at most)
WALKS = [("loose_caboose", 2, [], 150), ("planes", 2, [], 150), ("automobile", 3, [], 150),
         ("automobiles", 2, ["laps=1"], 150), ("automobiles_season", 2, ["laps=1"], 150)]
CUBE = re.compile(r"\b(" + "|".join(c for c in COLOURS if c != "wear") + r") cube\b( \(([^)]+)\))?")


class HelpAsker:
    """Input for ``play.main``: ``h`` at every decision, then a seeded random key of the menu
    shown; the help texts and menus are kept. Quits after ``limit`` decisions."""

    def __init__(self, out: io.StringIO, seed: int, limit: int):
        self.out, self.rng, self.limit = out, random.Random(seed), limit
        self.helps: list[str] = []
        self.menus: list[list[str]] = []
        self._asked_at: int | None = None

    def readline(self) -> str:
        text = self.out.getvalue()
        if self._asked_at is None:
            if "game over:" in text[text.rfind("your move"):] or len(self.helps) >= self.limit:
                return ""
            self._asked_at = len(text)
            return "h\n"
        self.helps.append(text[self._asked_at:])
        self._asked_at = None
        menu = text[text.rfind("your move"):]
        lines = re.findall(r"^  \[\s*(\d+)\] (.*)$", menu[:menu.find("\n> ")], re.M)
        self.menus.append([what for _, what in lines])
        return f"{self.rng.choice([key for key, _ in lines])}\n"


def walk(name: str, players: int, options: list[str], limit: int) -> HelpAsker:
    out = io.StringIO()
    asker = HelpAsker(out, seed=7, limit=limit)
    argv = ["--game", name, "--players", str(players), "--seed", "3", "--vs", "random",
            "--plain"]
    for option in options:
        argv += ["--option", option]
    assert play.main(argv, inp=asker, out=out) == 0
    return asker


@pytest.mark.parametrize(("name", "players", "options", "limit"), WALKS,
                         ids=[w[0] for w in WALKS])
def test_h_explains_every_decision_of_a_walked_game(name, players, options, limit):
    """Every ``h`` names what is to be decided and, for every kind of listed action, what it
    does; every line fits 100 columns; cube actions name their card."""
    asker = walk(name, players, options, limit)
    assert len(asker.helps) >= 10
    cards = set(game_class("automobiles")().cards.names)
    for help_text, menu in zip(asker.helps, asker.menus, strict=True):
        lines = help_text.splitlines()
        now = [line for line in lines if line.startswith("what to decide now: ")]
        assert len(now) == 1 and len(now[0]) > len("what to decide now: ") + 20, help_text
        kinds = re.findall(r"^  ([^:]+): (\S.*)$", help_text, re.M)
        assert kinds, help_text
        assert all(len(line) <= 100 for line in lines), help_text
        assert "u = undo" in help_text
        assert menu
        if name.startswith("automobiles"):
            for what in menu:
                for match in CUBE.finditer(what):
                    assert match.group(3) in cards, f"cube action without its card: {what!r}"


def _all_kinds(kind_of, phases) -> set[str]:
    return {kind_of(phase, action) for phase in phases for action in range(NUM_ACTIONS)}


def test_every_automobiles_decision_and_action_kind_has_help():
    """Every decision of the base game, the Racing Season cards and drivers included."""
    texts = autos_render.help_texts()
    decisions = [n for n in autos_state.PHASE_NAMES if n != "over"]
    assert sorted(texts["phases"]) == sorted(decisions)
    assert all(len(texts["phases"][n]) > 40 for n in decisions)
    kinds = _all_kinds(autos_render.action_kind, range(len(decisions)))
    assert kinds == set(texts["kinds"])
    assert all(texts["kinds"].values())


def test_every_season_decision_and_action_kind_has_help():
    between = range(season_state.S_PICK, season_state.S_OVER)
    assert sorted(season_render.SEASON_PHASE_HELP) == list(between)
    kinds = {season_render.season_action_kind(a)
             for a in (A_STOP, A_DISCARD, A_STOCK, season_state.A_SPONSOR, season_state.A_KEEP,
                       season_state.A_DROP)}
    assert kinds == set(season_render.SEASON_KIND_HELP)


@pytest.mark.parametrize(("module", "decisions"), [
    ("loose_caboose", [lc_state.PHASE_CHOOSE, lc_state.PHASE_CONTINUE]),
    ("planes", list(range(planes_state.NUM_PHASES))),
    ("automobile", list(range(auto1_state.PH_OVER))),
])
def test_every_decision_and_action_kind_of_the_other_games_has_help(module, decisions):
    render = importlib.import_module(f"transit_gym.envs.{module}.render")
    assert sorted(render.PHASE_HELP) == decisions
    assert all(len(text) > 40 for text in render.PHASE_HELP.values())
    n = game_class(module)().num_actions
    if module == "planes":
        kinds = {render.phase_kind(p, a) for p in decisions for a in range(n)
                 if planes_encode.action_kind(a)[0] != "unknown"}
    else:
        kinds = {render.action_kind(a) for a in range(n)}
    assert kinds == set(render.KIND_HELP)
    assert all(render.KIND_HELP.values())


def test_every_cube_action_names_the_card_of_its_colour():
    """Automobiles: each cube colour stands for the card of that colour in this game's card
    set; every cube action says which."""
    game = game_class("automobiles")(num_players=2)
    state = game.new_state(5)
    market = game.market(state)
    for action in range(A_ACTIVE, A_SPACE):
        colour = COLOURS[(action - A_ACTIVE) % len(COLOURS)]
        text = game.describe_action(state, action)
        if colour != COLOURS[WEAR]:
            assert f"{colour} cube ({market[colour]})" in text, text


def test_h_driver_explains_every_racing_season_driver():
    """Racing Season, Drivers appendix: with drivers on, ``h Driver NN`` has each one's
    ability; without them, drivers are not listed."""
    with_drivers = autos_render.card_help(game_class("automobiles")(drivers=True))
    without = autos_render.card_help(game_class("automobiles")())
    season = season_render.card_help(game_class("automobiles_season")())
    for number in range(1, 11):
        name = f"Driver {number:02d}"
        assert len(with_drivers[name]) > 30 and with_drivers[name] != "no description"
        assert name in season and name not in without
