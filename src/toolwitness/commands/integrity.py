"""Integrity commands: `toolwitness lock`, `toolwitness diff`, `toolwitness gateway`, and what
`toolwitness scan --lock` options (what scan does with them: `commands.scan_lock`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from toolwitness.acquire.catalog import load_catalog_file
from toolwitness.acquire.limits import MIB, InputLimits
from toolwitness.errors import EXIT_OK, EXIT_THRESHOLD, UsageError
from toolwitness.integrity.audit import AuditLog
from toolwitness.integrity.diff import diff_surfaces
from toolwitness.integrity.drift import Drift, compare
from toolwitness.integrity.gate import ON_CHANGE, ToolGate
from toolwitness.integrity.gateway import Gateway
from toolwitness.integrity.identity import identify
from toolwitness.integrity.lock import (
    DEFAULT_LOCK_NAME,
    LockedServer,
    entry_for,
    read_lock,
    write_lock,
)
from toolwitness.integrity.policy import POLICY_HELP, PinPolicy
from toolwitness.integrity.verify import has_tools_list
from toolwitness.model import ServerSurface
from toolwitness.textnorm import escape_display

ServerIdOpt = Annotated[
    str | None,
    typer.Option(
        "--server-id",
        help="With --lock: the lock key of the one server scanned (needed for a bare tools list).",
    ),
]
RecordBaselineFlag = Annotated[
    bool,
    typer.Option(
        "--record-baseline",
        help="With --lock: pin servers not yet in the lockfile (trust on first use); pinned"
        " entries are never touched.",
    ),
]
PinPolicyOpt = Annotated[PinPolicy, typer.Option("--pin-policy", help=POLICY_HELP)]
DEFAULT_POLICY = PinPolicy.REVIEWED


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")


# --- lock ----------------------------------------------------------------------------------------


def describe_drift(drift: Drift, tool_count: int) -> list[str]:
    """The lines `toolwitness lock` shows for one server before it asks."""
    head = f"server {escape_display(drift.server_id)}:"
    if drift.state == "unpinned":
        return [f"{head} new pin ({tool_count} tools)"]
    if drift.state == "matched":
        return [f"{head} unchanged"]
    lines = [f"{head} {drift.state}"]
    if drift.server_fields:
        lines.append(f"  server-level: {', '.join(drift.server_fields)}")
    for tool in drift.tools:
        text = f"  {tool.change:8} {escape_display(tool.tool)}"
        if tool.fields:
            text += f" ({', '.join(tool.fields)})"
        moves = [s.describe() + f" [{s.kind}]" for s in tool.shifts if s.kind != "neutral"]
        if moves:
            text += "  " + "; ".join(moves)
        if tool.added_read_only:
            text += "  readOnlyHint: true [widening]"
        lines.append(text)
    return lines


def lock_keys(surfaces: list[ServerSurface], server_id: str | None) -> dict[str, ServerSurface]:
    """Each surface under its lock key; a surface without one, or two under one key, is an error
    (nothing is written)."""
    if server_id is not None and len(surfaces) != 1:
        raise UsageError(f"--server-id names one server; {len(surfaces)} were given")
    keyed: dict[str, ServerSurface] = {}
    for surface in surfaces:
        identity = identify(surface, server_id)
        if identity is None:
            raise UsageError(
                f"{escape_display(surface.source or surface.id)} names no server (no serverInfo"
                " name, no id, no config entry): pin it with --server-id NAME, so that its pin"
                " does not hang on a file name"
            )
        other = keyed.get(identity.key)
        if other is not None:
            raise UsageError(
                f"{escape_display(other.source or other.id)} and"
                f" {escape_display(surface.source or surface.id)} are both server"
                f" {escape_display(identity.key)!r}: pin them one at a time with --server-id"
            )
        keyed[identity.key] = surface
    return keyed


def plan_lock(
    keyed: dict[str, ServerSurface], lock_entries: dict[str, LockedServer]
) -> tuple[list[str], dict[str, LockedServer]]:
    lines: list[str] = []
    updates: dict[str, LockedServer] = {}
    for key, surface in keyed.items():
        drift = compare(lock_entries.get(key), surface, key=key)
        lines.extend(describe_drift(drift, len(surface.tools)))
        entry = entry_for(surface)
        if lock_entries.get(key) != entry:
            updates[key] = entry
    return lines, updates


def lock_command(
    targets: Annotated[list[Path], typer.Argument(help="Catalog files, snapshots or directories.")],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The lockfile to write or update.")
    ] = Path(DEFAULT_LOCK_NAME),
    server_id: Annotated[
        str | None,
        typer.Option(
            "--server-id",
            help="The key to pin the one server given under (needed for a bare tools list).",
        ),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Write without asking.")] = False,
    max_tools: Annotated[int, typer.Option(help="Reject a catalog with more tools.", min=1)] = 5000,
    max_file_mib: Annotated[int, typer.Option(help="Reject larger input files.", min=1)] = 10,
) -> None:
    """Pin servers' tool surfaces in a lockfile: shows what changes and asks before writing."""
    from toolwitness.cli_support import guard as _guard
    from toolwitness.pipeline import ScanOptions, scan

    with _guard():
        limits = InputLimits(max_tools=max_tools, max_file_bytes=max_file_mib * MIB)
        scanned = [s.surface for s in scan(list(targets), ScanOptions(limits=limits)).servers]
        surfaces = [s for s in scanned if has_tools_list(s)]
        for skipped in (s for s in scanned if not has_tools_list(s)):
            _say(
                f"toolwitness: {escape_display(skipped.id)}: no tools list to pin (a config entry)"
            )
        if not surfaces:
            raise UsageError(
                "nothing to pin: give tools catalogs or snapshots"
                " (toolwitness snapshot TARGET -o FILE captures a live server)"
            )
        keyed = lock_keys(surfaces, server_id)
        lock = read_lock(output, limits)
        lines, updates = plan_lock(keyed, dict(lock.servers))
        sys.stdout.write("\n".join(lines) + "\n")
        if not updates:
            sys.stdout.write(f"{output} is up to date; nothing written\n")
            raise typer.Exit(EXIT_OK)
        if not yes:
            if not sys.stdin.isatty():
                raise UsageError(
                    f"{len(updates)} server(s) would be re-pinned; stdin is not a terminal, so"
                    " nothing was written (review the changes above, then pass --yes)"
                )
            if not typer.confirm(f"Write {len(updates)} server(s) to {output}?", default=False):
                sys.stdout.write("nothing written\n")
                raise typer.Exit(EXIT_THRESHOLD)
        write_lock(output, lock.with_entries(updates))
        sys.stdout.write(f"wrote {output} ({len(updates)} server(s) pinned)\n")


