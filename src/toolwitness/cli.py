"""The `toolwitness` command: parse arguments, call the library, render, exit with the code."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from toolwitness.acquire.catalog import load_catalog_targets
from toolwitness.acquire.limits import MIB, InputLimits
from toolwitness.cli_support import emit, guard, run_app
from toolwitness.code.analyse import CodeOptions
from toolwitness.code.declared import DeclaredFrom
from toolwitness.commands import builtins_option
from toolwitness.commands import code as code_commands
from toolwitness.commands import discover as discover_commands
from toolwitness.commands import evaluate as evaluate_commands
from toolwitness.commands import integrity as integrity_commands
from toolwitness.commands import lab as lab_commands
from toolwitness.commands import live as live_commands
from toolwitness.commands import report as report_commands
from toolwitness.commands import snapshot as snapshot_commands
from toolwitness.commands import sweep as sweep_commands
from toolwitness.commands import trust as trust_commands
from toolwitness.errors import UsageError
from toolwitness.findings import Severity
from toolwitness.integrity.canonical import SurfaceDigests, digest_surface
from toolwitness.pipeline import GRADES, ScanOptions, exit_code, scan
from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for
from toolwitness.report.sarif_artifacts import find_source_root
from toolwitness.rules import load_registry
from toolwitness.suppressions import load_suppressions
from toolwitness.textnorm import escape_display

app = typer.Typer(
    name="toolwitness",
    help="Verify MCP servers: every finding names a concrete witness.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


FormatOpt = Annotated[OutputFormat, typer.Option("--format", "-f", help="Report format.")]
OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write the report here.")]
MaxTools = Annotated[int, typer.Option(help="Reject a catalog with more tools than this.", min=1)]
MaxMib = Annotated[int, typer.Option(help="Reject input files larger than this many MiB.", min=1)]
DebugOpt = Annotated[bool, typer.Option(help="Show tracebacks for internal errors.")]
SourceRootOpt = Annotated[
    Path | None,
    typer.Option(
        "--source-root",
        help="SARIF: write file paths relative to this folder (default: the repository root "
        "above the first target, else the current folder).",
    ),
]


def _limits(max_tools: int, max_file_mib: int) -> InputLimits:
    return InputLimits(max_tools=max_tools, max_file_bytes=max_file_mib * MIB)


@app.command("scan")
def scan_command(
    targets: Annotated[
        list[str] | None,
        typer.Argument(help="Catalogs, client configs, directories, server URLs; see --live."),
    ] = None,
    fmt: FormatOpt = OutputFormat.TERMINAL,
    output: OutputOpt = None,
    redact: Annotated[bool, typer.Option(help="Mask evidence text in the report.")] = False,
    fail_on: Annotated[
        Severity | None, typer.Option(help="Exit 1 if a finding is at or above this severity.")
    ] = None,
    min_grade: Annotated[
        str | None, typer.Option(help="Exit 1 if a server grades below this (A-F).")
    ] = None,
    rules: Annotated[
        list[Path] | None, typer.Option("--rules", help="Extra rule pack (YAML).")
    ] = None,
    suppressions: Annotated[
        Path | None,
        typer.Option("--suppressions", help="YAML of accepted findings, each justified."),
    ] = None,
    lock: Annotated[
        Path | None, typer.Option("--lock", help="Verify against this lockfile (never writes it).")
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="With --lock: exit 1 unless every server matches.")
    ] = False,
    server_id: integrity_commands.ServerIdOpt = None,
    record_baseline: integrity_commands.RecordBaselineFlag = False,
    pin_policy: integrity_commands.PinPolicyOpt = integrity_commands.DEFAULT_POLICY,
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
    lab: lab_commands.LabFlag = False,
    all_tools: lab_commands.AllToolsFlag = False,
    call_timeout: lab_commands.CallTimeoutOpt = 15.0,
    verify_code: Annotated[
        bool,
        typer.Option(
            "--code",
            help="Also verify each server's code (source folder, local install or pinned "
            "package) against what its tools declare.",
        ),
    ] = False,
    declared_from: Annotated[
        DeclaredFrom,
        typer.Option("--declared-from", help="With --code: what a tool declares."),
    ] = DeclaredFrom.BOTH,
    discover: discover_commands.DiscoverFlag = False,
    home: discover_commands.HomeOpt = None,
    project: discover_commands.ProjectOpt = None,
    no_project: discover_commands.NoProjectFlag = False,
    online: discover_commands.OnlineFlag = False,
    include_builtins: builtins_option.IncludeBuiltinsOpt = None,
    max_tools: MaxTools = 5000,
    max_file_mib: MaxMib = 10,
    source_root: SourceRootOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Scan tool catalogs, client configs or live servers; report findings with witnesses."""
    with guard(debug):
        if min_grade is not None and min_grade.upper() not in GRADES:
            raise UsageError(f"--min-grade must be one of {', '.join(GRADES)}")
        if lab and not (live or stdio or any(live_commands.is_url(t) for t in targets or [])):
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
        limits = _limits(max_tools, max_file_mib)
        scan_targets, live_options = live_commands.scan_inputs(targets or [], flags, limits)
        discovered = discover_commands.discover_targets(
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
        with live_commands.progress_display(
            live_options is not None and live_commands.show_progress()
        ) as observer:
            options = ScanOptions(
                limits=limits, rule_packs=tuple(rules or ()), lock=lock,
                lock_settings=lock_settings,
                suppressions=load_suppressions(suppressions) if suppressions else (),
                live=live_options, live_observer=observer,
                check_options={"online": online, **builtins_option.check_options(include_builtins)},
                lab=lab_settings,
                code=CodeOptions(declared_from=declared_from) if verify_code else None,
            )  # fmt: skip
            result = scan([*scan_targets, *discovered], options)
        color = output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        report_options = ReportOptions(
            redact=redact, color=color, limits=limits,
            source_root=source_root or find_source_root([Path(t) for t in targets or []]),
        )  # fmt: skip
        report = formatter_for(fmt, report_options).format(result)
        emit(report, output)
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


@app.command("fingerprint")
def fingerprint_command(
    targets: Annotated[list[Path], typer.Argument(help="Catalog files or directories.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    max_tools: MaxTools = 5000,
    max_file_mib: MaxMib = 10,
) -> None:
    """Print canonical digests: per server, per tool and per field."""
    with guard():
        surfaces = load_catalog_targets(list(targets), _limits(max_tools, max_file_mib))
        docs = [fingerprint_document(s.id, digest_surface(s)) for s in surfaces]
        if as_json:
            emit(json.dumps(docs, indent=2, ensure_ascii=True) + "\n", None)
            return
        lines = []
        for surface, doc in zip(surfaces, docs, strict=True):
            digests = digest_surface(surface)
            lines.append(f"{escape_display(surface.id)}  {doc['surface_digest']}")
            for tool in digests.tools:
                lines.append(f"  {escape_display(tool.name)}  {tool.digest}")
                lines.extend(f"    {field:<13} {value}" for field, value in tool.fields.items())
        emit("\n".join(lines) + "\n", None)


def fingerprint_document(server_id: str, digests: SurfaceDigests) -> dict[str, object]:
    return {
        "server": server_id,
        "surface_digest": digests.surface,
        "tools": [{"name": t.name, "digest": t.digest, "fields": t.fields} for t in digests.tools],
    }


@app.command("rules")
def rules_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    rules: Annotated[
        list[Path] | None, typer.Option("--rules", help="Extra rule pack (YAML).")
    ] = None,
) -> None:
    """List every rule: id, severity, confidence, title."""
    with guard():
        registry = load_registry(list(rules or ()))
        if as_json:
            doc = [r.model_dump(mode="json", exclude={"patterns"}) for r in registry.all()]
            emit(json.dumps(doc, indent=2, ensure_ascii=True) + "\n", None)
            return
        lines = [
            f"{r.id:<12} {r.severity.value:<8} {r.confidence.value:<9} {escape_display(r.title)}"
            for r in registry.all()
        ]
        emit("\n".join(lines) + "\n", None)


@app.command("explain")
def explain_command(
    rule_id: Annotated[str, typer.Argument(help="A rule id such as TW-INJ-001.")],
    rules: Annotated[
        list[Path] | None, typer.Option("--rules", help="Extra rule pack (YAML).")
    ] = None,
) -> None:
    """Explain one rule: why it matters, what triggers it benignly, what to do."""
    with guard():
        registry = load_registry(list(rules or ()))
        if rule_id.upper() not in registry:
            raise UsageError(f"no rule {rule_id!r}; `toolwitness rules` lists them")
        r = registry.get(rule_id.upper())
        text = [
            f"{r.id} — {r.title}",
            f"severity: {r.severity.value}   confidence: {r.confidence.value}   family: {r.family}",
            "",
            "Why it matters:",
            "  " + r.rationale.strip(),
            "",
            "Benign triggers:",
            "  " + r.benign_triggers.strip(),
            "",
            "What to do:",
            "  " + r.remediation.strip(),
        ]
        if r.references:
            text += ["", "References:", *("  " + ref for ref in r.references)]
        emit(escape_display_lines(text), None)


def escape_display_lines(lines: list[str]) -> str:
    return "\n".join(escape_display(line) for line in lines) + "\n"


integrity_commands.register(app)
trust_commands.register(app)
lab_commands.register(app)
code_commands.register(app)
discover_commands.register(app)
evaluate_commands.register(app)
snapshot_commands.register(app)
report_commands.register(app)
sweep_commands.register(app)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code (typer/click usage errors exit 2)."""
    return run_app(app, argv)


if __name__ == "__main__":
    sys.exit(main())
