"""`toolwitness code TARGET`: verify that each tool's code stays within what it declares."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from toolwitness.acquire.catalog import load_catalog_file
from toolwitness.code.against import against_surface
from toolwitness.code.analyse import CodeOptions, analyse_target
from toolwitness.code.declared import DeclaredFrom
from toolwitness.code.tree import all_hits, render_tool_tree
from toolwitness.errors import UsageError
from toolwitness.findings import Severity
from toolwitness.pipeline import code_scan_result, exit_code
from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for
from toolwitness.report.sarif_artifacts import find_source_root


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

    with _guard(debug), tempfile.TemporaryDirectory(prefix="toolwitness-code-") as work:
        analysis = analyse_target(target, Path(work), CodeOptions(declared_from=declared_from))
        if surface is not None:
            analysis = against_surface(analysis, load_catalog_file(surface), declared_from)
        if graph is not None:
            names = frozenset(v.name for v in analysis.verdicts)
            if graph not in names:
                raise UsageError(f"no tool {graph!r} in {target}")
            verdict = analysis.verdict(graph)
            _emit(render_tool_tree(verdict, all_hits(verdict, analysis.graph, names)), output)
            raise typer.Exit(0)
        result = code_scan_result(analysis)
        color = output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        root = source_root or find_source_root([Path(target)])
        options = ReportOptions(color=color, source_root=root)
        _emit(formatter_for(fmt, options).format(result), output)
        raise typer.Exit(exit_code(result, fail_on=fail_on))


def register(app: typer.Typer) -> None:
    app.command("code")(code_command)
