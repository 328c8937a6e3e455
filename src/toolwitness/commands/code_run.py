"""What `toolwitness code TARGET` does with its options, without typer.

`commands.code` declares the options (typer) and hands them here as one `CodeRequest`; the
command line's fast path (`cli_fast`) builds the same request without importing typer. The
analysis runs in a forked child under limits (`code.isolate`): the code verifier, the metadata
checks and the report writer are imported there, inside `work`, not by this process before the
fork; this process keeps the CLI, the limits and the fallback report of a stopped analysis.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from toolwitness.cli_support import emit, guard
from toolwitness.code.isolate import ChildLimits, LimitExceeded, run_limited
from toolwitness.errors import UsageError
from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for
from toolwitness.report.sarif_artifacts import find_source_root

if TYPE_CHECKING:
    from toolwitness.code.declared import DeclaredFrom
    from toolwitness.findings import Severity
    from toolwitness.model import ServerSurface
    from toolwitness.result import ScanResult


class CodeRequest(NamedTuple):
    """Every `code` option as the command line gave it (typer's callback arguments, by name);
    the defaults are declared once, in `commands.code`."""

    target: str
    declared_from: DeclaredFrom
    graph: str | None
    fmt: OutputFormat
    output: Path | None
    surface: Path | None
    fail_on: Severity | None
    allow_partial: bool
    dependency_artifacts: Path | None
    max_seconds: float
    max_memory_mib: int
    max_cpu_seconds: int
    source_root: Path | None
    debug: bool


def run_code(r: CodeRequest) -> int:
    """The exit code; an error leaves as its one-line message and `SystemExit` (`guard`)."""
    color = r.output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    root = r.source_root or find_source_root([Path(r.target)])
    report = ReportOptions(color=color, source_root=root)
    with guard(r.debug), tempfile.TemporaryDirectory(prefix="toolwitness-code-") as work_dir:
        limits = child_limits(r.max_seconds, r.max_memory_mib, r.max_cpu_seconds)
        catalog = _catalog(r.surface)
        try:
            text, code = run_limited(lambda: _work(r, Path(work_dir), catalog, report), limits)
        except LimitExceeded as exc:  # a report that says so, and exit 3 (incomplete)
            result = stopped_result(r.target, str(exc))
            text = formatter_for(r.fmt, report).format(result)
            from toolwitness.pipeline import exit_code

            code = exit_code(result)
        emit(text, r.output)
        return code


def _catalog(path: Path | None) -> ServerSurface | None:
    if path is None:
        return None
    from toolwitness.acquire.catalog import load_catalog_file

    return load_catalog_file(path)


def _work(
    r: CodeRequest, folder: Path, catalog: ServerSurface | None, report: ReportOptions
) -> tuple[str, int]:
    """In the analysis child: analyse, then the report's text and the exit code."""
    from toolwitness.acquire.package_deps import DependencySources
    from toolwitness.code.analyse import CodeOptions, analyse_target
    from toolwitness.pipeline import code_scan_result, exit_code

    sources = DependencySources(artifacts=r.dependency_artifacts)
    options = CodeOptions(declared_from=r.declared_from, dependencies=sources)
    analysis = analyse_target(r.target, folder, options)
    if catalog is not None:
        from toolwitness.code.against import against_surface

        analysis = against_surface(analysis, catalog, r.declared_from)
    if r.graph is not None:
        from toolwitness.code.tree import all_hits, render_tool_tree

        names = frozenset(v.name for v in analysis.verdicts)
        if r.graph not in names:
            raise UsageError(f"no tool {r.graph!r} in {r.target}")
        verdict = analysis.verdict(r.graph)
        return render_tool_tree(verdict, all_hits(verdict, analysis.graph, names)), 0
    result = code_scan_result(analysis, allow_partial=r.allow_partial)
    text = formatter_for(r.fmt, report).format(result)
    return text, exit_code(result, fail_on=r.fail_on)


def child_limits(seconds: float, memory_mib: int, cpu_seconds: int) -> ChildLimits:
    if seconds <= 0 or memory_mib < 64 or cpu_seconds <= 0:
        raise UsageError("--max-seconds and --max-cpu-seconds must be > 0, --max-memory-mib >= 64")
    return ChildLimits(seconds, memory_mib, cpu_seconds)


def stopped_result(target: str, reason: str) -> ScanResult:
    """The report of an analysis stopped by a limit: no tools, the reason as the server's error."""
    from toolwitness.model import ServerSurface
    from toolwitness.pipeline import ScanOptions, StageFailures, scan_surfaces

    surface = ServerSurface(id=target, source=target, tools=(), notes=(reason,))
    return scan_surfaces([surface], ScanOptions(), [StageFailures({target: (reason,)})])
