"""The sandbox's syscall witness: every attempt to reach outside, with its address.

Read from the outside tracer's log (`sandbox.trace_file`). The setup of the launcher and of
bubblewrap itself is dropped (everything before the server's own `execve`, and the bubblewrap
processes after it). An attempt is:

- connect: `connect`, `sendto`, `sendmsg`, `sendmmsg` with an address — TCP, UDP, a Unix path or
  an abstract Unix name — whatever the result (in the sandbox they fail or reach only the
  sandbox's own loopback), and `socket()` of a family the seccomp filter refuses;
- write: opening for writing, creating, deleting, renaming or linking a path outside the
  writable areas (refused by the read-only view, or missing because the sandbox hides its folder);
- hidden-read: opening or running a path that exists on the host but not in the sandbox.

`SandboxLog` collects them per server for `scan --live --sandbox`, which turns them into
TW-LAB-008 findings.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from toolwitness.acquire.sandbox_policy import sandbox_policy
from toolwitness.acquire.strace_parse import (
    Syscall,
    path_args,
    sockaddr,
    socket_protocol,
    syscalls,
    top_args,
)

HARMLESS = ("/dev/null", "/dev/tty", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
            "/dev/stdout", "/dev/stderr", "/dev/pts/", "/proc/self/fd/", "/dev/fd/")  # fmt: skip
_WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC")
_OPENS = frozenset({"open", "openat", "openat2", "creat"})
_MUTATIONS = frozenset({
    "unlink", "unlinkat", "rmdir", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "link",
    "linkat", "symlink", "symlinkat", "truncate",
})  # fmt: skip
_REFUSED = ("EROFS", "EACCES", "EPERM", "ENOENT")
_SENDS = frozenset({"sendto", "sendmsg", "sendmmsg"})
MAX_ATTEMPTS = 200


@dataclass(frozen=True)
class Attempt:
    kind: str  # connect | write | hidden-read
    target: str  # "tcp 127.0.0.1:9", "unix:/run/x.sock", "unix:@name", "/etc/x"
    syscall: str
    result: str
    time: float
    line: str

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "target": self.target, "syscall": self.syscall,
                "result": self.result[:80]}  # fmt: skip


SETUP_EXECS = 2  # the hand-off shell, then bwrap; the third program started is the server


def server_calls(calls: Iterable[Syscall], setup_execs: int = SETUP_EXECS) -> Iterator[Syscall]:
    """The server's calls: the launcher shell and bubblewrap's own setup are dropped
    (`setup_execs=0`: the trace starts with the server itself, nothing is dropped)."""
    if setup_execs == 0:
        yield from calls
        return
    execs = 0
    setup: set[int] = set()
    server: int | None = None
    for call in calls:
        if server is None:
            if call.name in ("execve", "execveat") and call.ok:
                execs += 1
                if execs > setup_execs:
                    server = call.pid
                    setup.discard(call.pid)
                    yield call
                    continue
            setup.add(call.pid)
            continue
        if call.pid not in setup:
            yield call


def _under(path: str, roots: Sequence[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def _address(call: Syscall, args: list[str]) -> str | None:
    if call.name == "connect" and len(args) > 1:
        text = args[1]
    elif call.name == "sendto" and len(args) > 4:
        text = args[4]
    elif call.name in ("sendmsg", "sendmmsg") and len(args) > 1 and "msg_name={" in args[1]:
        text = args[1][args[1].index("msg_name={") :]
    else:
        return None
    found = sockaddr(text)
    if found is None or found[0] == "AF_NETLINK":
        return None
    family, address = found
    if family == "AF_UNIX":
        return address
    return f"{socket_protocol(args[0])} {address}"


def attempt(call: Syscall, writable: Sequence[str]) -> Attempt | None:
    """The escape attempt a server call is, if any (`writable`: the areas it may write)."""
    args = top_args(call.args)

    def made(kind: str, target: str) -> Attempt:
        return Attempt(kind, target[:300], call.name, call.result, call.time, call.body[:300])

    if call.name == "connect" or call.name in _SENDS:
        address = _address(call, args)
        return made("connect", address) if address else None
    if call.name == "socket" and not call.ok and "EAFNOSUPPORT" in call.result and args:
        if args[0] not in sandbox_policy().socket_families:
            return made("connect", f"{args[0]} socket (refused by the seccomp filter)")
        return None
    paths = path_args(args) if call.name in _OPENS | _MUTATIONS | {"execve"} else []
    if not paths or not os.path.isabs(paths[0]) or paths[0].startswith(HARMLESS):
        return None
    path = paths[0]
    flags = args[2] if call.name in ("openat", "openat2") and len(args) > 2 else ""
    flags = flags or (args[1] if call.name == "open" and len(args) > 1 else "")
    writing = (
        call.name in _MUTATIONS or call.name == "creat" or any(f in flags for f in _WRITE_FLAGS)
    )
    if writing:
        if path.startswith("/proc/"):
            return None
        if any(code in call.result for code in _REFUSED[:3]):
            return made("write", path)  # refused by the read-only view, wherever it is
        if _under(path, writable):
            return None
        if call.ok:
            return made("write", path)  # a throwaway place of the sandbox (/tmp, /dev/shm)
        if "ENOENT" in call.result and os.path.isdir(os.path.dirname(path)):
            return made("write", path)  # the folder exists on the host; the sandbox hides it
        return None
    # Missing inside, present on the host: the sandbox hid it (the lab's /tmp is not the
    # host's, so a host file under /tmp counts too).
    if "ENOENT" in call.result and os.path.lexists(path):
        return made("hidden-read", path)
    return None


def read_attempts(path: str, writable: Sequence[str], max_bytes: int) -> list[Attempt]:
    """Every attempt in a trace file (deduplicated by kind and target, bounded)."""
    size = os.path.getsize(path)
    if size > max_bytes:
        raise ValueError(f"the syscall trace is {size} bytes, over the {max_bytes}-byte bound")
    out: dict[tuple[str, str], Attempt] = {}
    with open(path, encoding="utf-8", errors="replace") as handle:
        for call in server_calls(syscalls(handle)):
            found = attempt(call, writable)
            if found is not None and len(out) < MAX_ATTEMPTS:
                out.setdefault((found.kind, found.target), found)
    return list(out.values())


@dataclass
class SandboxLog:
    """What the witness saw per server (thread-safe: servers are acquired concurrently)."""

    attempts: dict[str, list[Attempt]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, server: str, attempts: list[Attempt], error: str | None = None) -> None:
        with self._lock:
            self.attempts[server] = attempts
            if error is not None:
                self.errors[server] = error
            else:
                self.errors.pop(server, None)


def record_trace(
    log: SandboxLog, server: str, trace: str, writable: Sequence[str], max_bytes: int
) -> None:
    """Read one server's trace into `log`; a missing or flooded trace is recorded as an error."""
    try:
        log.record(server, read_attempts(trace, writable, max_bytes))
    except OSError as exc:
        log.record(server, [], f"the sandbox's syscall witness wrote no trace ({exc.strerror})")
    except ValueError as exc:
        log.record(server, [], f"the sandbox's syscall witness was flooded: {exc}")
