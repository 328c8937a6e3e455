"""Processes that end with their parent: `PR_SET_PDEATHSIG` through ctypes, and a launcher.

A SIGKILL of toolwitness leaves no time to clean up, so every long-lived helper it starts asks the
kernel to kill it when its parent dies: sweep workers and their forkserver, the analysis
children, the probe child, and the tracer in front of a sandboxed server (bubblewrap's
`--die-with-parent` and its pid namespace take the server down after it).

`python -m toolwitness.procs -- PROGRAM ARGS...` sets the signal and execs PROGRAM (the
fallback when util-linux's `setpriv --pdeathsig` is not installed).
"""

from __future__ import annotations

import ctypes
import os
import resource
import shutil
import signal
import sys
from collections.abc import Sequence

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> bool:
    """Ask for SIGKILL when the parent dies; exit now if it already has. False: unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent died before the signal was armed
    return True


def limit_resources(memory_mib: int, cpu_seconds: int) -> None:
    """Cap this process (and what it starts): address space and CPU time (0: no cap)."""
    if memory_mib > 0:
        cap = memory_mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    if cpu_seconds > 0:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))


def with_parent_death(argv: Sequence[str]) -> tuple[str, ...]:
    """`argv` behind a launcher that arms the parent-death signal, then execs it."""
    setpriv = shutil.which("setpriv")
    if setpriv is not None:
        return (setpriv, "--pdeathsig", "KILL", "--", *argv)
    return (sys.executable, "-m", "toolwitness.procs", "--", *argv)


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2 or argv[0] != "--":
        sys.stderr.write("usage: python -m toolwitness.procs -- PROGRAM ARGS...\n")
        return 2
    die_with_parent()
    os.execvp(argv[1], list(argv[1:]))  # noqa: S606 - the launcher's whole job
    return 127  # pragma: no cover - execvp does not return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
