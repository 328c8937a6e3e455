"""Run a code analysis in a child process under wall-time, memory and CPU limits.

`code` and `scan --code` analyse hostile trees; like `sweep`, the work runs in a forked child
with `RLIMIT_AS` and `RLIMIT_CPU` set and a wall-clock deadline kept by the parent, so a tree
whose parse or call graph blows up stops with a clear reason instead of taking the machine with
it. Only the result crosses back (pickled through a pipe). Temporary folders belong to the
parent, so they are removed on every exit path, SIGKILL of the child included.
"""

from __future__ import annotations

import errno
import multiprocessing
import os
import pickle
import resource
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TypeVar

from toolwitness.errors import IncompleteScanError, ToolwitnessError
from toolwitness.plainclass import plainclass

T = TypeVar("T")


@plainclass(frozen=True)
class ChildLimits:
    wall_seconds: float = 300.0  # the same defaults as `sweep`
    memory_mib: int = 2048
    cpu_seconds: int = 300

    def describe(self) -> str:
        return (
            f"{self.wall_seconds:g} s wall time, {self.memory_mib} MiB memory, "
            f"{self.cpu_seconds} s CPU"
        )


class LimitExceeded(IncompleteScanError):
    """The analysis hit one of its child limits (exit 3: the scan is incomplete)."""


def _child(work: Callable[[], T], limits: ChildLimits, conn: Connection) -> None:
    # Encoded before the limit is set: once memory is exhausted, even formatting the reason or
    # pickling it can raise MemoryError, and an exception escaping this function would end the
    # child with multiprocessing's bare status 1 and no reason at all.
    over_memory = pickle.dumps(("limit", _memory(limits)), protocol=pickle.HIGHEST_PROTOCOL)
    try:
        data = _outcome(work, limits)
    except MemoryError:
        data = over_memory
    try:
        conn.send_bytes(data)
    except MemoryError:
        try:
            conn.send_bytes(over_memory)
        except BaseException:
            os._exit(MEMORY_STATUS)
    conn.close()


def _outcome(work: Callable[[], T], limits: ChildLimits) -> bytes:
    """The pickled result of `work()` under the limits, or of the reason it has none."""
    if limits.memory_mib > 0:
        cap = limits.memory_mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    if limits.cpu_seconds > 0:
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 5))
    try:
        payload: object = ("ok", work())
    except MemoryError:
        raise
    except ToolwitnessError as exc:
        payload = ("raised", exc)
    except RecursionError:
        payload = ("limit", "the code nests deeper than the analysis follows")
    except (ImportError, OSError) as exc:
        # Under RLIMIT_AS, loading a parser's shared object fails with "failed to map segment"
        # (an ImportError) and an allocation in C with ENOMEM: both are the memory limit.
        if out_of_memory(exc):
            raise MemoryError from exc
        payload = ("error", f"{type(exc).__name__}: {exc}"[:400])
    except Exception as exc:  # fail closed: an internal error, never a clean result
        payload = ("error", f"{type(exc).__name__}: {exc}"[:400])
    try:
        return pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        raise
    except (RecursionError, pickle.PicklingError) as exc:
        return pickle.dumps(("error", f"result could not be returned: {type(exc).__name__}"))


def _memory(limits: ChildLimits) -> str:
    return f"the analysis exceeded the memory limit of {limits.memory_mib} MiB"


def out_of_memory(exc: BaseException) -> bool:
    """An ImportError or OSError that is the address-space limit, not a bug."""
    return getattr(exc, "errno", None) == errno.ENOMEM or "failed to map segment" in str(exc)


def run_limited(work: Callable[[], T], limits: ChildLimits) -> T:
    """`work()` in a forked child under `limits`; its result, its ToolwitnessError re-raised,
    or LimitExceeded naming the limit that stopped it."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(work, limits, send), daemon=True)
    process.start()
    send.close()
    try:
        if not receive.poll(limits.wall_seconds):
            raise LimitExceeded(
                f"code analysis stopped: over the wall-time limit of {limits.wall_seconds:g} s"
            )
        try:
            data = receive.recv_bytes()
        except EOFError:
            process.join(5)
            raise LimitExceeded(_death(process.exitcode, limits)) from None
    finally:
        if process.is_alive():
            process.kill()
        process.join(5)
        receive.close()
    kind, value = pickle.loads(data)  # noqa: S301 - our own child's bytes, never the target's
    if kind == "ok":
        result: T = value
        return result
    if kind == "raised":
        raise value
    if kind == "limit":
        raise LimitExceeded(f"code analysis stopped: {value}")
    raise IncompleteScanError(f"code analysis failed: {value}")


# The child's own exit status when the memory limit left it unable even to send its reason.
MEMORY_STATUS = 86

# Exit codes of a child that crashed: under an address-space limit, CPython aborts on an
# allocation it cannot recover from and a C extension (a parser) may crash on a failed malloc.
CRASHES = frozenset({-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGBUS})


def _death(exitcode: int | None, limits: ChildLimits) -> str:
    if exitcode == -signal.SIGXCPU:
        return f"code analysis stopped: over the CPU limit of {limits.cpu_seconds} s"
    if exitcode == -signal.SIGKILL:
        return "code analysis stopped: the analysis process was killed (memory or CPU limit)"
    if exitcode == MEMORY_STATUS and limits.memory_mib > 0:
        return f"code analysis stopped: {_memory(limits)}"
    if exitcode in CRASHES and limits.memory_mib > 0:
        # Under the address-space limit, CPython aborts on an allocation it cannot recover from
        # ("Cannot recover from MemoryErrors while normalizing exceptions") and a C extension
        # may crash on a failed malloc: where the limit strikes decides whether the child sees
        # a MemoryError or this.
        name = signal.Signals(-exitcode).name
        return (
            f"code analysis stopped: the analysis process crashed ({name}) under the memory"
            f" limit of {limits.memory_mib} MiB"
        )
    return f"code analysis stopped: the analysis process ended with status {exitcode}"
