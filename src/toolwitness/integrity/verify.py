"""Verify scanned surfaces against a lockfile: a `PinResult` and TW-PIN findings per server.

Messages are our own words; tool names appear only in the `tool` field and in locations, which
every reporter escapes. Nothing here writes files: recording a baseline is the caller's choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolwitness.acquire.limits import InputLimits
from toolwitness.findings import Finding, Witness
from toolwitness.integrity.drift import NARROWING, WIDENING, Drift, ToolDrift, compare
from toolwitness.integrity.lock import Lockfile, read_lock
from toolwitness.model import Coverage, ServerSurface
from toolwitness.result import PinResult
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


def tool_findings(
    surface: ServerSurface, drift: ToolDrift, rules: RuleRegistry, lock_name: str
) -> list[Finding]:
    found: list[Finding] = []
    name = drift.tool
    if drift.change == "added":
        rule = "TW-PIN-006" if drift.added_read_only else "TW-PIN-003"
        message = f"tool is not in {lock_name}" + (
            " and declares readOnlyHint true: blocked until re-pinned"
            if drift.added_read_only
            else ""
        )
        found.append(
            rules.finding(rule, tool=name, location=_location(surface, name), message=message)
        )
        return found
    if drift.change == "removed":
        found.append(
            rules.finding(
                "TW-PIN-004",
                tool=name,
                location="tools",
                message=f"tool pinned in {lock_name} is gone",
            )
        )
        return found
    fields = ", ".join(drift.fields)
    found.append(
        rules.finding(
            "TW-PIN-002",
            tool=name,
            location=_location(surface, name, drift.fields[0] if drift.fields else None),
            message=f"changed since pinned: {fields}",
            evidence=f"fields whose digest differs: {fields}",
            witnesses=_field_witnesses(drift),
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


def drift_findings(
    surface: ServerSurface, drift: Drift, rules: RuleRegistry, lock_name: str
) -> list[Finding]:
    if drift.state == "unpinned":
        return [
            rules.finding(
                "TW-PIN-001",
                tool=None,
                location="$",
                message=f"no entry in {lock_name}; surface {drift.surface_digest} is the baseline",
            )
        ]
    found: list[Finding] = []
    for tool in drift.tools:
        found.extend(tool_findings(surface, tool, rules, lock_name))
    if drift.server_fields:
        found.append(
            rules.finding(
                "TW-PIN-008",
                tool=None,
                location="$",
                message=f"server-level change since pinned: {', '.join(drift.server_fields)}",
                witnesses=tuple(Witness(kind="field", symbol=f) for f in drift.server_fields),
            )
        )
    return found


def verify_surfaces(
    surfaces: Sequence[ServerSurface], lock: Lockfile, rules: RuleRegistry, lock_name: str
) -> dict[str, tuple[PinResult, list[Finding]]]:
    """Per server id: its pin result and the findings that explain it. A surface that holds no
    tools list (only a config entry, e.g. a failed live connection) is not compared: all its
    pinned tools would read as removed, and recording it would pin an empty surface."""
    out: dict[str, tuple[PinResult, list[Finding]]] = {}
    for surface in surfaces:
        if not has_tools_list(surface):
            continue
        drift = compare(lock.entry(surface.id), surface)
        out[surface.id] = (drift.pin(), drift_findings(surface, drift, rules, lock_name))
    return out


def verify_lock(
    surfaces: Sequence[ServerSurface], lock_path: Path, limits: InputLimits, rules: RuleRegistry
) -> dict[str, tuple[PinResult, list[Finding]]]:
    """Read the lockfile (hostile input: strict, bounded) and verify every surface against it."""
    lock = read_lock(lock_path, limits, missing_ok=True)
    return verify_surfaces(surfaces, lock, rules, lock_path.name)
