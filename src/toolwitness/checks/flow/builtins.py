"""Client built-in tools (`data/builtins.yaml`) as role players in the toxic-flow analysis.

A client's own tools (Claude Code's Read and WebFetch, Cursor's terminal...) are in every agent
session with that client, whatever MCP servers it connects. `--include-builtins CLIENT` puts them
next to each server's tools, so a server that only reads untrusted content is seen completing
the trifecta with the client's file reader and URL fetcher (TW-FLOW-008). The data is validated
against `builtins.schema.json` when first read; a malformed file is a packaging bug.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from toolwitness.checks.roles.derive import RoleSignal, ToolRoles
from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.plainclass import plainclass
from toolwitness.yamlload import load_yaml

OPTION = "include_builtins"  # the `CheckContext.options` key: a tuple of client ids
SOURCE = "builtin"  # the RoleSignal source of a built-in's role


@plainclass(frozen=True)
class BuiltinClient:
    id: str
    name: str
    source: str
    checked: str
    note: str
    tools: tuple[ToolRoles, ...]  # one per built-in tool; `approval` kept below
    approval: frozenset[str]  # names of the tools the client asks before running


def _read(name: str) -> str:
    return data_files().joinpath(name).read_text("utf-8")


def _client(cid: str, raw: dict[str, Any]) -> BuiltinClient:
    tools = []
    for tool in raw["tools"]:
        where = f"builtins.{cid}.{tool['name']}"
        term = f"built-in of {raw['name']}: {tool['name']} {tool['does']}"
        signals = tuple(RoleSignal(role, SOURCE, term, where) for role in tool["roles"])
        tools.append(ToolRoles(tool=f"{cid}:{tool['name']}", index=-1, signals=signals, params=()))
    return BuiltinClient(
        id=cid,
        name=raw["name"],
        source=raw["source"],
        checked=raw["checked"],
        note=raw.get("note", ""),
        tools=tuple(tools),
        approval=frozenset(f"{cid}:{t['name']}" for t in raw["tools"] if t["approval"]),
    )


@lru_cache(maxsize=1)
def builtin_clients() -> dict[str, BuiltinClient]:
    import jsonschema  # only when built-in clients are asked for

    doc = load_yaml(_read("builtins.yaml"))
    try:
        jsonschema.validate(doc, json.loads(_read("builtins.schema.json")))
    except jsonschema.ValidationError as exc:
        raise InternalError(f"builtins.yaml: {exc.message}") from exc
    return {cid: _client(cid, raw) for cid, raw in sorted(doc["clients"].items())}


def requested(options: dict[str, object]) -> tuple[BuiltinClient, ...]:
    """The clients `options` asks for; an unknown id is an error (never silently skipped)."""
    wanted = options.get(OPTION) or ()
    if isinstance(wanted, str) or not isinstance(wanted, tuple | list):
        raise ValueError(f"{OPTION} must be a list of client ids")
    if not wanted:
        return ()  # the data is read only when asked for
    known = builtin_clients()
    missing = sorted(str(w) for w in wanted if w not in known)
    if missing:
        raise ValueError(f"unknown client {missing[0]!r}; known: {', '.join(known)}")
    return tuple(known[str(w)] for w in dict.fromkeys(wanted))


def is_builtin(signal: RoleSignal) -> bool:
    return signal.source == SOURCE


def builtins_table() -> str:
    """The Markdown table of `docs/flows.md` (a test holds the document to it)."""
    lines = [
        "| client (`--include-builtins`) | built-in tools and the roles they play "
        "| source (checked) |",
        "|---|---|---|",
    ]
    for client in builtin_clients().values():
        tools = "; ".join(
            f"{t.tool.split(':', 1)[1]}{'*' if t.tool in client.approval else ''}: "
            + ", ".join(t.roles)
            for t in client.tools
        )
        lines.append(
            f"| `{client.id}` ({client.name}) | {tools} | {client.source} ({client.checked}) |"
        )
    return "\n".join(lines) + "\n"
