"""`toolwitness scan`: catalogs, client configs, live servers, the lab and code verification.

Adding an option is one hunk here: a parameter in the signature (grouped by help panel), its name
in HELP_PANELS, and where it is used in the body. A test fails when an option has no panel.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Literal

import typer

from toolwitness.acquire.limits import MIB, InputLimits
from toolwitness.baseline import load_baseline, write_baseline_file
from toolwitness.cli_support import emit, guard, note, wants_color
from toolwitness.commands import builtins_option
from toolwitness.commands import discover as discover_commands
from toolwitness.commands import integrity as integrity_commands
from toolwitness.commands import lab as lab_commands
from toolwitness.commands import live as live_commands
from toolwitness.commands.scan_inputs import code_options, stdin_targets
from toolwitness.errors import UsageError
from toolwitness.findings import Severity
from toolwitness.model import ServerSpec, ServerSurface
from toolwitness.pipeline import GRADES, ScanOptions, exit_code, scan
from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for
from toolwitness.report.sarif_artifacts import find_source_root
from toolwitness.rules import load_registry
from toolwitness.suppressions import load_suppressions
from toolwitness.textnorm import escape_display

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
    include_builtins: builtins_option.IncludeBuiltinsOpt = None,
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
    live: live_commands.LiveFlag = False,
    stdio: live_commands.StdioOpt = None,
    sandbox: live_commands.SandboxFlag = False,
    allow_command: live_commands.AllowCommandOpt = None,
    allow_host: live_commands.AllowHostOpt = None,
    header: live_commands.HeaderOpt = None,
    bearer: live_commands.BearerOpt = None,
    timeout: live_commands.TimeoutOpt = 60.0,
    server_timeout: live_commands.ServerTimeoutOpt = 180.0,
    concurrency: live_commands.ConcurrencyOpt = 8,
    max_pages: live_commands.MaxPagesOpt = 100,
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
    with guard(debug):
        if min_grade is not None and min_grade.upper() not in GRADES:
            raise UsageError(f"--min-grade must be one of {', '.join(GRADES)}")
        words = list(targets or [])
        if lab and not (live or stdio or any(live_commands.is_url(t) for t in words)):
            raise UsageError("--lab runs servers: add --live, a URL or --stdio")
        # A lab scan lists its servers sandboxed too: they are run to be distrusted.
        flags = live_commands.LiveFlags(
            live, tuple(stdio or ()), sandbox or lab, tuple(allow_command or ()),
            tuple(allow_host or ()), tuple(header or ()), bearer, timeout, server_timeout,
            concurrency, max_pages,
        )  # fmt: skip
        lock_settings = integrity_commands.check_lock_flags(
            lock, server_id=server_id, record_baseline=record_baseline, policy=pin_policy
        )
        limits = InputLimits(max_tools=max_tools, max_file_bytes=max_file_mib * MIB)
        words, from_stdin = stdin_targets(words, limits)
        planned, live_options = live_commands.scan_inputs(words, flags, limits)
        scan_targets: list[str | ServerSpec | ServerSurface] = [*planned, *from_stdin]
        scan_targets += discover_commands.discover_targets(
            discover, home, project, limits, alone=not scan_targets, no_project=no_project
        )
        lab_settings = (
            lab_commands.lab_settings(
                flags, all_tools=all_tools, call_timeout=call_timeout,
                url_headers=live_options.url_headers if live_options else None,
            )
            if lab
            else None
        )
        accepted = load_suppressions(suppressions) if suppressions else ()
        if baseline is not None:  # a rule no longer in the registry can match nothing
            known = load_registry(list(rules or ()))
            accepted += tuple(b for b in load_baseline(baseline, limits) if b.rule in known)
        with live_commands.progress_display(
            live_options is not None and not quiet and live_commands.show_progress()
        ) as observer:
            options = ScanOptions(
                limits=limits, rule_packs=tuple(rules or ()), lock=lock,
                lock_settings=lock_settings, suppressions=accepted,
                live=live_options, live_observer=observer,
                check_options={"online": online, **builtins_option.check_options(include_builtins)},
                lab=lab_settings,
                code=(
                    code_options(
                        declared_from, allow_partial=allow_partial,
                        child=(max_seconds, max_memory_mib, max_cpu_seconds),
                    )
                    if verify_code else None
                ),
            )  # fmt: skip
            result = scan(scan_targets, options)
        report_options = ReportOptions(
            redact=redact, color=wants_color(output), limits=limits,
            source_root=source_root or find_source_root([Path(t) for t in words]),
        )  # fmt: skip
        if not quiet or output is not None:
            emit(formatter_for(fmt, report_options).format(result), output)
        if write_baseline is not None:
            count = write_baseline_file(write_baseline, result)
            note(f"wrote {count} finding(s) to baseline {write_baseline}", quiet=quiet)
        code = exit_code(
            result, fail_on=fail_on, min_grade=min_grade.upper() if min_grade else None
        )
        code = integrity_commands.after_scan(
            result, lock, strict, code, record_baseline=record_baseline
        )
        if min_grade is not None:  # an ungraded (incomplete) server never passes a grade gate
            for server in (s for s in result.servers if s.grade is None):
                sys.stderr.write(
                    f"toolwitness: {escape_display(server.id)} has no grade (incomplete scan); "
                    "--min-grade does not pass it\n"
                )
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("scan")(scan_command)
