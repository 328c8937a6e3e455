"""META checks: what the scan itself can and cannot vouch for."""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolwitness.acquire.package_meta import NOTE_PREFIX as PACKAGE_NOTE
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.findings import Finding, Severity
from toolwitness.model import Coverage, ServerSurface
from toolwitness.textnorm import excerpt

_VALID_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,128}")


@server_check("meta.surface", ["TW-META-001", "TW-META-002", "TW-META-008"])
def surface_completeness(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    config_only = surface.coverage == (Coverage.CONFIG,)  # nothing was listed, by design
    if surface.is_empty() and not config_only:
        yield ctx.rules.finding(
            "TW-META-001",
            tool=None,
            location="tools",
            message="the server exposes no tools, prompts or resources; nothing was verified",
        )
    for note in surface.notes:
        if "nextCursor" in note:
            yield ctx.rules.finding("TW-META-002", tool=None, location="tools", message=note)
        elif note.startswith(PACKAGE_NOTE):
            yield ctx.rules.finding("TW-META-008", tool=None, location="packageMeta", message=note)


@server_check("meta.tool-shape", ["TW-META-003", "TW-META-004", "TW-META-006", "TW-META-007"])
def tool_shape(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    for i, tool in enumerate(surface.tools):
        base = f"tools[{i}]"
        if not (tool.description or "").strip():
            yield ctx.rules.finding(
                "TW-META-003",
                tool=tool.name,
                location=f"{base}.description",
                message="the tool has no description",
            )
        fault = tool.input_schema_fault
        if fault is not None:
            yield ctx.rules.finding(
                "TW-META-007",
                tool=tool.name,
                location=f"{base}.inputSchema" if fault.kind == "not-object" else base,
                message=(
                    "the tool has no inputSchema; analysed as taking no parameters"
                    if fault.kind == "absent"
                    else f"inputSchema is {_kind(fault.value)}, not an object; analysed as taking"
                    " no parameters"
                ),
            )
        elif (declared := tool.input_schema.get("type")) != "object":
            # "type" left out is an old server's habit; a type stated as something else
            # ("array", "string") makes the arguments no object any client can send as declared
            yield ctx.rules.finding(
                "TW-META-004",
                tool=tool.name,
                location=f"{base}.inputSchema.type",
                message=f"inputSchema type is {declared!r}, not 'object'",
                severity=Severity.MEDIUM if declared is not None else None,
            )
        if not _VALID_NAME.fullmatch(tool.name):
            yield ctx.rules.finding(
                "TW-META-006",
                tool=tool.name,
                location=f"{base}.name",
                message="the name is outside [A-Za-z0-9_.-]{1,128}",
                evidence=excerpt(tool.name),
            )


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {list: "an array", str: "a string", bool: "a boolean"}.get(type(value), "a number")
