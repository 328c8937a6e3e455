"""Run a stdio MCP server as a guarded subprocess and bridge its pipes to SDK session streams.

Why not `mcp.client.stdio.stdio_client`: it merges the scanner's own HOME/USER/SHELL into the
server's environment, buffers an unbounded stdout line, and sends stderr to a file. A scanned
server is hostile input, so this transport bounds every byte it reads (one message, the whole
session, the stderr tail), drops non-JSON-RPC lines while counting them for the error message,
and kills the server's whole process group when the session ends. Messages are parsed with the
SDK's own JSON-RPC adapter, so the session above is the official `ClientSession`.
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from subprocess import PIPE
from typing import Any

import anyio
import anyio.abc
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

from toolwitness.acquire.limits import MIB
from toolwitness.acquire.sandbox import trace_file
from toolwitness.acquire.sandbox_witness import SandboxLog, record_trace
from toolwitness.textnorm import escape_display

_CHUNK = 65536
_GRACE_SECONDS = 0.5  # time to exit on its own after stdin closes
_TERM_SECONDS = 1.0  # time after SIGTERM before SIGKILL (lets `docker run` stop its container)
_MAX_GARBAGE_LINES = 1000  # lines that are not JSON-RPC before the server is given up on
_MAX_NOTIFICATIONS = 10_000  # notifications (logs, progress) while listing: more is a flood
_MAX_TRACE_BYTES = 256 * MIB  # the sandbox witness's trace of one listing


@dataclass(frozen=True)
class Launch:
    """A fully prepared spawn: argv (possibly wrapped by bubblewrap), environment, directory."""

    argv: tuple[str, ...]
    env: dict[str, str]
    cwd: str


@dataclass(frozen=True)
class StreamBudget:
    max_message_bytes: int
    max_total_bytes: int
    max_stderr_bytes: int


@dataclass
class StdioDiagnostics:
    """What the transport saw; turned into the per-server error message when a scan fails."""

    budget: StreamBudget
    failure: str | None = None
    bytes_read: int = 0
    garbage_lines: int = 0
    first_garbage: str | None = None
    returncode: int | None = None
    stdout_ended: bool = False  # the server closed its stdout (exited, usually)
    notifications: int = 0
    stderr_tail: bytearray = field(default_factory=bytearray)
    stderr_total: int = 0

    def fail(self, reason: str) -> None:
        if self.failure is None:
            self.failure = reason

    def note_stderr(self, chunk: bytes) -> None:
        self.stderr_total += len(chunk)
        self.stderr_tail += chunk
        excess = len(self.stderr_tail) - self.budget.max_stderr_bytes
        if excess > 0:
            del self.stderr_tail[:excess]

    def stderr_text(self, max_chars: int = 2000) -> str:
        lines = self.stderr_tail.decode("utf-8", errors="replace").strip().splitlines()
        text = " | ".join(line.strip() for line in lines if line.strip())
        if len(text) > max_chars:
            text = "…" + text[-max_chars:]
        return escape_display(text)

    def summary(self) -> str:
        """Transport facts worth appending to an error, in our own words."""
        parts: list[str] = []
        if self.returncode is not None:
            parts.append(f"the server exited with code {self.returncode}")
        if self.garbage_lines:
            first = escape_display((self.first_garbage or "")[:80])
            parts.append(
                f"it wrote {self.garbage_lines} stdout line(s) that are not JSON-RPC "
                f"(first: {first!r})"
            )
        if self.stderr_total > self.budget.max_stderr_bytes:
            parts.append(f"stderr was {self.stderr_total} bytes; the last part is shown")
        stderr = self.stderr_text()
        if stderr:
            parts.append(f"stderr: {stderr}")
        return "; ".join(parts)


def _parse(line: bytes) -> tuple[Any, str | None]:
    """The SDK's JSON-RPC message, or None and (for a line that claims to be one) why not."""
    try:
        return types.jsonrpc_message_adapter.validate_json(line, by_name=False), None
    except ValueError as exc:
        if not (line.startswith(b"{") and b'"jsonrpc"' in line[:4096]):
            return None, None
        errors = getattr(exc, "errors", None)
        first = errors()[0] if callable(errors) and errors() else {}
        return None, str(first.get("msg") or type(exc).__name__)[:200]


async def _pump_stdout(
    process: anyio.abc.Process,
    sink: MemoryObjectSendStream[SessionMessage | Exception],
    diag: StdioDiagnostics,
) -> None:
    assert process.stdout is not None
    budget = diag.budget
    buffer = bytearray()
    searched = 0  # buffer[:searched] holds no newline: never scanned twice (no quadratic cost)
    async with sink:
        try:
            while True:
                chunk = await process.stdout.receive(_CHUNK)
                diag.bytes_read += len(chunk)
                if diag.bytes_read > budget.max_total_bytes:
                    diag.fail(
                        f"the server wrote more than {budget.max_total_bytes} bytes to stdout "
                        "(the response budget)"
                    )
                    return
                buffer += chunk
                start = 0
                while (newline := buffer.find(b"\n", max(start, searched))) >= 0:
                    line = bytes(buffer[start:newline]).strip()
                    start = newline + 1
                    if line and not await _deliver(line, sink, diag):
                        return
                del buffer[:start]  # once per chunk, not once per line
                searched = len(buffer)
                if len(buffer) > budget.max_message_bytes:
                    diag.fail(
                        f"one stdout message is over {budget.max_message_bytes} bytes "
                        "(the per-message limit)"
                    )
                    return
        except anyio.EndOfStream:
            diag.stdout_ended = True
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            return


