"""The gateway's policy: check each `tools/list` result against the pin, decide what to drop.

Kept apart from the I/O so it is testable on its own. A listing may arrive in pages: every page is
judged tool by tool as it arrives (a blocked tool never reaches the client, whatever page it is
on), and the whole listing is compared with the pin when its last page arrives (only then can a
removed tool be named), which produces the audit record.

A tool of a pinned server that changed is judged as `scan --lock` judges it: blocked when it
granted itself privilege or the pin policy says so, re-checked with the metadata checks
otherwise (`recheck.py`) and blocked when the change brings a high or critical finding, and
else passed with a warning on stderr (or dropped with `--on-change drop`).

The lock key is `--server-id`, or else the `serverInfo.name` of the initialize answer. With no
lock entry under it the first complete listing becomes the session baseline, so a tool that
changes later in the same session is still judged (nothing is written to the lockfile: pinning
stays a deliberate `toolwitness lock`), and pinned servers it resembles are named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.integrity.canonical import digest_surface
from toolwitness.integrity.drift import Drift, ToolDrift, compare, tool_drift
from toolwitness.integrity.identity import resemblances
from toolwitness.integrity.lock import LockedServer, Lockfile, entry_for
from toolwitness.integrity.policy import POLICY_BLOCK, WIDENING_BLOCK, PinPolicy
from toolwitness.integrity.recheck import Recheck, Rechecker
from toolwitness.model import ServerSurface

ON_CHANGE = ("warn", "drop")
MAX_KEY_CHARS = 256
_SHOWN_FINDINGS = 3


@dataclass(frozen=True)
class PageDecision:
    kept: list[Any]  # the raw tool objects to pass on, in their order
    dropped: dict[str, str]  # tool name -> why
    record: dict[str, Any] | None = None  # audit record when the listing is complete
    error: str | None = None  # the page was rejected as a whole (malformed: fail closed)
    notes: tuple[str, ...] = ()  # what to say on stderr (names are escaped by the printer)


@dataclass
class ToolGate:
    server_id: str | None  # the lock key; None until the initialize answer names the server
    entry: LockedServer | None
    on_change: str = "warn"
    limits: InputLimits = field(default_factory=InputLimits)
    policy: PinPolicy = PinPolicy.REVIEWED
    lock: Lockfile = field(default_factory=Lockfile)
    rechecker: Rechecker = field(default_factory=Rechecker)
    dropped: dict[str, str] = field(default_factory=dict)  # current listing's verdicts
    session_baseline: bool = False
    _pages: list[Any] = field(default_factory=list)
    _told: set[tuple[str, str | None, str]] = field(default_factory=set)

    def refusal(self, tool: str) -> str | None:
        """Why a call to `tool` is refused, or None when it may pass."""
        return self.dropped.get(tool)

    def identify(self, name: Any) -> list[str]:
        """Take the lock key from the initialize answer's serverInfo.name (no --server-id)."""
        if self.server_id is not None:
            return []
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_KEY_CHARS:
            return ["the server gave no usable serverInfo name and --server-id is not set:"
                    " the first tools/list becomes this session's baseline"]  # fmt: skip
        self.server_id = name
        self.entry = self.lock.entry(name)
        if self.entry is None:
            return [f"{name!r} (its serverInfo name) is not pinned: the first tools/list"
                    " becomes this session's baseline"]  # fmt: skip
        return []

    def _surface(self, raw_tools: list[Any]) -> ServerSurface:
        return surface_from_document(
            {"tools": raw_tools},
            server_id=self.server_id or "gateway",
            source="tools/list",
            limits=self.limits,
        )

    def check_page(self, raw_tools: Any, *, continuation: bool, complete: bool) -> PageDecision:
        if not isinstance(raw_tools, list):
            return PageDecision(kept=[], dropped={}, error="the result's 'tools' is not an array")
        try:
            page = self._surface(raw_tools)
        except InputError as exc:  # earlier verdicts stay in force: a bad page unblocks nothing
            return PageDecision(kept=[], dropped={}, error=exc.reason)
        dropped, notes = self._judge(page)
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
            record, more = self._finish(listing)
            notes.extend(more)
        return PageDecision(kept=kept, dropped=dropped, record=record, notes=tuple(notes))

    def _judge(self, page: ServerSurface) -> tuple[dict[str, str], list[str]]:
        if self.entry is None:
            return {}, []
        digests = digest_surface(page)
        drifts = []
        for tool, current in zip(page.tools, digests.tools, strict=True):
            pinned = self.entry.tools.get(tool.name)
            drift = tool_drift(tool.name, pinned, tool, current, self.policy)
            if drift is not None:
                drifts.append(drift)
        rechecks = self.rechecker.check(page, drifts)
        out: dict[str, str] = {}
        notes: list[str] = []
        for drift in drifts:
            verdict = rechecks.get(drift.tool)
            if drift.blocked or (verdict is not None and verdict.blocked_by):
                out[drift.tool] = "blocked: " + why_blocked(drift, verdict, self.policy)
                note = f"dropped tool {drift.tool!r}: {out[drift.tool]}"
            elif self.on_change == "drop":
                out[drift.tool] = "changed: " + describe_change(drift)
                note = f"dropped tool {drift.tool!r} (--on-change drop): {out[drift.tool]}"
            else:
                note = (f"tool {drift.tool!r} passed with a warning: {describe_change(drift)};"
                        " re-checked, no high or critical finding")  # fmt: skip
            said = (drift.tool, drift.digest, out.get(drift.tool, "warned"))
            if said not in self._told:  # once per tool version and verdict, not per listing
                self._told.add(said)
                notes.append(note)
        return out, notes

    def _finish(self, listing: ServerSurface) -> tuple[dict[str, Any], list[str]]:
        drift = compare(self.entry, listing, self.policy, key=self.server_id)
        rechecks = self.rechecker.check(listing, drift.tools) if self.entry is not None else {}
        drift = drift.with_rechecks({tool: r.blocked_by for tool, r in rechecks.items()})
        notes: list[str] = []
        similar: list[str] = []
        if self.entry is None:
            similar = [r.key for r in resemblances(listing, self.lock, exclude=self.server_id)]
            if similar:
                notes.append(f"this unpinned server resembles pinned server(s) {similar!r}:"
                             " pass --server-id to enforce that pin")  # fmt: skip
            self.entry = entry_for(listing)
            self.session_baseline = True
        record = audit_record(self.server_id, drift, self.dropped, self.session_baseline)
        if similar:
            record["resembles"] = similar
        return record, notes


