"""What `toolwitness scan` does with its options, without typer.

`commands.scan` declares the options (typer) and hands them here as one `ScanRequest`; the
command line's fast path (`cli_fast`) builds the same request from the precompiled option table
without importing typer at all. The live, lab, lockfile, baseline and discovery modules load
only when their options ask for them: a catalog scan pays for none of them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from toolwitness.acquire.limits import MIB, InputLimits
from toolwitness.cli_support import emit, guard, note, wants_color
from toolwitness.commands import live as live_commands
from toolwitness.commands.builtins_option import check_options
from toolwitness.commands.discover_scan import discover_targets
from toolwitness.commands.scan_inputs import code_options, stdin_targets
from toolwitness.commands.scan_lock import after_scan, check_lock_flags
from toolwitness.errors import UsageError
from toolwitness.pipeline import GRADES, ScanOptions, exit_code, scan
from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for
from toolwitness.report.sarif_artifacts import find_source_root
from toolwitness.textnorm import escape_display

if TYPE_CHECKING:
    from toolwitness.findings import Severity
    from toolwitness.integrity.policy import PinPolicy
    from toolwitness.model import ServerSpec, ServerSurface
    from toolwitness.suppressions import Suppression


class ScanRequest(NamedTuple):
    """Every `scan` option as the command line gave it (typer's callback arguments, by name).

    No defaults here: `commands.scan`'s signature is the one place they are declared, and both
    callers pass every field (a field added there and not here fails on the first scan). A named
    tuple, not a frozen dataclass: 46 fields cost a dataclass ~4 ms to build at every start."""

    targets: list[str] | None
    fmt: OutputFormat
    output: Path | None
    redact: bool
    quiet: bool
    source_root: Path | None
    fail_on: Severity | None
    min_grade: str | None
    rules: list[Path] | None
    include_builtins: list[str] | None
    suppressions: Path | None
    baseline: Path | None
    write_baseline: Path | None
    lock: Path | None
    strict: bool
    server_id: str | None
    record_baseline: bool
    pin_policy: PinPolicy
    discover: bool
    home: Path | None
    project: list[Path] | None
    no_project: bool
    online: bool
    live: bool
    stdio: list[str] | None
    sandbox: bool
    allow_command: list[str] | None
    allow_host: list[str] | None
    header: list[str] | None
    bearer: str | None
    timeout: float
    server_timeout: float
    concurrency: int
    max_pages: int
    lab: bool
    all_tools: bool
    call_timeout: float
    verify_code: bool
    declared_from: str
    allow_partial: bool
    max_seconds: float
    max_memory_mib: int
    max_cpu_seconds: int
    max_tools: int
    max_file_mib: int
    debug: bool


def run_scan(r: ScanRequest) -> int:
    """The exit code; an error leaves as its one-line message and `SystemExit` (`guard`)."""
    with guard(r.debug):
        if r.min_grade is not None and r.min_grade.upper() not in GRADES:
            raise UsageError(f"--min-grade must be one of {', '.join(GRADES)}")
        words = list(r.targets or [])
        if r.lab and not (r.live or r.stdio or any(live_commands.is_url(t) for t in words)):
            raise UsageError("--lab runs servers: add --live, a URL or --stdio")
        # A lab scan lists its servers sandboxed too: they are run to be distrusted.
        flags = live_commands.LiveFlags(
            r.live, tuple(r.stdio or ()), r.sandbox or r.lab, tuple(r.allow_command or ()),
            tuple(r.allow_host or ()), tuple(r.header or ()), r.bearer, r.timeout,
            r.server_timeout, r.concurrency, r.max_pages,
        )  # fmt: skip
        lock_settings = check_lock_flags(
            r.lock, server_id=r.server_id, record_baseline=r.record_baseline, policy=r.pin_policy
        )
        limits = InputLimits(max_tools=r.max_tools, max_file_bytes=r.max_file_mib * MIB)
        words, from_stdin = stdin_targets(words, limits)
        planned, live_options = live_commands.scan_inputs(words, flags, limits)
        scan_targets: list[str | ServerSpec | ServerSurface] = [*planned, *from_stdin]
        scan_targets += discover_targets(
            r.discover, r.home, r.project, limits, alone=not scan_targets,
            no_project=r.no_project,
        )  # fmt: skip
        lab_settings = None
        if r.lab:
            from toolwitness.commands.lab import lab_settings as settings_for_lab

            lab_settings = settings_for_lab(
                flags, all_tools=r.all_tools, call_timeout=r.call_timeout,
                url_headers=live_options.url_headers if live_options else None,
            )  # fmt: skip
        accepted = _accepted(r, limits)
        with live_commands.progress_display(
            live_options is not None and not r.quiet and live_commands.show_progress()
        ) as observer:
            options = ScanOptions(
                limits=limits, rule_packs=tuple(r.rules or ()), lock=r.lock,
                lock_settings=lock_settings, suppressions=accepted,
                live=live_options, live_observer=observer,
                check_options={"online": r.online, **check_options(r.include_builtins)},
                lab=lab_settings,
                code=(
                    code_options(
                        r.declared_from, allow_partial=r.allow_partial,
                        child=(r.max_seconds, r.max_memory_mib, r.max_cpu_seconds),
                    )
                    if r.verify_code else None
                ),
            )  # fmt: skip
            result = scan(scan_targets, options)
        report_options = ReportOptions(
            redact=r.redact, color=wants_color(r.output), limits=limits,
            source_root=r.source_root or find_source_root([Path(t) for t in words]),
        )  # fmt: skip
        if not r.quiet or r.output is not None:
            emit(formatter_for(r.fmt, report_options).format(result), r.output)
        if r.write_baseline is not None:
            from toolwitness.baseline import write_baseline_file

            count = write_baseline_file(r.write_baseline, result)
            note(f"wrote {count} finding(s) to baseline {r.write_baseline}", quiet=r.quiet)
        grade = r.min_grade.upper() if r.min_grade else None
        code = exit_code(result, fail_on=r.fail_on, min_grade=grade)
        code = after_scan(result, r.lock, r.strict, code, record_baseline=r.record_baseline)
        if r.min_grade is not None:  # an ungraded (incomplete) server never passes a grade gate
            for server in (s for s in result.servers if s.grade is None):
                sys.stderr.write(
                    f"toolwitness: {escape_display(server.id)} has no grade (incomplete scan); "
                    "--min-grade does not pass it\n"
                )
        return code


def _accepted(r: ScanRequest, limits: InputLimits) -> tuple[Suppression, ...]:
    """The accepted findings: `--suppressions`, then `--baseline` (its readers load only then)."""
    accepted: tuple[Suppression, ...] = ()
    if r.suppressions:
        from toolwitness.suppressions import load_suppressions

        accepted = load_suppressions(r.suppressions)
    if r.baseline is not None:  # a rule no longer in the registry can match nothing
        from toolwitness.baseline import load_baseline
        from toolwitness.rules import load_registry

        known = load_registry(list(r.rules or ()))
        accepted += tuple(b for b in load_baseline(r.baseline, limits) if b.rule in known)
    return accepted