async def _deliver(
    line: bytes,
    sink: MemoryObjectSendStream[SessionMessage | Exception],
    diag: StdioDiagnostics,
) -> bool:
    message, broken = _parse(line)
    if broken is not None:
        # It claims to be JSON-RPC but cannot be read: a request would wait for it forever.
        diag.fail(f"the server sent a JSON-RPC message that cannot be read ({broken})")
        return False
    if message is None:
        diag.garbage_lines += 1
        if diag.first_garbage is None:
            diag.first_garbage = line[:200].decode("utf-8", errors="replace")
        if diag.garbage_lines > _MAX_GARBAGE_LINES:
            diag.fail(f"the server wrote more than {_MAX_GARBAGE_LINES} non-JSON-RPC lines")
            return False
        return True
    if isinstance(message, types.JSONRPCNotification):
        diag.notifications += 1
        if diag.notifications > _MAX_NOTIFICATIONS:
            diag.fail(f"the server sent more than {_MAX_NOTIFICATIONS} notifications")
            return False
    await sink.send(SessionMessage(message))
    return True


async def _pump_stdin(
    process: anyio.abc.Process,
    source: MemoryObjectReceiveStream[SessionMessage],
    reader_sink: MemoryObjectSendStream[SessionMessage | Exception],
) -> None:
    assert process.stdin is not None
    try:
        async with source:
            async for session_message in source:
                data = session_message.message.model_dump_json(by_alias=True, exclude_unset=True)
                await process.stdin.send(data.encode("utf-8") + b"\n")
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        # The server closed its stdin (usually: it died); end the session instead of hanging.
        await reader_sink.aclose()


async def _pump_stderr(process: anyio.abc.Process, diag: StdioDiagnostics) -> None:
    assert process.stderr is not None
    with suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
        while True:
            diag.note_stderr(await process.stderr.receive(_CHUNK))


def _signal_group(pgid: int, sig: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


async def _wait_exit(process: anyio.abc.Process, seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        while process.returncode is None:
            await anyio.sleep(0.01)
    return process.returncode is not None


async def stop_process_group(process: anyio.abc.Process) -> None:
    """Close stdin, give a short grace period, then SIGTERM and SIGKILL the whole group.

    The server runs in a new session, so its pid is its process group id; every descendant
    that did not start a session of its own dies with it (bubblewrap's pid namespace and
    --die-with-parent catch the rest under --sandbox).
    """
    with anyio.CancelScope(shield=True):
        if process.stdin is not None:
            with suppress(Exception):
                await process.stdin.aclose()
        exited = await _wait_exit(process, _GRACE_SECONDS)
        if not exited:
            _signal_group(process.pid, signal.SIGTERM)
            exited = await _wait_exit(process, _TERM_SECONDS)
        # Descendants may outlive the leader: the group is killed even when the leader left.
        _signal_group(process.pid, signal.SIGKILL)
        if not exited:
            await _wait_exit(process, _TERM_SECONDS)
        with anyio.move_on_after(_TERM_SECONDS), suppress(Exception):
            await process.aclose()  # closes the pipes and reaps the leader
        # asyncio keeps the subprocess transport open while a killed descendant's pipe end
        # lingers, and complains when it is collected after the loop ends; close it now.
        transport = getattr(getattr(process, "_process", None), "_transport", None)
        close = getattr(transport, "close", None)
        if callable(close):
            with suppress(Exception):
                close()


@asynccontextmanager
async def bounded_stdio(
    launch: Launch, diag: StdioDiagnostics
) -> AsyncIterator[
    tuple[
        MemoryObjectReceiveStream[SessionMessage | Exception],
        MemoryObjectSendStream[SessionMessage],
    ]
]:
    """Spawn the server and yield the (read, write) stream pair `ClientSession` expects."""
    process = await anyio.open_process(
        list(launch.argv),
        stdin=PIPE,
        stdout=PIPE,
        stderr=PIPE,
        env=launch.env,
        cwd=launch.cwd,
        start_new_session=True,
    )
    read_sink, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_source = anyio.create_memory_object_stream[SessionMessage](0)
    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_pump_stdout, process, read_sink, diag)
            tasks.start_soon(_pump_stdin, process, write_source, read_sink)
            tasks.start_soon(_pump_stderr, process, diag)
            try:
                yield read_stream, write_stream
            finally:
                # Read before we stop it: a code here means the server ended on its own.
                if diag.stdout_ended:
                    with anyio.CancelScope(shield=True):
                        await _wait_exit(process, _GRACE_SECONDS)
                diag.returncode = process.returncode
                await stop_process_group(process)
                tasks.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await stop_process_group(process)
            for stream in (read_sink, read_stream, write_stream, write_source):
                await stream.aclose()


def witness_sandbox(log: SandboxLog, server: str, scratch: Path) -> None:
    """After a sandboxed listing: what the syscall witness saw (scratch as `prepare_launch`
    lays it out: home/ and work/ writable, the trace in witness/). A write to the sandbox's
    throwaway /tmp is reported too: it is outside the home the server was given."""
    writable = (str(scratch / "home"), str(scratch / "work"))
    trace = trace_file(scratch / "witness")
    record_trace(log, server, str(trace), writable, _MAX_TRACE_BYTES)
