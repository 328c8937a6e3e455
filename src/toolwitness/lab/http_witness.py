"""HTTP protocol witness: the lab cannot see a remote server's disk, only its answers.

For each selected tool that takes a path: a negative-control nonce path must read as absent
(else the witness cannot tell present from absent: SKIPPED). Then a fresh nonce path is read
twice with identical arguments: absent then present is CONFIRMED (the read created its own
subject); absent twice is REFUTED for what this witness can see. Nonce paths are made under
`remote_dir`, a directory the server is allowed to read.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import anyio
import mcp_types as types
from mcp import Client

from toolwitness._version import __version__
from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.limits import MIB
from toolwitness.acquire.live_collect import PageLimits, Stage, collect_document
from toolwitness.acquire.live_errors import describe_failure
from toolwitness.acquire.live_http import HttpDiagnostics, check_url, http_headers, streamable_http
from toolwitness.lab.args import ArgumentBuilder, ArgumentSource, CannotSynthesize, takes_path
from toolwitness.lab.names import lab_names
from toolwitness.lab.probe import ServerProbe
from toolwitness.lab.selection import select_tools
from toolwitness.lab.verdict import ToolProbe
from toolwitness.lab.vocab import vocabulary
from toolwitness.model import ServerSpec, ServerSurface, Tool
from toolwitness.rules import RuleRegistry, load_registry

_EXCERPT = 200
_SCOPE = "the protocol witness sees only a read that creates its own subject"


@dataclass(frozen=True)
class HttpLabOptions:
    remote_dir: str = "/tmp"  # noqa: S108 - a path on the remote server, never opened here
    call_timeout: float = 15.0
    server_timeout: float = 300.0
    all_tools: bool = False
    allow_hosts: frozenset[str] = frozenset()
    # --header/--bearer values, only for the URLs given on the command line
    url_headers: dict[str, dict[str, str]] = field(default_factory=dict)
    seed: str | None = None


@dataclass(frozen=True)
class Read:
    arguments: dict[str, Any]
    absent: bool
    excerpt: str

    def to_json(self) -> dict[str, Any]:
        return {"arguments": self.arguments, "reads_as": "absent" if self.absent else "present",
                "answer": self.excerpt}  # fmt: skip


def reads_absent(result: types.CallToolResult) -> tuple[bool, str]:
    text = "\n".join(getattr(c, "text", "") or "" for c in result.content)
    lowered = text.lower()
    absent = bool(result.is_error) or any(p in lowered for p in vocabulary().absent_phrases)
    return absent, text[:_EXCERPT]


async def _read(client: Client, tool: str, arguments: dict[str, Any], timeout: float) -> Read:
    with anyio.fail_after(timeout + 1):
        result = await client.call_tool(tool, arguments, read_timeout_seconds=timeout)
    absent, excerpt = reads_absent(result)
    return Read(arguments, absent, excerpt)


async def _witness(
    client: Client, tool: Tool, src: ArgumentSource, opts: HttpLabOptions, rules: RuleRegistry
) -> ToolProbe:
    schema = dict(tool.input_schema)
    if not takes_path(schema):
        return ToolProbe("skipped", {"reason": "the HTTP protocol witness needs a path parameter"})
    try:
        control_args = ArgumentBuilder(src, fresh=True).object(schema, 0)
        subject_args = ArgumentBuilder(src, fresh=True).object(schema, 0)
    except CannotSynthesize as exc:
        return ToolProbe("skipped", {"reason": f"cannot synthesise arguments: {exc}"})
    control = await _read(client, tool.name, control_args, opts.call_timeout)
    evidence: dict[str, Any] = {"negative_control": control.to_json(), "scope": _SCOPE}
    if not control.absent:
        evidence["reason"] = (
            "the negative-control nonce path read as present: this witness cannot tell present "
            "from absent for this tool"
        )
        return ToolProbe("skipped", evidence)
    first = await _read(client, tool.name, subject_args, opts.call_timeout)
    second = await _read(client, tool.name, subject_args, opts.call_timeout)
    evidence.update({"calls": 3, "first_read": first.to_json(), "second_read": second.to_json()})
    if not first.absent:
        evidence["reason"] = "a never-seen nonce path read as present on its first read"
        return ToolProbe("skipped", evidence)
    if second.absent:
        return ToolProbe("refuted", evidence)
    finding = rules.finding(
        "TW-LAB-007", tool=tool.name, location=f"lab.{tool.name}",
        message=(
            f"tool {tool.name!r} read a fresh nonce path as absent, then the identical read "
            "found it present (a negative-control path read as absent first)"
        ),
        evidence=f"first: {first.excerpt[:80]} | second: {second.excerpt[:80]}",
    )  # fmt: skip
    return ToolProbe("confirmed", evidence, [finding])


async def probe_http_async(
    spec: ServerSpec, opts: HttpLabOptions, rules: RuleRegistry | None = None
) -> ServerProbe:
    rules = rules or load_registry([])
    url = spec.transport.url or ""
    check_url(url, opts.allow_hosts)
    began = time.perf_counter()
    result = ServerProbe(spec.name)
    diag = HttpDiagnostics(64 * MIB)
    stage = Stage()
    seed = opts.seed or secrets.token_hex(4)
    base = opts.remote_dir.rstrip("/") or "/"
    names = lab_names(seed)
    src = ArgumentSource(f"{base}/{names.note}", base, base, names, roots=(base,))
    headers = http_headers(spec.transport.headers, opts.url_headers.get(url, {}))
    current = ""
    try:
        with anyio.fail_after(opts.server_timeout):
            transport = streamable_http(url, headers, opts.call_timeout, diag)
            info = types.Implementation(name="toolwitness-lab", version=__version__)
            async with Client(
                transport, read_timeout_seconds=opts.call_timeout, client_info=info, cache=None
            ) as client:
                doc = await collect_document(
                    client.session, spec.name, stage, PageLimits(10, 5000, 5000)
                )
                doc["coverage"] = ["live", "lab"]
                surface: ServerSurface = surface_from_document(doc, server_id=spec.name, source=url)
                result.surface = surface
                chosen = select_tools(surface, opts.all_tools)
                for tool in sorted(surface.tools, key=lambda t: t.name):
                    reason = chosen.get(tool.name)
                    if reason is not None:
                        result.tools[tool.name] = ToolProbe("skipped", {"reason": reason})
                        continue
                    current = tool.name
                    result.tools[tool.name] = await _witness(client, tool, src, opts, rules)
                current = ""
    except Exception as exc:
        why = describe_failure(
            exc,
            f"tools/call {current}" if current else stage.now,
            diag.failure,
            diag.summary(),
            opts.call_timeout,
        )
        if result.surface is None:
            result.error = why
        for tool in result.surface.tools if result.surface else ():
            if tool.name not in result.tools or tool.name == current:
                finding = rules.finding(
                    "TW-LAB-006", tool=tool.name, location=f"lab.{tool.name}",
                    message=f"the lab could not verify tool {tool.name!r}: {why}",
                )  # fmt: skip
                result.tools[tool.name] = ToolProbe("errored", {"reason": why}, [finding])
    result.seconds = time.perf_counter() - began
    return result


def probe_http(
    spec: ServerSpec, opts: HttpLabOptions, rules: RuleRegistry | None = None
) -> ServerProbe:
    return anyio.run(probe_http_async, spec, opts, rules)
