"""Evidence as reports show it: escaped always, masked under --redact."""

from __future__ import annotations

from toolwitness.findings import Finding
from toolwitness.textnorm import REDACTED, escape_display


def shown_evidence(finding: Finding, redact: bool) -> str | None:
    if finding.evidence is None:
        return None
    return REDACTED if redact else escape_display(finding.evidence)
