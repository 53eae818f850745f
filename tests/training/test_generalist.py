"""The generalist's training options and held-out evaluation."""

from __future__ import annotations

import pytest

from transit_gym.envs.automobiles.rules import AutomobilesGame
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.generalist import (
    HELD_OUT_BOARD,
    HELD_OUT_SETS,
    TRAINING_BOARDS,
    evaluate,
    evaluation_cases,
    main,
    training_options,
)


def test_training_games_never_meet_what_the_evaluation_holds_out():
    """Over 300 training resets no held-out set and no held-out board come up; each
    held-out case plays exactly what training never drew."""
    game = AutomobilesGame(num_players=2, **training_options())
    held = {frozenset(game.cards.sets[name]) for name in HELD_OUT_SETS}
    for seed in range(300):
        state = game.new_state(seed)
        assert game.track_of(state).name != "Tucson"
        assert frozenset(game.cards.names[int(state.data[k])] for k in _market_slots()) \
            not in held
    assert HELD_OUT_BOARD not in TRAINING_BOARDS
    cases = evaluation_cases()
    for name in HELD_OUT_SETS:
        options = cases[f"held-out market {name}"]
        assert options["card_set"] == name and options["track"] == list(TRAINING_BOARDS)
    assert cases[f"held-out board {HELD_OUT_BOARD}"]["track"] == HELD_OUT_BOARD


def _market_slots() -> list[int]:
    from transit_gym.envs.automobiles import state as st
    from transit_gym.envs.automobiles.data import CARD_COLOURS

    return [st.CARD_OF + c for c in CARD_COLOURS]


def test_evaluate_scores_each_case_with_an_interval():
    """A short evaluation: rule_based against random scores in [0, 1], inside its
    interval, in the case asked for; an unknown case is a ConfigError naming it."""
    case = f"held-out market {HELD_OUT_SETS[0]}"
    (row,) = evaluate("rule_based", "random", games=4, cases=[case], workers=1,
                      progress=False)
    assert row["case"] == case and row["games"] == 4
    assert row["low"] <= row["score"] <= row["high"]
    assert row["score"] >= 0.75   # random barely moves its car (measured: 4 of 4)
    with pytest.raises(ConfigError, match="nowhere"):
        evaluate("rule_based", "random", games=2, cases=["nowhere"])
    assert main(["--agent", "rule_based", "--vs", "nosuch", "--games", "2"]) == 2
