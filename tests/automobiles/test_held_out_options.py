"""Options for training one agent over many games with some kept out:
``track`` as a list of boards (R-YUC "Track Cards": one drawn per reset), ``exclude_sets``
(markets of the "Suggested Card Sets" that Setup 3's random draw never gives) and
``drivers="random"`` (the Racing Season's "Drivers" module off or on, drawn per reset).
Each is drawn from the reset seed and refused with a ``ConfigError`` naming it when bad."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.conformance import check_options_drawn_per_reset
from transit_gym.envs.automobiles import env as auto_env
from transit_gym.envs.automobiles import state as st
from transit_gym.envs.automobiles.data import CARD_COLOURS
from transit_gym.envs.automobiles.encode import OBS
from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.errors import ConfigError
from transit_gym.envs.core.game import State
from transit_gym.envs.registry import options_key

TRAINING_BOARDS = ["daytona", "monza", "talladega", "monte_carlo"]
HELD_OUT = ["Rinse & Repeat", "Expert Invitational", "Well Oiled Machine"]
OPTIONS = {"card_set": "random", "card_pool": "all", "exclude_sets": HELD_OUT,
           "track": TRAINING_BOARDS, "drivers": "random"}


def _market(game: AutomobilesGame, state: State) -> frozenset[str]:
    """The five cards of the market (the gear and wear cards left out)."""
    cards = game.cards
    return frozenset(cards.names[int(state.data[st.CARD_OF + c])] for c in CARD_COLOURS)


def test_a_list_of_boards_draws_each_of_them_and_never_another():
    """R-YUC "Track Cards", a board per race: a list of four boards draws each of them
    over 200 resets and never the fifth (held out)."""
    game = AutomobilesGame(num_players=2, track=TRAINING_BOARDS)
    names = {game.track_of(game.new_state(seed)).name for seed in range(200)}
    assert names == {"Daytona Beach", "Monza", "Talladega", "Monte Carlo"}
    assert game.options["track"] == TRAINING_BOARDS   # JSON-safe (a tuple becomes a list)
    one = AutomobilesGame(num_players=2, track=("tucson",))
    assert one.num_variants == 1 and one.track.name == "Tucson"


def test_excluded_suggested_sets_are_never_drawn_and_other_draws_are_unchanged():
    """Setup 3 with "Suggested Card Sets" held out: among the 243 markets of the 15
    Racing Season cards, Rinse & Repeat comes up in 3,000 draws without the option and
    never with it; a seed whose first draw is not held out gives the same game either
    way (the redraw continues the same generator only when needed)."""
    plain = AutomobilesGame(num_players=2, card_set="random", card_pool="expansion")
    held = AutomobilesGame(num_players=2, card_set="random", card_pool="expansion",
                           exclude_sets=["Rinse & Repeat"])
    target = frozenset(plain.cards.sets["Rinse & Repeat"])
    hits, changed = 0, 0
    for seed in range(3000):
        a, b = plain.new_state(seed), held.new_state(seed)
        assert _market(held, b) != target
        if _market(plain, a) == target:
            hits += 1
        else:
            changed += int(not np.array_equal(a.data, b.data))
    assert hits > 0 and changed == 0


def test_five_card_lists_are_held_out_too():
    """A market given as five card names is kept out like a named set."""
    cards = AutomobilesGame(num_players=2).cards
    five = list(cards.sets["Squeaky Clean"])
    game = AutomobilesGame(num_players=2, card_set="random", card_pool="expansion",
                           exclude_sets=[five])
    assert all(_market(game, game.new_state(seed)) != frozenset(five)
               for seed in range(1500))
    assert options_key({"exclude_sets": [five]}) == (("exclude_sets", (tuple(five),)),)


def test_drivers_random_draws_off_and_on_with_one_observation_layout():
    """The Racing Season "Drivers" module (optional): ``drivers="random"`` plays some
    races with the draft and some without, drawn from the seed; the observation is the
    same layout either way, and drivers are held only in races with the module on."""
    game = AutomobilesGame(num_players=2, drivers="random")
    modes = set()
    for seed in range(40):
        state = game.new_state(seed)
        mode = int(game.params_of(state)[st.P_DRIVERS])
        modes.add(mode)
        assert game.observe(state, 0).shape == (OBS.size,)
        rng = np.random.default_rng(seed)
        while not game.is_over(state) and int(state.data[st.ROUNDS]) < 2:
            game.apply(state, int(rng.choice(game.legal_actions(state))))
        held = state.data[st.DRIVER_OF:st.DRIVER_OF + 2]
        assert (held > 0).all() if mode == 1 else not held.any()
    assert modes == {0, 1}


def test_the_training_options_follow_the_reset_seed_and_restore():
    """PettingZoo's seed test for the combined options (same seed, same game in two
    envs built apart), and a saved state restores to the same board, drivers and
    market."""
    check_options_drawn_per_reset(lambda **kw: auto_env.env(num_players=2, **OPTIONS, **kw))
    game = AutomobilesGame(num_players=2, **OPTIONS)
    boards, markets = set(), set()
    for seed in range(300):
        state = game.new_state(seed)
        boards.add(game.track_of(state).name)
        markets.add(_market(game, state))
    assert "Tucson" not in boards
    assert not markets & {frozenset(game.cards.sets[name]) for name in HELD_OUT}
    state = game.new_state(5)
    again = State.from_dict(state.to_dict())
    assert np.array_equal(again.data, state.data)
    assert again.game.track_of(again).name == game.track_of(state).name
    assert again.game.options["exclude_sets"] == HELD_OUT


@pytest.mark.parametrize(("options", "named"), [
    ({"track": []}, "track"),
    ({"track": ["daytona", "daytona"]}, "twice"),
    ({"track": ["daytona", "random_all"]}, "random_all"),
    ({"track": ["daytona", "silverstone"]}, "silverstone"),
    ({"exclude_sets": ["Rinse & Repeat"]}, "card_set='random'"),
    ({"card_set": "random", "exclude_sets": "Rinse & Repeat"}, "exclude_sets"),
    ({"card_set": "random", "exclude_sets": ["No Such Set"]}, "No Such Set"),
    ({"card_set": "random", "exclude_sets": ["random"]}, "exclude_sets"),
    ({"card_set": "random", "exclude_sets": ["First Game"] * 17}, "at most 16"),
    ({"drivers": "sometimes"}, "sometimes"),
])
def test_bad_values_are_config_errors_naming_them(options, named):
    """Each bad value is refused with a ConfigError naming it and what is allowed."""
    with pytest.raises(ConfigError, match=named.replace("(", r"\(").replace(")", r"\)")):
        AutomobilesGame(num_players=2, **options)
