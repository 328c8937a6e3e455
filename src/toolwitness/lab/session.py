"""One MCP session in a lab: spawn under the tracer, list, call the planned tools, witness.

Each call is bracketed by filesystem snapshots and wall-clock marks (the tracer's `-ttt`
timestamps use the same clock), so every change and every syscall is attributed to the call
during which it happened. A call that hangs or a server that dies ends the session; the calls
not made are named. The whole process tree is killed when the session ends.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import anyio
import anyio.to_thread
import mcp_types as types
from mcp import Client
from mcp.client._transport import TransportStreams
from mcp.client.session import ClientRequestContext

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.launch import check_command
from toolwitness.acquire.limits import MIB
from toolwitness.acquire.live_collect import PageLimits, Stage, collect_document
from toolwitness.acquire.live_errors import describe_failure, leaves
from toolwitness.acquire.live_stdio import Launch, StdioDiagnostics, StreamBudget, bounded_stdio
from toolwitness.errors import InputError
from toolwitness.lab.args import MAX_TRIES, CallPlan, Try
from toolwitness.lab.sandbox import Lab, lab_argv, lab_environment
from toolwitness.lab.witness import Change, Snapshot, WitnessFailed, diff, snapshot
from toolwitness.model import ServerSpec, ServerSurface

_ANSWER_CHARS = 4000
_PAGES = PageLimits(max_pages=10, max_tools=5000, max_items=5000)


@dataclass(frozen=True)
class SessionLimits:
    start_timeout: float = 60.0
    call_timeout: float = 15.0
    settle: float = 0.15  # wait after an answer before the snapshot (late writes)
    session_timeout: float = 900.0  # everything, start-up and all calls
    trace: bool = True
    allow_commands: frozenset[str] = frozenset()
    max_calls: int = 400  # tries of every plan together; fallbacks past it are not made


@dataclass
class CallRecord:
    tool: str
    plan: CallPlan
    attempt: Try
    try_number: int  # 1 for a plan's first try, 2.. for its fallbacks
    start: float
    end: float | None = None
    changes: list[Change] = field(default_factory=list)
    error: str | None = None  # the call failed (timeout, crash, flood), not a tool error answer
    answer: str = ""
    is_error: bool = False


@dataclass
class SessionRecord:
    surface: ServerSurface | None = None
    calls: list[CallRecord] = field(default_factory=list)
    error: str | None = None  # the session failed before or between calls
    not_called: list[str] = field(default_factory=list)
    skipped_tries: list[str] = field(default_factory=list)  # fallbacks past the call budget
    total_changes: list[Change] = field(default_factory=list)  # spawn -> exit
    started: float = 0.0
    listed: float = 0.0
    stopped: float = 0.0


Planner = Callable[[ServerSurface], list[tuple[str, CallPlan]]]


def _answer_text(result: types.CallToolResult) -> str:
    parts = [getattr(c, "text", "") or "" for c in result.content]
    if result.structured_content is not None:
        parts.append(str(result.structured_content))
    return "\n".join(parts)[:_ANSWER_CHARS]


async def _snap(lab: Lab) -> Snapshot:
    return await anyio.to_thread.run_sync(snapshot, lab)


@asynccontextmanager
async def _transport(launch: Launch, diag: StdioDiagnostics) -> AsyncIterator[TransportStreams]:
    async with bounded_stdio(launch, diag) as streams:
        yield streams


def lab_placeholders(arg: str, lab: Lab, repo: str | None = None) -> str:
    """`{lab}` in a server argument is the lab's working directory (an allowed root), `{repo}`
    the copy of the user's repository (`--repo`), both as the server sees them."""
    arg = arg.replace("{lab}", lab.inside["$WORK"])
    return arg.replace("{repo}", lab.path(repo)) if repo is not None else arg


class _Roots:
    """The client's roots: the lab's working directory (servers that ask use it as allowed)."""

    def __init__(self, lab: Lab) -> None:
        self.root = types.Root.model_validate(
            {"uri": "file://" + lab.inside["$WORK"], "name": lab.names.project}
        )

    async def __call__(self, context: ClientRequestContext) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[self.root])


def prepare(spec: ServerSpec, lab: Lab, limits: SessionLimits, repo: str | None = None) -> Launch:
    command = spec.transport.command
    if command is None:
        raise InputError("the lab runs stdio servers; this one has no command")
    executable = check_command(command, limits.allow_commands)
    env = lab_environment(lab, dict(spec.transport.env))
    args = tuple(lab_placeholders(a, lab, repo) for a in spec.transport.args)
    argv = lab_argv(lab, (executable, *args), env, trace=limits.trace)
    return Launch(argv=argv, env=env, cwd=str(lab.work))


