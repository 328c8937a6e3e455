"""`toolwitness code TARGET`: verify that each tool's code stays within what it declares.

This module declares the options (typer); `commands.code_run` runs the analysis. A new option is
a parameter here, a field of `CodeRequest`, and `python -m toolwitness.cli_table` for the fast
path's option table (a test fails while it is stale)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toolwitness.code.declared import DeclaredFrom
from toolwitness.commands.code_run import CodeRequest, run_code
from toolwitness.findings import Severity
from toolwitness.report.interface import OutputFormat


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
    # The arguments, by name, are exactly the request (every parameter, nothing else yet).
    raise typer.Exit(run_code(CodeRequest(**locals())))


def register(app: typer.Typer) -> None:
    app.command("code")(code_command)
