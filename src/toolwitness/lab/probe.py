"""Probe one stdio server in the lab: self-test, probe run, control run, verdict per tool.

1. A fresh lab from a new seed (names, canaries); the witnesses self-test in it.
2. Probe run: spawn under the tracer, list, plant bait for what the selected tools describe,
   call each with synthesised arguments (planted subjects, then never-seen nonce paths),
   retrying an error answer with the next candidate form; snapshot around every call.
3. Control run in an identical fresh lab (same seed): spawn, list, plant the same bait, no
   calls, hold as long as the probe's calls took, stop. Its changes and syscalls are subtracted.
4. Each syscall is attributed to the call whose window holds its timestamp; connection
   attempts and reaches outside the sandbox outside any call window (start-up, listing, the
   control run) are the server's own (TW-LAB-008).
"""

from __future__ import annotations

import bisect
import secrets
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread

from toolwitness.acquire.launch import check_command
from toolwitness.acquire.sandbox import bubblewrap_binary
from toolwitness.acquire.sandbox_witness import Attempt
from toolwitness.errors import InputError
from toolwitness.findings import Finding
from toolwitness.lab.escapes import escape_finding, server_escapes
from toolwitness.lab.planner import Planner, copy_repository
from toolwitness.lab.sandbox import Lab, lab_environment, make_lab, strace_binary
from toolwitness.lab.selftest import run_self_test
from toolwitness.lab.session import SessionLimits, SessionRecord, run_session
from toolwitness.lab.syscalls import Event, read_trace
from toolwitness.lab.verdict import Control, Judge, ToolProbe, counts, event_key
from toolwitness.model import ServerSpec, ServerSurface
from toolwitness.rules import RuleRegistry, load_registry

_MIN_HOLD, _MAX_HOLD = 0.5, 10.0


@dataclass(frozen=True)
class LabOptions:
    call_timeout: float = 15.0
    start_timeout: float = 60.0
    session_timeout: float = 900.0
    all_tools: bool = False
    trace: bool = True
    max_trace_bytes: int = 512 * 1024 * 1024
    allow_commands: frozenset[str] = frozenset()
    seed: str | None = None  # planted names and canary values; random unless given
    max_calls: int = 200  # a server listing thousands of tools gets the rest skipped, by name
    repo: str | None = None  # a user repository or folder, copied into the lab (`--repo`)

    def limits(self) -> SessionLimits:
        return SessionLimits(
            start_timeout=self.start_timeout,
            call_timeout=self.call_timeout,
            session_timeout=self.session_timeout,
            trace=self.trace,
            allow_commands=self.allow_commands,
            max_calls=self.max_calls * 2,
        )


@dataclass
class ServerProbe:
    server: str
    surface: ServerSurface | None = None
    tools: dict[str, ToolProbe] = field(default_factory=dict)
    error: str | None = None
    seconds: float = 0.0
    escapes: list[Attempt] = field(default_factory=list)  # the server's own, outside any call
    escape_error: str | None = None  # the witness of the escapes could not see

    def to_json(self) -> dict[str, Any]:
        """Everything, as JSON (the probe child hands its result to the parent this way)."""
        surface = self.surface
        return {
            "server": self.server,
            "surface": surface.model_dump(by_alias=True, mode="json") if surface else None,
            "tools": {
                name: {"verdict": p.verdict, "evidence": p.evidence,
                       "findings": [f.model_dump(mode="json") for f in p.findings]}
                for name, p in self.tools.items()
            },
            "error": self.error,
            "seconds": self.seconds,
            "escapes": [asdict(a) for a in self.escapes],
            "escape_error": self.escape_error,
        }  # fmt: skip

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ServerProbe:
        surface = doc.get("surface")
        return cls(
            server=str(doc["server"]),
            surface=ServerSurface.model_validate(surface) if surface is not None else None,
            tools={
                name: ToolProbe(t["verdict"], t["evidence"],
                                [Finding.model_validate(f) for f in t["findings"]])
                for name, t in doc.get("tools", {}).items()
            },
            error=doc.get("error"),
            seconds=float(doc.get("seconds", 0.0)),
            escapes=[Attempt(**a) for a in doc.get("escapes", [])],
            escape_error=doc.get("escape_error"),
        )  # fmt: skip

    def findings(self, rules: RuleRegistry | None = None) -> list[Finding]:
        found = [f for name in sorted(self.tools) for f in self.tools[name].findings]
        if rules is not None and (self.escapes or self.escape_error):
            found.append(escape_finding(self.escapes, self.escape_error, rules))
        return found


