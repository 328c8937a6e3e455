"""One executor abstraction: run `task.run_target` over many targets, yield records as they finish.

- `LocalExecutor`: a process pool on this machine (all cores by default).
- `DaskExecutor`: the same function submitted to an existing `dask.distributed` cluster
  (`--scheduler tcp://HOST:PORT`). Workers need toolwitness installed; each task still analyses
  in its own memory-limited child process on the worker.

Both take the same work items and return the same records: the executor decides *where* a task
runs, never *what* it computes. Completion order differs; the results file does not care.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Protocol

from toolwitness.errors import UsageError
from toolwitness.procs import die_with_parent
from toolwitness.sweep.outcomes import ERROR
from toolwitness.sweep.targets import Target
from toolwitness.sweep.task import Pin, TaskSettings, base_record, run_target
from toolwitness.textnorm import excerpt


@dataclass(frozen=True)
class WorkItem:
    target: Target
    pin: Pin | None
    frozen: bool


def run_item(item: WorkItem, settings: TaskSettings) -> dict[str, Any]:
    """The single task function every executor runs."""
    return run_target(item.target, settings, item.pin, item.frozen)


def _result_or_error(result: Callable[[], Any], item: WorkItem) -> dict[str, Any]:
    """A worker that died (killed, out of memory) still yields a record for its target."""
    try:
        record: dict[str, Any] = result()
    except Exception as exc:
        reason = excerpt(f"the worker failed: {type(exc).__name__}: {exc}", 400)
        return {**base_record(item.target, ERROR, reason), "timing": {"seconds": 0.0}}
    return record


class Executor(Protocol):
    workers: int

    def run(self, items: Sequence[WorkItem], settings: TaskSettings) -> Iterator[dict[str, Any]]:
        """Records in completion order; stopping the iteration cancels what has not started."""
        ...

    def close(self) -> None: ...


class LocalExecutor:
    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1

    def run(self, items: Sequence[WorkItem], settings: TaskSettings) -> Iterator[dict[str, Any]]:
        # Spawned workers: a forked one would inherit this process's forkserver handle (if a
        # task already ran here) and could not wait for the children it starts. Each worker
        # dies with this process (SIGKILL included); its forkserver exits when the worker does,
        # and the analysis children die with their forkserver (child.compute).
        pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        )
        try:
            futures = {pool.submit(run_item, item, settings): item for item in items}
            for future in as_completed(futures):
                yield _result_or_error(future.result, futures[future])
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        return None


class DaskExecutor:
    def __init__(self, address: str, timeout: float = 30.0) -> None:
        if not address.startswith(("tcp://", "tls://", "inproc://", "ws://", "wss://")):
            raise UsageError(f"--scheduler wants a dask address like tcp://HOST:PORT: {address!r}")
        try:
            from dask.distributed import Client
        except ImportError:
            raise UsageError("--scheduler needs dask: pip install 'toolwitness[sweep]'") from None
        try:
            self.client = Client(address, timeout=timeout)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"cannot reach the dask scheduler at {address}: {exc}") from None
        info = self.client.scheduler_info()
        self.workers = sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values())

    def run(self, items: Sequence[WorkItem], settings: TaskSettings) -> Iterator[dict[str, Any]]:
        from dask.distributed import as_completed as dask_completed

        # pure=False: a task is a measurement (downloads happen), never deduplicated by dask.
        futures = self.client.map(run_item, list(items), settings=settings, pure=False)
        try:
            by_key = {f.key: item for f, item in zip(futures, items, strict=True)}
            for future in dask_completed(futures):  # type: ignore[no-untyped-call]
                yield _result_or_error(future.result, by_key[future.key])
        finally:
            self.client.cancel(futures)  # type: ignore[no-untyped-call]

    def close(self) -> None:
        self.client.close()  # type: ignore[no-untyped-call]


def make_executor(workers: int | None, scheduler: str | None) -> Executor:
    if workers is not None and workers < 1:
        raise UsageError("--workers must be at least 1")
    if scheduler:
        return DaskExecutor(scheduler)
    return LocalExecutor(workers)
