"""Read everything a connected server exposes into a snapshot-shaped document.

Metadata is dumped from the SDK's models with wire names (`by_alias=True, mode="json"`) and only
the fields the server actually sent (`exclude_unset`), so the document is what a static catalog
of the same server would hold; `acquire.catalog.surface_from_document` then loads it with the
same hostile-input checks as any file.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import find_invalid_x_mcp_header
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel

from toolwitness.acquire.catalog import SNAPSHOT_SCHEMA
from toolwitness.errors import IncompleteScanError
from toolwitness.textnorm import excerpt


class ServerFailed(IncompleteScanError):
    """One server could not be acquired; the scan of the others goes on."""


@dataclass
class Stage:
    """What the session is waiting for; an error names it ("tools/list page 3")."""

    now: str = "starting the server"
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PageLimits:
    max_pages: int
    max_tools: int
    max_items: int


def wire(model: BaseModel | None) -> dict[str, Any] | None:
    if model is None:
        return None
    return model.model_dump(by_alias=True, mode="json", exclude_unset=True)


async def _paged(
    what: str,
    key: str,
    fetch: Callable[[str | None], Awaitable[Any]],
    stage: Stage,
    max_pages: int,
    max_items: int,
) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    seen: set[str] = set()
    for page in range(1, max_pages + 1):
        stage.now = what if page == 1 else f"{what} page {page}"
        result = await fetch(cursor)
        items.extend(wire(item) or {} for item in getattr(result, key))
        if len(items) > max_items:
            raise ServerFailed(f"{what}: more than {max_items} entries (--max-tools)")
        cursor = result.next_cursor
        if cursor is None:
            return items
        if cursor in seen:
            raise ServerFailed(f"{what}: the server sent the same cursor twice (a page loop)")
        seen.add(cursor)
    raise ServerFailed(f"{what}: more than {max_pages} pages (--max-pages)")


def _dropped_by_modern_clients(tools: list[dict[str, Any]]) -> list[str]:
    """Tools a 2026-07-28 client must hide (invalid x-mcp-header): kept here, but said."""
    notes = []
    for index, tool in enumerate(tools):
        reason = find_invalid_x_mcp_header(tool.get("inputSchema"))
        if reason is not None:
            notes.append(
                f"tools[{index}] has an invalid x-mcp-header annotation, so 2026-07-28 clients "
                f"hide it ({excerpt(reason, 120)}); it is scanned anyway"
            )
    return notes


def _params(cursor: str | None) -> types.PaginatedRequestParams:
    return types.PaginatedRequestParams(cursor=cursor)


async def collect_document(
    session: ClientSession, server_id: str, stage: Stage, limits: PageLimits
) -> dict[str, Any]:
    """tools (all pages), prompts, resources, templates, instructions, capabilities, info."""
    caps = session.server_capabilities or types.ServerCapabilities()
    doc: dict[str, Any] = {"schema": SNAPSHOT_SCHEMA, "id": server_id, "coverage": ["live"]}
    for key, value in (
        ("serverInfo", wire(session.server_info)),
        ("protocolVersion", session.protocol_version),
        ("capabilities", wire(caps)),
        ("instructions", session.instructions),
    ):
        if value is not None:
            doc[key] = value

    async def tools(c: str | None) -> Any:
        # Not `session.list_tools`: on 2026-07-28 it drops tools with an invalid x-mcp-header,
        # and a scanner must see every tool the server offers (the drop is noted below).
        request = types.ListToolsRequest(params=_params(c))
        return await session.send_request(request, types.ListToolsResult)

    async def prompts(c: str | None) -> Any:
        return await session.list_prompts(params=_params(c))

    async def resources(c: str | None) -> Any:
        return await session.list_resources(params=_params(c))

    async def templates(c: str | None) -> Any:
        return await session.list_resource_templates(params=_params(c))

    try:
        doc["tools"] = await _paged(
            "tools/list", "tools", tools, stage, limits.max_pages, limits.max_tools
        )
    except MCPError:
        if caps.tools is not None:
            raise
        # A server without the tools capability may refuse the call; a client would not ask.
        doc["tools"] = []
        stage.notes.append("the server declares no tools capability and refused tools/list")
    if session.protocol_version in MODERN_PROTOCOL_VERSIONS:
        stage.notes.extend(_dropped_by_modern_clients(doc["tools"]))
    listings: list[tuple[object | None, str, str, Callable[[str | None], Awaitable[Any]]]] = [
        (caps.prompts, "prompts/list", "prompts", prompts),
        (caps.resources, "resources/list", "resources", resources),
        (caps.resources, "resources/templates/list", "resource_templates", templates),
    ]
    for declared, method, key, fetch in listings:
        if declared is None:
            continue  # what a client never lists is not part of what the model sees
        doc_key = "resourceTemplates" if key == "resource_templates" else key
        try:
            doc[doc_key] = await _paged(
                method, key, fetch, stage, limits.max_pages, limits.max_items
            )
        except MCPError as exc:
            if exc.code != types.METHOD_NOT_FOUND:
                raise
            stage.notes.append(f"the server declares the capability but has no {method}")
    stage.now = "closing the session"
    return doc
