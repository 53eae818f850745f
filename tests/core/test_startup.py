"""Start-up: kernels cached on disk, the compile notice, the warm-up.

Each check runs in fresh Python processes, since what is tested is what a new process
compiles or loads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.compile_probe import COUNT_OUR_COMPILES
from transit_gym.envs import _numba_cache

SMALL_GAME = "loose_caboose"

#: plays through every entry point of the warm-up, counting our compiles (cache misses)
PROBE = """
import json, sys
from transit_gym.envs import _numba_cache
from transit_gym.training import warmup
from transit_gym.envs.core.fused import fused_kernels
from transit_gym.envs.registry import env_module

compiled = []
""" + COUNT_OUR_COMPILES + """
module = env_module(sys.argv[1])
for _label, run in warmup.STEPS:
    run(module, 0)
fused = fused_kernels(module.Game.kernels)
hits = {name: sum(getattr(fused, name).stats.cache_hits.values())
        for name in ("step", "batch_reset", "batch_step", "random_rollouts")}
print(json.dumps({"compiled": compiled, "hits": hits}))
"""


def _python(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    run = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                         env={**os.environ, **(env or {})}, timeout=1800)
    assert run.returncode == 0, run.stderr[-3000:]
    return run


@pytest.mark.slow
def test_warmup_then_a_fresh_process_compiles_nothing_and_loads_the_fused_loops():
    """Start-up: "kernels that are cached on disk, all of them (today the fused closures
    recompile in every process)". After ``transit-gym warmup`` a new
    process playing the game through every entry point (AEC env, validation, batch API,
    rollouts, agents) compiles none of our functions, loads the fused loops from the disk
    cache, and writes no compile notice."""
    warm = _python(["-m", "transit_gym.cli", "warmup", "--games", SMALL_GAME])
    assert f"warm-up {SMALL_GAME}" in warm.stderr and "100%" in warm.stderr
    assert "compiling numba kernels" not in warm.stderr  # the bar replaces the notice
    probe = _python(["-c", PROBE, SMALL_GAME])
    result = json.loads(probe.stdout.strip().splitlines()[-1])
    assert result["compiled"] == []
    assert all(hits >= 1 for hits in result["hits"].values()), result["hits"]
    assert "compiling numba kernels" not in probe.stderr


LITERAL_SCRIPT = """
import numba
import transit_gym.envs  # configures numba for our kernels

def make(module):
    def callee(x, k):
        return x + k
    callee.__module__ = module
    callee = numba.njit(callee)

    def caller(x):
        return callee(x, 1) + callee(x, 2) + callee(x, x)
    caller.__module__ = module
    return numba.njit(caller), callee

ours_caller, ours = make("transit_gym.probe")
other_caller, other = make("somebody_else")
assert ours_caller(3) == other_caller(3) == 15
print(len(ours.signatures), len(other.signatures))
"""


def test_our_kernels_get_one_specialisation_per_argument_types(tmp_path):
    """Start-up, "fewer specialisations": a kernel called with constants 1 and 2 and with a
    variable compiles once (int64), not once per literal value; other packages' numba
    functions keep numba's literal specialisation."""
    run = _python(["-c", LITERAL_SCRIPT], {"NUMBA_CACHE_DIR": str(tmp_path)})
    ours, other = (int(n) for n in run.stdout.split())
    assert ours == 1
    assert other == 3


BLAS_SCRIPT = """
import sys
import numba
import numpy as np
import transit_gym.envs

@numba.njit
def plus(x):
    return x + 1

plus(1)  # numba's first compile loads its array functions
print("scipy.linalg" in sys.modules)

@numba.njit
def dot(a):
    return np.dot(a, a)

print(dot(np.ones(3)))
"""


def test_first_compile_does_not_import_scipy_but_blas_still_works(tmp_path):
    """Start-up, "defer imports that the first game does not need": numba's start-up
    imports no ``scipy.linalg`` (our kernels use no BLAS); ``np.dot`` in a jitted function
    still compiles and runs when scipy is installed."""
    pytest.importorskip("scipy")
    run = _python(["-c", BLAS_SCRIPT], {"NUMBA_CACHE_DIR": str(tmp_path)})
    imported, value = run.stdout.split()
    assert imported == "False"
    assert float(value) == 3.0


