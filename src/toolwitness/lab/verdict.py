"""Turn what the witnesses saw into a verdict per tool, with the evidence that backs it.

CONFIRMED: a witness that passed its self-test saw the call change the file system, start a
process, try the network, or read a canary (control run subtracted). REFUTED: every planned
call answered, both witnesses were live during it (self-test passed; the tracer saw the
server write its answer inside the call window), and nothing was seen. ERRORED: anything else
(a hang, a crash, a flood, a blind witness), with the reason named. A blind instrument never
yields REFUTED.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolwitness.findings import Finding, Witness
from toolwitness.lab.sandbox import Lab
from toolwitness.lab.selftest import SelfTest
from toolwitness.lab.session import CallRecord
from toolwitness.lab.syscalls import Event
from toolwitness.rules import RuleRegistry

_REFUSED = ("EROFS", "EACCES", "EPERM")  # an attempt the sandbox stopped still counts
_FS_RULES = {"created": "TW-LAB-001", "modified": "TW-LAB-001", "deleted": "TW-LAB-002"}
_EVENT_RULES = {
    "write": "TW-LAB-001", "mkdir": "TW-LAB-001", "link": "TW-LAB-001",
    "unlink": "TW-LAB-002", "rename": "TW-LAB-002",
    "exec": "TW-LAB-003", "connect": "TW-LAB-004", "canary-read": "TW-LAB-005",
}  # fmt: skip
_MAX_ITEMS = 50


@dataclass(frozen=True)
class Control:
    """What the server did with no call at all (spawn, initialize, tools/list, hold, stop)."""

    changes: frozenset[tuple[str, str]]
    events: frozenset[tuple[str, str]]
    error: str | None = None


@dataclass
class ToolProbe:
    verdict: str
    evidence: dict[str, Any]
    findings: list[Finding] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "evidence": self.evidence}


def counts(event: Event) -> bool:
    """Whether an event is evidence of a side effect (failed lookups are not)."""
    if event.kind in ("connect",):
        return True  # the lab has no network: every attempt fails, and every attempt counts
    if event.kind in ("exec", "canary-read"):
        return event.ok
    return event.ok or any(code in event.result for code in _REFUSED)


def event_key(lab: Lab, event: Event) -> tuple[str, str]:
    return event.kind, lab.label(event.target.split(" -> ")[0])


@dataclass
class Judge:
    lab: Lab
    control: Control
    self_test: SelfTest
    traced: bool
    trace_error: str | None
    rules: RuleRegistry

    def tool(
        self, name: str, calls: list[tuple[CallRecord, list[Event]]], not_called: list[str]
    ) -> ToolProbe:
        seen: list[dict[str, Any]] = []
        subtracted: list[str] = []
        witnesses: dict[str, list[Witness]] = {}
        problems: list[str] = []
        own_subject: list[str] = []
        excerpts: list[str] = []
        live_calls = 0
        fs_ok = self.self_test.filesystem
        sys_ok = self.traced and bool(self.self_test.syscalls) and self.trace_error is None
        for index, (call, events) in enumerate(calls):
            tag = f"call {index + 1} ({call.plan.label})"
            if call.error is not None:
                problems.append(f"{tag}: {call.error}")
            if fs_ok:
                for change in call.changes:
                    if change.key() in self.control.changes:
                        subtracted.append(f"{change.change} {change.path}")
                        continue
                    entry: dict[str, Any] = {
                        "call": index + 1,
                        "witness": "filesystem",
                        **change.to_json(),
                    }
                    if change.excerpt is not None:
                        entry["excerpt"] = self.lab.label_text(change.excerpt)
                        excerpts.append(f"{change.path}: {entry['excerpt'][:120]!r}")
                        for label, value in self.lab.canaries().items():
                            if value in change.excerpt:  # a secret copied into a file
                                witnesses.setdefault("TW-LAB-005", []).append(
                                    Witness(
                                        kind="fs",
                                        path=(change.path,),
                                        detail=f"holds the {label} canary",
                                    )
                                )
                    seen.append(entry)
                    detail = f"{change.change} {change.path} during {tag}, {change.size} bytes"
                    witnesses.setdefault(_FS_RULES[change.change], []).append(
                        Witness(kind="fs", path=(change.path,), detail=detail)
                    )
                fresh = {self.lab.label(p) for p in call.plan.fresh_paths}
                own_subject += sorted(
                    c.path for c in call.changes if c.change == "created" and c.path in fresh
                )
            answered = call.end is not None and any(
                e.kind == "answer" and call.start <= e.time <= call.end for e in events
            )
            live_calls += answered
            if sys_ok:
                for event in events:
                    if event.kind == "answer" or not counts(event):
                        continue
                    key = event_key(self.lab, event)
                    if key in self.control.events:
                        subtracted.append(f"{event.kind} {key[1]}")
                        continue
                    target = self.lab.label_text(event.target)
                    seen.append({"call": index + 1, "witness": "syscalls", "kind": event.kind,
                                 "target": target, "syscall": event.syscall,
                                 "result": self.lab.label_text(event.result)[:80]})  # fmt: skip
                    witnesses.setdefault(_EVENT_RULES[event.kind], []).append(
                        Witness(
                            kind="syscall",
                            symbol=event.syscall,
                            detail=self.lab.label_text(event.line),
                        )
                    )
            for label, value in self.lab.canaries().items():
                if value in call.answer:
                    seen.append({"call": index + 1, "witness": "answer", "canary": label})
                    witnesses.setdefault("TW-LAB-005", []).append(
                        Witness(kind="text", detail=f"the answer to {tag} holds the {label} canary")
                    )
        evidence: dict[str, Any] = {
            "calls": len(calls),
            "arguments": [self._labelled(c.plan.arguments) for c, _ in calls],
            "self_test": self.self_test.to_json(),
            "control_subtracted": sorted(set(subtracted))[:_MAX_ITEMS],
            "answers_traced": live_calls if self.traced else None,
            # A tool that answered with an error may not have reached its code path.
            "error_answers": sum(c.is_error for c, _ in calls),
        }
        if self.control.error is not None:
            problems.append(f"the control run failed: {self.control.error}")
        if not calls:
            problems.append("no call was made")
        problems += [f"not called: {n}" for n in not_called]
        if not fs_ok:
            problems.append(
                f"the filesystem witness failed its self-test ({self.self_test.detail})"
            )
        if self.traced and not sys_ok:
            problems.append(
                f"the syscall witness is blind ({self.trace_error or self.self_test.detail})"
            )
        elif self.traced and live_calls < sum(
            c.end is not None and c.error is None for c, _ in calls
        ):
            problems.append("the tracer did not see the server answer inside every call window")
        if seen:
            evidence["observed"] = _dedupe(seen)[:_MAX_ITEMS]
            if own_subject:
                evidence["created_own_subject"] = own_subject
            if problems:
                evidence["also"] = problems
            return ToolProbe(
                "confirmed", evidence, self._findings(name, witnesses, evidence, excerpts)
            )
        if problems:
            evidence["reason"] = "; ".join(problems)
            finding = self.rules.finding(
                "TW-LAB-006", tool=name, location=f"lab.{name}",
                message=f"the lab could not verify tool {name!r}: {problems[0]}",
            )  # fmt: skip
            return ToolProbe("errored", evidence, [finding])
        return ToolProbe("refuted", evidence)

    def _labelled(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.lab.label_text(value)
        if isinstance(value, list):
            return [self._labelled(v) for v in value]
        if isinstance(value, dict):
            return {k: self._labelled(v) for k, v in value.items()}
        return value

    def _findings(
        self,
        name: str,
        witnesses: dict[str, list[Witness]],
        evidence: dict[str, Any],
        excerpts: list[str],
    ) -> list[Finding]:
        out: list[Finding] = []
        for rule_id, found in sorted(witnesses.items()):
            unique = list(dict.fromkeys(found))[:10]
            # Files (with bytes) before directories; then syscalls.
            named = sorted({w.path[0] for w in found if w.path}) + sorted(
                {w.detail or "" for w in found if not w.path}
            )
            what = "; ".join(named[:5])
            if rule_id == "TW-LAB-001" and excerpts:
                what += f" | bytes: {excerpts[0]}"
            out.append(
                self.rules.finding(
                    rule_id, tool=name, location=f"lab.{name}",
                    message=(
                        f"tool {name!r} was called {evidence['calls']} time(s) in the lab; "
                        f"{len(found)} observation(s) back this (control run subtracted)"
                    ),
                    evidence=what[:600], witnesses=tuple(unique),
                )
            )  # fmt: skip
        return out


def _dedupe(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    keys: set[str] = set()
    for item in items:
        key = repr(sorted((k, str(v)) for k, v in item.items() if k != "result"))
        if key not in keys:
            keys.add(key)
            out.append(item)
    return out
