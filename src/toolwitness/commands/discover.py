"""`toolwitness discover` and the `scan --discover/--home/--project/--online` options.

Discovery lists the servers the well-known client configs define, without starting anything.
Secrets never leave: env and header values are shown only when they are references the client
substitutes (`${env:X}`, `${input:x}`), and as `<redacted>` otherwise.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import typer

from toolwitness.acquire.configs import DiscoveryEnv, discover_specs, find_configs
from toolwitness.acquire.limits import InputLimits
from toolwitness.checks.text.secrets import (
    arg_secret,
    is_reference,
    literal_secret,
    strip_references,
)
from toolwitness.errors import UsageError
from toolwitness.model import ServerSpec
from toolwitness.textnorm import escape_display

REDACTED = "<redacted>"
DISCOVER_SCHEMA = "toolwitness.discover/1"

DiscoverFlag = Annotated[
    bool,
    typer.Option("--discover", help="Also scan every server in the well-known MCP client configs."),
]
HomeOpt = Annotated[
    Path | None,
    typer.Option("--home", help="Look for user configs under this directory instead of $HOME."),
]
ProjectOpt = Annotated[
    Path | None,
    typer.Option("--project", help="Look for project configs (.mcp.json, .vscode/…) here."),
]
OnlineFlag = Annotated[
    bool,
    typer.Option(
        "--online", help="Query the npm and PyPI registries for package metadata (off: offline)."
    ),
]


class DiscoverFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


def discovery_env(home: Path | None, project: Path | None) -> DiscoveryEnv:
    for label, folder in (("--home", home), ("--project", project)):
        if folder is not None and not folder.is_dir():
            raise UsageError(f"{label} {folder} is not a directory")
    return DiscoveryEnv.from_environ(home=home, project=project)


def discover_targets(
    discover: bool, home: Path | None, project: Path | None, limits: InputLimits, *, alone: bool
) -> list[ServerSpec]:
    """The specs `scan --discover` adds to its targets (none without --discover)."""
    if not discover:
        if home is not None or project is not None:
            raise UsageError("--home and --project apply with --discover")
        return []
    env = discovery_env(home, project)
    specs = discover_specs(env, limits)
    if not specs and alone:
        where = str(env.home) + (f" or {env.project}" if env.project else "")
        raise UsageError(f"--discover found no MCP server in the client configs under {where}")
    return specs


def _shown(value: str) -> str:
    """A value only when nothing but references (and an auth scheme word) is in it."""
    rest = strip_references(value).strip().lower()
    return value if is_reference(value) or rest in ("bearer", "basic", "token") else REDACTED


def shown_args(args: tuple[str, ...]) -> list[str]:
    """Arguments with any literal credential (`--api-key sk-…`, `Authorization: …`) masked."""
    return [REDACTED if arg_secret(args[i - 1] if i else "", a) else a for i, a in enumerate(args)]


def shown_url(url: str) -> str:
    try:
        password = urlsplit(url).password
    except ValueError:
        return REDACTED
    if password and not is_reference(password):
        url = url.replace(f":{password}@", f":{REDACTED}@", 1)
    base, sep, query = url.partition("?")
    if not sep:
        return url
    pairs = []
    for pair in query.split("&"):
        key, eq, value = pair.partition("=")
        pairs.append(f"{key}={REDACTED}" if eq and literal_secret(key, value) else pair)
    return f"{base}?{'&'.join(pairs)}"


def spec_document(spec: ServerSpec) -> dict[str, Any]:
    t = spec.transport
    doc: dict[str, Any] = {
        "client": spec.client,
        "name": spec.name,
        "origin": spec.origin,
        "enabled": spec.enabled,
        "transport": t.kind,
    }
    if t.command is not None:
        doc["command"] = t.command
        doc["args"] = shown_args(t.args)
    if t.url is not None:
        doc["url"] = shown_url(t.url)
    if t.cwd is not None:
        doc["cwd"] = t.cwd
    doc["env"] = {k: _shown(v) for k, v in sorted(t.env.items())}
    doc["headers"] = {k: _shown(v) for k, v in sorted(t.headers.items())}
    doc["package"] = (
        None if spec.package is None else spec.package.model_dump(mode="json", exclude_none=True)
    )
    return doc


def _text_lines(specs: list[ServerSpec], files: list[str]) -> list[str]:
    lines = [f"{len(files)} config files, {len(specs)} servers (nothing was started)"]
    for path in files:
        lines.append(f"  file: {path}")
    for spec in specs:
        t = spec.transport
        target = shown_url(t.url) if t.url else " ".join([t.command or "", *shown_args(t.args)])
        lines.append("")
        lines.append(f"{spec.client}  {spec.name}{'' if spec.enabled else '  (disabled)'}")
        lines.append(f"  from:      {spec.origin}")
        lines.append(f"  transport: {t.kind}  {target}")
        if spec.package is not None:
            p = spec.package
            pin = p.version or "unpinned"
            lines.append(f"  package:   {p.ecosystem} {p.name} ({pin})")
        for label, values in (("env", t.env), ("headers", t.headers)):
            if values:
                shown = ", ".join(f"{k}={_shown(v)}" for k, v in sorted(values.items()))
                lines.append(f"  {label + ':':<10} {shown}")
    return lines


def register(app: typer.Typer) -> None:
    @app.command("discover")
    def discover_command(
        home: HomeOpt = None,
        project: ProjectOpt = None,
        fmt: Annotated[
            DiscoverFormat, typer.Option("--format", "-f", help="Output format.")
        ] = DiscoverFormat.TEXT,
    ) -> None:
        """List the MCP servers client configs define, without connecting to any."""
        from toolwitness.cli_support import emit as _emit
        from toolwitness.cli_support import guard as _guard

        with _guard():
            env = discovery_env(home, project)
            limits = InputLimits()
            files = [str(c.path) for c in find_configs(env)]
            specs = discover_specs(env, limits)
            if fmt is DiscoverFormat.JSON:
                doc = {
                    "schema": DISCOVER_SCHEMA,
                    "files": files,
                    "servers": [spec_document(s) for s in specs],
                }
                _emit(json.dumps(doc, indent=2, ensure_ascii=True) + "\n", None)
                return
            text = "\n".join(escape_display(line) for line in _text_lines(specs, files))
            _emit(text + "\n", None)
