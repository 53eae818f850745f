"""Run independent tasks serially, on a local process pool, or on a Ray cluster.

Every task is a picklable ``(function, argument)``; results come back as they
complete. Work is always split into tasks whose results depend only on their
arguments (each game seeded from its index), so the backend and the number of
workers never change the results, only their order of arrival. That also makes a
task safe to run again: when a pool worker dies (killed, out of memory), the pool is
rebuilt and the tasks it lost are retried, at most ``MAX_ATTEMPTS`` times each.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from transit_gym.envs.core.errors import ConfigError
from transit_gym.training.out_file import check_out_folder
from transit_gym.training.runs.progress import Progress

Task = tuple[Callable[[Any], Any], Any]

MAX_ATTEMPTS = 3            # runs of one task whose worker died before the sweep gives up
RAY_CONNECT_TIMEOUT = 5.0   # seconds to reach a Ray cluster's address before giving up
RAY_CONNECT_TRIES = 5       # ray.init's connection attempts (about a second each)
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
HTTP2_EMPTY_SETTINGS = bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])   # length 0, type 4, no flags
HTTP2_SETTINGS = 4


class WorkerDiedError(RuntimeError):
    """A task whose worker process died on every one of its ``MAX_ATTEMPTS`` runs."""


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class Backend:
    """Runs tasks; ``run`` yields results in completion order."""

    name = "serial"

    def run(self, tasks: Iterable[Task]) -> Iterator[Any]:
        for function, argument in tasks:
            yield function(argument)

    def close(self) -> None:
        """Release workers (nothing to do when serial)."""


class PoolBackend(Backend):
    """A local process pool (forked where the platform allows, so jitted code compiled
    in the parent is inherited); at most ``2 * workers`` tasks in flight."""

    name = "pool"

    def __init__(self, workers: int):
        methods = multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.workers = workers
        self.executor = ProcessPoolExecutor(max_workers=workers, mp_context=self.context)

    def run(self, tasks: Iterable[Task]) -> Iterator[Any]:
        pending: dict[Future, tuple[Task, int]] = {}   # future -> (task, earlier deaths)
        retry: deque[tuple[Task, int]] = deque()
        queue = iter(tasks)
        exhausted = False
        while True:
            while len(pending) < 2 * self.workers:
                if retry:
                    task, deaths = retry.popleft()
                elif not exhausted:
                    task, deaths = next(queue, None), 0
                    if task is None:
                        exhausted = True
                        continue
                else:
                    break
                try:
                    future = self.executor.submit(*task)
                except BrokenProcessPool:
                    # a worker died since the last wait: this task never ran; the pending
                    # ones fail below and are retried on a fresh pool
                    retry.appendleft((task, deaths))
                    if pending:
                        break
                    self._restart()
                    continue
                pending[future] = (task, deaths)
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            if any(isinstance(f.exception(), BrokenProcessPool) for f in done):
                # A worker died: the pool fails every task it holds. Keep the results that
                # arrived, run the rest again on a fresh pool.
                done, _ = wait(pending, return_when=ALL_COMPLETED)
                self._restart()
            for future in done:
                task, deaths = pending.pop(future)
                if isinstance(future.exception(), BrokenProcessPool):
                    if deaths + 1 >= MAX_ATTEMPTS:
                        raise WorkerDiedError(
                            f"a worker process died on each of {MAX_ATTEMPTS} runs of the task "
                            f"{task[1]!r} (killed, or out of memory?); giving up"
                        )
                    retry.append((task, deaths + 1))
                    continue
                yield future.result()

    def _restart(self) -> None:
        """Replace the broken executor by a fresh one (same workers and start method)."""
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=self.context)

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


class RayBackend(Backend):
    """Tasks as Ray remote functions, on the cluster at ``address`` (local Ray if None)."""

    name = "ray"

    def __init__(self, address: str | None, workers: int | None = None):
        try:
            import ray
        except ImportError as exc:
            raise ConfigError("--ray needs Ray: pip install 'transit-gym[dist]'") from exc
        self.ray = ray
        if not ray.is_initialized():
            options: dict[str, Any] = {"ignore_reinit_error": True, "log_to_driver": False,
                                       "include_dashboard": False}
            if address:
                check_ray_address(address)
                options["address"] = address
                # Ray retries a cluster address once a second, 20 times by default; a few
                # ride out a slow answer (a user's own setting wins; not for local Ray,
                # where the same setting bounds the wait for a starting head).
                os.environ.setdefault("RAY_gcs_server_port_wait_time_s",
                                      str(RAY_CONNECT_TRIES))
            elif workers:
                options["num_cpus"] = workers
            try:
                ray.init(**options)
            except (ConnectionError, TimeoutError) as exc:
                raise ConfigError(f"--ray {address or '(local)'}: Ray did not start or "
                                  f"connect: {exc}") from exc
        self._remote = ray.remote(_call)
        self.max_in_flight = 4 * max(1, int(ray.cluster_resources().get("CPU", 1)))

    def run(self, tasks: Iterable[Task]) -> Iterator[Any]:
        pending = []
        queue = iter(tasks)
        exhausted = False
        while True:
            while not exhausted and len(pending) < self.max_in_flight:
                try:
                    function, argument = next(queue)
                except StopIteration:
                    exhausted = True
                    break
                pending.append(self._remote.remote(function, argument))
            if not pending:
                return
            done, pending = self.ray.wait(pending, num_returns=1)
            for ref in done:
                yield self.ray.get(ref)

    def close(self) -> None:
        """Leave the Ray session up (the caller may run more); ``ray.shutdown()`` ends it."""


def _call(function: Callable[[Any], Any], argument: Any) -> Any:
    return function(argument)


def check_ray_address(address: str, timeout: float = RAY_CONNECT_TIMEOUT) -> None:
    """``ConfigError`` unless ``address`` is ``auto`` or ``[ray://]HOST:PORT`` where a gRPC
    (HTTP/2) server, as Ray's GCS and Ray Client are, answers within ``timeout`` seconds.
    ``ray.init`` itself keeps retrying an unreachable address for a long time; a bare TCP
    connect is not enough, since proxies and firewalls accept connections for anything."""
    if address == "auto":
        return
    target = address.removeprefix("ray://")
    host, colon, port = target.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"--ray address must be HOST:PORT, ray://HOST:PORT or auto, "
                          f"got {address!r}")
    problem = _grpc_problem(host, int(port), timeout)
    if problem:
        raise ConfigError(f"--ray {address}: no Ray cluster there ({problem}); start one "
                          f"with `ray start --head` or check the address")


def _grpc_problem(host: str, port: int, timeout: float) -> str | None:
    """Why ``host:port`` is not a plaintext HTTP/2 server (None when it is): send the
    HTTP/2 client preface and an empty SETTINGS frame, expect a SETTINGS frame back."""
    if os.environ.get("RAY_USE_TLS", "0") not in ("", "0"):
        return None   # TLS clusters: leave the check to Ray
    try:
        with socket.create_connection((host, port), timeout=timeout) as connection:
            connection.settimeout(timeout)
            connection.sendall(HTTP2_PREFACE + HTTP2_EMPTY_SETTINGS)
            reply = connection.recv(9)
    except TimeoutError:
        return f"nothing answered within {timeout:g} s"
    except OSError as exc:
        return exc.strerror or str(exc)
    if len(reply) < 4 or reply[3] != HTTP2_SETTINGS:
        return "something answered there, but not a Ray (gRPC) server"
    return None


def check_backend(workers: int | None = None, ray_address: str | None | bool = False) -> None:
    """Check ``--workers`` and ``--ray`` before any work starts (``ConfigError``)."""
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise ConfigError(f"--workers must be a positive integer, got {workers!r}")
    if ray_address is not False:
        try:
            import ray  # noqa: F401
        except ImportError as exc:
            raise ConfigError("--ray needs Ray: pip install 'transit-gym[dist]'") from exc
        if ray_address:
            check_ray_address(ray_address)


def check_out(out: Path) -> None:
    """``--out`` must be a writable folder (made when missing); a file there is a
    ``ConfigError``."""
    check_out_folder(out, "--out")


def make_backend(workers: int | None = None, ray_address: str | None | bool = False) -> Backend:
    """Serial for one worker, a process pool for more, Ray when ``ray_address`` is not
    False (``None`` or ``""`` start local Ray, a string connects to that cluster)."""
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise ConfigError(f"--workers must be a positive integer, got {workers!r}")
    if ray_address is not False:
        return RayBackend(ray_address or None, workers)
    workers = workers or default_workers()
    return Backend() if workers == 1 else PoolBackend(workers)


def run_with_progress(backend: Backend, tasks: Iterable[Task], total: int, show: bool = True,
                      size: Callable[[Any], int] = len, label: str = "games",
                      unit: str = "game") -> Iterator[Any]:
    """Results of ``backend.run(tasks)`` with a progress bar over ``total`` games (or other
    ``unit``s; each result counting ``size(result)``); the backend is closed at the end."""
    bar = Progress(total, label=label, unit=unit) if show and total else None
    try:
        for result in backend.run(tasks):
            if bar:
                bar.update(size(result))
            yield result
    finally:
        backend.close()
        if bar:
            bar.close()
