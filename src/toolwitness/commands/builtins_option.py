"""`scan --include-builtins CLIENT`: the option type and its check options (TW-FLOW-008)."""

from __future__ import annotations

from typing import Annotated

import typer

from toolwitness.checks.flow.builtins import OPTION, builtin_clients
from toolwitness.errors import UsageError

IncludeBuiltinsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--include-builtins",
        metavar="CLIENT",
        help="Add this client's own built-in tools (file read/write, shell, web fetch) to the "
        "toxic-flow analysis: claude-code, cursor, vscode, windsurf, gemini-cli, codex. "
        "Repeatable.",
    ),
]


def check_options(clients: list[str] | None) -> dict[str, object]:
    """`{"include_builtins": (...)}` for `ScanOptions.check_options`; an unknown client is a
    usage error (exit 2) naming the known ones."""
    if not clients:
        return {}
    known = builtin_clients()
    for client in clients:
        if client not in known:
            raise UsageError(
                f"--include-builtins: unknown client {client!r}; known: {', '.join(known)}"
            )
    return {OPTION: tuple(dict.fromkeys(clients))}
