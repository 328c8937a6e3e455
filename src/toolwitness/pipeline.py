"""scan(targets, options) -> ScanResult: acquire, run the stages, digest, score. Never prints.

Every stage — the metadata checks, the lab, code verification, the lockfile — reaches the result
through one interface (`toolwitness.stage`): per server, findings to score, errors that make the
scan incomplete, and the stage's own fields on the result row. `scan_surfaces` composes any
sequence of stages; `scan` builds the sequence the options ask for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toolwitness import memo
from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.targets import resolve_targets, static_surfaces
from toolwitness.checks.interface import CheckContext, ServerCheck, loaded_checks
from toolwitness.checks.roles.derive import tool_roles
from toolwitness.errors import EXIT_INTERNAL, EXIT_OK, EXIT_THRESHOLD, InputError
from toolwitness.findings import Finding, Severity, sort_findings
from toolwitness.gcpause import gc_paused
from toolwitness.integrity.canonical import digest_surface
from toolwitness.integrity.policy import LockSettings
from toolwitness.model import ServerSpec, ServerSurface
from toolwitness.plainclass import field, plainclass
from toolwitness.result import ScanResult, ServerResult, ToolResult
from toolwitness.rules import RuleRegistry, load_registry
from toolwitness.score import score_surface
from toolwitness.stage import Contribution, Stage
from toolwitness.suppressions import Suppression, check_known, split_suppressed

if TYPE_CHECKING:  # the live, lab and code stages load on use: a catalog scan needs none
    from toolwitness.acquire.live_options import LiveObserver, LiveOptions
    from toolwitness.code.analyse import CodeAnalysis, CodeOptions
    from toolwitness.lab.run import LabSettings

GRADES = ("A", "B", "C", "D", "F")


@plainclass(frozen=True)
class ScanOptions:
    limits: InputLimits = field(default_factory=InputLimits)
    rule_packs: tuple[Path, ...] = ()
    check_options: dict[str, object] = field(default_factory=dict)
    lock: Path | None = None  # verify every server against this lockfile (integrity/verify.py)
    lock_settings: LockSettings = field(default_factory=LockSettings)  # key, pin policy
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
    checks = MetadataChecks(options)
    failures: dict[str, tuple[str, ...]] = {}
    later: list[Stage] = []
    if specs and options.live is not None:
        from toolwitness.acquire.live_targets import live_surfaces

        # Check each live server as soon as it is listed, while the slower ones still start.
        found, failures = live_surfaces(
            specs, options.live, options.live_observer, online=online, on_surface=checks.early
        )
        surfaces.extend(found)
        if options.lab is not None or options.live.sandbox:
            from toolwitness.lab.run import lab_specs, run_lab, with_sandbox_witness
            from toolwitness.lab.stage import LabStage

            registry = load_registry(list(options.rule_packs))
            probes = run_lab(lab_specs(specs), options.lab, registry) if options.lab else {}
            if options.live.sandbox:  # what the sandbox's syscall witness saw while they listed
                probes = with_sandbox_witness(probes, options.live.witness)
            later.append(LabStage(probes))
    elif specs:
        surfaces.extend(static_surfaces(specs, online=online))
    if not surfaces:
        raise InputError("nothing to scan: give at least one target")
    stages: list[Stage] = [StageFailures(failures), checks, *later]
    if options.code is not None:
        import tempfile  # `code` only: a catalog scan needs no work folder (shutil, random, bz2)

        from toolwitness.code.stage import CodeStage, analyse_servers, surface_with_code

        rules = load_registry(list(options.rule_packs))
        with tempfile.TemporaryDirectory(prefix="toolwitness-code-") as work:
            code = analyse_servers(surfaces, Path(work), options.code, rules)
        surfaces = [surface_with_code(s, code[s.id]) for s in surfaces]
        stages.append(CodeStage(code, allow_partial=options.code.allow_partial))
    return scan_surfaces(surfaces, options, stages)


def scan_surfaces(
    surfaces: Sequence[ServerSurface],
    options: ScanOptions,
    stages: Sequence[Stage] | None = None,
) -> ScanResult:
    """Compose the stages' contributions into one result per surface.

    `stages=None` runs the metadata checks (and the lockfile, when `options.lock` is set);
    an explicit sequence runs exactly those stages, in that order.
    """
    if stages is None:
        stages = [MetadataChecks(options)]
    if options.lock is not None and not any(s.name == "pin" for s in stages):
        from toolwitness.integrity.stage import PinStage

        stages = [*stages, PinStage(options.lock, options.limits, options.lock_settings)]
    with gc_paused():
        result = _compose(surfaces, options, stages)
    if memo.releasing() and result.tool_count() >= _RELEASE_FROM_TOOLS:
        memo.release_memos()  # a process that exits after this scan: see `memo`
    return result


# Below this many tools the memos are small, and looking for them costs more than they hold.
_RELEASE_FROM_TOOLS = 1000


def _compose(
    surfaces: Sequence[ServerSurface], options: ScanOptions, stages: Sequence[Stage]
) -> ScanResult:
    rules = load_registry(list(options.rule_packs))
    check_known(options.suppressions, rules)
    found: dict[str, list[Finding]] = {s.id: [] for s in surfaces}
    errors: dict[str, list[str]] = {s.id: [] for s in surfaces}
    attached: dict[str, list[Contribution]] = {s.id: [] for s in surfaces}
    for stage in stages:
        for server_id, part in stage.contribute(surfaces, rules).items():
            if server_id not in found:
                continue
            found[server_id].extend(part.findings)
            errors[server_id].extend(part.errors)
            attached[server_id].append(part)
    results = []
    for surface in surfaces:
        result = _server_result(
            surface,
            sort_findings(found[surface.id]),
            tuple(errors[surface.id]),
            options.suppressions,
        )
        for part in attached[surface.id]:
            result = part.attach(result)
        results.append(result)
    return ScanResult(servers=tuple(results))


def code_scan_result(
    analysis: CodeAnalysis, rule_packs: tuple[Path, ...] = (), *, allow_partial: bool = False
) -> ScanResult:
    """`toolwitness code`: the metadata checks on the surface read from the code, plus each
    tool's verdict and the TW-CODE findings (scored like any other)."""
    from toolwitness.code.in_scan import ServerCode
    from toolwitness.code.stage import CodeStage, outcome_of

    options = ScanOptions(rule_packs=rule_packs)
    outcome = outcome_of(ServerCode(analysis, ""), None, load_registry(list(rule_packs)))
    stages: list[Stage] = [
        MetadataChecks(options),
        CodeStage({analysis.server_id: outcome}, allow_partial=allow_partial),
    ]
    return scan_surfaces([analysis.surface()], options, stages)


