"""Live acquisition: connect to a server with the official MCP SDK client and list its surface.

`acquire_live(spec, options)` returns the `ServerSurface` of one server (stdio, Streamable HTTP
with SSE fallback, or SSE); `acquire_many` runs several concurrently with bounded parallelism and
turns each failure into a per-server `LiveOutcome` error, so one crashing, hanging or flooding
server never stops the scan of the others. The library never prints: progress goes to an
injected `LiveObserver`.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import anyio
import anyio.to_thread
import mcp_types as types
from mcp import Client
from mcp.client._transport import TransportStreams

from toolwitness._version import __version__
from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.hostile_json import check_value
from toolwitness.acquire.launch import LaunchRefused, prepare_launch
from toolwitness.acquire.live_collect import PageLimits, ServerFailed, Stage, collect_document
from toolwitness.acquire.live_errors import describe_failure, leaves, worth_another_transport
from toolwitness.acquire.live_http import (
    HttpDiagnostics,
    check_url,
    http_headers,
    legacy_sse,
    streamable_http,
)
from toolwitness.acquire.live_options import LiveObserver, LiveOptions, LiveOutcome
from toolwitness.acquire.live_stdio import (
    StdioDiagnostics,
    StreamBudget,
    bounded_stdio,
    witness_sandbox,
)
from toolwitness.errors import InputError
from toolwitness.model import ServerSpec, ServerSurface

__all__ = [
    "LiveObserver",
    "LiveOptions",
    "LiveOutcome",
    "ServerFailed",
    "acquire_live",
    "acquire_many",
]

_HTTP_KINDS = ("http", "streamable-http", "streamablehttp", "streamable_http")


class _Diagnostics(Protocol):
    failure: str | None

    def summary(self) -> str: ...


def _client(transport: AbstractAsyncContextManager[TransportStreams], opts: LiveOptions) -> Client:
    return Client(
        transport,
        mode=opts.mode,
        cache=None,
        read_timeout_seconds=opts.request_timeout,
        client_info=types.Implementation(name="toolwitness", version=__version__),
    )


async def _session_document(
    transport: AbstractAsyncContextManager[TransportStreams],
    spec: ServerSpec,
    opts: LiveOptions,
    stage: Stage,
) -> dict[str, Any]:
    limits = PageLimits(opts.max_pages, opts.limits.max_tools, opts.limits.max_items)
    stage.now = "initialize"
    async with _client(transport, opts) as client:
        return await collect_document(client.session, spec.name, stage, limits)


@asynccontextmanager
async def _stdio_transport(
    spec: ServerSpec, opts: LiveOptions, diag: StdioDiagnostics
) -> AsyncIterator[TransportStreams]:
    with tempfile.TemporaryDirectory(prefix="toolwitness-live-", ignore_cleanup_errors=True) as d:
        launch = prepare_launch(
            spec, scratch=Path(d), allow_commands=opts.allow_commands, sandbox=opts.sandbox
        )
        try:
            async with bounded_stdio(launch, diag) as streams:
                yield streams
        finally:
            if opts.sandbox:  # the server has exited: its whole trace is on disk
                witness_sandbox(opts.witness, spec.name, Path(d))


@dataclass(frozen=True)
class _Attempt:
    doc: dict[str, Any] | None
    error: str | None
    notes: list[str]
    retryable: bool = False  # another transport to the same URL might still work


async def _attempt(
    make: Callable[[], AbstractAsyncContextManager[TransportStreams]],
    spec: ServerSpec,
    opts: LiveOptions,
    diag: _Diagnostics,
) -> _Attempt:
    stage = Stage()
    try:
        doc = await _session_document(make(), spec, opts, stage)
    except Exception as exc:
        refused = [e for e in leaves(exc) if isinstance(e, InputError)]
        if refused:  # policy (allowlist, sandbox, bad cwd), not a server failure: say so as is
            raise refused[0] from None
        why = describe_failure(exc, stage.now, diag.failure, diag.summary(), opts.request_timeout)
        return _Attempt(None, why, [], diag.failure is None and worth_another_transport(exc))
    if diag.failure is not None:  # e.g. the budget ran out while the session was closing
        return _Attempt(None, diag.failure, [])
    return _Attempt(doc, None, stage.notes)


async def _http_document(spec: ServerSpec, opts: LiveOptions, kind: str) -> _Attempt:
    """Streamable HTTP, then legacy SSE when the server answered but not as Streamable HTTP."""
    url = spec.transport.url or ""
    check_url(url, opts.allow_hosts)
    headers = http_headers(spec.transport.headers, opts.url_headers.get(url, {}))
    t = opts.request_timeout
    first = HttpDiagnostics(opts.max_bytes)
    make = legacy_sse if kind == "sse" else streamable_http
    result = await _attempt(lambda: make(url, headers, t, first), spec, opts, first)
    if result.error is None or kind == "sse" or not result.retryable:
        return result  # a timeout or a refused connection would only repeat over SSE
    fallback = HttpDiagnostics(opts.max_bytes)
    sse = await _attempt(lambda: legacy_sse(url, headers, t, fallback), spec, opts, fallback)
    if sse.error is not None:
        return _Attempt(None, f"{result.error} (the SSE fallback failed too: {sse.error})", [])
    notes = [*sse.notes, "Streamable HTTP failed; the surface was read over legacy SSE"]
    return _Attempt(sse.doc, None, notes)


async def _acquire_document(
    spec: ServerSpec, opts: LiveOptions
) -> tuple[dict[str, Any], list[str]]:
    transport = spec.transport
    kind = transport.kind.lower()
    if kind == "stdio":
        budget = StreamBudget(opts.max_message_bytes, opts.max_bytes, opts.max_stderr_bytes)
        diag = StdioDiagnostics(budget)
        result = await _attempt(lambda: _stdio_transport(spec, opts, diag), spec, opts, diag)
    elif kind in (*_HTTP_KINDS, "sse"):
        result = await _http_document(spec, opts, kind)
    else:
        raise LaunchRefused(f"cannot connect to a server of transport kind {transport.kind!r}")
    if result.error is not None or result.doc is None:
        raise ServerFailed(result.error or "no surface was read")
    doc = result.doc
    doc["transport"] = transport.model_dump(mode="json")
    if spec.package is not None:
        doc["package"] = spec.package.model_dump(mode="json", exclude_none=True)
    return doc, result.notes


async def acquire_live_async(spec: ServerSpec, options: LiveOptions) -> ServerSurface:
    try:
        with anyio.fail_after(options.server_timeout):
            doc, notes = await _acquire_document(spec, options)
    except TimeoutError:
        raise ServerFailed(
            f"gave up after {options.server_timeout:g}s for the whole server (--server-timeout)"
        ) from None
    source = spec.origin or f"live:{spec.name}"
    try:
        # The same bounds and shape rules as a catalog file (depth, string size, duplicates).
        check_value(doc, source, options.limits)
        surface = surface_from_document(
            doc, server_id=spec.name, source=source, limits=options.limits
        )
    except InputError as exc:  # the server sent it, so it is this server's failure
        where = f" at {exc.path}" if exc.path not in (None, "", "$") else ""
        raise ServerFailed(f"the server's metadata is rejected{where}: {exc.reason}") from None
    if notes:
        surface = surface.model_copy(update={"notes": (*surface.notes, *notes)})
    return surface


def acquire_live(spec: ServerSpec, options: LiveOptions | None = None) -> ServerSurface:
    """Connect to one server and return its live surface; raises `ServerFailed` or InputError."""
    return anyio.run(acquire_live_async, spec, options or LiveOptions())


async def _one(
    spec: ServerSpec,
    options: LiveOptions,
    limiter: anyio.CapacityLimiter,
    observer: LiveObserver | None,
) -> LiveOutcome:
    async with limiter:
        if observer is not None:
            observer.started(spec)
        start = time.perf_counter()
        surface: ServerSurface | None = None
        error: str | None = None
        try:
            surface = await acquire_live_async(spec, options)
        except Exception as exc:  # one server's failure must never end the others' scan
            error = describe_failure(exc, None, None, "", options.request_timeout)
        outcome = LiveOutcome(spec, surface, error, time.perf_counter() - start)
        if observer is not None:
            observer.finished(outcome)
        return outcome


SurfaceHook = Callable[[ServerSurface], object]


async def acquire_many_async(
    specs: Sequence[ServerSpec],
    options: LiveOptions,
    observer: LiveObserver | None = None,
    on_surface: SurfaceHook | None = None,
) -> list[LiveOutcome]:
    limiter = anyio.CapacityLimiter(max(1, options.concurrency))
    # One worker thread for the hook: checks run one at a time, beside the event loop.
    hook_limiter = anyio.CapacityLimiter(1)
    outcomes: list[LiveOutcome | None] = [None] * len(specs)

    async def run(index: int, spec: ServerSpec) -> None:
        outcome = await _one(spec, options, limiter, observer)
        outcomes[index] = outcome
        if on_surface is not None and outcome.surface is not None:
            surface = outcome.surface
            with contextlib.suppress(Exception):  # the caller redoes the work if the hook fails
                await anyio.to_thread.run_sync(on_surface, surface, limiter=hook_limiter)

    async with anyio.create_task_group() as tasks:
        for index, spec in enumerate(specs):
            tasks.start_soon(run, index, spec)
    return [o for o in outcomes if o is not None]


def acquire_many(
    specs: Sequence[ServerSpec],
    options: LiveOptions,
    observer: LiveObserver | None = None,
    on_surface: SurfaceHook | None = None,
) -> list[LiveOutcome]:
    """Acquire every spec concurrently (bounded); outcomes in the order of `specs`.

    `on_surface` is called (in a worker thread, one call at a time) with each surface as soon
    as it is listed, so CPU work on it overlaps with the servers still starting.
    """
    return anyio.run(acquire_many_async, specs, options, observer, on_surface)
