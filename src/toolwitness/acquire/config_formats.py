"""Where each client keeps its server entries inside the parsed file, and which format a file is.

| format          | shape                                                              |
|-----------------|--------------------------------------------------------------------|
| mcp-servers     | `{"mcpServers": {…}}`: Claude Desktop, `.mcp.json`, Cursor, Windsurf, Kiro |
| claude-code     | `~/.claude.json`: `mcpServers` plus `projects.<dir>.mcpServers`    |
| vscode-mcp      | `{"servers": {name: entry}, "inputs": [...]}`                      |
| vscode-settings | `{"mcp": {"servers": {...}, "inputs": [...]}}`                     |
| gemini          | `mcpServers`, where a bare `url` is SSE and `httpUrl` is Streamable HTTP |
| zed             | `{"context_servers": {name: entry}}`                               |
| codex           | TOML `[mcp_servers.<name>]`                                        |
| continue        | YAML `mcpServers: [{name: …}]`; JSON `experimental.modelContextProtocolServers`|
| opencode        | `{"mcp": {name: entry}}` or (v2) `{"mcp": {"servers": {…}}}`       |
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolwitness import paths
from toolwitness.acquire.config_entry import EntryContext, spec_from_entry
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.model import ServerSpec

FORMATS = (
    "mcp-servers",
    "claude-code",
    "vscode-mcp",
    "vscode-settings",
    "gemini",
    "zed",
    "codex",
    "continue",
    "opencode",
)
_ENTRY_KEYS = {"command", "url", "serverUrl", "httpUrl", "type", "transport"}


@dataclass(frozen=True)
class RawEntry:
    name: Any
    entry: Any
    where: str


class _Walk:
    def __init__(self, source: str) -> None:
        self.source = source

    def mapping(self, value: Any, where: str) -> Iterator[RawEntry]:
        if value is None:
            return
        if not isinstance(value, dict):
            raise InputError("server list must be an object", source=self.source, path=where)
        for name, entry in value.items():
            yield RawEntry(name, entry, paths.child(where, str(name)))

    def named_list(self, value: Any, where: str) -> Iterator[RawEntry]:
        if value is None:
            return
        if isinstance(value, dict):  # a Continue block may also use the mapping form
            yield from self.mapping(value, where)
            return
        if not isinstance(value, list):
            raise InputError("server list must be an array", source=self.source, path=where)
        for i, entry in enumerate(value):
            at = paths.item(where, i)
            name = entry.get("name") if isinstance(entry, dict) else None
            yield RawEntry(name, entry, at)

    def sub(self, doc: Any, key: str, where: str = "") -> Any:
        if not isinstance(doc, dict):
            return None
        value = doc.get(key)
        if value is not None and not isinstance(value, (dict, list)):
            raise InputError(
                f"{key!r} must be an object", source=self.source, path=paths.child(where, key)
            )
        return value


def raw_entries(doc: Any, fmt: str, source: str) -> Iterator[RawEntry]:
    w = _Walk(source)
    if not isinstance(doc, dict):
        raise InputError("a client config must be an object at the top level", source=source)
    if fmt in ("mcp-servers", "gemini"):
        yield from w.mapping(w.sub(doc, "mcpServers"), "mcpServers")
    elif fmt == "claude-code":
        yield from w.mapping(w.sub(doc, "mcpServers"), "mcpServers")
        projects = w.sub(doc, "projects")
        for project, settings in (projects or {}).items() if isinstance(projects, dict) else ():
            where = paths.child("projects", str(project))
            yield from w.mapping(w.sub(settings, "mcpServers", where), f"{where}.mcpServers")
    elif fmt == "vscode-mcp":
        _check_inputs(doc.get("inputs"), "inputs", source)
        yield from w.mapping(w.sub(doc, "servers"), "servers")
    elif fmt == "vscode-settings":
        mcp = w.sub(doc, "mcp")
        if isinstance(mcp, dict):
            _check_inputs(mcp.get("inputs"), "mcp.inputs", source)
            yield from w.mapping(w.sub(mcp, "servers", "mcp"), "mcp.servers")
    elif fmt == "zed":
        yield from w.mapping(w.sub(doc, "context_servers"), "context_servers")
    elif fmt == "codex":
        yield from w.mapping(w.sub(doc, "mcp_servers"), "mcp_servers")
    elif fmt == "continue":
        yield from w.named_list(doc.get("mcpServers"), "mcpServers")
        experimental = w.sub(doc, "experimental")
        legacy = w.sub(experimental, "modelContextProtocolServers", "experimental")
        for i, entry in enumerate(legacy or []):
            name = entry.get("name") if isinstance(entry, dict) else None
            yield RawEntry(
                name or f"server-{i}", entry, f"experimental.modelContextProtocolServers[{i}]"
            )
    elif fmt == "opencode":
        mcp = w.sub(doc, "mcp")
        if isinstance(mcp, dict) and _is_server_map(mcp.get("servers")):
            yield from w.mapping(mcp["servers"], "mcp.servers")
        else:
            yield from w.mapping(mcp, "mcp")
    else:
        raise InputError(f"unknown config format {fmt!r}", source=source)


def _is_server_map(value: Any) -> bool:
    """opencode v2 nests servers under `mcp.servers`; a server *named* `servers` has a type."""
    return isinstance(value, dict) and not (_ENTRY_KEYS & set(value))


def _check_inputs(value: Any, where: str, source: str) -> None:
    if value is None:
        return
    if not isinstance(value, list) or not all(isinstance(i, dict) for i in value):
        raise InputError("'inputs' must be an array of objects", source=source, path=where)


def specs_from_document(
    doc: Any, fmt: str, *, client: str, source: str, limits: InputLimits
) -> list[ServerSpec]:
    ctx = EntryContext(client=client, source=source, url_kind="sse" if fmt == "gemini" else "http")
    specs: list[ServerSpec] = []
    entries = list(raw_entries(doc, fmt, source))  # cheap: count before building anything
    if len(entries) > limits.max_items:
        raise InputError(f"more than {limits.max_items} server entries", source=source)
    for raw in entries:
        spec = spec_from_entry(raw.name, raw.entry, ctx, raw.where)
        if spec is not None:
            specs.append(spec)
    return specs


def detect_format(doc: Any, syntax: str) -> str | None:
    """The client-config format of a parsed document, or None when it is not a client config
    (a tools catalog, a snapshot, anything else)."""
    if not isinstance(doc, dict):
        return None
    if syntax == "toml":
        return "codex" if isinstance(doc.get("mcp_servers"), dict) else None
    if "tools" in doc or "jsonrpc" in doc or "result" in doc:
        return None
    if isinstance(doc.get("context_servers"), dict):
        return "zed"
    if isinstance(doc.get("mcpServers"), list):
        return "continue"
    experimental = doc.get("experimental")
    if isinstance(experimental, dict) and "modelContextProtocolServers" in experimental:
        return "continue"
    if isinstance(doc.get("projects"), dict) and any(
        isinstance(p, dict) and "mcpServers" in p for p in doc["projects"].values()
    ):
        return "claude-code"
    if isinstance(doc.get("mcpServers"), dict):
        servers = doc["mcpServers"].values()
        return (
            "gemini"
            if any(isinstance(s, dict) and "httpUrl" in s for s in servers)
            else ("mcp-servers")
        )
    if isinstance(doc.get("servers"), dict):
        return "vscode-mcp"
    mcp = doc.get("mcp")
    if isinstance(mcp, dict):
        if "$schema" in doc and "opencode" in str(doc["$schema"]):
            return "opencode"
        if _is_server_map(mcp.get("servers")):
            return "vscode-settings"
        return "opencode"
    return None
