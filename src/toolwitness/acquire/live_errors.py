"""Turn whatever a failed live session raised into one clear, escaped, per-server message.

The SDK runs transports in task groups, so a failure often arrives as a (nested) exception
group holding the real cause next to cancellation noise. The leaves are ranked: our own reasons
(a budget, a refusal) first, then timeouts, then protocol errors, then anything else. Text the
server controls (an error message, stderr) is escaped and cut short.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import CONNECTION_CLOSED, REQUEST_TIMEOUT
from pydantic import ValidationError

from toolwitness.errors import ToolwitnessError
from toolwitness.textnorm import excerpt


def leaves(exc: BaseException) -> Iterator[BaseException]:
    """Every non-group exception inside `exc` (depth-first), groups flattened."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from leaves(inner)
    else:
        yield exc


def _rank(exc: BaseException) -> int:
    if isinstance(exc, ToolwitnessError):
        return 0
    if isinstance(exc, TimeoutError | httpx2.TimeoutException):
        return 1
    if isinstance(exc, MCPError) and exc.code == REQUEST_TIMEOUT:
        return 1
    if isinstance(exc, MCPError) and exc.code != CONNECTION_CLOSED:
        return 2
    if isinstance(exc, ValidationError | httpx2.HTTPError | OSError):
        return 3
    if isinstance(exc, MCPError):
        return 5  # "connection closed" is the symptom; the cause is usually elsewhere
    return 4


def _first_validation_error(exc: ValidationError) -> str:
    first: dict[str, Any] = dict(exc.errors()[0]) if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()))
    return f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", ""))


def _reason(exc: BaseException, waiting: str, request_timeout: float) -> str:
    if isinstance(exc, ToolwitnessError):
        return exc.message
    if isinstance(exc, TimeoutError | httpx2.TimeoutException) or (
        isinstance(exc, MCPError) and exc.code == REQUEST_TIMEOUT
    ):
        return f"no answer within {request_timeout:g}s{waiting} (--timeout)"
    if isinstance(exc, MCPError):
        if exc.code == CONNECTION_CLOSED:
            return f"the server closed the connection{waiting}"
        return f"the server answered with error {exc.code}{waiting}: {excerpt(exc.message, 200)}"
    if isinstance(exc, ValidationError):
        return (
            f"the server's answer{waiting} is not valid MCP: "
            f"{excerpt(_first_validation_error(exc), 200)}"
        )
    if isinstance(exc, httpx2.HTTPStatusError):
        return f"HTTP {exc.response.status_code}{waiting}"
    if isinstance(exc, httpx2.HTTPError):
        return f"HTTP failure{waiting}: {excerpt(str(exc) or type(exc).__name__, 200)}"
    if isinstance(exc, OSError):
        what = exc.strerror or str(exc) or type(exc).__name__
        target = f" ({exc.filename})" if exc.filename else ""
        return f"cannot start or reach the server{target}: {excerpt(what, 200)}"
    text = str(exc)
    detail = f": {excerpt(text, 200)}" if text else ""
    return f"{type(exc).__name__}{waiting}{detail}"


def describe_failure(
    exc: BaseException,
    stage: str | None,
    transport_failure: str | None,
    transport_summary: str,
    request_timeout: float,
) -> str:
    """One message: the reason, what we were waiting for, and what the transport saw."""
    waiting = f" while waiting for {stage}" if stage else ""
    if transport_failure is not None:
        reason = f"{transport_failure}{waiting}"
    else:
        found = [e for e in leaves(exc) if not _is_cancellation(e)] or [exc]
        best = min(found, key=_rank)
        reason = _reason(best, waiting, request_timeout)
    return f"{reason}; {transport_summary}" if transport_summary else reason


def worth_another_transport(exc: BaseException) -> bool:
    """False when the failure would repeat on any transport: a timeout, a refused connection."""
    for leaf in leaves(exc):
        if isinstance(leaf, TimeoutError | httpx2.TimeoutException | httpx2.ConnectError):
            return False
        if isinstance(leaf, MCPError) and leaf.code == REQUEST_TIMEOUT:
            return False
    return True


def _is_cancellation(exc: BaseException) -> bool:
    return type(exc).__name__ in ("CancelledError", "Cancelled", "GeneratorExit")
