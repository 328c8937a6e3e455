"""Drift: compare a server's surface with its pinned lock entry, tool by tool and field by field.

States: `unpinned` (no entry), `matched`, `changed` (tools added, removed or modified), and
`blocked` — a tool granted itself privilege, i.e. moved one of its gating hints towards the value
that lets a client skip asking a human:

- `readOnlyHint` absent/false → true;
- `destructiveHint` true/absent → false, or an explicit true dropped (many clients read absent as
  "not destructive", though the spec's default is true);
- `openWorldHint` true/absent → false, or an explicit true dropped (same reasoning).

The reverse moves are narrowing: reported, never blocked. `idempotentHint` only affects retries,
so its moves are reported as a plain annotations change. A tool added with `readOnlyHint: true`
is a change (blocked only under the `block-new-read-only` policy, see `policy.py`), and a change
that brings a high or critical metadata finding is blocked once re-checked (`with_rechecks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from toolwitness.integrity.canonical import HASHED_FIELDS, ToolDigest, digest_surface
from toolwitness.integrity.lock import LockedServer, LockedTool, entry_for
from toolwitness.integrity.policy import PinPolicy, policy_blocks, server_level_blocked
from toolwitness.model import POLICY_HINTS, ServerSurface, Tool
from toolwitness.result import PinChange, PinHintMove, PinResult

# The hint value that lets a client skip confirmation, and the spec's default when absent.
_PERMISSIVE = {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False}
_DEFAULT = {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": True}

WIDENING = "widening"
NARROWING = "narrowing"
NEUTRAL = "neutral"


@dataclass(frozen=True)
class HintShift:
    hint: str
    before: bool | None
    after: bool | None
    kind: str  # widening | narrowing | neutral

    def describe(self) -> str:
        return f"{self.hint}: {_show(self.before)} → {_show(self.after)}"


def _show(value: bool | None) -> str:
    return "absent" if value is None else str(value).lower()


def classify_hint(hint: str, before: bool | None, after: bool | None) -> str | None:
    """How a move of one hint changes the tool's tier; None when it did not move."""
    if before == after:
        return None
    permissive = _PERMISSIVE.get(hint)
    if permissive is None:
        return NEUTRAL
    default = _DEFAULT[hint]
    was = default if before is None else before
    now = default if after is None else after
    if was != permissive and now == permissive:
        return WIDENING
    if was == permissive and now != permissive:
        return NARROWING
    if hint != "readOnlyHint" and before is (not permissive) and after is None:
        return WIDENING  # an explicit gating value dropped: clients differ on what absent means
    return NEUTRAL


@dataclass(frozen=True)
class ToolDrift:
    tool: str
    change: str  # added | removed | modified
    fields: tuple[str, ...] = ()
    shifts: tuple[HintShift, ...] = ()
    added_read_only: bool = False
    digest: str | None = None  # the tool's digest now (None: removed)
    pinned: str | None = None  # its pinned digest (None: added)
    blocked_by: tuple[str, ...] = ()  # widening | policy | rule ids the change brings

    @property
    def widening(self) -> bool:
        return any(s.kind == WIDENING for s in self.shifts)

    @property
    def narrowing(self) -> bool:
        return any(s.kind == NARROWING for s in self.shifts)

    @property
    def blocked(self) -> bool:
        return bool(self.blocked_by)

    def pin_change(self) -> PinChange:
        return PinChange(
            tool=self.tool,
            change=self.change,
            fields=self.fields,
            widening=self.widening,
            hints=tuple(
                PinHintMove(hint=s.hint, before=s.before, after=s.after, kind=s.kind)
                for s in self.shifts
            ),
            blocked_by=self.blocked_by,
        )


@dataclass(frozen=True)
class Drift:
    server_id: str  # the lock key compared against
    state: str  # unpinned | matched | changed | blocked
    surface_digest: str
    tools: tuple[ToolDrift, ...] = ()
    server_fields: tuple[str, ...] = ()  # spawn | instructions | package
    policy: PinPolicy = PinPolicy.REVIEWED

    def pin(self) -> PinResult:
        return PinResult(
            state=self.state,
            changes=tuple(t.pin_change() for t in self.tools),
            policy=str(self.policy),
        )

    def blocked_tools(self) -> set[str]:
        return {t.tool for t in self.tools if t.blocked and t.change != "removed"}

    def changed_tools(self) -> set[str]:
        return {t.tool for t in self.tools if t.change != "removed"}

    def with_rechecks(self, found: Mapping[str, tuple[str, ...]]) -> Drift:
        """This drift with the re-check verdicts (tool -> rule ids its change brings) applied."""
        if self.state == "unpinned" or not any(found.values()):
            return self
        tools = tuple(
            replace(t, blocked_by=(*t.blocked_by, *found[t.tool])) if found.get(t.tool) else t
            for t in self.tools
        )
        return replace(self, tools=tools, state=_state(tools, self.server_fields, self.policy))


