"""The compile-time and scale-out benchmarks (``benchmarks/speed/compile_time.py``,
``scaling.py``): what they report is what they ran."""

from __future__ import annotations

import pytest

from transit_gym.benchmarks.speed import compile_time, scaling

GAME = "loose_caboose"


def test_scaling_plays_every_game_at_every_worker_count_and_rates_against_one_worker():
    """The same sweep and tournament on 1 and 2 workers: every run plays all of the work
    (the sweep's games; the tournament's games of its one pair), start-up and play are
    timed apart, and the one-worker run is the reference (speed-up 1)."""
    result = scaling.main(["--game", GAME, "--games", "30", "--workers", "1", "2"])
    for workload in ("sweep/pool", "tournament/pool"):
        runs = result[workload]
        assert [r["workers"] for r in runs] == [1, 2]
        assert all(r["games"] == 30 for r in runs)
        assert all(r["startup"] >= 0 and r["play"] > 0 and r["cpu"] > 0 for r in runs)
        assert runs[0]["speedup_play"] == 1.0 and runs[0]["efficiency_play"] == 1.0
    assert scaling.worker_counts(16) == [1, 2, 4, 8, 16]
    assert scaling.worker_counts(6) == [1, 2, 4, 6]


@pytest.mark.slow
def test_compile_time_charges_each_kernel_its_own_compile_in_an_empty_cache(capsys):
    """A fresh process with an empty cache compiles the game's kernels: each shows up once
    with its own CPU-s (nested compiles subtracted, so the kernels add up to the total),
    and every warm-up step of the demo is timed."""
    result = compile_time.main(["--games", GAME, "--demo", "--top", "3"])[GAME]
    kernels = result["kernels"]
    assert f"transit_gym.envs.{GAME}.kernels.apply" in kernels
    assert sum(k["cpu"] for k in kernels.values()) == pytest.approx(result["compile_cpu"],
                                                                    rel=1e-6)
    assert list(result["steps"]) == ["AEC env", "agents"]
    assert result["compile_cpu"] <= result["process_cpu"]
    assert f"== {GAME}:" in capsys.readouterr().out
