"""`toolwitness code TARGET`: verify that each tool's code stays within what it declares."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from toolwitness.acquire.catalog import load_catalog_file
from toolwitness.acquire.package_deps import DependencySources
from toolwitness.code.against import against_surface
from toolwitness.code.analyse import CodeOptions, analyse_target
from toolwitness.code.declared import DeclaredFrom
from toolwitness.code.isolate import ChildLimits, LimitExceeded, run_limited
from toolwitness.code.tree import all_hits, render_tool_tree
from toolwitness.errors import UsageError
from toolwitness.findings import Severity
from toolwitness.model import ServerSurface
from toolwitness.pipeline import (
    ScanOptions,
    StageFailures,
    code_scan_result,
    exit_code,
    scan_surfaces,
)
from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for
from toolwitness.report.sarif_artifacts import find_source_root
from toolwitness.result import ScanResult


def code_command(
    target: Annotated[
        str,
        typer.Argument(help="A source directory, a .tgz/.whl/.zip, or npm:NAME@V / pypi:NAME==V."),
    ],
    declared_from: Annotated[
        DeclaredFrom,
        typer.Option(
            "--declared-from",
            help="What a tool declares: its description, its annotations, or both.",
        ),
    ] = DeclaredFrom.BOTH,
    graph: Annotated[
        str | None,
        typer.Option("--graph", help="Print the call tree from this tool's handler to its sinks."),
    ] = None,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="Report format.")] = (
        OutputFormat.TERMINAL
    ),
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the report here.")
    ] = None,
    surface: Annotated[
        Path | None,
        typer.Option(
            "--surface",
            help="A tools catalog or snapshot: verify what the server advertises, not what "
            "the code's registrations say.",
        ),
    ] = None,
    fail_on: Annotated[
        Severity | None, typer.Option(help="Exit 1 if a finding is at or above this severity.")
    ] = None,
    allow_partial: Annotated[
        bool,
        typer.Option(
            "--allow-partial",
            help="Tools of the server not found in its code: report TW-CODE-005 (grade C at "
            "best) instead of exiting 3 (incomplete).",
        ),
    ] = False,
    dependency_artifacts: Annotated[
        Path | None,
        typer.Option(
            "--dependency-artifacts",
            help="A folder of dependency artifacts (npm pack .tgz): tools a package defines in "
            "its dependencies are read from these first (offline), then from the registry "
            "for npm: targets.",
        ),
    ] = None,
    max_seconds: Annotated[
        float, typer.Option(help="Wall seconds the analysis may take (its child is stopped).")
    ] = 300.0,
    max_memory_mib: Annotated[
        int, typer.Option(help="Address-space limit of the analysis child (MiB).")
    ] = 2048,
    max_cpu_seconds: Annotated[
        int, typer.Option(help="CPU seconds the analysis child may use.")
    ] = 300,
    source_root: Annotated[
        Path | None,
        typer.Option(
            "--source-root",
            help="SARIF: write file paths relative to this folder (default: the repository "
            "root above the target, else the current folder).",
        ),
    ] = None,
    debug: Annotated[bool, typer.Option(help="Show tracebacks for internal errors.")] = False,
) -> None:
    """Follow each tool's handler to capability sinks; compare with what the tool declares."""
    from toolwitness.cli_support import emit as _emit
    from toolwitness.cli_support import guard as _guard

    color = output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    root = source_root or find_source_root([Path(target)])
    report = ReportOptions(color=color, source_root=root)

    def work(folder: Path) -> tuple[str, int]:
        sources = DependencySources(artifacts=dependency_artifacts)
        options = CodeOptions(declared_from=declared_from, dependencies=sources)
        analysis = analyse_target(target, folder, options)
        if catalog is not None:
            analysis = against_surface(analysis, catalog, declared_from)
        if graph is not None:
            names = frozenset(v.name for v in analysis.verdicts)
            if graph not in names:
                raise UsageError(f"no tool {graph!r} in {target}")
            verdict = analysis.verdict(graph)
            return render_tool_tree(verdict, all_hits(verdict, analysis.graph, names)), 0
        result = code_scan_result(analysis, allow_partial=allow_partial)
        text = formatter_for(fmt, report).format(result)
        return text, exit_code(result, fail_on=fail_on)

    with _guard(debug), tempfile.TemporaryDirectory(prefix="toolwitness-code-") as work_dir:
        limits = child_limits(max_seconds, max_memory_mib, max_cpu_seconds)
        catalog = load_catalog_file(surface) if surface is not None else None
        try:
            text, code = run_limited(lambda: work(Path(work_dir)), limits)
        except LimitExceeded as exc:  # a report that says so, and exit 3 (incomplete)
            result = stopped_result(target, str(exc))
            text = formatter_for(fmt, report).format(result)
            code = exit_code(result)
        _emit(text, output)
        raise typer.Exit(code)


def child_limits(seconds: float, memory_mib: int, cpu_seconds: int) -> ChildLimits:
    if seconds <= 0 or memory_mib < 64 or cpu_seconds <= 0:
        raise UsageError("--max-seconds and --max-cpu-seconds must be > 0, --max-memory-mib >= 64")
    return ChildLimits(seconds, memory_mib, cpu_seconds)


def stopped_result(target: str, reason: str) -> ScanResult:
    """The report of an analysis stopped by a limit: no tools, the reason as the server's error."""
    surface = ServerSurface(id=target, source=target, tools=(), notes=(reason,))
    return scan_surfaces([surface], ScanOptions(), [StageFailures({target: (reason,)})])


def register(app: typer.Typer) -> None:
    app.command("code")(code_command)
