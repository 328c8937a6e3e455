"""`--sandbox` and the lab: run a stdio server under bubblewrap, seccomp and an outside tracer.

The spawn, outermost first:

    setpriv --pdeathsig KILL --          the tracer dies with toolwitness, even on SIGKILL
    strace -f -o SCRATCH/strace.log --   the syscall witness, outside every namespace: its trace
                                         is out of the server's reach and TracerPid reads 0
    sh -c 'exec "$@" 3<"$0"' FILTER      hands bubblewrap the seccomp program on fd 3
    bwrap ... --seccomp 3 -- SERVER      the sandbox

bubblewrap: a read-only view built from nothing (`sandbox_layout.py`: system folders, a few /etc
entries, the server's install and the folders its command line names; host sockets inside them
covered), the writable areas the caller binds, fresh /dev and /proc, every namespace unshared
(network included: only a loopback of its own, which also separates abstract Unix sockets), no
capabilities, a new session, `--die-with-parent`, and the seccomp filter of `seccomp.py`.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from toolwitness.acquire.sandbox_layout import Bind, View, file_system_view
from toolwitness.acquire.seccomp import compiled
from toolwitness.errors import InputError
from toolwitness.procs import with_parent_death

__all__ = [
    "Bind", "View", "bubblewrap_argv", "bubblewrap_binary", "sandbox_argv", "sandbox_spawn",
    "trace_file",
]  # fmt: skip

# Runners that hand the work to a daemon outside the sandbox: wrapping them protects nothing.
_DAEMON_CLIENTS = frozenset({"docker", "podman"})
_SANDBOX_TMP = "/tmp"  # noqa: S108 - the sandbox's own tmpfs, not the host's folder
_HANDOFF = 'exec "$@" 3<"$0"'  # sh: open the filter as fd 3 for the program it becomes
# What the live sandbox's witness records: connections, writes, opens, program starts.
LIVE_TRACE = (
    "%network,%process,open,openat,openat2,creat,mkdir,mkdirat,unlink,unlinkat,rmdir,rename,"
    "renameat,renameat2,link,linkat,symlink,symlinkat,truncate"
)


def bubblewrap_binary() -> str:
    found = shutil.which("bwrap")
    if found is None:
        raise InputError(
            "--sandbox needs bubblewrap (`bwrap`); install it (Debian/Ubuntu: apt-get install "
            "bubblewrap) or scan without --sandbox"
        )
    return found


def strace_binary() -> str:
    found = shutil.which("strace")
    if found is None:
        raise InputError(
            "the sandbox's syscall witness needs strace; install it (Debian/Ubuntu: apt-get "
            "install strace)"
        )
    return found


def trace_file(scratch: Path) -> Path:
    """Where the tracer writes (outside every folder the server can see)."""
    return scratch / "strace.log"


def sandbox_argv(
    command: Sequence[str],
    *,
    binds: Sequence[Bind],
    workdir: str,
    path_env: str,
    scratch: Path,
    trace: str | None,
    string_bytes: int = 256,
    scratch_tmp: bool = False,
) -> tuple[str, ...]:
    """`sandbox_spawn`'s argv alone."""
    return sandbox_spawn(
        command, binds=binds, workdir=workdir, path_env=path_env, scratch=scratch, trace=trace,
        string_bytes=string_bytes, scratch_tmp=scratch_tmp,
    )[0]  # fmt: skip


def sandbox_spawn(
    command: Sequence[str],
    *,
    binds: Sequence[Bind],
    workdir: str,
    path_env: str,
    scratch: Path,
    trace: str | None,
    string_bytes: int = 256,
    scratch_tmp: bool = False,
) -> tuple[tuple[str, ...], View]:
    """The whole spawn for `command` (inside paths) with `binds` writable; `trace`: strace's
    `-e trace=` set, or None for no tracer; `scratch_tmp`: a throwaway tmpfs on /tmp. Also
    returns the file-system view (what of the host is visible)."""
    name = Path(command[0]).name
    if name in _DAEMON_CLIENTS:
        raise InputError(
            f"the sandbox cannot confine {name!r}: its container runs under a daemon outside "
            "the sandbox, where no witness sees it; scan it without --sandbox"
        )
    bwrap = bubblewrap_binary()
    tmpfs = (_SANDBOX_TMP,) if scratch_tmp else ()
    view = file_system_view(command, binds, workdir, path_env, tmpfs)
    scratch.mkdir(parents=True, exist_ok=True)
    seccomp = scratch / "seccomp.bpf"
    seccomp.write_bytes(compiled())
    sandbox = (
        "/bin/sh", "-c", _HANDOFF, str(seccomp), bwrap, *view.args,
        "--remount-ro", "/", "--chdir", workdir, "--setenv", "PATH", view.path,
        "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--seccomp", "3", "--", *command,
    )  # fmt: skip
    if trace is None:
        return with_parent_death(sandbox), view
    tracer = (
        strace_binary(), "-f", "-ttt", "-qq", "-yy", "-s", str(string_bytes),
        "-e", f"trace={trace}", "-o", str(trace_file(scratch)), "--",
    )  # fmt: skip
    return with_parent_death((*tracer, *sandbox)), view


def bubblewrap_argv(
    argv: tuple[str, ...],
    *,
    home: Path,
    workdir: Path,
    writable: Iterable[Path],
    env: Mapping[str, str],
    scratch: Path,
) -> tuple[str, ...]:
    """`scan --live --sandbox`: `home`, `writable` and a throwaway /tmp writable, traced into
    `trace_file(scratch)` (read by `sandbox_witness.read_attempts`)."""
    binds = [Bind(str(p), str(p)) for p in dict.fromkeys((home, *writable))]
    executable = shutil.which(argv[0], path=env.get("PATH")) or argv[0]
    return sandbox_argv(
        (executable, *argv[1:]),
        binds=binds,
        workdir=str(workdir),
        path_env=env.get("PATH", ""),
        scratch=scratch,
        trace=LIVE_TRACE,
        scratch_tmp=True,
    )
