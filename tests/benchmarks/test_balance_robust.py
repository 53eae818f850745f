"""The balance tool under interruptions and bad input: resuming from a
games.csv whose last row was cut, a pool worker killed mid-sweep, an enormous
``--games``, and the command-line errors of the sweep and the tournament."""

from __future__ import annotations

import csv
import itertools
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from transit_gym.benchmarks.balance import sweep as balance
from transit_gym.benchmarks.balance.sweep import CHUNK, Sweep, chunks, games_to_play, run_sweep
from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.runs import backends as runner

SWEEP = Sweep(game="loose_caboose", players=2, sets=[("default", {})],
              agents=["rule_based", "random"], games=230, seed=5)


def _rows(folder: Path) -> list[dict[str, str]]:
    with (folder / "games.csv").open(newline="") as handle:
        return sorted(csv.DictReader(handle), key=lambda r: (r["set"], int(r["game"])))


@pytest.fixture(scope="module")
def full_run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("full")
    run_sweep(SWEEP, folder, workers=1, plots=False, progress=False)
    return folder


# ----- resuming --------------------------------------------------------------------------------
def _cut_inside_last_row(text: bytes, where: str) -> bytes:
    """The file as a run stopped while writing its 100th game would leave it."""
    lines = text.splitlines(keepends=True)
    kept, row = b"".join(lines[:100]), lines[100]       # header + games 0..98, game 99
    cut = {"in_the_game_number": row.index(b",") + 2,  # '9' of the set's game field
           "mid_row": len(row) // 2,
           "after_the_last_field": len(row) - 2,       # every field, no line end
           "before_the_line_end": len(row) - 1}[where]  # '\r' written, '\n' not
    return kept + row[:cut]


@pytest.mark.parametrize("where", ["in_the_game_number", "mid_row", "after_the_last_field",
                                   "before_the_line_end"])
def test_a_cut_last_row_is_played_again_and_loses_no_game(full_run, tmp_path, where):
    """The incomplete row is removed: its game is replayed and the next row is not glued
    onto it, so the resumed CSV equals an uninterrupted run."""
    text = (full_run / "games.csv").read_bytes()
    (tmp_path / "games.csv").write_bytes(_cut_inside_last_row(text, where))
    (tmp_path / "settings.json").write_bytes((full_run / "settings.json").read_bytes())
    summary = run_sweep(SWEEP, tmp_path, workers=1, plots=False, progress=False)
    assert summary["run"]["games_played"] == SWEEP.games - 99
    assert _rows(tmp_path) == _rows(full_run)
    assert (tmp_path / "games.csv").read_bytes().count(b"\n") == SWEEP.games + 1


def test_a_damaged_row_before_the_end_is_a_clear_error(full_run, tmp_path):
    lines = (full_run / "games.csv").read_bytes().splitlines(keepends=True)
    lines[5] = lines[5][:10] + b"\r\n"
    (tmp_path / "games.csv").write_bytes(b"".join(lines))
    (tmp_path / "settings.json").write_bytes((full_run / "settings.json").read_bytes())
    with pytest.raises(ConfigError, match="line 6 is damaged"):
        run_sweep(SWEEP, tmp_path, workers=1, plots=False, progress=False)


def test_a_games_csv_that_is_not_ours_is_a_clear_error(full_run, tmp_path):
    (tmp_path / "games.csv").write_bytes(b"\xff\xfe not a csv\n")
    (tmp_path / "settings.json").write_bytes((full_run / "settings.json").read_bytes())
    with pytest.raises(ConfigError, match="not a games.csv"):
        run_sweep(SWEEP, tmp_path, workers=1, plots=False, progress=False)


