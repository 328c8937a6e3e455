"""Re-check what changed: the metadata checks on a changed surface, kept to what the change brings.

A rewritten description is a fact to report; a rewritten description that now instructs the
model is an attack. When tools of a pinned (or session-baselined) server change, the server
checks run on the surface as it is now (whole, so checks that compare tools keep their context),
and a finding of severity high or above counts against a changed tool when

- the tool was added (all of it is unreviewed), or
- the finding sits in a field whose digest changed (`tools[3].description…` when the
  description changed). A finding elsewhere in the tool was there when it was reviewed and
  pinned; the lock holds no text to tell otherwise.

A check that crashes on the surface fails closed: every tool being re-checked is blocked
(`recheck-failed`). Checks are reached only through `toolwitness.checks.interface`, and load on
first use (the gateway warms them in a background thread so a mid-session change is judged
without the import cost).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from toolwitness.checks.interface import CheckContext, ServerCheck, loaded_checks
from toolwitness.findings import Finding, Severity, sort_findings
from toolwitness.integrity.drift import ToolDrift
from toolwitness.integrity.policy import RECHECK_FAILED
from toolwitness.model import ServerSurface
from toolwitness.rules import RuleRegistry, load_registry

BLOCKING = Severity.HIGH
_MAX_CACHED = 4096
_TOOL_FIELD = re.compile(r"tools\[(\d+)\](?:\.([A-Za-z_]+))?")


@dataclass(frozen=True)
class Recheck:
    tool: str
    findings: tuple[Finding, ...] = ()  # high/critical findings the change brings
    failed: tuple[str, ...] = ()  # checks that crashed on the surface

    @property
    def blocked_by(self) -> tuple[str, ...]:
        rules = sorted({f.rule_id for f in self.findings})
        return (*rules, RECHECK_FAILED) if self.failed else tuple(rules)


def _field(location: str, index: int) -> str | None:
    """The top-level tool field a finding sits in; None when it names the whole tool."""
    match = _TOOL_FIELD.match(location)
    if match is None or int(match.group(1)) != index:
        return None
    return match.group(2)


def brought_by(finding: Finding, drift: ToolDrift, index: int) -> bool:
    if finding.tool != drift.tool or not finding.severity.at_least(BLOCKING):
        return False
    if drift.change == "added":
        return True
    return _field(finding.location, index) in drift.fields


class Rechecker:
    """Runs the server checks for changed tools; verdicts kept per (digest now, pinned digest)."""

    def __init__(
        self, rules: RuleRegistry | None = None, checks: Sequence[ServerCheck] | None = None
    ) -> None:
        """`checks` default to every loaded server check (`checks.interface.loaded_checks`)."""
        self._rules = rules
        self._lock = threading.Lock()
        self._checks: list[ServerCheck] | None = None if checks is None else list(checks)
        self._ctx: CheckContext | None = None
        self._cache: dict[tuple[str | None, str | None], Recheck] = {}
        self.runs = 0  # how many times the checks ran (tests count work, not time)

    def warm(self) -> None:
        """Load the checks now (the rule registry, lexicons, the check modules)."""
        with self._lock:
            if self._ctx is None:
                rules = self._rules or load_registry([])
                if self._checks is None:
                    self._checks = loaded_checks(rules)[0]
                self._ctx = CheckContext(rules=rules)

    def check(self, surface: ServerSurface, drifts: Sequence[ToolDrift]) -> dict[str, Recheck]:
        """Per added or modified tool in `drifts`: what its change brings."""
        wanted = [d for d in drifts if d.change != "removed"]
        out = {d.tool: self._cache[(d.digest, d.pinned)] for d in wanted if self._cached(d)}
        todo = [d for d in wanted if d.tool not in out]
        if not todo:
            return out
        found, failed = self._run(surface)
        index = {t.name: i for i, t in enumerate(surface.tools)}
        if len(self._cache) > _MAX_CACHED:
            self._cache.clear()
        for drift in todo:
            at = index.get(drift.tool, -1)
            mine = tuple(f for f in found if brought_by(f, drift, at))
            verdict = Recheck(drift.tool, mine, failed)
            out[drift.tool] = verdict
            if not failed:  # a crash is not remembered: the next listing tries again
                self._cache[(drift.digest, drift.pinned)] = verdict
        return out

    def _cached(self, drift: ToolDrift) -> bool:
        return (drift.digest, drift.pinned) in self._cache

    def _run(self, surface: ServerSurface) -> tuple[list[Finding], tuple[str, ...]]:
        self.warm()
        assert self._checks is not None and self._ctx is not None
        self.runs += 1
        found: list[Finding] = []
        failed: list[str] = []
        for check in self._checks:
            try:
                found.extend(check.run(surface, self._ctx))
            except Exception:  # fail closed: an unverified change is not a clean one
                failed.append(check.name)
        return sort_findings(found), tuple(failed)
