"""What a scan produces: per-server results around the surface, findings and verdicts."""

from __future__ import annotations

from typing import Any

from toolwitness.findings import FLAG_THRESHOLD, Finding, Severity, Witness
from toolwitness.model import ServerSurface
from toolwitness.records import Record, field


class _Frozen(Record):
    """Frozen; unknown fields refused (as the pydantic models were)."""


class Penalty(_Frozen):
    rule_id: str
    penalty: float


class PinHintMove(_Frozen):
    """One policy hint that moved since the pin (absent is None)."""

    hint: str
    before: bool | None
    after: bool | None
    kind: str  # widening | narrowing | neutral


class PinChange(_Frozen):
    tool: str
    change: str  # added | removed | modified
    fields: tuple[str, ...] = ()
    widening: bool = False
    hints: tuple[PinHintMove, ...] = ()
    # why the change is blocked: "widening", "policy", or the rule id of a high/critical
    # metadata finding the change brings ("recheck-failed" when a check crashed on it)
    blocked_by: tuple[str, ...] = ()


class PinResemblance(_Frozen):
    """A pinned server an unpinned one looks like (a renamed file, a changed serverInfo)."""

    server: str  # the pinned entry's key
    same_surface: bool
    shared_tools: int  # tool names in both
    identical_tools: int  # tools whose digest equals the pinned one
    pinned_tools: int


class PinResult(_Frozen):
    state: str  # unpinned | matched | changed | blocked
    changes: tuple[PinChange, ...] = ()
    key: str | None = None  # the lockfile key this server is pinned under; None: no identity
    key_from: str | None = None  # server-id | spec | serverInfo | document
    policy: str = "reviewed"
    resembles: tuple[PinResemblance, ...] = ()


class ToolResult(_Frozen):
    name: str
    digest: str
    field_digests: dict[str, str]
    roles: tuple[str, ...] = ()
    declared: tuple[str, ...] | None = None
    actual: tuple[str, ...] | None = None
    undeclared: tuple[str, ...] | None = None
    verdict: str | None = None  # OK | VIOLATION | UNANALYZABLE
    verdict_reason: str | None = None
    witnesses: dict[str, tuple[Witness, ...]] = field(default_factory=dict)
    probe: dict[str, Any] | None = None
    # Where the code registers the tool (code scans): SARIF places metadata findings there.
    registration: Witness | None = None


class SuppressedFinding(_Frozen):
    """A finding accepted by a suppression entry: out of the score, still in the report."""

    finding: Finding
    justification: str


class ServerResult(_Frozen):
    surface: ServerSurface
    surface_digest: str
    tools: tuple[ToolResult, ...]
    findings: tuple[Finding, ...]
    score: int | None = None
    grade: str | None = None
    score_vector: tuple[Penalty, ...] = ()
    pin: PinResult | None = None
    incomplete: bool = False
    errors: tuple[str, ...] = ()
    suppressed: tuple[SuppressedFinding, ...] = ()

    @property
    def id(self) -> str:
        return self.surface.id

    def flagged_tools(self) -> set[str]:
        return {
            f.tool
            for f in self.findings
            if f.tool is not None and f.severity.at_least(FLAG_THRESHOLD)
        }


class ScanResult(_Frozen):
    servers: tuple[ServerResult, ...]

    def findings(self) -> list[Finding]:
        return [f for s in self.servers for f in s.findings]

    def tool_count(self) -> int:
        return sum(len(s.tools) for s in self.servers)

    def severity_counts(self) -> dict[str, int]:
        counts = {s.value: 0 for s in Severity}
        for f in self.findings():
            counts[f.severity.value] += 1
        return counts

    @property
    def incomplete(self) -> bool:
        return any(s.incomplete for s in self.servers)
