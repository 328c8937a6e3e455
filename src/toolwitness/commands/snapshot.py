"""`toolwitness snapshot TARGET -o FILE`: write a live server's surface for offline scans.

The file is a `toolwitness.surface/1` document (`acquire.catalog.surface_to_snapshot`); scanning
it later gives the same digests as the live scan. Secrets in the transport (env and header
values) are replaced by `<redacted>`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from toolwitness.acquire.catalog import surface_to_snapshot
from toolwitness.acquire.limits import InputLimits
from toolwitness.commands import live as flags_
from toolwitness.commands import live_opts
from toolwitness.errors import UsageError
from toolwitness.textnorm import escape_display


def snapshot_command(
    targets: Annotated[
        list[str] | None,
        typer.Argument(help="A server URL, a client config, or (after --) a command line."),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the snapshot here (else stdout).")
    ] = None,
    server: Annotated[
        str | None, typer.Option("--server", help="Which server of a client config.")
    ] = None,
    stdio: live_opts.StdioOpt = None,
    sandbox: live_opts.SandboxFlag = False,
    allow_command: live_opts.AllowCommandOpt = None,
    allow_host: live_opts.AllowHostOpt = None,
    header: live_opts.HeaderOpt = None,
    bearer: live_opts.BearerOpt = None,
    timeout: live_opts.TimeoutOpt = 60.0,
    server_timeout: live_opts.ServerTimeoutOpt = 180.0,
    max_pages: live_opts.MaxPagesOpt = 100,
) -> None:
    """Connect to one server and write its surface (toolwitness.surface/1) for offline scans."""
    from toolwitness.cli_support import emit as _emit
    from toolwitness.cli_support import guard as _guard

    with _guard():
        flags = flags_.LiveFlags(
            live=True, stdio=tuple(stdio or ()), sandbox=sandbox,
            allow_commands=tuple(allow_command or ()), allow_hosts=tuple(allow_host or ()),
            headers=tuple(header or ()), bearer=bearer, timeout=timeout,
            server_timeout=server_timeout, max_pages=max_pages,
        )  # fmt: skip
        if not targets and not stdio:
            raise UsageError("give a server: a URL, a client config, --stdio CMD or -- CMD ARGS")
        spec, options = flags_.snapshot_spec(targets or [], flags, server, InputLimits())
        from toolwitness.acquire.live import acquire_live  # the MCP SDK loads only here

        surface = acquire_live(spec, options)
        clean = flags_.redacted_transport(spec).transport
        doc = surface_to_snapshot(surface.model_copy(update={"transport": clean}))
        text = json.dumps(doc, indent=2, ensure_ascii=True, sort_keys=False) + "\n"
        _emit(text, output)
        if output is not None:
            sys.stderr.write(
                f"toolwitness: wrote {escape_display(surface.id)} "
                f"({len(surface.tools)} tools) to {escape_display(str(output))}\n"
            )


def register(app: typer.Typer) -> None:
    app.command("snapshot")(snapshot_command)
