"""Where games run: in this process, in worker processes, or as Ray tasks.

Every backend yields :class:`~cwenv.runner.task.TaskResult` objects as games finish, in no
particular order; the caller (one writer in the main process) stores them. Because each game
is a pure function of its task, results are the same for every backend and job count.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
from collections.abc import Generator, Sequence
from typing import Any

from cwenv.runner.errors import RunnerError
from cwenv.runner.task import GameTask, TaskResult, play_batch, play_task

BACKENDS: tuple[str, ...] = ("local", "ray")


MAX_JOBS = 256
"""Most worker processes a run may ask for (each is a whole Python interpreter)."""


def chunked(tasks: Sequence[GameTask], size: int) -> list[list[GameTask]]:
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


Results = Generator[TaskResult, None, None]


def _chunk_size(count: int, jobs: int) -> int:
    """Small enough to balance the load and report progress, big enough to amortise IPC."""
    return max(1, min(16, count // (jobs * 8)))


def run_tasks(
    tasks: Sequence[GameTask],
    *,
    jobs: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
) -> Results:
    """Play ``tasks`` and yield their results as they finish. Close the generator (or let it
    run out) to stop the workers."""
    if not 1 <= jobs <= MAX_JOBS:
        raise RunnerError(f"--jobs must be 1 to {MAX_JOBS}, got {jobs}")
    if backend not in BACKENDS:
        raise RunnerError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if backend == "ray":
        return _ray(_import_ray(), tasks, jobs, ray_address)
    if jobs == 1 or len(tasks) <= 1:
        return _here(tasks)
    return _processes(tasks, min(jobs, len(tasks)))  # no idle workers to spawn


def _here(tasks: Sequence[GameTask]) -> Results:
    for task in tasks:
        yield play_task(task)


def _processes(tasks: Sequence[GameTask], jobs: int) -> Results:
    """A pool of ``jobs`` spawned workers (spawn: no forked locks or threads)."""
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(processes=jobs, initializer=_ignore_sigint)
    try:
        size = _chunk_size(len(tasks), jobs)
        for batch in pool.imap_unordered(play_batch, chunked(tasks, size)):
            yield from batch
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the main process, which stops them after saving results."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _import_ray() -> Any:
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        raise RunnerError(
            "the ray backend needs Ray, which is not installed: pip install 'cwenv[ray]' "
            "(or use --backend local)"
        ) from None
    return ray


def _ray(ray: Any, tasks: Sequence[GameTask], jobs: int, address: str | None) -> Results:
    """Games as Ray tasks: a local Ray instance with ``jobs`` CPUs unless ``address`` (or
    RAY_ADDRESS) names a cluster; at most ``4 × jobs`` chunks are in flight."""
    if not tasks:
        return
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"log_to_driver": False, "logging_level": "WARNING"}
        if address is None and not os.environ.get("RAY_ADDRESS"):  # start a local instance
            options.update(num_cpus=jobs, include_dashboard=False)
        ray.init(address=address, **options)
        started = True
    try:
        remote = ray.remote(play_batch)
        pending_chunks = chunked(tasks, _chunk_size(len(tasks), jobs))
        pending_chunks.reverse()
        in_flight: list[Any] = []
        while pending_chunks or in_flight:
            while pending_chunks and len(in_flight) < 4 * jobs:
                in_flight.append(remote.remote(pending_chunks.pop()))
            done, in_flight = ray.wait(in_flight, num_returns=1)
            try:
                batch: list[TaskResult] = ray.get(done[0])
            except Exception as exc:
                cause = getattr(exc, "cause", None)
                if isinstance(cause, RunnerError):
                    raise RunnerError(str(cause)) from None
                raise
            yield from batch
    finally:
        if started:
            ray.shutdown()
