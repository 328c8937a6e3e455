"""`scan --include-builtins CLIENT`: its check options (TW-FLOW-008). The option itself is
declared in `commands.scan`; nothing here imports typer (the command line's fast path runs it)."""

from __future__ import annotations

from toolwitness.errors import UsageError


def check_options(clients: list[str] | None) -> dict[str, object]:
    """`{"include_builtins": (...)}` for `ScanOptions.check_options`; an unknown client is a
    usage error (exit 2) naming the known ones."""
    if not clients:
        return {}
    from toolwitness.checks.flow.builtins import OPTION, builtin_clients

    known = builtin_clients()
    for client in clients:
        if client not in known:
            raise UsageError(
                f"--include-builtins: unknown client {client!r}; known: {', '.join(known)}"
            )
    return {OPTION: tuple(dict.fromkeys(clients))}
