"""`toolwitness trust`: every configured or pinned server in one table (`integrity/trust.py`).

Exit 0 when nothing is blocked, 1 when a server's latest evidence (this scan, or the gateway's
last check in the audit log) is `blocked`, 2 for bad input, 3 when a server to be checked now
could not be (the table still shows it, as unreachable).
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from toolwitness.acquire.limits import MIB, InputLimits
from toolwitness.commands import discover as discover_commands
from toolwitness.commands import live as live_commands
from toolwitness.commands import live_opts
from toolwitness.commands.integrity import DEFAULT_POLICY, PinPolicyOpt
from toolwitness.errors import EXIT_INTERNAL, EXIT_OK, EXIT_THRESHOLD, UsageError
from toolwitness.integrity.audit import read_audit
from toolwitness.integrity.lock import DEFAULT_LOCK_NAME, read_lock
from toolwitness.integrity.policy import LockSettings
from toolwitness.integrity.trust import TRUST_SCHEMA, TrustRow, blocked_anywhere, trust_rows
from toolwitness.model import ServerSpec, ServerSurface
from toolwitness.result import ScanResult
from toolwitness.textnorm import escape_display

_COLUMNS = ("server", "state", "tools", "surface digest", "blocked", "last change")
_DIGEST_SHOWN = 19  # "sha256:" and 12 hex digits: enough to tell surfaces apart at a glance


class TrustFormat(StrEnum):
    TABLE = "table"
    JSON = "json"


def render_table(rows: list[TrustRow]) -> str:
    cells = [
        [
            escape_display(r.server),
            r.state + "".join(f" (like {escape_display(k)})" for k in r.resembles),
            "–" if r.tools is None else str(r.tools),
            "–" if r.surface_digest is None else r.surface_digest[:_DIGEST_SHOWN],
            ", ".join(escape_display(b) for b in r.blocked) or "–",
            escape_display(r.last_change) if r.last_change else "–",
        ]
        for r in rows
    ]
    widths = [max(len(c[i]) for c in [list(_COLUMNS), *cells]) for i in range(len(_COLUMNS))]
    lines = [
        "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip()
        for row in [list(_COLUMNS), *cells]
    ]
    return "\n".join(lines) + "\n"


def _scan(
    targets: list[str], flags: live_commands.LiveFlags, limits: InputLimits, lock: Path,
    settings: LockSettings, discovered: list[ServerSpec | ServerSurface],
) -> ScanResult | None:  # fmt: skip
    from toolwitness.pipeline import ScanOptions, scan

    scan_targets, live_options = live_commands.scan_inputs(targets, flags, limits)
    if not scan_targets and not discovered:
        return None
    options = ScanOptions(limits=limits, lock=lock, lock_settings=settings, live=live_options)
    return scan([*scan_targets, *discovered], options)


def trust_command(
    targets: Annotated[
        list[str] | None,
        typer.Argument(help="Catalogs, snapshots, client configs or server URLs to check now."),
    ] = None,
    lock: Annotated[
        Path, typer.Option("--lock", help="The lockfile of the approved surfaces.")
    ] = Path(DEFAULT_LOCK_NAME),
    audit: Annotated[
        list[Path] | None,
        typer.Option("--audit", help="A gateway audit log (JSONL) to read too (repeatable)."),
    ] = None,
    fmt: Annotated[TrustFormat, typer.Option("--format", "-f", help="Output format.")] = (
        TrustFormat.TABLE
    ),
    live: live_opts.LiveFlag = False,
    stdio: live_opts.StdioOpt = None,
    sandbox: live_opts.SandboxFlag = False,
    timeout: live_opts.TimeoutOpt = 60.0,
    server_timeout: live_opts.ServerTimeoutOpt = 180.0,
    discover: discover_commands.DiscoverFlag = False,
    home: discover_commands.HomeOpt = None,
    project: discover_commands.ProjectOpt = None,
    pin_policy: PinPolicyOpt = DEFAULT_POLICY,
    max_file_mib: Annotated[
        int, typer.Option(help="Reject input files (audit logs too) over this many MiB.", min=1)
    ] = 64,
) -> None:
    """Every configured or pinned server in one table: surface digest, pin state, tool count,
    last change, blocked tools."""
    from toolwitness.cli_support import guard as _guard

    with _guard():
        limits = InputLimits(max_file_bytes=max_file_mib * MIB)
        pinned = read_lock(lock, limits, missing_ok=bool(targets or stdio or discover))
        records: list[dict[str, object]] = []
        for path in audit or ():
            found, notes = read_audit(path, limits.max_file_bytes)
            records.extend(found)
            for note in notes:
                sys.stderr.write(f"toolwitness: {escape_display(note)}\n")
        flags = live_commands.LiveFlags(
            live=live, stdio=tuple(stdio or ()), sandbox=sandbox, timeout=timeout,
            server_timeout=server_timeout,
        )  # fmt: skip
        discovered = discover_commands.discover_targets(
            discover, home, project, limits, alone=not (targets or stdio)
        )
        result = _scan(
            list(targets or ()), flags, limits, lock, LockSettings(policy=pin_policy),
            list(discovered),
        )  # fmt: skip
        rows = trust_rows(result, pinned, records)
        if not rows:
            raise UsageError(f"{lock} pins no server and no target was given")
        if fmt is TrustFormat.JSON:
            servers = [r.to_json() for r in rows]
            doc = {"schema": TRUST_SCHEMA, "lockfile": str(lock), "servers": servers}
            sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=True) + "\n")
        else:
            sys.stdout.write(render_table(rows))
        if result is not None and result.incomplete:
            raise typer.Exit(EXIT_INTERNAL)
        raise typer.Exit(EXIT_THRESHOLD if blocked_anywhere(rows) else EXIT_OK)


def register(app: typer.Typer) -> None:
    app.command("trust")(trust_command)
