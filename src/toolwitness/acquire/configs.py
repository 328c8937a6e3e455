"""Find and read MCP client configs: discovery of the well-known locations (data/clients.yaml,
see acquire/discovery.py) and any one config file given on the command line.

Nothing here starts a server: the result is `ServerSpec`s (what would run), and the live stage
decides whether to connect. Every file is hostile input (bounded size, strict syntax, typed fields).
A named file that cannot be read is an error (exit 2); in discovery it is a problem on record and
the other files are still read.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwitness.acquire.clients import CLIENTS_SCHEMA, ClientFile, client_files
from toolwitness.acquire.config_formats import detect_format, specs_from_document
from toolwitness.acquire.config_syntax import parse_config_bytes, read_bounded, syntax_for
from toolwitness.acquire.discovery import (
    ConfigProblem,
    Discovery,
    LocationReport,
    ProjectReport,
    discover,
)
from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.locations import MAX_GLOB_FILES, DiscoveryEnv
from toolwitness.errors import InputError
from toolwitness.model import ServerSpec

__all__ = [
    "CLIENTS_SCHEMA", "MAX_GLOB_FILES", "ClientFile", "ConfigProblem", "Discovery",
    "DiscoveryEnv", "FoundConfig", "LocationReport", "ProjectReport", "client_files",
    "config_document", "discover", "discover_specs", "find_configs", "guess_client",
    "specs_from_config_document",
]  # fmt: skip
# A file's detected format is narrower than the table's: `.mcp.json` (mcp-json) holds either
# shape, so a detected mcp-servers or vscode-mcp document still matches it.
_READS = {"mcp-json": {"mcp-json", "mcp-servers", "vscode-mcp"}}
_DEFAULT_CLIENT = {
    "zed": "zed", "codex": "codex", "continue": "continue", "opencode": "opencode",
    "gemini": "gemini-cli", "claude-code": "claude-code", "vscode-mcp": "vscode",
    "vscode-settings": "vscode", "goose": "goose", "crush": "crush",
    "mcpb-manifest": "claude-desktop", "augment-settings": "augment", "amp-settings": "amp",
}  # fmt: skip
_GENERIC_NAMES = {"mcp.json", "settings.json", "config.json", "config.yaml", "config.toml"}


@dataclass(frozen=True)
class FoundConfig:
    path: Path
    client: str  # the first client the table lists for this file
    scope: str
    clients: tuple[str, ...] = ()


def find_configs(env: DiscoveryEnv, limits: InputLimits | None = None) -> list[FoundConfig]:
    """Every known config file that exists under `env` (read or not), each path once."""
    found = discover(env, limits)
    return [
        FoundConfig(Path(loc.path), loc.clients[0], loc.scope, loc.clients)
        for loc in found.locations
        if loc.state != "absent"
    ]


def discover_specs(env: DiscoveryEnv, limits: InputLimits | None = None) -> list[ServerSpec]:
    """The specs of every discovered server. Strict: raises the first problem as InputError
    (use `discover` to get the specs *and* the problems)."""
    found = discover(env, limits)
    if found.problems:
        first = found.problems[0]
        raise InputError(first.reason, source=first.file, path=first.location)
    return list(found.specs)


def guess_client(path: Path, fmt: str) -> str:
    """The client whose documented location ends like `path` (e.g. `.cursor/mcp.json`)."""
    text = path.as_posix()
    best: tuple[int, str] | None = None
    for entry in client_files():
        if fmt not in _READS.get(entry.format, {entry.format}):
            continue
        tail = entry.path.split("}", 1)[1]
        if fnmatch.fnmatchcase(text, "*" + tail) and (best is None or len(tail) > best[0]):
            best = (len(tail), entry.client)
    if best is not None:
        return best[1]
    for entry in client_files():  # a distinctive file name alone (copied elsewhere)
        base = entry.path.rsplit("/", 1)[-1]
        if base not in _GENERIC_NAMES and "*" not in base and path.name == base:
            return entry.client
    return _DEFAULT_CLIENT.get(fmt, "generic")


def config_document(path: Path, limits: InputLimits) -> tuple[Any, str]:
    """Parse any file a user names: (document, syntax)."""
    syntax = syntax_for(path)
    return parse_config_bytes(read_bounded(path, limits), syntax, str(path), limits), syntax


def specs_from_config_document(
    doc: Any, syntax: str, path: Path, limits: InputLimits
) -> list[ServerSpec] | None:
    """The specs of a parsed file if it is a client config, None if it is something else."""
    fmt = detect_format(doc, syntax)
    if fmt is None:
        return None
    client = guess_client(path, fmt)
    return specs_from_document(doc, fmt, client=client, source=str(path), limits=limits)
