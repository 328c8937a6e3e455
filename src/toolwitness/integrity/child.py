"""The server process behind the gateway: spawned in its own process group and tied to the
gateway's life, stopped in stages, its exit status passed on."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from toolwitness.errors import InputError

SHUTDOWN_GRACE_SECONDS = 2.0
_PR_SET_PDEATHSIG = 1


def _death_signal_setter() -> Callable[[], None] | None:
    """Resolved before fork: the child then only makes one libc call before exec (Linux)."""
    if sys.platform != "linux":
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None

    def set_death_signal() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # SIGKILL if the gateway itself is killed

    return set_death_signal


def spawn(command: Sequence[str]) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
            start_new_session=True,  # its own group, so the whole tree can be killed
            preexec_fn=_death_signal_setter(),  # noqa: PLW1509 (no threads of ours exist yet)
        )
    except OSError as exc:
        raise InputError(f"cannot start the server: {exc.strerror or exc}") from None


def _kill_group(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


def stop(process: subprocess.Popen[bytes]) -> int:
    """Close its stdin, wait, SIGTERM, wait, SIGKILL; the exit status (128+signal if killed)."""
    if process.stdin is not None and not process.stdin.closed:
        with contextlib.suppress(OSError):
            process.stdin.close()
    try:
        process.wait(timeout=SHUTDOWN_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        _kill_group(process, signal.SIGTERM)
        try:
            process.wait(timeout=SHUTDOWN_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            _kill_group(process, signal.SIGKILL)
            process.wait()
    _kill_group(process, signal.SIGKILL)  # grandchildren left behind by a wrapper (npx)
    code = process.returncode
    return 128 - code if code < 0 else code


def install_signal_handlers(done: threading.Event) -> dict[int, Any]:
    """SIGTERM, SIGINT, SIGHUP end the session (and so the server) instead of the gateway alone."""
    previous: dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        previous[sig] = signal.signal(sig, lambda *_: done.set())
    return previous


def restore_signal_handlers(previous: dict[int, Any]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler)
