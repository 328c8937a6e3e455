"""Integrity commands: `toolwitness lock`, `toolwitness diff`, `toolwitness gateway`, and what
`toolwitness scan --lock` does after the scan (record baselines, `--strict`)."""

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
from toolwitness.integrity.lock import (
    DEFAULT_LOCK_NAME,
    LockedServer,
    entry_for,
    read_lock,
    write_lock,
)
from toolwitness.integrity.verify import has_tools_list
from toolwitness.model import ServerSurface
from toolwitness.result import ScanResult
from toolwitness.textnorm import escape_display


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")


# --- scan --lock ---------------------------------------------------------------------------------


def after_scan(result: ScanResult, lock_path: Path | None, strict: bool, code: int) -> int:
    """Record baselines for unpinned servers (never touching a pinned entry) and apply --strict."""
    if lock_path is None:
        return code
    unpinned = [
        s.surface for s in result.servers if s.pin is not None and s.pin.state == "unpinned"
    ]
    if unpinned:
        lock = read_lock(lock_path)
        fresh = {s.id: entry_for(s) for s in unpinned if lock.entry(s.id) is None}
        write_lock(lock_path, lock.with_entries(fresh))
        _say(f"toolwitness: baseline for {len(fresh)} unpinned server(s) recorded in {lock_path}")
    drifted = any(
        s.pin is not None and s.pin.state in ("changed", "blocked") for s in result.servers
    )
    if strict and code == EXIT_OK and drifted:
        return EXIT_THRESHOLD
    return code


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


def plan_lock(
    surfaces: list[ServerSurface], lock_entries: dict[str, LockedServer]
) -> tuple[list[str], dict[str, LockedServer]]:
    lines: list[str] = []
    updates: dict[str, LockedServer] = {}
    for surface in surfaces:
        drift = compare(lock_entries.get(surface.id), surface)
        lines.extend(describe_drift(drift, len(surface.tools)))
        entry = entry_for(surface)
        if lock_entries.get(surface.id) != entry:
            updates[surface.id] = entry
    return lines, updates


def lock_command(
    targets: Annotated[list[Path], typer.Argument(help="Catalog files, snapshots or directories.")],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The lockfile to write or update.")
    ] = Path(DEFAULT_LOCK_NAME),
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
        lock = read_lock(output, limits)
        lines, updates = plan_lock(surfaces, dict(lock.servers))
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
        str | None, typer.Option("--server-id", help="The server's id in the lockfile.")
    ] = None,
    on_change: Annotated[
        str, typer.Option("--on-change", help="What to do with changed tools: warn or drop.")
    ] = "warn",
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
        pinned = read_lock(lock, missing_ok=False)
        if server_id is None:
            if len(pinned.servers) != 1:
                raise UsageError(
                    f"{lock} pins {len(pinned.servers)} servers: name one with --server-id"
                )
            server_id = next(iter(pinned.servers))
        entry = pinned.entry(server_id)
        if entry is None:
            _say(
                f"toolwitness gateway: {escape_display(server_id)} is not pinned in {lock};"
                " the first tools/list becomes this session's baseline"
            )
        gate = ToolGate(
            server_id=server_id,
            entry=entry,
            on_change=on_change,
            limits=InputLimits(max_file_bytes=max_message_mib * MIB),
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
