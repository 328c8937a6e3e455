"""The timing helpers the benchmarks share: the best of N runs of a callable, and one whole
process measured from outside (wall, CPU, peak memory)."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


def best(
    fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Best of `repeat` runs by `clock` (wall time by default; `time.process_time` for CPU
    time when the machine is shared)."""
    times = []
    for _ in range(repeat):
        started = clock()
        fn()
        times.append(clock() - started)
    return min(times)


@dataclass(frozen=True)
class ProcessRun:
    """One whole process: wall seconds, CPU seconds (user + system, its waited-for children
    included), peak resident set in KiB, exit code."""

    wall: float
    cpu: float
    peak_rss_kib: int
    returncode: int


def run_process(
    argv: Sequence[str], stdout: Path, stderr: Path, env: dict[str, str] | None = None
) -> ProcessRun:
    """Run `argv` to completion, its output to files. The resource figures come from `wait4` on
    this one child (what `/usr/bin/time -v` reads too), so no other child of ours is counted."""
    with stdout.open("wb") as out, stderr.open("wb") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here; tell Popen
    return ProcessRun(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode)