class StageFailures:
    """Servers that could not be listed or analysed: the scan of each is incomplete, with the
    reason."""

    name = "failures"

    def __init__(self, failures: Mapping[str, tuple[str, ...]]) -> None:
        self.failures = failures

    def contribute(
        self, surfaces: Sequence[ServerSurface], rules: RuleRegistry
    ) -> dict[str, Contribution]:
        return {
            s.id: Contribution(errors=self.failures[s.id])
            for s in surfaces
            if s.id in self.failures
        }


class MetadataChecks:
    """The per-server and fleet-wide checks (`checks/`); a crashed check fails closed."""

    name = "checks"

    def __init__(self, options: ScanOptions) -> None:
        self.options = options
        self._early: dict[str, tuple[list[Finding], list[str]]] = {}
        self._loaded: tuple[RuleRegistry, CheckContext, Sequence[ServerCheck]] | None = None

    def _server_checks(self) -> tuple[RuleRegistry, CheckContext, Sequence[ServerCheck]]:
        if self._loaded is None:
            rules = load_registry(list(self.options.rule_packs))
            ctx = CheckContext(rules=rules, options=dict(self.options.check_options))
            self._loaded = (rules, ctx, loaded_checks(rules)[0])
        return self._loaded

    def early(self, surface: ServerSurface) -> None:
        """Check one surface now (live scans call this from a worker as each server lists)."""
        rules, ctx, checks = self._server_checks()
        self._early[surface.id] = _check_server(surface, ctx, checks, rules)

    def contribute(
        self, surfaces: Sequence[ServerSurface], rules: RuleRegistry
    ) -> dict[str, Contribution]:
        ctx = CheckContext(rules=rules, options=dict(self.options.check_options))
        server_checks, fleet_checks = loaded_checks(rules)
        found: dict[str, list[Finding]] = {}
        errors: dict[str, list[str]] = {}
        for surface in surfaces:
            done = self._early.get(surface.id) or _check_server(surface, ctx, server_checks, rules)
            found[surface.id], errors[surface.id] = list(done[0]), list(done[1])
        for fleet in fleet_checks:
            try:
                for server_id, more in fleet.run_all(surfaces, ctx).items():
                    found[server_id].extend(more)
            except Exception as exc:
                for surface in surfaces:
                    found[surface.id].append(_crash(rules, fleet.name, exc))
                    errors[surface.id].append(f"check {fleet.name} failed: {type(exc).__name__}")
        return {s.id: Contribution(tuple(found[s.id]), tuple(errors[s.id])) for s in surfaces}


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


def _crash(rules: RuleRegistry, check: str, exc: Exception) -> Finding:
    return rules.finding(
        "TW-META-005",
        tool=None,
        location="$",
        message=f"check {check} raised {type(exc).__name__}; this server was not fully checked",
    )


_TOOL_RESULT_DEFAULTS: dict[str, object] = dict.fromkeys(
    ("declared", "actual", "undeclared", "verdict", "verdict_reason", "probe", "registration")
)  # ToolResult's None defaults (tests/test_pipeline_results.py compares with the model)


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
    # Our own values, already of the declared types: built without converting every row
    # (tests/test_pipeline_results.py checks each equals its validated copy). Every field is
    # given, so no default factory runs per row (the fields-set argument is pydantic's, unused).
    tools = tuple(
        ToolResult.model_construct(
            {"name", "digest", "field_digests", "roles"},  # the fields set, as validation had it
            name=t.name, digest=t.digest, field_digests=t.fields, roles=roles.get(t.name, ()),
            **_TOOL_RESULT_DEFAULTS, witnesses={},
        )
        for t in digests.tools
    )  # fmt: skip
    # An incomplete scan gets no grade: it cannot vouch for the server (and exits 3).
    scored = None if errors else score_surface(surface, kept)
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


ConnectionFailures = StageFailures  # the name commands/lab.py and earlier callers use
