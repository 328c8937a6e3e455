"""Turn what the witnesses saw into a verdict per tool, with the evidence that backs it.

CONFIRMED: a witness that passed its self-test saw a call change the file system, start a
process, try to connect anywhere, reach for a host path the sandbox hides, or read a canary
(control run subtracted). REFUTED: nothing was seen, both witnesses were live (self-test passed;
the tracer saw the server answer inside every call window), and at least one call was
*exercised*: it returned a non-error result and, where the syscall witness can tell (a planted
path in its arguments), the server touched that path during the call. INCONCLUSIVE: nothing
was seen but no call was exercised (every try errored, or answered without touching its path):
the error answers are the evidence, and a TW-LAB-010 finding keeps the tool from counting as
clean. ERRORED: anything else (a hang, a crash, a flood, a blind witness), with the reason named.
A blind instrument never yields REFUTED.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from toolwitness.findings import Finding, Witness
from toolwitness.lab.sandbox import Lab
from toolwitness.lab.selftest import SelfTest
from toolwitness.lab.session import CallRecord
from toolwitness.lab.syscalls import Event
from toolwitness.rules import RuleRegistry
from toolwitness.textnorm import excerpt

_REFUSED = ("EROFS", "EACCES", "EPERM")  # an attempt the sandbox stopped still counts
_FS_RULES = {"created": "TW-LAB-001", "modified": "TW-LAB-001", "deleted": "TW-LAB-002"}
_EVENT_RULES = {
    "write": "TW-LAB-001", "mkdir": "TW-LAB-001", "link": "TW-LAB-001",
    "unlink": "TW-LAB-002", "rename": "TW-LAB-002", "exec": "TW-LAB-003",
    "connect": "TW-LAB-004", "canary-read": "TW-LAB-005", "hidden-read": "TW-LAB-009",
}  # fmt: skip
_PATHS = frozenset({"write", "mkdir", "link", "unlink", "rename", "canary-read", "touch"})
_MAX_ITEMS = 50
_MAX_TRIES_SHOWN = 12


@dataclass(frozen=True)
class Control:
    """What the server did with no call at all (spawn, initialize, tools/list, hold, stop)."""

    changes: frozenset[tuple[str, str, str]]
    events: frozenset[tuple[str, str]]
    error: str | None = None


@dataclass
class ToolProbe:
    verdict: str
    evidence: dict[str, Any]
    findings: list[Finding] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verdict": self.verdict}
        for key in ("calls", "calls_errored"):
            if isinstance(self.evidence.get(key), int):
                out[key] = self.evidence[key]
        out["evidence"] = self.evidence
        return out


def counts(event: Event, lab: Lab | None = None) -> bool:
    """Whether an event is evidence of a side effect (failed lookups inside the lab are not)."""
    if event.kind in ("connect", "hidden-read"):
        return True  # every attempt counts, whatever the sandbox made of it
    if event.kind in ("exec", "canary-read"):
        return event.ok
    if event.kind in ("answer", "touch"):
        return False
    if event.ok or any(code in event.result for code in _REFUSED):
        return True
    # A write into a host folder the sandbox hides fails with ENOENT: still an attempt.
    path = event.target.split(" -> ")[0]
    outside = lab is not None and lab.label(path) == path
    return outside and "ENOENT" in event.result and os.path.isdir(os.path.dirname(path))


def event_key(lab: Lab, event: Event) -> tuple[str, str]:
    return event.kind, lab.label(event.target.split(" -> ")[0])


def exercised(call: CallRecord, events: list[Event], traced: bool) -> bool:
    """A non-error answer and, where the tracer can tell, the handler touched its path."""
    if call.error is not None or call.is_error or call.end is None:
        return False
    planted = [s for s in call.attempt.subjects if s not in call.attempt.fresh_paths]
    if not traced or not planted:
        return True
    touched = {e.target.split(" -> ")[0] for e in events if e.kind in _PATHS}
    return any(t == s or t.startswith(s + "/") or s.startswith(t + "/") for s in planted
               for t in touched)  # fmt: skip


@dataclass
class _Seen:
    observed: list[dict[str, Any]] = field(default_factory=list)
    subtracted: list[str] = field(default_factory=list)
    witnesses: dict[str, list[Witness]] = field(default_factory=dict)
    excerpts: list[str] = field(default_factory=list)
    own_subject: list[str] = field(default_factory=list)

    def add(self, rule: str, witness: Witness) -> None:
        self.witnesses.setdefault(rule, []).append(witness)


@dataclass
class Judge:
    lab: Lab
    control: Control
    self_test: SelfTest
    traced: bool
    trace_error: str | None
    rules: RuleRegistry

    @property
    def fs_ok(self) -> bool:
        return self.self_test.filesystem

    @property
    def sys_ok(self) -> bool:
        return self.traced and bool(self.self_test.syscalls) and self.trace_error is None

    def _filesystem(self, seen: _Seen, index: int, tag: str, call: CallRecord) -> None:
        for change in call.changes:
            if change.key() in self.control.changes:
                seen.subtracted.append(f"{change.change} {change.path}")
                continue
            entry: dict[str, Any] = {"call": index, "witness": "filesystem", **change.to_json()}
            if change.excerpt is not None:
                entry["excerpt"] = self.lab.label_text(change.excerpt)
                seen.excerpts.append(f"{change.path}: {entry['excerpt'][:120]!r}")
                for label, value in self.lab.canaries().items():
                    if value in change.excerpt:  # a secret copied into a file
                        detail = f"holds the {label} canary"
                        seen.add(
                            "TW-LAB-005", Witness(kind="fs", path=(change.path,), detail=detail)
                        )
            seen.observed.append(entry)
            detail = f"{change.change} {change.path} during {tag}, {change.size} bytes"
            seen.add(
                _FS_RULES[change.change], Witness(kind="fs", path=(change.path,), detail=detail)
            )
        fresh = {self.lab.label(p) for p in call.attempt.fresh_paths}
        seen.own_subject += sorted(
            c.path for c in call.changes if c.change == "created" and c.path in fresh
        )

    def _syscalls(self, seen: _Seen, index: int, events: list[Event]) -> None:
        for event in events:
            if not counts(event, self.lab):
                continue
            key = event_key(self.lab, event)
            if key in self.control.events:
                seen.subtracted.append(f"{event.kind} {key[1]}")
                continue
            # An address, a hidden host path, a refused write: as the server named it (a host
            # folder under /tmp is not the lab's TMPDIR).
            raw = event.kind in ("connect", "hidden-read") or not event.ok
            target = event.target if raw else self.lab.label_text(event.target)
            seen.observed.append({"call": index, "witness": "syscalls", "kind": event.kind,
                                  "target": target, "syscall": event.syscall,
                                  "result": self.lab.label_text(event.result)[:80]})  # fmt: skip
            detail = self.lab.label_text(event.line)
            seen.add(_EVENT_RULES[event.kind], Witness(kind="syscall", symbol=event.syscall,
                                                       detail=detail))  # fmt: skip

    def _try_json(self, index: int, call: CallRecord, used: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "call": index, "plan": call.plan.label, "try": call.try_number,
            "arguments": self._labelled(call.attempt.arguments),
            "answer": excerpt(self.lab.label_text(call.answer), 200),
            "error_answer": call.is_error, "exercised": used,
        }  # fmt: skip
        if call.attempt.forms:
            out["forms"] = self._labelled(call.attempt.forms)
        if call.error is not None:
            out["failed"] = call.error
        return out

    def tool(
        self, name: str, calls: list[tuple[CallRecord, list[Event]]], not_called: list[str]
    ) -> ToolProbe:
        seen = _Seen()
        problems: list[str] = []
        tries: list[dict[str, Any]] = []
        live_calls = 0
        used = 0
        for index, (call, events) in enumerate(calls, start=1):
            tag = f"call {index} ({call.plan.label}, try {call.try_number})"
            if call.error is not None:
                problems.append(f"{tag}: {call.error}")
            if self.fs_ok:
                self._filesystem(seen, index, tag, call)
            live_calls += call.end is not None and any(
                e.kind == "answer" and call.start <= e.time <= call.end for e in events
            )
            if self.sys_ok:
                self._syscalls(seen, index, events)
            for label, value in self.lab.canaries().items():
                if value in call.answer:
                    seen.observed.append({"call": index, "witness": "answer", "canary": label})
                    text = f"the answer to {tag} holds the {label} canary"
                    seen.add("TW-LAB-005", Witness(kind="text", detail=text))
            ran = exercised(call, events, self.sys_ok)
            used += ran
            tries.append(self._try_json(index, call, ran))
        errored = sum(c.is_error or c.error is not None for c, _ in calls)
        evidence: dict[str, Any] = {
            "calls": len(calls),
            "calls_errored": errored,
            "calls_exercised": used,
            "tries": tries[:_MAX_TRIES_SHOWN],
            "self_test": self.self_test.to_json(),
            "control_subtracted": sorted(set(seen.subtracted))[:_MAX_ITEMS],
            "answers_traced": live_calls if self.traced else None,
        }
        problems += self._problems(calls, not_called, live_calls)
        if seen.observed:
            evidence["observed"] = _dedupe(seen.observed)[:_MAX_ITEMS]
            if seen.own_subject:
                evidence["created_own_subject"] = seen.own_subject
            if problems:
                evidence["also"] = problems
            findings = self._findings(name, seen, evidence)
            return ToolProbe("confirmed", evidence, findings)
        if problems:
            evidence["reason"] = "; ".join(problems)
            return ToolProbe("errored", evidence, [self._finding("TW-LAB-006", name, problems[0])])
        if used == 0:
            why = (
                f"all {len(calls)} call(s) answered with an error"
                if errored == len(calls)
                else "no call both answered without an error and touched the path it was given"
            )
            evidence["reason"] = f"{why}: the handler was not shown to run, so nothing is refuted"
            return ToolProbe("inconclusive", evidence, [self._finding("TW-LAB-010", name, why)])
        return ToolProbe("refuted", evidence)

    def _problems(
        self, calls: list[tuple[CallRecord, list[Event]]], not_called: list[str], live: int
    ) -> list[str]:
        problems: list[str] = []
        if self.control.error is not None:
            problems.append(f"the control run failed: {self.control.error}")
        if not calls:
            problems.append("no call was made")
        problems += [f"not called: {n}" for n in not_called]
        if not self.fs_ok:
            problems.append(
                f"the filesystem witness failed its self-test ({self.self_test.detail})"
            )
        if self.traced and not self.sys_ok:
            problems.append(
                f"the syscall witness is blind ({self.trace_error or self.self_test.detail})"
            )
        elif self.traced and live < sum(c.end is not None and c.error is None for c, _ in calls):
            problems.append("the tracer did not see the server answer inside every call window")
        return problems

    def _finding(self, rule: str, name: str, why: str) -> Finding:
        verb = "could not verify" if rule == "TW-LAB-006" else "could not exercise"
        return self.rules.finding(
            rule, tool=name, location=f"lab.{name}",
            message=f"the lab {verb} tool {name!r}: {why}",
        )  # fmt: skip

    def _labelled(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.lab.label_text(value)
        if isinstance(value, list):
            return [self._labelled(v) for v in value]
        if isinstance(value, dict):
            return {k: self._labelled(v) for k, v in value.items()}
        return value

    def _findings(self, name: str, seen: _Seen, evidence: dict[str, Any]) -> list[Finding]:
        out: list[Finding] = []
        for rule_id, found in sorted(seen.witnesses.items()):
            unique = list(dict.fromkeys(found))[:10]
            # Files (with bytes) before directories; then syscalls.
            named = sorted({w.path[0] for w in found if w.path}) + sorted(
                {w.detail or "" for w in found if not w.path}
            )
            what = "; ".join(named[:5])
            if rule_id == "TW-LAB-001" and seen.excerpts:
                what += f" | bytes: {seen.excerpts[0]}"
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
        key = repr(sorted((k, str(v)) for k, v in item.items() if k not in ("result", "call")))
        if key not in keys:
            keys.add(key)
            out.append(item)
    return out
