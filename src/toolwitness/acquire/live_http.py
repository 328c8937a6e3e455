"""Connect to an MCP server over Streamable HTTP (or legacy SSE) with the SDK transports.

Before anything is sent: the URL must be http or https with a host, and the host must be on
`--allow-host` when that list is given. The SDK transports already refuse redirects that leave
the endpoint's origin; the HTTP client here never follows redirects on its own, and counts every
response byte against a budget so a server cannot stream without end.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx2
from mcp.client._transport import TransportStreams
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from toolwitness.acquire.launch import LaunchRefused

_SCHEMES = ("http", "https")


@dataclass
class HttpDiagnostics:
    max_bytes: int
    bytes_read: int = 0
    failure: str | None = None

    def fail(self, reason: str) -> None:
        if self.failure is None:
            self.failure = reason

    def summary(self) -> str:
        """Nothing to add beyond the HTTP error itself (no stderr over a network)."""
        return ""


class ResponseBudgetExceeded(Exception):
    """Raised inside the HTTP stack when the server sends more than the budget allows."""


def check_url(url: str, allow_hosts: frozenset[str]) -> str:
    """The host of a URL we are willing to connect to, or `LaunchRefused` saying why not."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        raise LaunchRefused("the URL cannot be parsed") from None
    if parts.scheme.lower() not in _SCHEMES:
        raise LaunchRefused(f"scheme {parts.scheme!r} is not http or https")
    if not host:
        raise LaunchRefused("the URL has no host")
    if any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise LaunchRefused("the URL holds spaces or control characters")
    if allow_hosts and host.lower() not in allow_hosts:
        raise LaunchRefused(
            f"host {host!r} is not on the --allow-host list; add --allow-host {host} to connect"
        )
    return host


class _CountingStream(httpx2.AsyncByteStream):
    def __init__(self, inner: Any, diag: HttpDiagnostics) -> None:
        self._inner = inner
        self._diag = diag

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            self._diag.bytes_read += len(chunk)
            if self._diag.bytes_read > self._diag.max_bytes:
                self._diag.fail(
                    f"the server sent more than {self._diag.max_bytes} bytes (the response budget)"
                )
                raise ResponseBudgetExceeded(self._diag.failure)
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


class _BudgetTransport(httpx2.AsyncBaseTransport):
    """Counts response bytes across the whole connection; refuses once over budget."""

    def __init__(self, diag: HttpDiagnostics) -> None:
        self._inner = httpx2.AsyncHTTPTransport(trust_env=False)
        self._diag = diag

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if self._diag.bytes_read > self._diag.max_bytes:
            raise ResponseBudgetExceeded(self._diag.failure or "response budget exhausted")
        response = await self._inner.handle_async_request(request)
        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            stream=_CountingStream(response.stream, self._diag),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


def http_headers(spec_headers: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """Config headers, then command-line headers (which win)."""
    merged = dict(spec_headers)
    merged.update(extra)
    return merged


def _client(headers: Mapping[str, str], timeout: float, diag: HttpDiagnostics) -> Any:
    return httpx2.AsyncClient(
        headers=dict(headers),
        timeout=httpx2.Timeout(timeout),
        transport=_BudgetTransport(diag),
        follow_redirects=False,
        trust_env=False,
    )


@asynccontextmanager
async def streamable_http(
    url: str, headers: Mapping[str, str], timeout: float, diag: HttpDiagnostics
) -> AsyncIterator[TransportStreams]:
    async with (
        _client(headers, timeout, diag) as client,
        streamable_http_client(url, http_client=client) as streams,
    ):
        yield streams


@asynccontextmanager
async def legacy_sse(
    url: str, headers: Mapping[str, str], timeout: float, diag: HttpDiagnostics
) -> AsyncIterator[TransportStreams]:
    def factory(
        headers: dict[str, str] | None = None,
        timeout: httpx2.Timeout | None = None,
        auth: httpx2.Auth | None = None,
    ) -> httpx2.AsyncClient:
        # Our client (byte budget, no redirects) with the one timeout for every operation.
        client: httpx2.AsyncClient = _client(headers or {}, request_timeout, diag)
        return client

    request_timeout = timeout
    async with sse_client(
        url,
        headers=dict(headers),
        timeout=timeout,
        sse_read_timeout=timeout,
        httpx_client_factory=factory,
    ) as streams:
        yield streams
