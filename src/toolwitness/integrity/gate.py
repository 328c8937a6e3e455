"""The gateway's policy: check each `tools/list` result against the pin, decide what to drop.

Kept apart from the I/O so it is testable on its own. A listing may arrive in pages: every page is
judged tool by tool as it arrives (a blocked tool never reaches the client, whatever page it is
on), and the whole listing is compared with the pin when its last page arrives (only then can a
removed tool be named), which produces the audit record.

With no lock entry for the server the first complete listing becomes the session baseline, so a
tool that widens itself later in the same session is still blocked (nothing is written to the
lockfile: pinning stays a deliberate `toolwitness lock`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.integrity.canonical import digest_surface
from toolwitness.integrity.drift import Drift, ToolDrift, compare, tool_drift
from toolwitness.integrity.lock import LockedServer, entry_for
from toolwitness.model import ServerSurface

ON_CHANGE = ("warn", "drop")


@dataclass(frozen=True)
class PageDecision:
    kept: list[Any]  # the raw tool objects to pass on, in their order
    dropped: dict[str, str]  # tool name -> why
    record: dict[str, Any] | None = None  # audit record when the listing is complete
    error: str | None = None  # the page was rejected as a whole (malformed: fail closed)


@dataclass
class ToolGate:
    server_id: str
    entry: LockedServer | None
    on_change: str = "warn"
    limits: InputLimits = field(default_factory=InputLimits)
    dropped: dict[str, str] = field(default_factory=dict)  # current listing's verdicts
    session_baseline: bool = False
    _pages: list[Any] = field(default_factory=list)

    def refusal(self, tool: str) -> str | None:
        """Why a call to `tool` is refused, or None when it may pass."""
        return self.dropped.get(tool)

    def _surface(self, raw_tools: list[Any]) -> ServerSurface:
        return surface_from_document(
            {"tools": raw_tools}, server_id=self.server_id, source="tools/list", limits=self.limits
        )

    def check_page(self, raw_tools: Any, *, continuation: bool, complete: bool) -> PageDecision:
        if not isinstance(raw_tools, list):
            return PageDecision(kept=[], dropped={}, error="the result's 'tools' is not an array")
        try:
            page = self._surface(raw_tools)
        except InputError as exc:  # earlier verdicts stay in force: a bad page unblocks nothing
            return PageDecision(kept=[], dropped={}, error=exc.reason)
        dropped = self._judge(page)
        if not continuation:
            self._pages = []
        # one assignment: the client thread reads `dropped` concurrently and never sees it empty
        self.dropped = dict(dropped) if not continuation else {**self.dropped, **dropped}
        self._pages.extend(raw_tools)
        kept = [
            raw for raw, tool in zip(raw_tools, page.tools, strict=True) if tool.name not in dropped
        ]
        record = None
        if complete:
            try:
                listing = self._surface(self._pages)
            except InputError as exc:
                return PageDecision(kept=[], dropped={}, error=exc.reason)
            record = self._finish(listing)
        return PageDecision(kept=kept, dropped=dropped, record=record)

    def _judge(self, page: ServerSurface) -> dict[str, str]:
        if self.entry is None:
            return {}
        digests = digest_surface(page)
        out: dict[str, str] = {}
        for tool, current in zip(page.tools, digests.tools, strict=True):
            drift = tool_drift(tool.name, self.entry.tools.get(tool.name), tool, current)
            if drift is None:
                continue
            if drift.widening:
                out[tool.name] = "blocked: " + _why(drift)
            elif self.on_change == "drop":
                out[tool.name] = "changed: " + _why(drift)
        return out

    def _finish(self, listing: ServerSurface) -> dict[str, Any]:
        drift = compare(self.entry, listing)
        if self.entry is None:
            self.entry = entry_for(listing)
            self.session_baseline = True
        return audit_record(self.server_id, drift, self.dropped, self.session_baseline)


def _why(drift: ToolDrift) -> str:
    if drift.change == "added":
        if drift.added_read_only:
            return "added to a pinned server with readOnlyHint true"
        return "added since the server was pinned"
    moved = [s.describe() for s in drift.shifts if s.kind == "widening"]
    if moved:
        return "granted itself privilege since pinned (" + "; ".join(moved) + ")"
    return "changed since pinned (" + ", ".join(drift.fields) + ")"


def audit_record(
    server_id: str, drift: Drift, dropped: dict[str, str], session_baseline: bool
) -> dict[str, Any]:
    """Digests, names and field names only: never description or schema text."""
    return {
        "event": "tools/list",
        "server": server_id,
        "surface_digest": drift.surface_digest,
        "state": drift.state,
        "baseline": "session" if session_baseline else "lockfile",
        "changes": [
            {"tool": t.tool, "change": t.change, "fields": list(t.fields), "widening": t.widening}
            for t in drift.tools
        ],
        "dropped": sorted(dropped),
    }
