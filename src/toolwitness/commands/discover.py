"""`toolwitness discover` and the `scan --discover/--home/--project/--no-project/--online` options.

Discovery lists the servers the well-known client configs define, without starting anything. It
searches the user's client folders, the current folder and every project folder the clients
record (`--no-project` turns the project search off; `--project DIR` adds one). A file that
cannot be read is reported with its reason and discovery goes on with the others; `scan
--discover` scans it as a TW-NET-008 finding, so nothing unread passes as clean.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from toolwitness.acquire.discovery import discover
from toolwitness.acquire.limits import InputLimits
from toolwitness.commands.discover_scan import discover_targets, discovery_env
from toolwitness.commands.discover_view import (
    REDACTED,
    discovery_document,
    shown_args,
    shown_url,
    shown_value,
    spec_document,
    text_lines,
)
from toolwitness.textnorm import escape_display

__all__ = [
    "REDACTED", "DiscoverFlag", "HomeOpt", "NoProjectFlag", "OnlineFlag", "ProjectOpt",
    "discover_targets", "discovery_env", "register", "shown_args", "shown_url", "shown_value",
    "spec_document",
]  # fmt: skip

DiscoverFlag = Annotated[
    bool,
    typer.Option("--discover", help="Also scan every server in the well-known MCP client configs."),
]
HomeOpt = Annotated[
    Path | None,
    typer.Option("--home", help="Look for user configs under this directory instead of $HOME."),
]
ProjectOpt = Annotated[
    list[Path] | None,
    typer.Option("--project", help="Also search this project folder (.mcp.json, .vscode/…)."),
]
NoProjectFlag = Annotated[
    bool,
    typer.Option(
        "--no-project",
        help="Do not search the current folder or the project folders clients record.",
    ),
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


def register(app: typer.Typer) -> None:
    @app.command("discover")
    def discover_command(
        home: HomeOpt = None,
        project: ProjectOpt = None,
        no_project: NoProjectFlag = False,
        verbose: Annotated[
            bool, typer.Option("--verbose", "-v", help="Also list the locations that are absent.")
        ] = False,
        fmt: Annotated[
            DiscoverFormat, typer.Option("--format", "-f", help="Output format.")
        ] = DiscoverFormat.TEXT,
    ) -> None:
        """List the MCP servers client configs define, without connecting to any."""
        from toolwitness.cli_support import emit as _emit
        from toolwitness.cli_support import guard as _guard

        with _guard():
            env = discovery_env(home, project, no_project=no_project)
            found = discover(env, InputLimits())
            if fmt is DiscoverFormat.JSON:
                doc = discovery_document(found)
                _emit(json.dumps(doc, indent=2, ensure_ascii=True) + "\n", None)
                return
            lines = text_lines(found, verbose=verbose)
            _emit("\n".join(escape_display(line) for line in lines) + "\n", None)