def _state(tools: tuple[ToolDrift, ...], server_fields: tuple[str, ...], policy: PinPolicy) -> str:
    if any(t.blocked for t in tools) or server_level_blocked(policy, server_fields):
        return "blocked"
    return "changed" if tools or server_fields else "matched"


def tool_drift(
    name: str,
    pinned: LockedTool | None,
    tool: Tool | None,
    current: ToolDigest | None,
    policy: PinPolicy = PinPolicy.REVIEWED,
) -> ToolDrift | None:
    """The drift of one tool of a pinned server; None when it matches its pin."""
    if pinned is None:
        if tool is None:
            return None
        read_only = tool.hint("readOnlyHint") is True
        return ToolDrift(
            tool=name,
            change="added",
            added_read_only=read_only,
            digest=None if current is None else current.digest,
            blocked_by=policy_blocks(
                policy, change="added", widening=False, added_read_only=read_only
            ),
        )
    if tool is None or current is None:
        return ToolDrift(
            tool=name,
            change="removed",
            pinned=pinned.digest,
            blocked_by=policy_blocks(
                policy, change="removed", widening=False, added_read_only=False
            ),
        )
    if current.digest == pinned.digest:
        return None
    fields = tuple(f for f in HASHED_FIELDS if pinned.fields.get(f) != current.fields.get(f))
    shifts = []
    for hint in sorted({*pinned.hints, *(h for h in _all_hints(tool))}):
        kind = classify_hint(hint, pinned.hint(hint), tool.hint(hint))
        if kind is not None:
            shifts.append(HintShift(hint, pinned.hint(hint), tool.hint(hint), kind))
    widening = any(s.kind == WIDENING for s in shifts)
    return ToolDrift(
        tool=name,
        change="modified",
        fields=fields,
        shifts=tuple(shifts),
        digest=current.digest,
        pinned=pinned.digest,
        blocked_by=policy_blocks(
            policy, change="modified", widening=widening, added_read_only=False
        ),
    )


def _all_hints(tool: Tool) -> list[str]:
    return [h for h in POLICY_HINTS if tool.hint(h) is not None]


def compare(
    entry: LockedServer | None,
    surface: ServerSurface,
    policy: PinPolicy = PinPolicy.REVIEWED,
    key: str | None = None,
) -> Drift:
    """Compare `surface` with its pinned entry (None: the server is not pinned) under `policy`;
    `key` is the lock key it was looked up by (default: the surface id)."""
    digests = digest_surface(surface)
    server_id = surface.id if key is None else key
    if entry is None:
        return Drift(
            server_id=server_id, state="unpinned", surface_digest=digests.surface, policy=policy
        )
    drifts: list[ToolDrift] = []
    if digests.surface != entry.surface:
        current = {t.name: (t, d) for t, d in zip(surface.tools, digests.tools, strict=True)}
        for name in sorted({*entry.tools, *current}):
            tool, tool_digest = current.get(name, (None, None))
            found = tool_drift(name, entry.tools.get(name), tool, tool_digest, policy)
            if found is not None:
                drifts.append(found)
    server_fields = _server_fields(entry, entry_for(surface))
    tools = tuple(drifts)
    return Drift(
        server_id=server_id,
        state=_state(tools, server_fields, policy),
        surface_digest=digests.surface,
        tools=tools,
        server_fields=server_fields,
        policy=policy,
    )


def _server_fields(pinned: LockedServer, now: LockedServer) -> tuple[str, ...]:
    """Server-level facts that moved. A fact unknown now (e.g. a catalog has no spawn spec)
    is not a change; instructions that appear or change are."""
    fields = []
    if pinned.spawn is not None and now.spawn is not None and pinned.spawn != now.spawn:
        fields.append("spawn")
    if now.instructions is not None and pinned.instructions != now.instructions:
        fields.append("instructions")
    if pinned.package is not None and now.package is not None and pinned.package != now.package:
        fields.append("package")
    return tuple(fields)
