"""The live-server options (`--live`, `--stdio`, `--timeout`…) as typer declares them, shared by
`scan`, `probe`, `trust` and `snapshot`. What they mean is `commands.live` (no typer there)."""

from __future__ import annotations

from typing import Annotated

import typer

LiveFlag = Annotated[
    bool, typer.Option("--live", help="Connect to servers (configs, commands) and list them.")
]
StdioOpt = Annotated[
    list[str] | None,
    typer.Option("--stdio", help="A stdio server command line to run and scan (repeatable)."),
]
SandboxFlag = Annotated[
    bool,
    typer.Option("--sandbox", help="Run stdio servers under bubblewrap: no network, read-only /."),
]
AllowCommandOpt = Annotated[
    list[str] | None,
    typer.Option("--allow-command", help="Also allow this executable name (repeatable)."),
]
AllowHostOpt = Annotated[
    list[str] | None,
    typer.Option("--allow-host", help="Connect only to these HTTP hosts (repeatable)."),
]
HeaderOpt = Annotated[
    list[str] | None, typer.Option("--header", help="HTTP header 'Name: value' (repeatable).")
]
BearerOpt = Annotated[
    str | None, typer.Option("--bearer", help="HTTP bearer token (Authorization header).")
]
TimeoutOpt = Annotated[
    float,
    typer.Option(
        "--timeout",
        help="Seconds to wait for one server answer (initialize, one page); the whole server"
        " is bounded by --server-timeout as well.",
        min=0.1,
    ),
]
ServerTimeoutOpt = Annotated[
    float,
    typer.Option(
        "--server-timeout",
        help="Seconds for one whole server: start-up, initialize and every page. It bounds"
        " the server whether it is above or below --timeout; each answer also waits at most"
        " --timeout.",
        min=1,
    ),
]
ConcurrencyOpt = Annotated[
    int, typer.Option("--concurrency", help="Servers connected at the same time.", min=1, max=64)
]
MaxPagesOpt = Annotated[
    int, typer.Option("--max-pages", help="Pages read per list call before giving up.", min=1)
]
