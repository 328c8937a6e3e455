"""A sweep as a library call: targets → records streamed into a results file.

    summary = run_sweep(load_targets(Path("list.txt")), Path("results.jsonl"),
                        SweepOptions(), LocalExecutor())

Resumable: targets already in the results file are skipped. Progress goes to an injected
observer (the CLI's progress bar); the library never prints.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from toolwitness.sweep.executor import Executor, WorkItem
from toolwitness.sweep.outcomes import OUTCOMES
from toolwitness.sweep.results import ResultsWriter, frozen_pins
from toolwitness.sweep.targets import Target
from toolwitness.sweep.task import TaskSettings


class SweepObserver(Protocol):
    def started(self, total: int, skipped: int, workers: int) -> None: ...

    def finished(self, record: dict[str, Any]) -> None: ...


@dataclass(frozen=True)
class SweepOptions:
    settings: TaskSettings = field(default_factory=TaskSettings)
    frozen: Path | None = None  # replay the pins of this earlier results file
    max_targets: int | None = None  # stop after this many targets this run (chunked sweeps)


@dataclass
class SweepSummary:
    total: int
    skipped: int
    ran: int = 0
    counts: Counter[str] = field(default_factory=Counter)

    @property
    def remaining(self) -> int:
        return self.total - self.skipped - self.ran

    def line(self) -> str:
        shown = ", ".join(f"{o} {self.counts[o]}" for o in OUTCOMES if self.counts[o])
        return (
            f"{self.ran} targets swept, {self.skipped} already done, {self.remaining} remaining"
            + (f" ({shown})" if shown else "")
        )


def run_sweep(
    targets: Sequence[Target],
    output: Path,
    options: SweepOptions,
    executor: Executor,
    observer: SweepObserver | None = None,
) -> SweepSummary:
    pins = frozen_pins(options.frozen) if options.frozen else {}
    with ResultsWriter(output) as writer:
        todo = [t for t in targets if t.key not in writer.done]
        summary = SweepSummary(total=len(targets), skipped=len(targets) - len(todo))
        if options.max_targets is not None:
            todo = todo[: options.max_targets]
        if observer:
            observer.started(len(todo), summary.skipped, executor.workers)
        items = [WorkItem(t, pins.get(t.key), options.frozen is not None) for t in todo]
        if not items:
            return summary
        for record in executor.run(items, options.settings):
            writer.write(record)
            summary.ran += 1
            summary.counts[record["outcome"]] += 1
            if observer:
                observer.finished(record)
    return summary
