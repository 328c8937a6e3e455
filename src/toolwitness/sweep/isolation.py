"""Run one analysis in its own process, limited in memory (RLIMIT_AS) and wall time.

Starting Python and importing the analysis costs about two CPU seconds — more than analysing a
typical package — so the child is forked from a `forkserver` that has the analysis preloaded.
Where a process may not have children of its own (a daemonic worker, e.g. under a Dask nanny),
the same `child.compute` runs in a fresh interpreter (`python -m toolwitness.sweep.child`)
instead. Either way the child sets its own limits first and returns the same body.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from multiprocessing.context import ForkServerContext
from pathlib import Path
from typing import Any

from toolwitness.sweep.child import forked_entry

_PRELOAD = ["toolwitness.sweep.child", "toolwitness.sweep.analyse", "toolwitness.checks.catalog"]
_contexts: dict[str, ForkServerContext] = {}  # one preloaded server per process


@dataclass(frozen=True)
class Ended:
    returncode: int | None
    output: bytes | None
    stderr_tail: str = ""
    timed_out: bool = False


def _forkserver() -> ForkServerContext | None:
    if multiprocessing.current_process().daemon or "forkserver" not in (
        multiprocessing.get_all_start_methods()
    ):
        return None
    if "forkserver" not in _contexts:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        _contexts["forkserver"] = context
    return _contexts["forkserver"]


def _forked(context: ForkServerContext, job: dict[str, Any], timeout: float) -> Ended:
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=forked_entry, args=(job, send), daemon=True)
    process.start()
    send.close()
    try:
        if not receive.poll(timeout):
            process.kill()
            process.join()
            return Ended(None, None, timed_out=True)
        try:
            output: bytes | None = receive.recv_bytes()
        except EOFError:  # the child died before answering (a signal, the CPU limit)
            output = None
        process.join(timeout=30)
        if process.exitcode is None:
            process.kill()
            process.join()
        return Ended(process.exitcode, output)
    finally:
        receive.close()


def _spawned(job: dict[str, Any], work: Path, timeout: float) -> Ended:
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolwitness.sweep.child"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=work,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(json.dumps(job).encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return Ended(None, None, timed_out=True)
    tail = err.decode("utf-8", "replace").strip().splitlines()[-1:]
    return Ended(proc.returncode, out or None, tail[0] if tail else "")


def run_isolated(job: dict[str, Any], work: Path, timeout: float) -> Ended:
    context = _forkserver()
    if context is not None:
        return _forked(context, job, timeout)
    return _spawned(job, work, timeout)
