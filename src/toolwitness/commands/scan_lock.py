"""What `toolwitness scan --lock` does around the scan: the flags that need --lock, then naming
unpinned servers, `--record-baseline` and `--strict`. No typer here (the options are declared
in `commands.integrity`): a scan on the command line's fast path (`cli_fast`) runs this too."""

from __future__ import annotations

import sys
from pathlib import Path

from toolwitness.errors import EXIT_OK, EXIT_THRESHOLD, UsageError
from toolwitness.integrity.policy import LockSettings, PinPolicy
from toolwitness.result import ScanResult, ServerResult
from toolwitness.textnorm import escape_display


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")


def check_lock_flags(
    lock: Path | None, *, server_id: str | None, record_baseline: bool, policy: PinPolicy
) -> LockSettings:
    """The options that only mean something with --lock; a usage error without it."""
    if lock is None:
        given = [
            flag
            for flag, on in (
                ("--server-id", server_id is not None),
                ("--record-baseline", record_baseline),
                ("--pin-policy", policy is not PinPolicy.REVIEWED),
            )
            if on
        ]
        if given:
            raise UsageError(f"{', '.join(given)} applies with --lock")
    if server_id is not None and not server_id.strip():
        raise UsageError("--server-id must not be empty")
    return LockSettings(policy=policy, server_id=server_id)


def unpinned_note(server: ServerResult) -> str:
    """One line for a server with no pin: why, and which pinned server it looks like."""
    pin = server.pin
    assert pin is not None
    name = escape_display(server.id)
    if pin.key is None:
        text = f"{name}: no lock key (nothing but its file name identifies it; pass --server-id)"
    else:
        text = f"{name}: not pinned under {escape_display(pin.key)!r}"
    for similar in pin.resembles:
        what = (
            "the same surface digest"
            if similar.same_surface
            else f"{similar.shared_tools} of {similar.pinned_tools} tool names,"
            f" {similar.identical_tools} identical"
        )
        text += (
            f"; resembles pinned server {escape_display(similar.server)!r} ({what}):"
            f" --server-id {escape_display(similar.server)} compares it"
        )
    return text


def after_scan(
    result: ScanResult,
    lock_path: Path | None,
    strict: bool,
    code: int,
    *,
    record_baseline: bool = False,
) -> int:
    """Say what was not pinned, record baselines only when asked (never touching a pinned entry),
    and apply --strict: any server that does not match its pin fails."""
    if lock_path is None:
        return code
    unpinned = [s for s in result.servers if s.pin is not None and s.pin.state == "unpinned"]
    for server in unpinned:
        _say("toolwitness: " + unpinned_note(server))
    if record_baseline:
        from toolwitness.integrity.lock import LockedServer, entry_for, read_lock, write_lock

        lock = read_lock(lock_path)
        fresh: dict[str, LockedServer] = {}
        for server in unpinned:
            key = server.pin.key if server.pin is not None else None
            if key is not None and lock.entry(key) is None and key not in fresh:
                fresh[key] = entry_for(server.surface)
        if fresh:
            write_lock(lock_path, lock.with_entries(fresh))
        _say(f"toolwitness: baseline for {len(fresh)} unpinned server(s) recorded in {lock_path}")
    elif unpinned:
        _say(
            f"toolwitness: {len(unpinned)} server(s) not pinned in {lock_path}; nothing written"
            " (pin with toolwitness lock, or pass --record-baseline)"
        )
    unverified = [s for s in result.servers if s.pin is None or s.pin.state != "matched"]
    if strict and code == EXIT_OK and unverified:
        for server in unverified:
            state = "without a tools list to compare" if server.pin is None else server.pin.state
            _say(f"toolwitness: --strict: {escape_display(server.id)} is {state}")
        return EXIT_THRESHOLD
    return code
