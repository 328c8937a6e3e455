"""Verify scanned surfaces against a lockfile: a `PinResult` and TW-PIN findings per server.

Each surface is looked up under its lock key (`identity.py`), compared with its entry under the
pin policy (`policy.py`), and its added or modified tools are re-checked (`recheck.py`): a
change that brings a high or critical metadata finding is blocked. An unpinned surface is
compared with every entry, so a renamed copy of a pinned server is named (TW-PIN-010).

Messages are our own words; tool names appear only in the `tool` field and in locations, and
lock keys and check results in evidence, which every reporter escapes. Nothing here writes
files: recording a baseline is the caller's choice (`--record-baseline`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import UsageError
from toolwitness.findings import Finding, Severity, Witness
from toolwitness.integrity.drift import NARROWING, WIDENING, Drift, ToolDrift, compare
from toolwitness.integrity.identity import Identity, Resemblance, identify, resemblances
from toolwitness.integrity.lock import Lockfile, read_lock
from toolwitness.integrity.policy import POLICY_BLOCK, LockSettings, PinPolicy
from toolwitness.integrity.recheck import Recheck, Rechecker
from toolwitness.model import Coverage, ServerSurface
from toolwitness.result import PinResemblance, PinResult
from toolwitness.rules import RuleRegistry


def has_tools_list(surface: ServerSurface) -> bool:
    return any(c != Coverage.CONFIG for c in surface.coverage)


def _location(surface: ServerSurface, tool: str, field: str | None = None) -> str:
    for index, t in enumerate(surface.tools):
        if t.name == tool:
            return f"tools[{index}]" + (f".{field}" if field else "")
    return "tools"


def _field_witnesses(drift: ToolDrift) -> tuple[Witness, ...]:
    return tuple(
        Witness(kind="field", symbol=field, detail="digest differs") for field in drift.fields
    )


def _policy_note(drift: ToolDrift, policy: PinPolicy) -> str:
    return f"; blocked by --pin-policy {policy}" if POLICY_BLOCK in drift.blocked_by else ""


def _blocked_severity(drift: ToolDrift, severity: Severity) -> Severity | None:
    return severity if POLICY_BLOCK in drift.blocked_by else None


def tool_findings(
    surface: ServerSurface,
    drift: ToolDrift,
    rules: RuleRegistry,
    lock_name: str,
    policy: PinPolicy = PinPolicy.REVIEWED,
) -> list[Finding]:
    found: list[Finding] = []
    name = drift.tool
    note = _policy_note(drift, policy)
    if drift.change == "added":
        rule = "TW-PIN-006" if drift.added_read_only else "TW-PIN-003"
        claim = " and declares readOnlyHint true" if drift.added_read_only else ""
        found.append(
            rules.finding(
                rule,
                tool=name,
                location=_location(surface, name),
                message=f"tool is not in {lock_name}{claim}{note}",
                severity=_blocked_severity(drift, Severity.CRITICAL),
            )
        )
        return found
    if drift.change == "removed":
        found.append(
            rules.finding(
                "TW-PIN-004",
                tool=name,
                location="tools",
                message=f"tool pinned in {lock_name} is gone{note}",
                severity=_blocked_severity(drift, Severity.HIGH),
            )
        )
        return found
    fields = ", ".join(drift.fields)
    found.append(
        rules.finding(
            "TW-PIN-002",
            tool=name,
            location=_location(surface, name, drift.fields[0] if drift.fields else None),
            message=f"changed since pinned: {fields}{note}",
            evidence=f"fields whose digest differs: {fields}",
            witnesses=_field_witnesses(drift),
            severity=_blocked_severity(drift, Severity.HIGH),
        )
    )
    for kind, rule in ((WIDENING, "TW-PIN-005"), (NARROWING, "TW-PIN-007")):
        shifts = [s for s in drift.shifts if s.kind == kind]
        if not shifts:
            continue
        moved = "; ".join(s.describe() for s in shifts)
        suffix = ": blocked until re-pinned" if kind == WIDENING else " (reported, not blocked)"
        found.append(
            rules.finding(
                rule,
                tool=name,
                location=_location(surface, name, f"annotations.{shifts[0].hint}"),
                message=f"{kind} annotation change since pinned{suffix}",
                evidence=moved,
                witnesses=tuple(
                    Witness(kind="field", symbol=f"annotations.{s.hint}", detail=s.describe())
                    for s in shifts
                ),
            )
        )
    return found


def recheck_finding(
    surface: ServerSurface, verdict: Recheck, rules: RuleRegistry
) -> Finding | None:
    """TW-PIN-009 for a change that brings a high or critical finding (or could not be checked)."""
    if not verdict.blocked_by:
        return None
    shown = [f"{f.rule_id} ({f.severity}) at {f.location}" for f in verdict.findings]
    if verdict.failed:
        shown.append(f"checks that failed on the new surface: {', '.join(verdict.failed)}")
    return rules.finding(
        "TW-PIN-009",
        tool=verdict.tool,
        location=verdict.findings[0].location
        if verdict.findings
        else _location(surface, verdict.tool),
        message="the change since pinned brings a high or critical metadata finding"
        if verdict.findings
        else "the changed tool could not be re-checked (a check failed)",
        evidence="; ".join(shown),
        witnesses=tuple(
            Witness(kind="field", symbol=f.location, detail=f.rule_id) for f in verdict.findings
        ),
    )


def _unpinned_findings(
    drift: Drift,
    identity: Identity | None,
    similar: Sequence[Resemblance],
    rules: RuleRegistry,
    lock_name: str,
) -> list[Finding]:
    if identity is None:
        why = "no lock key: nothing but its file name identifies it (pass --server-id)"
    else:
        why = f"no entry in {lock_name} under its key (from its {identity.source})"
    found = [
        rules.finding(
            "TW-PIN-001",
            tool=None,
            location="$",
            message=f"{why}; surface {drift.surface_digest} is the baseline (written only by"
            " toolwitness lock or --record-baseline)",
            evidence=None if identity is None else f"lock key: {identity.key}",
        )
    ]
    if similar:
        found.append(
            rules.finding(
                "TW-PIN-010",
                tool=None,
                location="$",
                message="not pinned, but resembles a pinned server: compare it under that"
                " server's key with --server-id",
                evidence="; ".join(f"pinned server {r.key}: {r.describe()}" for r in similar),
            )
        )
    return found


def drift_findings(
    surface: ServerSurface,
    drift: Drift,
    rules: RuleRegistry,
    lock_name: str,
    rechecks: dict[str, Recheck] | None = None,
) -> list[Finding]:
    found: list[Finding] = []
    for tool in drift.tools:
        found.extend(tool_findings(surface, tool, rules, lock_name, drift.policy))
        verdict = (rechecks or {}).get(tool.tool)
        extra = recheck_finding(surface, verdict, rules) if verdict is not None else None
        if extra is not None:
            found.append(extra)
    if drift.server_fields:
        blocked = drift.policy is PinPolicy.BLOCK_ANY_CHANGE
        found.append(
            rules.finding(
                "TW-PIN-008",
                tool=None,
                location="$",
                message=f"server-level change since pinned: {', '.join(drift.server_fields)}"
                + (f"; blocked by --pin-policy {drift.policy}" if blocked else ""),
                witnesses=tuple(Witness(kind="field", symbol=f) for f in drift.server_fields),
                severity=Severity.HIGH if blocked else None,
            )
        )
    return found


def verify_surface(
    surface: ServerSurface,
    lock: Lockfile,
    rules: RuleRegistry,
    lock_name: str,
    settings: LockSettings,
    rechecker: Rechecker,
) -> tuple[PinResult, list[Finding]]:
    identity = identify(surface, settings.server_id)
    entry = None if identity is None else lock.entry(identity.key)
    drift = compare(entry, surface, settings.policy, key=None if identity is None else identity.key)
    rechecks = rechecker.check(surface, drift.tools) if drift.tools else {}
    drift = drift.with_rechecks({tool: r.blocked_by for tool, r in rechecks.items()})
    similar: list[Resemblance] = []
    if entry is None:
        similar = resemblances(surface, lock, exclude=None if identity is None else identity.key)
        findings = _unpinned_findings(drift, identity, similar, rules, lock_name)
    else:
        findings = drift_findings(surface, drift, rules, lock_name, rechecks)
    pin = drift.pin().model_copy(
        update={
            "key": None if identity is None else identity.key,
            "key_from": None if identity is None else identity.source,
            "resembles": tuple(
                PinResemblance(
                    server=r.key,
                    same_surface=r.same_surface,
                    shared_tools=r.shared_tools,
                    identical_tools=r.identical_tools,
                    pinned_tools=r.pinned_tools,
                )
                for r in similar
            ),
        }
    )
    return pin, findings


def verify_surfaces(
    surfaces: Sequence[ServerSurface],
    lock: Lockfile,
    rules: RuleRegistry,
    lock_name: str,
    settings: LockSettings | None = None,
) -> dict[str, tuple[PinResult, list[Finding]]]:
    """Per server id: its pin result and the findings that explain it. A surface that holds no
    tools list (only a config entry, e.g. a failed live connection) is not compared: all its
    pinned tools would read as removed, and recording it would pin an empty surface."""
    settings = settings or LockSettings()
    listed = [s for s in surfaces if has_tools_list(s)]
    if settings.server_id is not None and len(listed) != 1:
        raise UsageError(
            f"--server-id names the lock key of one server; this scan lists {len(listed)}"
        )
    rechecker = Rechecker(rules)
    return {s.id: verify_surface(s, lock, rules, lock_name, settings, rechecker) for s in listed}


def verify_lock(
    surfaces: Sequence[ServerSurface],
    lock_path: Path | None,
    limits: InputLimits,
    rules: RuleRegistry,
    settings: LockSettings | None = None,
) -> dict[str, tuple[PinResult, list[Finding]]]:
    """Read the lockfile (hostile input: strict, bounded) and verify every surface against it;
    nothing to verify without a lockfile."""
    if lock_path is None:
        return {}
    lock = read_lock(lock_path, limits, missing_ok=True)
    return verify_surfaces(surfaces, lock, rules, lock_name=lock_path.name, settings=settings)