def _findings_text(verdict: Recheck) -> str:
    shown = [f"{f.rule_id} ({f.severity}) at {f.location}: {f.title}" for f in verdict.findings]
    more = len(shown) - _SHOWN_FINDINGS
    text = "; ".join(shown[:_SHOWN_FINDINGS]) + (f"; {more} more" if more > 0 else "")
    if verdict.failed:
        text += ("; " if text else "") + "a check failed on it: " + ", ".join(verdict.failed)
    return text


def describe_change(drift: ToolDrift) -> str:
    if drift.change == "added":
        claim = " claiming readOnlyHint true" if drift.added_read_only else ""
        return f"added since the server was pinned{claim}"
    return "changed since pinned (" + ", ".join(drift.fields) + ")"


def why_blocked(drift: ToolDrift, verdict: Recheck | None, policy: PinPolicy) -> str:
    moved = [s.describe() for s in drift.shifts if s.kind == "widening"]
    if WIDENING_BLOCK in drift.blocked_by and moved:
        return "granted itself privilege since pinned (" + "; ".join(moved) + ")"
    if POLICY_BLOCK in drift.blocked_by:
        return f"{describe_change(drift)}, which --pin-policy {policy} blocks"
    if verdict is not None and verdict.blocked_by:
        return f"{describe_change(drift)} and the change brings " + _findings_text(verdict)
    return describe_change(drift)


def audit_record(
    server_id: str | None, drift: Drift, dropped: dict[str, str], session_baseline: bool
) -> dict[str, Any]:
    """Digests, names, field names and rule ids only: never description or schema text."""
    return {
        "event": "tools/list",
        "server": server_id,
        "surface_digest": drift.surface_digest,
        "state": drift.state,
        "policy": str(drift.policy),
        "baseline": "session" if session_baseline else "lockfile",
        "changes": [
            {
                "tool": t.tool,
                "change": t.change,
                "fields": list(t.fields),
                "widening": t.widening,
                "blocked_by": list(t.blocked_by),
                "digest": t.digest,
                "pinned": t.pinned,
            }
            for t in drift.tools
        ],
        "dropped": sorted(dropped),
    }
