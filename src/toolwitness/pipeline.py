"""scan(targets, options) -> ScanResult: acquire, check, digest, score. The library never prints."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.targets import resolve_targets, static_surfaces
from toolwitness.checks.interface import CheckContext, ServerCheck, loaded_checks
from toolwitness.checks.roles.derive import tool_roles
from toolwitness.errors import EXIT_INTERNAL, EXIT_OK, EXIT_THRESHOLD, InputError
from toolwitness.findings import Finding, Severity, sort_findings
from toolwitness.gcpause import gc_paused
from toolwitness.integrity.canonical import digest_surface
from toolwitness.integrity.verify import verify_lock
from toolwitness.model import ServerSpec, ServerSurface
from toolwitness.result import ScanResult, ServerResult, ToolResult
from toolwitness.rules import RuleRegistry, load_registry
from toolwitness.score import score_findings
from toolwitness.suppressions import Suppression, check_known, split_suppressed

if TYPE_CHECKING:  # the live, lab and code stages load on use: a catalog scan needs none
    from toolwitness.acquire.live_options import LiveObserver, LiveOptions
    from toolwitness.code.analyse import CodeOptions
    from toolwitness.code.in_scan import ServerCode
    from toolwitness.lab.probe import ServerProbe
    from toolwitness.lab.run import LabSettings

GRADES = ("A", "B", "C", "D", "F")


@dataclass(frozen=True)
class ScanOptions:
    limits: InputLimits = field(default_factory=InputLimits)
    rule_packs: tuple[Path, ...] = ()
    check_options: dict[str, object] = field(default_factory=dict)
    lock: Path | None = None  # verify every server against this lockfile (integrity/verify.py)
    live: LiveOptions | None = None  # connect to config/command-line servers (acquire/live.py)
    live_observer: LiveObserver | None = None  # progress of live connections (the CLI's display)
    suppressions: tuple[Suppression, ...] = ()  # accepted findings, each with a justification
    lab: LabSettings | None = None  # with live: probe servers in the behavioural lab (lab/run.py)
    code: CodeOptions | None = None  # verify each server's code where it can be found (code/)


def scan(
    targets: Sequence[str | Path | ServerSurface | ServerSpec], options: ScanOptions | None = None
) -> ScanResult:
    """Scan catalogs, client configs, server specs or ready surfaces; one result per server.

    Server specs (config entries, command-line servers) are connected when `options.live` is
    set and checked statically from their config entry otherwise.
    """
    options = options or ScanOptions()
    online = bool(options.check_options.get("online"))
    surfaces: list[ServerSurface] = []
    specs: list[ServerSpec] = []
    paths: list[Path] = []
    for target in targets:
        if isinstance(target, ServerSurface):
            surfaces.append(target)
        elif isinstance(target, ServerSpec):
            specs.append(target)
        else:
            paths.append(Path(target))
    if paths:
        resolved = resolve_targets(paths, options.limits)  # catalogs and client configs
        surfaces.extend(resolved.catalogs)
        specs.extend(resolved.specs)
    failures: dict[str, tuple[str, ...]] = {}
    probes: dict[str, ServerProbe] = {}
    early: dict[str, tuple[list[Finding], list[str]]] = {}
    if specs and options.live is not None:
        # Check each live server as soon as it is listed, while the slower ones still start.
        checker = _ServerChecker(options)

        def check_early(surface: ServerSurface) -> None:
            early[surface.id] = checker.run(surface)

        from toolwitness.acquire.live_targets import live_surfaces

        found, failures = live_surfaces(
            specs, options.live, options.live_observer, online=online, on_surface=check_early
        )
        surfaces.extend(found)
        if options.lab is not None:
            from toolwitness.lab.run import lab_specs, run_lab

            registry = load_registry(list(options.rule_packs))
            probes = run_lab(lab_specs(specs), options.lab, registry)
        if options.live.sandbox:  # what the sandbox's syscall witness saw while they listed
            from toolwitness.lab.run import with_sandbox_witness

            probes = with_sandbox_witness(probes, options.live.witness)
    elif specs:
        surfaces.extend(static_surfaces(specs, online=online))
    if not surfaces:
        raise InputError("nothing to scan: give at least one target")
    if options.code is None:
        return scan_surfaces(surfaces, options, failures, early, probes)
    from toolwitness.code.in_scan import analyse_servers, surface_with_code

    with tempfile.TemporaryDirectory(prefix="toolwitness-code-") as work:
        code = analyse_servers(surfaces, Path(work), options.code)
    surfaces = [surface_with_code(s, code[s.id]) for s in surfaces]
    return scan_surfaces(surfaces, options, failures, early, probes, code)


def scan_surfaces(
    surfaces: Sequence[ServerSurface],
    options: ScanOptions,
    failures: dict[str, tuple[str, ...]] | None = None,
    early: dict[str, tuple[list[Finding], list[str]]] | None = None,
    probes: dict[str, ServerProbe] | None = None,
    code: dict[str, ServerCode] | None = None,
) -> ScanResult:
    with gc_paused():
        return _scan_surfaces(surfaces, options, failures, early, probes, code)


def _scan_surfaces(
    surfaces: Sequence[ServerSurface],
    options: ScanOptions,
    failures: dict[str, tuple[str, ...]] | None,
    early: dict[str, tuple[list[Finding], list[str]]] | None,
    probes: dict[str, ServerProbe] | None,
    code: dict[str, ServerCode] | None = None,
) -> ScanResult:
    rules = load_registry(list(options.rule_packs))
    check_known(options.suppressions, rules)
    ctx = CheckContext(rules=rules, options=dict(options.check_options))
    server_checks, fleet_checks = loaded_checks(rules)
    per_server: dict[str, list[Finding]] = {s.id: [] for s in surfaces}
    errors: dict[str, list[str]] = {s.id: list((failures or {}).get(s.id, ())) for s in surfaces}
    for surface in surfaces:
        found, check_errors = (early or {}).get(surface.id) or _check_server(
            surface, ctx, server_checks, rules
        )
        per_server[surface.id].extend(found)
        errors[surface.id].extend(check_errors)
        if probes and surface.id in probes:
            from toolwitness.lab.run import probe_findings

            per_server[surface.id].extend(probe_findings(probes[surface.id], rules))
        if code and surface.id in code:
            from toolwitness.code.in_scan import server_code_findings

            per_server[surface.id].extend(server_code_findings(code[surface.id], rules))
    for fleet in fleet_checks:
        try:
            for server_id, found in fleet.run_all(surfaces, ctx).items():
                per_server[server_id].extend(found)
        except Exception as exc:
            for surface in surfaces:
                per_server[surface.id].append(_crash(rules, fleet.name, exc))
                errors[surface.id].append(f"check {fleet.name} failed: {type(exc).__name__}")
    pins = verify_lock(surfaces, options.lock, options.limits, rules) if options.lock else {}
    for server_id, (_, pin_findings) in pins.items():
        per_server[server_id].extend(pin_findings)
    results = [
        _server_result(
            s, sort_findings(per_server[s.id]), tuple(errors[s.id]), options.suppressions
        )
        for s in surfaces
    ]
    if probes:
        from toolwitness.lab.run import attach_probes

        results = attach_probes(results, probes)
    if code:
        from toolwitness.code.in_scan import attach_verdicts

        results = [attach_verdicts(r, code[r.id]) if r.id in code else r for r in results]
    if pins:
        results = [
            r.model_copy(update={"pin": pins[r.id][0]}) if r.id in pins else r for r in results
        ]
    return ScanResult(servers=tuple(results))


def _check_server(
    surface: ServerSurface, ctx: CheckContext, checks: Sequence[ServerCheck], rules: RuleRegistry
) -> tuple[list[Finding], list[str]]:
    found: list[Finding] = []
    errors: list[str] = []
    for check in checks:
        try:
            found.extend(check.run(surface, ctx))
        except Exception as exc:  # fail closed: a crashed detector is a finding, not "clean"
            found.append(_crash(rules, check.name, exc))
            errors.append(f"check {check.name} failed: {type(exc).__name__}")
    return found, errors


class _ServerChecker:
    """Per-server checks for one surface at a time (live scans run it in a worker thread)."""

    def __init__(self, options: ScanOptions) -> None:
        self.rules = load_registry(list(options.rule_packs))
        self.ctx = CheckContext(rules=self.rules, options=dict(options.check_options))
        self.checks = loaded_checks(self.rules)[0]

    def run(self, surface: ServerSurface) -> tuple[list[Finding], list[str]]:
        return _check_server(surface, self.ctx, self.checks, self.rules)


def _crash(rules: RuleRegistry, check: str, exc: Exception) -> Finding:
    return rules.finding(
        "TW-META-005",
        tool=None,
        location="$",
        message=f"check {check} raised {type(exc).__name__}; this server was not fully checked",
    )


def _server_result(
    surface: ServerSurface,
    findings: list[Finding],
    errors: tuple[str, ...],
    suppressions: Sequence[Suppression] = (),
) -> ServerResult:
    digests = digest_surface(surface)
    kept, suppressed = split_suppressed(surface.id, findings, suppressions)
    try:
        roles = tool_roles(surface)
    except Exception:  # the role checks already failed closed on this input (TW-META-005)
        roles = {}
    # Our own values, already of the declared types: built without re-validating every row
    # (tests/test_pipeline_results.py checks each equals its validated copy).
    tools = tuple(
        ToolResult.model_construct(
            name=t.name, digest=t.digest, field_digests=t.fields, roles=roles.get(t.name, ())
        )
        for t in digests.tools
    )
    # An incomplete scan gets no grade: it cannot vouch for the server (and exits 3).
    scored = None if errors else score_findings(kept)
    return ServerResult(
        surface=surface,
        surface_digest=digests.surface,
        tools=tools,
        findings=tuple(kept),
        score=scored.score if scored else None,
        grade=scored.grade if scored else None,
        score_vector=scored.vector if scored else (),
        incomplete=bool(errors),
        errors=errors,
        suppressed=tuple(suppressed),
    )


def exit_code(
    result: ScanResult, *, fail_on: Severity | None = None, min_grade: str | None = None
) -> int:
    """0 clean, 1 threshold exceeded or a pin blocked, 3 incomplete (same in every format)."""
    if result.incomplete:
        return EXIT_INTERNAL
    if any(s.pin is not None and s.pin.state == "blocked" for s in result.servers):
        return EXIT_THRESHOLD
    if fail_on is not None and any(f.severity.at_least(fail_on) for f in result.findings()):
        return EXIT_THRESHOLD
    if min_grade is not None:
        floor = GRADES.index(min_grade)
        for server in result.servers:
            if server.grade is None or GRADES.index(server.grade) > floor:
                return EXIT_THRESHOLD
    return EXIT_OK
