"""Where each client keeps its server entries inside the parsed file, and which format a file is.

`FORMAT_SHAPES` says, per format, where the entries are (docs/configs.md shows it). Every walker
yields `RawEntry`s; `spec_from_entry` turns each into a `ServerSpec`. In discovery a malformed
entry is recorded as a problem and the others are still read (`specs_from_document(problems=…)`);
for a file named on the command line the first error is raised.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolwitness import paths
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.model import ServerSpec
from toolwitness.plainclass import plainclass

FORMAT_SHAPES = {
    "mcp-servers": '`{"mcpServers": {name: entry}}`',
    "mcp-json": "`mcpServers` or `servers` (`.mcp.json`, read by Claude Code and Visual Studio)",
    "claude-code": "`mcpServers` plus `projects.<folder>.mcpServers`",
    "claude-plugin": "`mcpServers` of `.claude-plugin/plugin.json` (a path there is not followed)",
    "mcpb-manifest": "one server: `server.mcp_config` of an extension's `manifest.json`",
    "vscode-mcp": '`{"servers": {name: entry}, "inputs": [...]}`',
    "vscode-settings": '`{"mcp": {"servers": {...}, "inputs": [...]}}`',
    "augment-settings": '`"augment.advanced": {"mcpServers": [{name, ...}]}`',
    "amp-settings": '`"amp.mcpServers": {name: entry}`',
    "gemini": "`mcpServers`, where a bare `url` is SSE and `httpUrl` Streamable HTTP",
    "zed": '`{"context_servers": {name: entry}}`',
    "codex": "TOML `[mcp_servers.<name>]`",
    "continue": "YAML `mcpServers: [{name: ...}]`; JSON `experimental.modelContextProtocolServers`",
    "opencode": '`{"mcp": {name: entry}}` or (v2) `{"mcp": {"servers": {...}}}`',
    "crush": '`{"mcp": {name: {type, command, args, env, url, headers}}}`',
    "goose": "YAML `extensions: {name: {type, cmd, args, envs, uri, enabled}}`",
    "opaque": "a script the client runs to configure itself: reported, never parsed or run",
}
FORMATS = tuple(FORMAT_SHAPES)
_GOOSE_INTERNAL = {"builtin", "platform", "frontend", "inline_python"}  # no process of their own
_ENTRY_KEYS = {"command", "url", "serverUrl", "httpUrl", "type", "transport"}


@plainclass(frozen=True)
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
    elif fmt == "mcp-json":
        yield from w.mapping(w.sub(doc, "mcpServers"), "mcpServers")
        yield from w.mapping(w.sub(doc, "servers"), "servers")
    elif fmt == "claude-plugin":
        servers = doc.get("mcpServers")  # a string names a file: .mcp.json is found on its own
        yield from w.mapping(servers if isinstance(servers, dict) else None, "mcpServers")
    elif fmt == "mcpb-manifest":
        yield from _mcpb(doc, source)
    elif fmt in ("augment-settings", "amp-settings"):
        yield from _editor_section(w, doc, fmt)
    elif fmt == "crush":
        yield from w.mapping(w.sub(doc, "mcp"), "mcp")
    elif fmt == "goose":
        for raw in w.mapping(w.sub(doc, "extensions"), "extensions"):
            entry = _goose_entry(raw.entry)
            if entry is not None:
                yield RawEntry(raw.name, entry, raw.where)
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


def _mcpb(doc: dict[str, Any], source: str) -> Iterator[RawEntry]:
    """A Claude Desktop extension: one server, named by the manifest."""
    server = doc.get("server")
    config = server.get("mcp_config") if isinstance(server, dict) else None
    if config is None:
        raise InputError("extension manifest has no server.mcp_config", source=source)
    name = doc.get("name") or doc.get("display_name")
    yield RawEntry(name, config, "server.mcp_config")


def _editor_section(w: _Walk, doc: dict[str, Any], fmt: str) -> Iterator[RawEntry]:
    """Augment's and Amp's keys in an editor settings.json: a flat dotted key, or nested."""
    if fmt == "augment-settings":
        flat = w.sub(doc, "augment.advanced")
        nested = w.sub(w.sub(doc, "augment"), "advanced", "augment")
        for where, block in (("augment.advanced", flat), ("augment.advanced", nested)):
            yield from w.named_list(w.sub(block, "mcpServers", where), f"{where}.mcpServers")
        return
    yield from w.mapping(w.sub(doc, "amp.mcpServers"), "amp.mcpServers")
    yield from w.mapping(w.sub(w.sub(doc, "amp"), "mcpServers", "amp"), "amp.mcpServers")


def _goose_entry(entry: Any) -> Any:
    """Goose's spelling (`cmd`, `envs`, `uri`) → the common one; None for an extension that runs
    inside goose (builtin, platform) and names no process or URL."""
    if not isinstance(entry, dict):
        return entry
    if str(entry.get("type", "")).strip().lower() in _GOOSE_INTERNAL:
        return None
    renames = {"cmd": "command", "envs": "env", "uri": "url"}
    return {renames.get(k, k): v for k, v in entry.items() if k not in ("name", "env_keys")}


def _is_server_map(value: Any) -> bool:
    """opencode v2 nests servers under `mcp.servers`; a server *named* `servers` has a type."""
    return isinstance(value, dict) and not (_ENTRY_KEYS & set(value))


def _check_inputs(value: Any, where: str, source: str) -> None:
    if value is None:
        return
    if not isinstance(value, list) or not all(isinstance(i, dict) for i in value):
        raise InputError("'inputs' must be an array of objects", source=source, path=where)


def specs_from_document(
    doc: Any,
    fmt: str,
    *,
    client: str,
    source: str,
    limits: InputLimits,
    problems: list[InputError] | None = None,
) -> list[ServerSpec]:
    """The specs of every entry. With `problems`, a malformed entry is appended there and the
    others are still read; without, the first error is raised."""
    # a client config only: a tools catalog is told apart by `detect_format` alone
    from toolwitness.acquire.config_entry import EntryContext, spec_from_entry

    ctx = EntryContext(client=client, source=source, url_kind="sse" if fmt == "gemini" else "http")
    specs: list[ServerSpec] = []
    entries = list(raw_entries(doc, fmt, source))  # cheap: count before building anything
    if len(entries) > limits.max_items:
        raise InputError(f"more than {limits.max_items} server entries", source=source)
    for raw in entries:
        try:
            spec = spec_from_entry(raw.name, raw.entry, ctx, raw.where)
        except InputError as exc:
            if problems is None:
                raise
            problems.append(exc)
            continue
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
        return "crush" if "charm.land/crush" in str(doc.get("$schema", "")) else "opencode"
    return _detect_other(doc)


def _detect_other(doc: dict[str, Any]) -> str | None:
    """The formats whose marker key no catalog or other config uses."""
    server = doc.get("server")
    if "manifest_version" in doc and isinstance(server, dict) and "mcp_config" in server:
        return "mcpb-manifest"
    extensions = doc.get("extensions")
    if isinstance(extensions, dict) and any(
        isinstance(e, dict) and ("cmd" in e or "uri" in e) for e in extensions.values()
    ):
        return "goose"
    if isinstance(doc.get("augment.advanced"), dict):
        return "augment-settings"
    if isinstance(doc.get("amp.mcpServers"), dict):
        return "amp-settings"
    return None
