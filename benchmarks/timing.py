"""The timing helper the benchmarks share: the best of N runs of a callable."""

from __future__ import annotations

import time
from collections.abc import Callable


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
