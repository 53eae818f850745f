"""A small sweep and a small tournament on a local Ray cluster give exactly the results
of a local run (Ray backend, results independent of the backend)."""

from __future__ import annotations

import pytest

from tests.benchmarks.test_balance import _rows
from transit_gym.benchmarks.balance.sweep import Sweep, run_sweep
from transit_gym.training.tournament import run_tournament

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             ignore_reinit_error=True)
    yield
    ray.shutdown()


def test_sweep_on_ray_equals_the_local_sweep(tmp_path, local_ray):
    sweep = Sweep(game="loose_caboose", players=2, sets=[("default", {})],
                  agents=["rule_based", "random"], games=120, seed=9)
    local = run_sweep(sweep, tmp_path / "local", workers=1, plots=False, progress=False)
    remote = run_sweep(sweep, tmp_path / "ray", ray_address="", plots=False, progress=False)
    assert remote["run"]["backend"] == "ray"
    assert _rows(tmp_path / "ray") == _rows(tmp_path / "local")
    assert remote["sets"] == local["sets"]


def test_tournament_on_ray_equals_the_local_tournament(local_ray):
    local = run_tournament("loose_caboose", 2, ["random", "rule_based"], 60, seed=3,
                           workers=1, progress=False)
    remote = run_tournament("loose_caboose", 2, ["random", "rule_based"], 60, seed=3,
                            ray_address="", progress=False)
    assert remote == local