async def _call(client: Client, lab: Lab, record: CallRecord, limits: SessionLimits) -> Snapshot:
    """Make one call; returns the snapshot taken after it (the next call's `before`)."""
    try:
        with anyio.fail_after(limits.call_timeout + 1):
            result = await client.call_tool(
                record.tool, record.attempt.arguments, read_timeout_seconds=limits.call_timeout
            )
        record.answer = _answer_text(result)
        record.is_error = bool(result.is_error)
    except TimeoutError:
        record.error = f"the call did not answer within {limits.call_timeout:g}s"
    record.end = time.time()
    await anyio.sleep(limits.settle)
    return await _snap(lab)


def _opening(plan: CallPlan, worked: Try | None) -> tuple[Try, int]:
    """A plan's first try and its budget: the nonce plan starts from the forms that worked for
    the planted one (a relative-path tool gets a relative nonce path) with one fallback."""
    if plan.label == "nonce":
        return (plan.resume(worked.index) if worked else plan.first()), 2
    return plan.first(), MAX_TRIES


async def run_session(
    spec: ServerSpec,
    lab: Lab,
    limits: SessionLimits,
    planner: Planner,
    hold: float = 0.0,
    repo: str | None = None,
) -> SessionRecord:
    """Spawn, initialize, list, call what `planner` returns (or hold `hold` seconds), stop.

    A try answered with an error is followed by the plan's next fallback (at most MAX_TRIES
    per plan); a try that fails (hang, crash, flood) ends the session."""
    record = SessionRecord()
    launch = prepare(spec, lab, limits, repo)
    diag = StdioDiagnostics(StreamBudget(16 * MIB, 64 * MIB, 64 * 1024))
    stage = Stage()
    first = before = await _snap(lab)
    record.started = time.time()
    current: CallRecord | None = None
    pending: list[tuple[str, CallPlan]] = []
    client = Client(
        _transport(launch, diag),
        read_timeout_seconds=limits.start_timeout,
        client_info=types.Implementation(name=lab.names.client[0], version=lab.names.client[1]),
        list_roots_callback=_Roots(lab),
        cache=None,
    )
    try:
        with anyio.fail_after(limits.session_timeout):
            async with client:
                doc = await collect_document(client.session, spec.name, stage, _PAGES)
                doc["coverage"] = ["live", "lab"]
                record.surface = surface_from_document(
                    doc, server_id=spec.name, source=f"lab:{spec.name}"
                )
                record.listed = time.time()
                pending = planner(record.surface)
                before = await _snap(lab)
                if not pending and hold > 0:
                    await anyio.sleep(hold)
                worked: dict[str, Try] = {}
                while pending:
                    tool, plan = pending.pop(0)
                    opening, most = _opening(plan, worked.get(tool))
                    attempt: Try | None = opening
                    tries = 0
                    while attempt is not None and tries < most:
                        tries += 1
                        current = CallRecord(tool, plan, attempt, tries, start=time.time())
                        record.calls.append(current)
                        after = await _call(client, lab, current, limits)
                        current.changes = diff(before, after, lab)
                        before = after
                        if current.error is None and not current.is_error:
                            worked.setdefault(tool, attempt)
                        if current.error is not None or not current.is_error:
                            break
                        if len(record.calls) >= limits.max_calls:
                            record.skipped_tries.append(f"{tool} ({plan.label}): call budget")
                            break
                        attempt = plan.next_try(attempt, current.answer)
                    if current is not None and current.error is not None:
                        break
                    current = None
    except InputError:
        raise
    except Exception as exc:
        flood = [e for e in leaves(exc) if isinstance(e, WitnessFailed)]
        if flood:
            why = f"the filesystem witness failed: {flood[0]}"
        else:
            waiting = stage.now if current is None else f"tools/call {current.tool}"
            why = describe_failure(exc, waiting, diag.failure, diag.summary(), limits.call_timeout)
        _fail(record, current, why)
    record.stopped = time.time()
    record.not_called = [f"{tool} ({plan.label})" for tool, plan in pending]
    try:
        final = await _snap(lab)
    except WitnessFailed as exc:
        record.error = record.error or f"the filesystem witness failed at the end: {exc}"
        return record
    record.total_changes = diff(first, final, lab)
    if record.calls:
        # Writes that land after the last answer (until exit) go to the last call.
        last = record.calls[-1]
        seen = {c.key() for c in last.changes}
        last.changes += [c for c in diff(before, final, lab) if c.key() not in seen]
    return record


def _fail(record: SessionRecord, current: CallRecord | None, why: str) -> None:
    if current is not None and current.error is None:
        current.error = why
        current.end = current.end or time.time()
    elif current is None:
        record.error = why
