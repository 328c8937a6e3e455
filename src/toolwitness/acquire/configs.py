"""Find and read MCP client configs: the well-known locations (data/clients.yaml) resolved from an
injectable environment, and any one config file given on the command line.

Nothing here starts a server: the result is `ServerSpec`s (what would run), and the live stage
decides whether to connect. Every file is hostile input (bounded size, strict syntax, typed fields).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from toolwitness.acquire.config_formats import (
    FORMATS,
    detect_format,
    specs_from_document,
)
from toolwitness.acquire.config_syntax import (
    SYNTAXES,
    parse_config_bytes,
    read_bounded,
    syntax_for,
)
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError, InternalError
from toolwitness.model import ServerSpec
from toolwitness.yamlload import load_yaml

CLIENTS_SCHEMA = "toolwitness.clients/1"
MAX_GLOB_FILES = 200
_GENERIC_NAMES = {"mcp.json", "settings.json", "config.json", "config.yaml", "config.toml"}
_VARIABLES = ("HOME", "APPDATA", "XDG_CONFIG_HOME", "CODEX_HOME", "PROJECT")


@dataclass(frozen=True)
class ClientFile:
    client: str
    label: str
    scope: str  # user | project
    os: tuple[str, ...]
    format: str
    syntax: str | None
    path: str  # template


@dataclass(frozen=True)
class DiscoveryEnv:
    """The directories discovery resolves templates against (tests point HOME at a temp dir)."""

    home: Path
    appdata: Path
    xdg_config_home: Path
    codex_home: Path
    project: Path | None

    @classmethod
    def from_environ(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        home: Path | None = None,
        project: Path | None = None,
    ) -> DiscoveryEnv:
        """Values from `environ` (default: os.environ); an explicit `home` overrides HOME and
        re-derives the defaults beneath it unless the variable is set explicitly."""
        env = dict(os.environ) if environ is None else dict(environ)
        if home is not None and environ is None:
            env = {}  # --home: derive every location beneath it, not from the caller's variables
        base = home or Path(env.get("HOME") or env.get("USERPROFILE") or Path.home())
        explicit = {k: env[k] for k in ("APPDATA", "XDG_CONFIG_HOME", "CODEX_HOME") if env.get(k)}
        return cls(
            home=base,
            appdata=Path(explicit.get("APPDATA") or base / "AppData" / "Roaming"),
            xdg_config_home=Path(explicit.get("XDG_CONFIG_HOME") or base / ".config"),
            codex_home=Path(explicit.get("CODEX_HOME") or base / ".codex"),
            project=project,
        )

    def resolve(self, template: str) -> Path | None:
        values = {
            "HOME": self.home,
            "APPDATA": self.appdata,
            "XDG_CONFIG_HOME": self.xdg_config_home,
            "CODEX_HOME": self.codex_home,
            "PROJECT": self.project,
        }
        text = template
        for name in _VARIABLES:
            token = "{" + name + "}"
            if token in text:
                value = values[name]
                if value is None:
                    return None
                text = text.replace(token, str(value))
        return Path(text)


@lru_cache(maxsize=1)
def client_files() -> tuple[ClientFile, ...]:
    """The location table, validated (a malformed table is a bug in toolwitness)."""
    text = resources.files("toolwitness.data").joinpath("clients.yaml").read_text("utf-8")
    doc = load_yaml(text)
    if not isinstance(doc, dict) or doc.get("schema") != CLIENTS_SCHEMA:
        raise InternalError("data/clients.yaml: missing or wrong schema marker")
    out: list[ClientFile] = []
    for client in doc.get("clients", []):
        cid, label = client.get("id"), client.get("label")
        if not isinstance(cid, str) or not isinstance(label, str):
            raise InternalError(f"data/clients.yaml: client without id/label: {client!r}")
        for f in client.get("files", []):
            fmt, syntax, path = f.get("format"), f.get("syntax"), f.get("path")
            if fmt not in FORMATS or (syntax is not None and syntax not in SYNTAXES):
                raise InternalError(f"data/clients.yaml: {cid}: bad format/syntax in {f!r}")
            if f.get("scope") not in ("user", "project") or not isinstance(path, str):
                raise InternalError(f"data/clients.yaml: {cid}: bad scope/path in {f!r}")
            unknown = [v for v in _VARIABLES if "{" + v + "}" in path]
            if not unknown or not path.startswith("{"):
                raise InternalError(f"data/clients.yaml: {cid}: path must start with a variable")
            out.append(
                ClientFile(cid, label, f["scope"], tuple(f.get("os", ())), fmt, syntax, path)
            )
    return tuple(out)


@dataclass(frozen=True)
class FoundConfig:
    path: Path
    client: str
    format: str
    syntax: str
    scope: str


def find_configs(env: DiscoveryEnv) -> list[FoundConfig]:
    """Every known config file that exists under `env`, in table order, each path once."""
    found: list[FoundConfig] = []
    seen: set[Path] = set()
    for entry in client_files():
        resolved = env.resolve(entry.path)
        if resolved is None:
            continue
        candidates = _glob(resolved) if "*" in resolved.name else [resolved]
        for path in candidates:
            if not path.is_file():
                continue
            key = path.resolve()
            if key in seen:
                continue
            seen.add(key)
            syntax = entry.syntax or syntax_for(path)
            found.append(FoundConfig(path, entry.client, entry.format, syntax, entry.scope))
    return found


def _glob(pattern: Path) -> list[Path]:
    folder = pattern.parent
    if not folder.is_dir():
        return []
    matches = sorted(folder.glob(pattern.name))
    if len(matches) > MAX_GLOB_FILES:
        raise InputError(
            f"more than {MAX_GLOB_FILES} files match {pattern.name}", source=str(folder)
        )
    return matches


def discover_specs(env: DiscoveryEnv, limits: InputLimits | None = None) -> list[ServerSpec]:
    limits = limits or InputLimits()
    specs: list[ServerSpec] = []
    for config in find_configs(env):
        specs.extend(read_config(config, limits))
    return specs


def read_config(config: FoundConfig, limits: InputLimits) -> list[ServerSpec]:
    source = str(config.path)
    doc = parse_config_bytes(read_bounded(config.path, limits), config.syntax, source, limits)
    if doc is None and config.syntax == "yaml":
        return []  # an empty YAML block file
    return specs_from_document(
        doc, config.format, client=config.client, source=source, limits=limits
    )


def guess_client(path: Path, fmt: str) -> str:
    """The client whose documented location ends like `path` (e.g. `.cursor/mcp.json`)."""
    text = path.as_posix()
    best: tuple[int, str] | None = None
    for entry in client_files():
        tail = entry.path.split("}", 1)[1]
        if "*" in tail:
            tail = tail.rsplit("/", 1)[0] + "/"
            matched = tail in text
        else:
            matched = text.endswith(tail)
        if matched and entry.format == fmt and (best is None or len(tail) > best[0]):
            best = (len(tail), entry.client)
    if best is not None:
        return best[1]
    for entry in client_files():  # a distinctive file name alone (copied elsewhere)
        base = entry.path.rsplit("/", 1)[-1]
        if base not in _GENERIC_NAMES and "*" not in base and path.name == base:
            return entry.client
    defaults = {"zed": "zed", "codex": "codex", "continue": "continue", "opencode": "opencode",
                "gemini": "gemini-cli", "claude-code": "claude-code", "vscode-mcp": "vscode",
                "vscode-settings": "vscode"}  # fmt: skip
    return defaults.get(fmt, "generic")


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
