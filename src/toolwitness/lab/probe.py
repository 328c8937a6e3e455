"""Probe one stdio server in the lab: self-test, probe run, control run, verdict per tool.

1. A fresh lab from a new seed; the witnesses self-test in it (sandbox, snapshot, tracer).
2. Probe run: spawn under the tracer, list, call every selected tool with synthesised
   arguments (planted paths, then never-seen nonce paths), snapshot around every call.
3. Control run in an identical fresh lab (same seed): spawn, list, no calls, hold as long as
   the probe's calls took, stop. Its changes and syscalls are subtracted from the probe's.
4. Each syscall is attributed to the call whose window holds its timestamp.
"""

from __future__ import annotations

import bisect
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import anyio.to_thread

from toolwitness.acquire.launch import check_command
from toolwitness.acquire.sandbox import bubblewrap_binary
from toolwitness.errors import InputError
from toolwitness.findings import Finding
from toolwitness.lab.args import ArgumentSource, CallPlan, CannotSynthesize, plan_calls
from toolwitness.lab.sandbox import Lab, lab_environment, make_lab, strace_binary
from toolwitness.lab.selection import select_tools
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

    def limits(self) -> SessionLimits:
        return SessionLimits(
            start_timeout=self.start_timeout,
            call_timeout=self.call_timeout,
            session_timeout=self.session_timeout,
            trace=self.trace,
            allow_commands=self.allow_commands,
        )


@dataclass
class ServerProbe:
    server: str
    surface: ServerSurface | None = None
    tools: dict[str, ToolProbe] = field(default_factory=dict)
    error: str | None = None
    seconds: float = 0.0

    def findings(self) -> list[Finding]:
        return [f for name in sorted(self.tools) for f in self.tools[name].findings]


class _Planner:
    """Chooses the calls once the tools are listed; remembers why others were skipped."""

    def __init__(self, lab: Lab, all_tools: bool, max_calls: int = 200) -> None:
        self.lab = lab
        self.all_tools = all_tools
        self.max_calls = max_calls
        self.skipped: dict[str, str] = {}

    def __call__(self, surface: ServerSurface) -> list[tuple[str, CallPlan]]:
        repo = str(self.lab.repo) if self.lab.repo.is_dir() else None
        source = ArgumentSource(
            str(self.lab.note), str(self.lab.notes), str(self.lab.notes), self.lab.seed, repo
        )
        chosen = select_tools(surface, self.all_tools)
        plans: list[tuple[str, CallPlan]] = []
        for tool in sorted(surface.tools, key=lambda t: t.name):
            reason = chosen.get(tool.name)
            if reason is not None:
                self.skipped[tool.name] = reason
                continue
            try:
                planned = plan_calls(dict(tool.input_schema), source, tool.name)
            except CannotSynthesize as exc:
                self.skipped[tool.name] = f"cannot synthesise arguments: {exc}"
                continue
            if len(plans) + len(planned) > self.max_calls:
                self.skipped[tool.name] = f"over the lab's budget of {self.max_calls} calls"
                continue
            plans += [(tool.name, p) for p in planned]
        return plans


def _trace(lab: Lab, options: LabOptions) -> tuple[list[Event], str | None]:
    if not options.trace:
        return [], None
    canaries = {k: str(v) for k, v in lab.canary_files().items()}
    try:
        return read_trace(str(lab.trace_file), canaries, options.max_trace_bytes), None
    except OSError as exc:
        return [], f"no trace was written ({exc.strerror})"
    except ValueError as exc:
        return [], str(exc)


def _attribute(session: SessionRecord, events: list[Event]) -> list[list[Event]]:
    """Events per call: a call's window runs from its start to the next call's start."""
    starts = [c.start for c in session.calls]
    out: list[list[Event]] = [[] for _ in starts]
    for event in events:
        index = bisect.bisect_right(starts, event.time) - 1
        if index >= 0:
            out[index].append(event)
    return out


async def _control(spec: ServerSpec, lab: Lab, options: LabOptions, hold: float) -> Control:
    session = await run_session(spec, lab, options.limits(), lambda _: [], hold=hold)
    events, trace_error = _trace(lab, options)
    error = session.error or trace_error
    if session.surface is None and error is None:
        error = "the server did not list its tools"
    return Control(
        changes=frozenset(c.key() for c in session.total_changes),
        events=frozenset(event_key(lab, e) for e in events if counts(e)),
        error=error,
    )


async def probe_server_async(
    spec: ServerSpec, options: LabOptions, rules: RuleRegistry | None = None
) -> ServerProbe:
    rules = rules or load_registry([])
    bubblewrap_binary()
    if options.trace:
        strace_binary()
    if spec.transport.command is None:
        raise InputError("the lab runs stdio servers; this one has no command")
    check_command(spec.transport.command, options.allow_commands)  # refuse before any work
    began = time.perf_counter()
    result = ServerProbe(spec.name)
    with tempfile.TemporaryDirectory(prefix="toolwitness-lab-", ignore_cleanup_errors=True) as d:
        parent = Path(d)
        seed = options.seed or secrets.token_hex(4)
        lab = make_lab(parent, seed)
        env = lab_environment(lab, dict(spec.transport.env))
        self_test = await anyio.to_thread.run_sync(run_self_test, lab, env, options.trace)
        planner = _Planner(lab, options.all_tools, options.max_calls)
        session = await run_session(spec, lab, options.limits(), planner)
        result.surface = session.surface
        if session.surface is None:
            result.error = session.error or "the server did not list its tools"
            result.seconds = time.perf_counter() - began
            return result
        events, trace_error = _trace(lab, options)
        calls_took = (session.stopped - session.listed) if session.calls else 0.0
        hold = min(max(calls_took, _MIN_HOLD), _MAX_HOLD)
        control = await _control(spec, make_lab(parent, seed), options, hold)
        judge = Judge(lab, control, self_test, options.trace, trace_error, rules)
        per_call = _attribute(session, events)
        for tool in sorted(t.name for t in session.surface.tools):
            if tool in planner.skipped:
                result.tools[tool] = ToolProbe("skipped", {"reason": planner.skipped[tool]})
                continue
            calls = [(c, per_call[i]) for i, c in enumerate(session.calls) if c.tool == tool]
            not_called = [n for n in session.not_called if n.startswith(f"{tool} (")]
            if session.error and not calls:
                not_called.append(f"{tool}: {session.error}")
            result.tools[tool] = judge.tool(tool, calls, not_called)
    result.seconds = time.perf_counter() - began
    return result


def probe_server(
    spec: ServerSpec, options: LabOptions | None = None, rules: RuleRegistry | None = None
) -> ServerProbe:
    """Probe one stdio server; raises InputError when the lab cannot run at all."""
    return anyio.run(probe_server_async, spec, options or LabOptions(), rules)