# --- diff ----------------------------------------------------------------------------------------


def diff_command(
    old: Annotated[Path, typer.Argument(help="The earlier surface (catalog or snapshot).")],
    new: Annotated[Path, typer.Argument(help="The later surface.")],
    max_file_mib: Annotated[int, typer.Option(help="Reject larger input files.", min=1)] = 10,
) -> None:
    """Show what changed between two surfaces, field by field. Exit 0 if equal, 1 if not."""
    from toolwitness.cli_support import guard as _guard

    with _guard():
        limits = InputLimits(max_file_bytes=max_file_mib * MIB)
        before = load_catalog_file(old, limits=limits)
        after = load_catalog_file(new, limits=limits)
        lines, differs = diff_surfaces(before, after)
        sys.stdout.write("\n".join(lines) + "\n")
        raise typer.Exit(EXIT_THRESHOLD if differs else EXIT_OK)


# --- gateway -------------------------------------------------------------------------------------


def gateway_command(
    command: Annotated[list[str], typer.Argument(help="The server command, after --.")],
    lock: Annotated[Path, typer.Option("--lock", help="The lockfile to enforce.")],
    server_id: Annotated[
        str | None,
        typer.Option(
            "--server-id",
            help="The server's key in the lockfile (default: the serverInfo name it reports).",
        ),
    ] = None,
    on_change: Annotated[
        str,
        typer.Option(
            "--on-change",
            help="Changed tools that are not blocked: warn (pass, said on stderr) or drop.",
        ),
    ] = "warn",
    pin_policy: PinPolicyOpt = DEFAULT_POLICY,
    audit: Annotated[
        Path | None, typer.Option("--audit", help="Append one JSON record per check here.")
    ] = None,
    max_message_mib: Annotated[
        int, typer.Option(help="Reject JSON-RPC messages larger than this.", min=1)
    ] = 16,
) -> None:
    """Run an MCP stdio server behind a proxy that enforces the lockfile on every tools/list."""
    from toolwitness.cli_support import guard as _guard

    with _guard():
        if on_change not in ON_CHANGE:
            raise UsageError(f"--on-change must be one of {', '.join(ON_CHANGE)}")
        if server_id is not None and not server_id.strip():
            raise UsageError("--server-id must not be empty")
        pinned = read_lock(lock, missing_ok=False)
        entry = None if server_id is None else pinned.entry(server_id)
        if server_id is not None and entry is None:
            _say(
                f"toolwitness gateway: {escape_display(server_id)} is not pinned in {lock};"
                " the first tools/list becomes this session's baseline"
            )
        gate = ToolGate(
            server_id=server_id,
            entry=entry,
            on_change=on_change,
            limits=InputLimits(max_file_bytes=max_message_mib * MIB),
            policy=pin_policy,
            lock=pinned,
        )
        log = AuditLog(audit) if audit is not None else None
        try:
            code = Gateway(command, gate, audit=log, max_message_bytes=max_message_mib * MIB).run()
        finally:
            if log is not None:
                log.close()
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("lock")(lock_command)
    app.command("diff")(diff_command)
    app.command("gateway")(gateway_command)