# ----- a killed worker ----------------------------------------------------------------------
def _die_once(argument: tuple[str, int]) -> int:
    """Task for the pool: the first task to run kills its own worker (SIGKILL, as the
    out-of-memory killer would); a marker file makes it happen once."""
    marker, value = argument
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return value * value
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def _always_die(value: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def test_the_pool_retries_the_tasks_of_a_killed_worker(tmp_path):
    marker = str(tmp_path / "killed")
    backend = runner.PoolBackend(2)
    try:
        results = list(backend.run((_die_once, (marker, v)) for v in range(12)))
    finally:
        backend.close()
    assert os.path.exists(marker), "a worker was killed"
    assert sorted(results) == [v * v for v in range(12)]


def test_a_task_whose_worker_always_dies_stops_with_a_clear_error():
    backend = runner.PoolBackend(2)
    try:
        with pytest.raises(runner.WorkerDiedError, match=f"each of {runner.MAX_ATTEMPTS} runs"):
            list(backend.run((_always_die, v) for v in range(3)))
    finally:
        backend.close()


def _kill_first_worker_chunk(chunk):
    """``run_chunk`` whose first call in a pool worker kills that worker (test only)."""
    marker = Path(os.environ["TG_TEST_KILL_MARKER"])
    if os.getpid() != int(os.environ["TG_TEST_PARENT"]) and not marker.exists():
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return _REAL_RUN_CHUNK(chunk)


_REAL_RUN_CHUNK = balance.run_chunk


def test_a_sweep_survives_a_killed_worker(full_run, tmp_path, monkeypatch):
    """The chunk the dead worker held is played again: the CSV equals the serial run."""
    monkeypatch.setenv("TG_TEST_KILL_MARKER", str(tmp_path / "killed"))
    monkeypatch.setenv("TG_TEST_PARENT", str(os.getpid()))
    monkeypatch.setattr(balance, "run_chunk", _kill_first_worker_chunk)
    run_sweep(SWEEP, tmp_path / "out", workers=2, plots=False, progress=False)
    assert (tmp_path / "killed").exists(), "a worker was killed"
    assert _rows(tmp_path / "out") == _rows(full_run)


# ----- enormous --games ----------------------------------------------------------------------
def test_chunks_are_made_lazily_for_an_enormous_number_of_games():
    """``--games 10**12``: the chunks come one at a time, skipping the games played."""
    sweep = Sweep(game="loose_caboose", players=2, sets=[("a", {}), ("b", {})],
                  agents=["random", "random"], games=10**12, seed=0)
    done = {("a", 0), ("a", 1), ("a", 5), ("b", 10**12 - 1), ("a", 10**12)}
    first = list(itertools.islice(chunks(sweep, done), 3))
    assert [(c.set_name, c.first, c.count) for c in first] == [
        ("a", 2, 3), ("a", 6, CHUNK), ("a", 6 + CHUNK, CHUNK)]
    assert games_to_play(sweep, done) == 2 * 10**12 - 4
    small = Sweep(**{**SWEEP.__dict__, "games": 450})
    covered = [(c.first, c.count) for c in chunks(small, {("default", 200)})]
    assert covered == [(0, 200), (201, 200), (401, 49)]
    assert sum(n for _, n in covered) == games_to_play(small, {("default", 200)})


# ----- command-line errors ------------------------------------------------------------------
def _cli(command: str, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    """``transit-gym COMMAND ARGV...`` (``command`` may be two words) in a fresh process."""
    # the child imports the same transit_gym as this process: an installed one, or a source
    # folder on PYTHONPATH, made absolute because the child runs in another folder
    paths = [str(Path(p).resolve()) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
             if p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    return subprocess.run([sys.executable, "-m", "transit_gym.cli", *command.split(), *argv],
                          cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _bad_input(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    latin1 = tmp_path / "sets.txt"
    latin1.write_bytes(b"caf\xe9: a, b, c, d, e\n")
    return {
        "workers_0": (["--workers", "0"], "--workers must be a positive integer, got 0"),
        "out_is_a_file": (["--out", str(a_file)], "is a file"),
        "out_under_a_file": (["--out", str(a_file / "sub")], "cannot create the folder"),
        "players_0": (["--players", "0"], "got 0"),
        "ray_refused": (["--ray", "127.0.0.1:1"], "no Ray cluster there"),
        "ray_malformed": (["--ray", "localhost"], "HOST:PORT"),
        "sets_not_utf8": (["--sets", str(latin1)], "not UTF-8"),
    }


BALANCE_CASES = ["workers_0", "out_is_a_file", "out_under_a_file", "players_0", "ray_refused",
                 "ray_malformed", "sets_not_utf8"]


@pytest.mark.parametrize("case", BALANCE_CASES)
def test_balance_cli_bad_arguments_are_usage_errors(case, tmp_path):
    """Each stops at once with exit status 2 and a one-line reason, no traceback."""
    argv, message = _bad_input(tmp_path)[case]
    game = "automobiles" if case == "sets_not_utf8" else "loose_caboose"
    if "--out" not in argv:
        argv = [*argv, "--out", str(tmp_path / "report")]
    run = _cli("balance sweep", game, "--games", "2", "--quiet",
               "--no-plots", *argv, cwd=tmp_path)
    assert run.returncode == 2, run.stderr[-2000:]
    assert message in run.stderr and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert not (tmp_path / "report" / "games.csv").exists()


@pytest.mark.parametrize("case", ["workers_0", "out_is_a_file", "players_0", "ray_refused"])
def test_tournament_cli_bad_arguments_are_usage_errors(case, tmp_path):
    argv, message = _bad_input(tmp_path)[case]
    run = _cli("tournament", "--game", "loose_caboose", "--games", "2",
               "--quiet", *argv, cwd=tmp_path)
    assert run.returncode == 2, run.stderr[-2000:]
    assert message in run.stderr and "Traceback" not in run.stderr, run.stderr[-2000:]


def test_a_tiny_sweep_runs_from_the_command_line(tmp_path):
    """The checks refuse bad input only: a good command still writes its report."""
    run = _cli("balance sweep", "loose_caboose", "--games", "3", "--quiet",
               "--no-plots", "--workers", "1", "--out", str(tmp_path / "r"), cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert len(_rows(tmp_path / "r")) == 3


# ----- the Ray address probe ------------------------------------------------------------------
def _serve_once(reply: bytes | None) -> tuple[str, threading.Thread]:
    """A one-connection TCP server on localhost answering ``reply`` (None: stay silent)."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(10)

    def serve() -> None:
        with server:
            connection, _ = server.accept()
            with connection:
                connection.recv(64)
                if reply is not None:
                    connection.sendall(reply)
                else:
                    time.sleep(1.0)  # hold the line open, answer nothing

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return f"127.0.0.1:{server.getsockname()[1]}", thread


@pytest.mark.parametrize(("reply", "message"), [
    (None, "nothing answered"),
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", "not a Ray (gRPC) server"),
])
def test_a_ray_address_where_no_ray_answers_is_refused(reply, message):
    """A listener that is silent or speaks another protocol is not taken for Ray."""
    address, thread = _serve_once(reply)
    with pytest.raises(ConfigError, match=re.escape(message)):
        runner.check_ray_address(address, timeout=0.3)
    thread.join()


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_a_grpc_server_passes_the_ray_address_probe(scheme):
    """The probe accepts what Ray's GCS sends back to an HTTP/2 preface: SETTINGS."""
    address, thread = _serve_once(bytes([0, 0, 0, runner.HTTP2_SETTINGS, 0, 0, 0, 0, 0]))
    runner.check_ray_address(scheme + address, timeout=5)
    thread.join()
