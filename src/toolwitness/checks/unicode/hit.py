"""One TW-UNI result for a piece of text, before it is tied to a field and a tool.

The hidden-Unicode rules are pure functions of (text, is-identifier); their hits are cached per
text (the same descriptions recur across a catalog's tools) and turned into Findings per field.
"""

from __future__ import annotations

from toolwitness.findings import Confidence, Severity
from toolwitness.plainclass import plainclass


@plainclass(frozen=True)
class Hit:
    rule_id: str
    message: str
    evidence: str | None = None
    severity: Severity | None = None  # None: the rule's default
    confidence: Confidence | None = None
