"""`toolwitness trust`: every configured or pinned server in one table, so an approver sees at a
glance whether the surface in use is the one that was reviewed.

One row per server: a server scanned now (a catalog, a config entry, a live connection) under
its lock key, and every lockfile entry nobody scanned. The evidence for a row, newest first:

- the scan made now (pin state, surface digest, tools, what changed, blocked tools);
- the gateway's audit log (`--audit`): its last `tools/list` check of that server, and the last
  one that differed from the pin, with its time;
- the lockfile alone: pinned, not seen since.

A configured server that was not connected (no `--live`) or could not be reached has no tools
list: its row says so instead of guessing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from toolwitness.integrity.lock import Lockfile
from toolwitness.result import PinChange, ScanResult, ServerResult

TRUST_SCHEMA = "toolwitness.trust/1"
NO_KEY = "no key"
NOT_SEEN = "not seen"
CONFIG_ONLY = "not connected"
UNREACHABLE = "unreachable"


@dataclass(frozen=True)
class TrustRow:
    server: str  # the lock key (or the scan id of a server without one)
    state: str  # matched | changed | blocked | unpinned | no key | not seen | not connected | ...
    surface_digest: str | None
    tools: int | None
    last_change: str | None  # "now: …" from this scan, "<time>: …" from the audit log
    blocked: tuple[str, ...]
    evidence: str  # scan | audit | lock | config
    resembles: tuple[str, ...] = ()  # pinned servers an unpinned one looks like

    def to_json(self) -> dict[str, Any]:
        return {
            "server": self.server,
            "state": self.state,
            "surface_digest": self.surface_digest,
            "tools": self.tools,
            "last_change": self.last_change,
            "blocked": list(self.blocked),
            "evidence": self.evidence,
            "resembles": list(self.resembles),
        }


def _summary(changes: Iterable[PinChange | dict[str, Any]]) -> str:
    parts = []
    for change in changes:
        row = change if isinstance(change, dict) else change.model_dump()
        fields = row.get("fields") or []
        text = f"{row.get('tool')} {row.get('change')}"
        parts.append(text + (f" ({', '.join(map(str, fields))})" if fields else ""))
    return "; ".join(parts)


@dataclass(frozen=True)
class _Audited:
    last: dict[str, Any]
    last_change: dict[str, Any] | None


def _audited(records: Sequence[dict[str, Any]]) -> dict[str, _Audited]:
    """Per server key: its last tools/list check and the last one that was not `matched`."""
    last: dict[str, dict[str, Any]] = {}
    changed: dict[str, dict[str, Any]] = {}
    for record in records:
        server = record.get("server")
        if record.get("event") != "tools/list" or not isinstance(server, str):
            continue
        last[server] = record
        if record.get("state") not in ("matched", "unpinned"):
            changed[server] = record
    return {key: _Audited(record, changed.get(key)) for key, record in last.items()}


def _list(record: dict[str, Any], key: str) -> list[Any]:
    value = record.get(key)
    return value if isinstance(value, list) else []


def _audit_change(record: dict[str, Any] | None) -> str | None:
    if record is None:
        return None
    what = _summary(c for c in _list(record, "changes") if isinstance(c, dict))
    what = what or str(record.get("state"))
    return f"{record.get('time', '?')} (gateway): {what}"


def _scanned_row(server: ServerResult, audit: dict[str, _Audited]) -> TrustRow:
    pin = server.pin
    if pin is None:
        state = UNREACHABLE if server.incomplete else CONFIG_ONLY
        return TrustRow(server.id, state, None, None, None, (), "config")
    key = pin.key or server.id
    state = pin.state if pin.key is not None else NO_KEY
    seen = audit.get(key) if pin.key is not None else None
    last_change = f"now: {_summary(pin.changes)}" if pin.changes else None
    if last_change is None and seen is not None:
        last_change = _audit_change(seen.last_change)
    blocked = tuple(sorted(c.tool for c in pin.changes if c.blocked_by and c.change != "removed"))
    return TrustRow(
        server=key,
        state=state,
        surface_digest=server.surface_digest,
        tools=len(server.tools),
        last_change=last_change,
        blocked=blocked,
        evidence="scan",
        resembles=tuple(r.server for r in pin.resembles),
    )


def _pinned_row(key: str, lock: Lockfile, seen: _Audited | None) -> TrustRow:
    entry = lock.servers[key]
    if seen is None:
        return TrustRow(key, NOT_SEEN, entry.surface, len(entry.tools), None, (), "lock")
    record = seen.last
    dropped = _list(record, "dropped")
    digest = record.get("surface_digest")
    return TrustRow(
        server=key,
        state=str(record.get("state")),
        surface_digest=digest if isinstance(digest, str) else entry.surface,
        tools=len(entry.tools),
        last_change=_audit_change(seen.last_change),
        blocked=tuple(sorted(str(d) for d in dropped)),
        evidence="audit",
    )


def trust_rows(
    result: ScanResult | None, lock: Lockfile, audit: Sequence[dict[str, Any]] = ()
) -> list[TrustRow]:
    """Scanned servers first (in scan order), then pinned ones nobody scanned (sorted)."""
    audited = _audited(audit)
    rows = [_scanned_row(s, audited) for s in (result.servers if result else ())]
    covered = {r.server for r in rows if r.evidence == "scan"}
    rows += [_pinned_row(k, lock, audited.get(k)) for k in sorted(lock.servers) if k not in covered]
    return rows


def blocked_anywhere(rows: Sequence[TrustRow]) -> bool:
    return any(r.state == "blocked" for r in rows)
