"""Where in its file a finding's JSON path lies: from a location on the surface
(`tools[3].inputSchema.properties.x`, `transport.args[1]`) to a path in the catalog or client
config that was read (`result.tools[3].input_schema.properties.x`, `mcpServers.github.args[1]`).

A catalog holds its tools in one of several shapes (see `acquire/catalog.py`) and may spell keys
in snake_case; a config entry spells its transport in the client's own keys. Each mapping walks
the parsed document and stops at the deepest part that exists, so a finding about something the
file does not spell out (a missing description) points at the object it is missing from.
"""

from __future__ import annotations

import re
from typing import Any

from toolwitness.acquire.catalog import SNAKE_SPELLINGS as SNAKE
from toolwitness.acquire.json_positions import PathKey

_SEGMENT = re.compile(r'(\.)?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]')
_URL_KEYS = ("url", "serverUrl", "httpUrl", "uri")


def parse_location(location: str) -> PathKey | None:
    """`tools[3].a["b c"]` → ("tools", 3, "a", "b c"); `$` and "" → (); None if not a path."""
    if location in ("", "$"):
        return ()
    parts: list[str | int] = []
    pos = 0
    while pos < len(location):
        match = _SEGMENT.match(location, pos)
        if match is None:
            return None
        dot, name, index, quoted = match.groups()
        if name is not None and (dot is None) != (pos == 0):  # `a.b`, never `.a` or `a[0]b`
            return None
        if name is not None:
            parts.append(name)
        elif index is not None:
            parts.append(int(index))
        else:
            parts.append(re.sub(r"\\(.)", r"\1", quoted))
        pos = match.end()
    return tuple(parts)


def _child(node: Any, part: str | int) -> tuple[bool, Any, str | int]:
    if isinstance(part, int):
        if isinstance(node, list) and 0 <= part < len(node):
            return True, node[part], part
        return False, None, part
    if isinstance(node, dict):
        if part in node:
            return True, node[part], part
        snake = SNAKE.get(part)
        if snake is not None and snake in node:
            return True, node[snake], snake
    return False, None, part


def node_at(doc: Any, path: PathKey) -> tuple[bool, Any]:
    node = doc
    for part in path:
        found, node, _ = _child(node, part)
        if not found:
            return False, None
    return True, node


def walk(doc: Any, prefix: PathKey, rest: PathKey) -> tuple[PathKey, bool]:
    """Follow `rest` below `prefix` as far as the document goes; (path reached, all of it)."""
    found, node = node_at(doc, prefix)
    if not found:
        return (), False
    reached = list(prefix)
    for part in rest:
        found, node, spelled = _child(node, part)
        if not found:
            return tuple(reached), False
        reached.append(spelled)
    return tuple(reached), True


def _is_page(doc: dict[str, Any]) -> bool:
    return any(k in doc for k in ("jsonrpc", "result", "error")) or (
        "tools" in doc and set(doc) <= {"tools", "nextCursor", "next_cursor", "_meta"}
    )


def catalog_tool_paths(doc: Any) -> list[PathKey]:
    """The path of every tool, in the order the catalog reader numbers them."""

    def page_tools(page: Any, where: PathKey) -> list[PathKey]:
        base = (*where, "result") if isinstance(page, dict) and "result" in page else where
        found, tools = node_at(doc, (*base, "tools"))
        return [(*base, "tools", i) for i in range(len(tools))] if found and isinstance(
            tools, list
        ) else []  # fmt: skip

    if isinstance(doc, list):
        if doc and all(isinstance(d, dict) and _is_page(d) for d in doc):
            return [p for i, page in enumerate(doc) for p in page_tools(page, (i,))]
        return [(i,) for i in range(len(doc))]
    if isinstance(doc, dict):
        if "jsonrpc" in doc or "result" in doc or "error" in doc:
            return page_tools(doc, ())
        if "tools" in doc:
            tools = doc["tools"]
            return [("tools", i) for i in range(len(tools))] if isinstance(tools, list) else []
        if "name" in doc:
            return [()]
    return []


def catalog_path(doc: Any, tool_paths: list[PathKey], location: PathKey) -> PathKey:
    """A surface location in a catalog document (tools renumbered to where they are)."""
    if location[:1] == ("tools",) and len(location) >= 2 and isinstance(location[1], int):
        index = location[1]
        if index >= len(tool_paths):
            return ()
        return walk(doc, tool_paths[index], location[2:])[0]
    if location == ("tools",) and tool_paths:
        return tool_paths[0][:-1] if tool_paths[0] else ()
    return walk(doc, (), location)[0]


def config_path(doc: Any, entry: PathKey, location: PathKey, package_spec: str | None) -> PathKey:
    """A surface location of a config-only server in its client config (the entry at `entry`)."""
    head, rest = location[:1], location[1:]
    candidates: list[PathKey] = []
    if head == ("transport",) and rest:
        spelled = [(key, *rest[1:]) for key in _URL_KEYS] if rest[0] == "url" else [rest]
        if rest[0] == "env":
            spelled.append(("environment", *rest[1:]))  # opencode's spelling
        for path in spelled:
            candidates += [path, ("transport", *path)]  # Continue nests the transport
    elif head == ("package",) and package_spec is not None:
        found, entry_node = node_at(doc, entry)
        args = entry_node.get("args") if found and isinstance(entry_node, dict) else None
        if isinstance(args, list):
            hits = [i for i, a in enumerate(args) if isinstance(a, str) and package_spec in a]
            candidates += [("args", i) for i in hits[:1]]
        candidates.append(("command",))
    for candidate in candidates:
        reached, whole = walk(doc, entry, candidate)
        if whole:
            return reached
    if candidates:
        return walk(doc, entry, candidates[0])[0] or entry
    return entry if node_at(doc, entry)[0] else ()
