"""`toolwitness scan`: catalogs, client configs, live servers, the lab and code verification.

This module declares the options (typer); `commands.scan_run` does the scan. Adding an option is
a parameter in the signature here (grouped by help panel), its name in HELP_PANELS, a field of
`ScanRequest` and its use in `run_scan`; then `python -m toolwitness.cli_fast` recompiles the
fast path's option table. Tests fail when an option has no panel or the table is stale.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from toolwitness.commands import discover as discover_commands
from toolwitness.commands import integrity as integrity_commands
from toolwitness.commands import lab as lab_commands
from toolwitness.commands import live_opts
from toolwitness.commands.scan_run import ScanRequest, run_scan
from toolwitness.findings import Severity
from toolwitness.report.interface import OutputFormat

# The values of `code.declared.DeclaredFrom` (a test keeps them equal): the code verifier loads
# only when --code asks for it, not to print this option's help.
DeclaredFromName = Literal["description", "annotations", "both"]
Grade = Literal["A", "B", "C", "D", "F"]  # pipeline.GRADES (a test keeps them equal)
OUTPUT = "Output"
GATES = "Gates"
ACCEPTED = "Rules and accepted findings"
PINS = "Pins (lockfile)"
DISCOVERY = "Discovery"
LIVE = "Live servers"
LAB = "Lab (runs tools in a sandbox)"
CODE = "Code verification"
LIMITS = "Limits"

# Options that start, connect to or call servers: never taken from a config file, so a
# repository's `.toolwitness.toml` cannot make the machine that scans it run anything.
NOT_FROM_CONFIG = frozenset({LIVE, LAB})

HELP_PANELS = {
    "fmt": OUTPUT, "output": OUTPUT, "redact": OUTPUT, "quiet": OUTPUT, "source_root": OUTPUT,
    "fail_on": GATES, "min_grade": GATES,
    "rules": ACCEPTED, "include_builtins": ACCEPTED, "suppressions": ACCEPTED,
    "baseline": ACCEPTED, "write_baseline": ACCEPTED,
    "lock": PINS, "strict": PINS, "server_id": PINS, "record_baseline": PINS, "pin_policy": PINS,
    "discover": DISCOVERY, "home": DISCOVERY, "project": DISCOVERY, "no_project": DISCOVERY,
    "online": DISCOVERY,
    "live": LIVE, "stdio": LIVE, "sandbox": LIVE, "allow_command": LIVE, "allow_host": LIVE,
    "header": LIVE, "bearer": LIVE, "timeout": LIVE, "server_timeout": LIVE, "concurrency": LIVE,
    "max_pages": LIVE,
    "lab": LAB, "all_tools": LAB, "call_timeout": LAB,
    "verify_code": CODE, "declared_from": CODE, "allow_partial": CODE,
    "max_seconds": CODE, "max_memory_mib": CODE, "max_cpu_seconds": CODE,
    "max_tools": LIMITS, "max_file_mib": LIMITS, "debug": LIMITS,
}  # fmt: skip

FormatOpt = Annotated[
    OutputFormat,
    typer.Option("--format", "-f", help="Report format. Default: from -o's extension, else text."),
]
OutputOpt = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="Write the report here: .sarif .json .html .csv .md .txt"),
]
SourceRootOpt = Annotated[
    Path | None,
    typer.Option(
        "--source-root",
        help="SARIF: write file paths relative to this folder (default: the repository root "
        "above the first target, else the current folder).",
    ),
]
QuietOpt = Annotated[
    bool,
    typer.Option("--quiet", "-q", help="Print nothing but errors; the exit code tells (and -o)."),
]
MaxTools = Annotated[int, typer.Option(help="Reject a catalog with more tools than this.", min=1)]
MaxMib = Annotated[int, typer.Option(help="Reject input files larger than this many MiB.", min=1)]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show tracebacks for internal errors.")]
IncludeBuiltinsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--include-builtins",
        metavar="CLIENT",
        help="Add this client's own built-in tools (file read/write, shell, web fetch) to the "
        "toxic-flow analysis: claude-code, cursor, vscode, windsurf, gemini-cli, codex. "
        "Repeatable.",
    ),
]


def scan_command(
    targets: Annotated[
        list[str] | None,
        typer.Argument(
            help="Catalogs, client configs, directories, server URLs, - for standard input."
        ),
    ] = None,
    # Output
    fmt: FormatOpt = OutputFormat.TERMINAL,
    output: OutputOpt = None,
    redact: Annotated[bool, typer.Option("--redact", help="Mask evidence text in the report.")] = (
        False
    ),
    quiet: QuietOpt = False,
    source_root: SourceRootOpt = None,
    # Gates
    fail_on: Annotated[
        Severity | None, typer.Option(help="Exit 1 if a finding is at or above this severity.")
    ] = None,
    min_grade: Annotated[
        Grade | None,
        typer.Option(help="Exit 1 if a server grades below this.", case_sensitive=False),
    ] = None,
    # Rules and accepted findings
    rules: Annotated[
        list[Path] | None, typer.Option("--rules", help="Extra rule pack (YAML, repeatable).")
    ] = None,
    include_builtins: IncludeBuiltinsOpt = None,
    suppressions: Annotated[
        Path | None,
        typer.Option("--suppressions", help="YAML of accepted findings, each justified."),
    ] = None,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", help="Accept the findings recorded in this baseline file."),
    ] = None,
    write_baseline: Annotated[
        Path | None,
        typer.Option("--write-baseline", help="Record this scan's findings as a baseline file."),
    ] = None,
    # Pins
    lock: Annotated[
        Path | None, typer.Option("--lock", help="Verify against this lockfile (never writes it).")
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="With --lock: exit 1 unless every server matches.")
    ] = False,
    server_id: integrity_commands.ServerIdOpt = None,
    record_baseline: integrity_commands.RecordBaselineFlag = False,
    pin_policy: integrity_commands.PinPolicyOpt = integrity_commands.DEFAULT_POLICY,
    # Discovery
    discover: discover_commands.DiscoverFlag = False,
    home: discover_commands.HomeOpt = None,
    project: discover_commands.ProjectOpt = None,
    no_project: discover_commands.NoProjectFlag = False,
    online: discover_commands.OnlineFlag = False,
    # Live servers
    live: live_opts.LiveFlag = False,
    stdio: live_opts.StdioOpt = None,
    sandbox: live_opts.SandboxFlag = False,
    allow_command: live_opts.AllowCommandOpt = None,
    allow_host: live_opts.AllowHostOpt = None,
    header: live_opts.HeaderOpt = None,
    bearer: live_opts.BearerOpt = None,
    timeout: live_opts.TimeoutOpt = 60.0,
    server_timeout: live_opts.ServerTimeoutOpt = 180.0,
    concurrency: live_opts.ConcurrencyOpt = 8,
    max_pages: live_opts.MaxPagesOpt = 100,
    # Lab
    lab: lab_commands.LabFlag = False,
    all_tools: lab_commands.AllToolsFlag = False,
    call_timeout: lab_commands.CallTimeoutOpt = 15.0,
    # Code verification
    verify_code: Annotated[
        bool,
        typer.Option(
            "--code",
            help="Also verify each server's code (source folder, local install or pinned "
            "package) against what its tools declare.",
        ),
    ] = False,
    declared_from: Annotated[
        DeclaredFromName,
        typer.Option(
            "--declared-from",
            help="With --code: what a tool declares.",
        ),
    ] = "both",
    allow_partial: Annotated[
        bool,
        typer.Option(
            "--allow-partial",
            help="With --code: tools not found in the code are a TW-CODE-005 finding (grade C "
            "at best) instead of an incomplete scan (exit 3).",
        ),
    ] = False,
    max_seconds: Annotated[
        float,
        typer.Option(
            help="With --code: wall seconds one server's code analysis may take (its child is "
            "stopped; that server's scan is incomplete, the limit named)."
        ),
    ] = 300.0,
    max_memory_mib: Annotated[
        int, typer.Option(help="With --code: address-space limit of each analysis child (MiB).")
    ] = 2048,
    max_cpu_seconds: Annotated[
        int, typer.Option(help="With --code: CPU seconds each analysis child may use.")
    ] = 300,
    # Limits
    max_tools: MaxTools = 5000,
    max_file_mib: MaxMib = 10,
    debug: DebugOpt = False,
) -> None:
    """Scan tool catalogs, client configs or live servers; report findings with witnesses."""
    # The arguments, by name, are exactly the request (every parameter, nothing else yet).
    raise typer.Exit(run_scan(ScanRequest(**locals())))


def register(app: typer.Typer) -> None:
    app.command("scan")(scan_command)
