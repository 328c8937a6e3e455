"""The server's own reaches outside the sandbox, outside any call window (TW-LAB-008).

A connection attempt, an open of a host path the sandbox hides, or a write outside the lab's
folders made at start-up, while listing, or in the control run belongs to no tool, yet it is
still a fact about the server: every one is reported with its address or path. The same rule
carries what `scan --live --sandbox` saw while a server listed its tools.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolwitness.acquire.sandbox_witness import MAX_ATTEMPTS, Attempt
from toolwitness.findings import Finding, Witness
from toolwitness.lab.sandbox import Lab
from toolwitness.lab.syscalls import Event
from toolwitness.lab.verdict import counts
from toolwitness.rules import RuleRegistry

_KINDS = ("connect", "hidden-read")
_WRITES = frozenset({"write", "mkdir", "link", "unlink", "rename"})


def _attempts(lab: Lab, events: Sequence[Event], where: str) -> list[Attempt]:
    out: list[Attempt] = []
    for event in events:
        outside = (
            event.kind in _WRITES
            and lab.label(event.target.split(" -> ")[0]) == event.target.split(" -> ")[0]
        )
        if not (event.kind in _KINDS or outside) or not counts(event, lab):
            continue
        kind = "write" if outside else event.kind
        line = f"{where}: {lab.label_text(event.line)}"
        target = event.target if kind in _KINDS or not event.ok else lab.label_text(event.target)
        out.append(Attempt(kind, target, event.syscall, event.result,
                           event.time, line))  # fmt: skip
    return out


def server_escapes(
    lab: Lab, before_calls: Sequence[Event], control_lab: Lab, control: Sequence[Event]
) -> list[Attempt]:
    """Attempts before the first call and in the control run, one per kind and target."""
    found = _attempts(lab, before_calls, "start-up") + _attempts(
        control_lab, control, "control run"
    )
    unique: dict[tuple[str, str], Attempt] = {}
    for attempt in found:
        unique.setdefault((attempt.kind, attempt.target), attempt)
    return list(unique.values())[:MAX_ATTEMPTS]


def escape_finding(attempts: Sequence[Attempt], error: str | None, rules: RuleRegistry) -> Finding:
    """One server-level finding listing every attempt (or saying the witness could not see)."""
    if not attempts:
        return rules.finding(
            "TW-LAB-008", tool=None, location="sandbox",
            message=f"the sandbox's syscall witness could not see this server: {error}",
        )  # fmt: skip
    ordered = sorted(attempts, key=lambda a: (a.kind, a.target))
    shown = "; ".join(f"{a.kind} {a.target} ({a.result[:40]})" for a in ordered[:8])
    if len(ordered) > 8:
        shown += f"; {len(ordered) - 8} more in the witnesses"
    kinds = sorted({a.kind for a in ordered})
    return rules.finding(
        "TW-LAB-008", tool=None, location="sandbox",
        message=(
            f"the server reached outside the sandbox {len(ordered)} time(s) "
            f"({', '.join(kinds)}) outside any tool call; none left the sandbox"
        ),
        evidence=shown[:600],
        witnesses=tuple(
            Witness(kind="syscall", symbol=a.syscall, detail=f"{a.kind} {a.target}: {a.line[:200]}")
            for a in ordered  # every attempt (bounded by MAX_ATTEMPTS)
        ),
    )  # fmt: skip
