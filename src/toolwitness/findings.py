"""Findings, witnesses, severities and confidences: the data every stage emits."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from toolwitness.records import Record


class Severity(StrEnum):
    CRITICAL = "critical"
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"
    INFO = "info"

    @property
    def rank(self) -> int:
        return _SEVERITY_RANK[self]

    def at_least(self, other: Severity) -> bool:
        return self.rank >= other.rank


_SEVERITY_RANK = {
    Severity.CRITICAL: 4,
    Severity.HIGH: 3,
    Severity.MEDIUM: 2,
    Severity.LOW: 1,
    Severity.INFO: 0,
}

# A tool is "flagged" when a finding of this severity or above names it.
FLAG_THRESHOLD = Severity.MEDIUM


class Confidence(StrEnum):
    CONFIRMED = "confirmed"
    STRONG = "strong"
    HEURISTIC = "heuristic"

    @property
    def rank(self) -> int:
        return {"confirmed": 2, "strong": 1, "heuristic": 0}[self.value]


class Witness(Record):
    """The concrete thing a finding points at: a source line, a path written, a syscall, a field."""

    kind: str  # text | source | fs | syscall | field | config
    file: str | None = None
    line: int | None = None
    column: int | None = None
    symbol: str | None = None
    path: tuple[str, ...] = ()
    detail: str | None = None

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True, exclude_defaults=False)


class Finding(Record):
    rule_id: str
    title: str
    severity: Severity
    confidence: Confidence
    tool: str | None
    location: str
    message: str
    evidence: str | None = None
    witnesses: tuple[Witness, ...] = ()

    def sort_key(self) -> tuple[int, str, str, str, str, str]:
        """Total order: severest first, then stable textual keys (reports are deterministic)."""
        return (
            -self.severity.rank,
            self.rule_id,
            self.tool or "",
            self.location,
            self.message,
            self.evidence or "",
        )

    @property
    def family(self) -> str:
        return self.rule_id.split("-")[1]


def sort_findings(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=Finding.sort_key)