def _trace(lab: Lab, options: LabOptions) -> tuple[list[Event], str | None]:
    if not options.trace:
        return [], None
    canaries = {k: lab.path(v) for k, v in lab.canary_files().items()}
    areas = tuple(lab.inside.values())
    try:
        events = read_trace(
            str(lab.trace_file), canaries, options.max_trace_bytes, areas, lab.setup_execs
        )
        return events, None
    except OSError as exc:
        return [], f"no trace was written ({exc.strerror})"
    except ValueError as exc:
        return [], str(exc)


def _attribute(
    session: SessionRecord, events: list[Event]
) -> tuple[list[list[Event]], list[Event]]:
    """Events per call (a window runs from its start to the next call's start), and the rest."""
    starts = [c.start for c in session.calls]
    out: list[list[Event]] = [[] for _ in starts]
    before: list[Event] = []
    for event in events:
        index = bisect.bisect_right(starts, event.time) - 1
        if index >= 0:
            out[index].append(event)
        else:
            before.append(event)
    return out, before


async def _control(
    spec: ServerSpec, lab: Lab, options: LabOptions, planner: Planner, hold: float
) -> tuple[Control, list[Event]]:
    session = await run_session(
        spec, lab, options.limits(), planner.plant_only, hold=hold, repo=planner.repo
    )
    events, trace_error = _trace(lab, options)
    error = session.error or trace_error
    if session.surface is None and error is None:
        error = "the server did not list its tools"
    control = Control(
        changes=frozenset(c.key() for c in session.total_changes),
        events=frozenset(event_key(lab, e) for e in events if counts(e, lab)),
        error=error,
    )
    return control, events


async def probe_server_async(
    spec: ServerSpec,
    options: LabOptions,
    rules: RuleRegistry | None = None,
    parent: Path | None = None,
) -> ServerProbe:
    """Probe in a temporary folder (under `parent` when given: the caller removes it)."""
    rules = rules or load_registry([])
    bubblewrap_binary()
    if options.trace:
        strace_binary()
    if spec.transport.command is None:
        raise InputError("the lab runs stdio servers; this one has no command")
    check_command(spec.transport.command, options.allow_commands)  # refuse before any work
    if parent is not None:
        return await _probe(spec, options, rules, parent)
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        return await _probe(spec, options, rules, Path(folder))


async def _probe(
    spec: ServerSpec, options: LabOptions, rules: RuleRegistry, parent: Path
) -> ServerProbe:
    began = time.perf_counter()
    result = ServerProbe(spec.name)
    seed = options.seed or secrets.token_hex(4)
    lab = make_lab(parent, seed)
    repo = copy_repository(lab, options.repo) if options.repo else None
    env = lab_environment(lab, dict(spec.transport.env))
    self_test = await anyio.to_thread.run_sync(run_self_test, lab, env, options.trace)
    planner = Planner(lab, spec, options.all_tools, options.max_calls, repo)
    session = await run_session(spec, lab, options.limits(), planner, repo=repo)
    result.surface = session.surface
    if session.surface is None:
        result.error = session.error or "the server did not list its tools"
        result.seconds = time.perf_counter() - began
        return result
    events, trace_error = _trace(lab, options)
    calls_took = (session.stopped - session.listed) if session.calls else 0.0
    hold = min(max(calls_took, _MIN_HOLD), _MAX_HOLD)
    control_lab = make_lab(parent, seed)
    if options.repo:
        copy_repository(control_lab, options.repo)
    control, control_events = await _control(
        spec, control_lab, options, planner.twin(control_lab), hold
    )
    judge = Judge(lab, control, self_test, options.trace, trace_error, rules)
    per_call, before_calls = _attribute(session, events)
    for tool in sorted(t.name for t in session.surface.tools):
        if tool in planner.skipped:
            result.tools[tool] = ToolProbe("skipped", {"reason": planner.skipped[tool]})
            continue
        calls = [(c, per_call[i]) for i, c in enumerate(session.calls) if c.tool == tool]
        not_called = [n for n in session.not_called if n.startswith(f"{tool} (")]
        if session.error and not calls:
            not_called.append(f"{tool}: {session.error}")
        result.tools[tool] = judge.tool(tool, calls, not_called)
    result.escapes = server_escapes(lab, before_calls, control_lab, control_events)
    result.escape_error = trace_error or (control.error if options.trace else None)
    result.seconds = time.perf_counter() - began
    return result


def probe_server(
    spec: ServerSpec, options: LabOptions | None = None, rules: RuleRegistry | None = None
) -> ServerProbe:
    """Probe one stdio server; raises InputError when the lab cannot run at all."""
    return anyio.run(probe_server_async, spec, options or LabOptions(), rules)
