"""Run independent tasks serially, on a local process pool, or on a Ray cluster.

Every task is a picklable ``(function, argument)``; results come back as they
complete. Work is always split into tasks whose results depend only on their
arguments (each game seeded from its index), so the backend and the number of
workers never change the results, only their order of arrival.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from transit_gym.benchmarks.progress import Progress
from transit_gym.envs.core.errors import ConfigError

Task = tuple[Callable[[Any], Any], Any]


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
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.workers = workers
        self.executor = ProcessPoolExecutor(max_workers=workers, mp_context=context)

    def run(self, tasks: Iterable[Task]) -> Iterator[Any]:
        pending = set()
        queue = iter(tasks)
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * self.workers:
                try:
                    function, argument = next(queue)
                except StopIteration:
                    exhausted = True
                    break
                pending.add(self.executor.submit(function, argument))
            if not pending:
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()

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
                options["address"] = address
            elif workers:
                options["num_cpus"] = workers
            ray.init(**options)
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
                      size: Callable[[Any], int] = len) -> Iterator[Any]:
    """Results of ``backend.run(tasks)`` with a progress bar over ``total`` games (each
    result counting ``size(result)``); the backend is closed at the end."""
    bar = Progress(total, label="games ") if show and total else None
    try:
        for result in backend.run(tasks):
            if bar:
                bar.update(size(result))
            yield result
    finally:
        backend.close()
        if bar:
            bar.close()