def test_an_agent_kernel_cache_is_stamped_with_its_split_out_helper_modules():
    """A kernel of ``agents/rule_based/<game>.py`` inlines jitted helpers of the game's
    leaf evaluation (``agents/search/leaf_<game>.py``) and the other way round; an edit to
    either must change the other's cache stamp (else a stale kernel would run)."""
    agents = Path(_numba_cache.AGENTS_DIR)
    sources = _numba_cache.stamp_sources(str(agents / "rule_based" / "automobiles.py"))
    assert str(agents / "search" / "leaf_automobiles.py") in sources
    assert str(agents / "rule_based" / "automobiles.py") in sources
    assert not any(Path(s).name.startswith(("planes", "leaf_planes")) for s in sources)
    leaf = _numba_cache.stamp_sources(str(agents / "search" / "leaf_automobiles.py"))
    assert str(agents / "rule_based" / "automobiles.py") in leaf
    assert str(agents / "search" / "leaf.py") in leaf


def test_race_and_season_kernels_are_stamped_with_both_packages():
    """The season kernels freeze the race's constants and the Racing Season sponsors
    (``envs/automobiles/racing_season/sponsors.py``) read the season state: each cache
    stamp covers both packages, the expansion subpackage included (it lies inside
    ``envs/automobiles``)."""
    envs = Path(_numba_cache.PACKAGE_DIR)
    race = envs / "automobiles"
    season = envs / "automobiles_season"
    for kernel in (race / "racing_season" / "sponsors.py", race / "kernels.py",
                   season / "kernels.py"):
        sources = _numba_cache.stamp_sources(str(kernel))
        assert str(race) in sources and str(season) in sources, kernel
    assert str(envs / "planes") not in _numba_cache.stamp_sources(str(race / "kernels.py"))


# ----- the demo's warm-up compiles only what the demo uses, on both cores -----
def test_the_warmup_units_cover_every_step_first_steps_first_season_after_the_race():
    """The warm-up cuts its work into (game, step) units for its workers: each unit once,
    every game's first step (the rules kernels the later steps call) before any later
    step, and in each step the season (which calls the race's kernels) after the race."""
    from transit_gym.training import warmup

    games = ["automobiles_season", "loose_caboose", "automobiles", "planes"]
    units = warmup.work_units(games, demo=False)
    labels = [label for label, _ in warmup.STEPS]
    assert sorted(units) == sorted((g, label) for g in games for label in labels)
    first = [i for i, (_, label) in enumerate(units) if label == labels[0]]
    assert first == list(range(len(games)))
    for label in labels:
        order = [g for g, step in units if step == label]
        assert order.index("automobiles") < order.index("automobiles_season")
    assert warmup.work_units(["planes"], demo=True) == [("planes", "AEC env"),
                                                         ("planes", "agents")]


def test_the_demo_steps_are_the_ones_the_demo_calls():
    """``make demo`` plays AEC games between rule-based agents (``training/demo.py``): the
    ``--demo`` warm-up runs the AEC env and the agents called from Python, nothing else
    (validation, batch API, rollouts, jitted agents, search compile on first use)."""
    from transit_gym.training import warmup

    assert [label for label, _ in warmup.steps_for(demo=True)] == ["AEC env", "agents"]
    assert len(warmup.steps_for(demo=False)) == len(warmup.STEPS)
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    demo = makefile.split("\ndemo:")[1].split("\n\n")[0]
    assert "$(TG) warmup --demo" in demo


DEMO_PROBE = """
import json, sys
from transit_gym.training import warmup
from transit_gym.envs.registry import env_module
from transit_gym.training.demo import play_demo_game

compiled = {"demo": [], "search": []}
phase = "demo"
""" + COUNT_OUR_COMPILES + """
for name in sys.argv[1:]:
    play_demo_game(name, env_module(name).Game.min_players, 0)
phase = "search"
warmup._search(env_module(sys.argv[1]), 0)
print(json.dumps(compiled))
"""


@pytest.mark.slow
def test_the_demo_warmup_on_two_workers_fills_one_cache_the_demo_then_only_loads(tmp_path):
    """First run: the warm-up compiled search kernels the demo never uses, one
    core at a time. ``--demo --jobs 2`` compiles the demo's two steps in two processes into
    one fresh cache; a new process then plays the demo's game compiling nothing, while the
    search agent (not part of the demo) still compiles on first use."""
    cache = {"NUMBA_CACHE_DIR": str(tmp_path)}
    games = [SMALL_GAME]
    warm = _python(["-m", "transit_gym.cli", "warmup", "--demo", "--jobs", "2", "--games",
                    *games], cache)
    assert "100%" in warm.stderr and all(f"{g}: " in warm.stderr for g in games)
    probe = _python(["-c", DEMO_PROBE, *games], cache)
    result = json.loads(probe.stdout.strip().splitlines()[-1])
    assert result["demo"] == []
    assert result["search"] != []
