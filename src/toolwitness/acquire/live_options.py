"""Options and outcomes of live acquisition, without the MCP SDK.

Kept apart from `acquire.live` so that building options (the CLI, the pipeline) does not import
the SDK: a catalog scan never connects to anything and should not pay for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from toolwitness.acquire.limits import MIB, InputLimits
from toolwitness.acquire.sandbox_witness import SandboxLog
from toolwitness.model import ServerSpec, ServerSurface


@dataclass(frozen=True)
class LiveOptions:
    """Bounds and policy for live connections (defaults allow a cold `npx`/`uvx` download)."""

    request_timeout: float = 60.0  # one request (initialize, one page)
    # everything for one server, start-up included; bounds it even below request_timeout
    server_timeout: float = 180.0
    max_pages: int = 100
    max_bytes: int = 64 * MIB  # everything one server may send
    max_message_bytes: int = 16 * MIB
    max_stderr_bytes: int = 64 * 1024
    allow_commands: frozenset[str] = frozenset()
    allow_hosts: frozenset[str] = frozenset()  # empty: any host
    # Extra headers by exact server URL (the command line's --header/--bearer): a token is
    # sent only to the endpoint it was given for, and never lands in the surface.
    url_headers: dict[str, dict[str, str]] = field(default_factory=dict)
    sandbox: bool = False
    # What the sandbox's syscall witness saw per server (filled while servers are listed).
    witness: SandboxLog = field(default_factory=SandboxLog)
    concurrency: int = 8
    mode: str = "auto"  # SDK negotiation: server/discover, falling back to initialize
    limits: InputLimits = field(default_factory=InputLimits)


@dataclass(frozen=True)
class LiveOutcome:
    spec: ServerSpec
    surface: ServerSurface | None
    error: str | None
    seconds: float


class LiveObserver(Protocol):
    def started(self, spec: ServerSpec) -> None: ...

    def finished(self, outcome: LiveOutcome) -> None: ...
