"""The compile lock and the compile notice (``envs/_numba_cache.py``): parallel workers
never compile the same kernel at once, and every wait for compiles is announced before it
starts. Each check runs fresh Python processes sharing one empty cache folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

#: compiles one of our kernels (``hash32``, cached on disk) and prints which of our functions
#: it compiled; with argument ``hold`` it keeps the compile lock until the file ``go`` appears
LOCK_SCRIPT = """
import json, sys, time
from pathlib import Path
import numba
from numba.core import event
from transit_gym.envs.core.rng import hash32

compiled = []
class Hold(event.Listener):
    def on_start(self, ev):
        function = ev.data["dispatcher"].py_func
        if not function.__module__.startswith("transit_gym."):
            return
        compiled.append(function.__qualname__)
        if sys.argv[2] == "hold":
            print("holding", file=sys.stderr, flush=True)
            go = Path(sys.argv[1]) / "go"
            while not go.exists():
                time.sleep(0.05)
    def on_end(self, ev):
        pass
event.register("numba:compile", Hold())
print(json.dumps({"compiled": compiled, "value": int(hash32(20))}))
"""

def _wait_for(path: Path, text: str, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in path.read_text():
        assert time.monotonic() < deadline, f"no {text!r} in {path.read_text()[-2000:]}"
        time.sleep(0.05)


def test_a_second_process_waits_for_the_first_compile_and_loads_it(tmp_path):
    """Two processes needing the same uncompiled kernel: the one that comes second says it
    waits, compiles nothing and loads the kernel the first one compiled and saved."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    logs = [tmp_path / "first.err", tmp_path / "second.err"]
    runs = []
    for mode, log in zip(("hold", "plain"), logs, strict=True):
        with open(log, "w") as err:
            runs.append(subprocess.Popen([sys.executable, "-c", LOCK_SCRIPT, str(tmp_path),
                                          mode], stdout=subprocess.PIPE, stderr=err,
                                         text=True, env=env))
        if mode == "hold":
            _wait_for(log, "holding")
    try:
        _wait_for(logs[1], "waiting for another process to compile")
    finally:
        (tmp_path / "go").touch()
    results = []
    for run, log in zip(runs, logs, strict=True):
        out, _ = run.communicate(timeout=300)
        assert run.returncode == 0, log.read_text()[-3000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert results[0]["compiled"] == ["hash32"]
    assert results[1] == {"compiled": [], "value": results[0]["value"]}


NOTICE_SCRIPT = """
import sys, time
import numba
from transit_gym.envs import _numba_cache

_numba_cache.notice.GAP = 0.2

def make(module):
    def f(x):
        return x + 1
    f.__module__ = module
    return numba.njit(f)

make("somebody_else")(1)          # not ours: no notice
print("--after-foreign--", file=sys.stderr)
make("transit_gym.probe_a")(1)    # ours: the notice
make("transit_gym.probe_b")(2)    # compiled right after: the same wait, no second line
print("--pause--", file=sys.stderr)
time.sleep(0.5)
make("transit_gym.probe_c")(3)    # a later first use: a new wait, a new line
"""


def test_the_compile_notice_comes_before_each_wait_once(tmp_path):
    """Start-up: "a one-line notice while compiling", on stderr, before the wait starts,
    for our kernels only; compiles that follow one another are one wait (one line), and a
    compile after a pause (``play``'s first undo, the first move of another game) is a new
    wait with its own line."""
    run = subprocess.run([sys.executable, "-c", NOTICE_SCRIPT], capture_output=True,
                         text=True, env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
                         timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    before, after = run.stderr.split("--after-foreign--")
    first, second = after.split("--pause--")
    assert "compiling numba kernels" not in before
    for part in (first, second):
        lines = [line for line in part.splitlines() if "compiling numba kernels" in line]
        assert len(lines) == 1, part
        assert lines[0].startswith("transit-gym:") and "`transit-gym warmup`" in lines[0]
