"""`toolwitness sweep LIST -o RESULTS.jsonl` and `toolwitness sweep-report RESULTS.jsonl`."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from types import TracebackType
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column

from toolwitness.sweep.executor import make_executor
from toolwitness.sweep.outcomes import OUTCOMES
from toolwitness.sweep.report import ecosystem_report
from toolwitness.sweep.report_markdown import render
from toolwitness.sweep.results import read_records
from toolwitness.sweep.run import SweepOptions, run_sweep
from toolwitness.sweep.targets import load_targets
from toolwitness.sweep.task import TaskSettings

_SHORT = {"ANALYSED": "ok", "NO_TOOLS_FOUND": "no-tools", "NO_ENTRY": "no-entry",
          "DOWNLOAD_FAILED": "dl-failed", "UNANALYZABLE": "unanalyzable", "TIMEOUT": "timeout",
          "ERROR": "error"}  # fmt: skip


class SweepProgress:
    """A bar on stderr with counts by outcome and an ETA (only when stderr is a terminal)."""

    def __init__(self) -> None:
        # The counts come last: on a narrow terminal they are cut, the bar and ETA are not.
        self._progress = Progress(
            TextColumn("sweep"),
            BarColumn(bar_width=12),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            TextColumn(
                "{task.description}",
                markup=False,
                table_column=Column(no_wrap=True, overflow="ellipsis", max_width=36),
            ),
            console=Console(stderr=True),
        )
        self._task: TaskID | None = None
        self._counts: Counter[str] = Counter()

    def __enter__(self) -> SweepProgress:
        self._progress.__enter__()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.__exit__(kind, exc, tb)

    def _label(self) -> str:
        return " ".join(f"{_SHORT[o]}={self._counts[o]}" for o in OUTCOMES if self._counts[o])

    def started(self, total: int, skipped: int, workers: int) -> None:
        self._task = self._progress.add_task(self._label(), total=total)

    def finished(self, record: dict[str, Any]) -> None:
        self._counts[str(record.get("outcome"))] += 1
        if self._task is not None:
            self._progress.update(self._task, advance=1, description=self._label())


def sweep_command(
    target_list: Annotated[
        Path, typer.Argument(help="Targets, one per line or a JSON array of strings.")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="Results JSONL (appended).")],
    workers: Annotated[
        int | None, typer.Option(help="Local worker processes (default: all cores).")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option(help="Run on an existing Dask cluster: tcp://HOST:PORT.")
    ] = None,
    frozen: Annotated[
        Path | None,
        typer.Option(help="Replay the versions and artifact hashes of this earlier results file."),
    ] = None,
    timeout: Annotated[float, typer.Option(help="Wall seconds per target.")] = 300.0,
    memory_mib: Annotated[int, typer.Option(help="Address-space limit per analysis (MiB).")] = (
        2048
    ),
    max_targets: Annotated[
        int | None, typer.Option(help="Stop after this many targets in this run.")
    ] = None,
    debug: Annotated[bool, typer.Option(help="Show tracebacks for internal errors.")] = False,
) -> None:
    """Verify many published packages; results stream to OUTPUT and a rerun resumes."""
    from toolwitness.cli_support import guard as _guard
    from toolwitness.errors import UsageError

    with _guard(debug):
        if timeout <= 0 or memory_mib < 64:
            raise UsageError("--timeout must be positive and --memory-mib at least 64")
        targets = load_targets(target_list)
        options = SweepOptions(TaskSettings(timeout, memory_mib), frozen, max_targets)
        executor = make_executor(workers, scheduler)
        try:
            if sys.stderr.isatty():
                with SweepProgress() as progress:
                    summary = run_sweep(targets, output, options, executor, progress)
            else:
                summary = run_sweep(targets, output, options, executor)
        finally:
            executor.close()
        sys.stderr.write(f"toolwitness: {summary.line()}\n")
    raise typer.Exit(0)


def sweep_report_command(
    results: Annotated[Path, typer.Argument(help="A results file written by `sweep`.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the Markdown here.")
    ] = None,
    json_output: Annotated[
        Path | None, typer.Option("--json", help="Also write the report as JSON here.")
    ] = None,
    debug: Annotated[bool, typer.Option(help="Show tracebacks for internal errors.")] = False,
) -> None:
    """Outcome counts, violation rates, undeclared capabilities, offenders and bottlenecks."""
    from toolwitness.cli_support import emit as _emit
    from toolwitness.cli_support import guard as _guard

    with _guard(debug):
        report = ecosystem_report(read_records(results))
        if json_output is not None:
            json_output.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", "utf-8")
        _emit(render(report), output)
    raise typer.Exit(0)


def register(app: typer.Typer) -> None:
    app.command("sweep")(sweep_command)
    app.command("sweep-report")(sweep_report_command)
