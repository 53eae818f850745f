"""The throughput benchmark's plumbing (its figures go to the README, never asserted)."""

from __future__ import annotations

import pytest

from transit_gym.benchmarks.speed import throughput


def test_a_game_is_measured_with_its_options():
    """The AEC and rollout figures can be taken with expansion options."""
    options = {"card_set": "Shake & Bake", "track": "tucson", "drivers": True}
    result = throughput.measure_game("automobiles", 2, 0.05, options)
    assert result["options"] == options
    assert result["players"] == 2
    for figure in ("aec", "batch_1", "batch_64", "batch_1024", "rollout"):
        assert result[figure] > 0


def test_a_bad_option_is_a_usage_error_naming_it(capsys):
    with pytest.raises(SystemExit):
        throughput.main(["--games", "automobiles", "--no-peers", "--option", "track=nowhere"])
    assert "nowhere" in capsys.readouterr().err
