"""Syscall witness: the outside tracer's log turned into the events the lab cares about.

Kept, from the server and its descendants only (`sandbox_witness.server_calls` drops the
launcher's and bubblewrap's own setup): opens for writing (O_WRONLY/O_RDWR/O_CREAT/O_TRUNC,
creat), unlink/rmdir/rename/mkdir/link/symlink/truncate, execve, every connection attempt (TCP,
UDP, Unix path, abstract; `sandbox_witness.attempt`), opens of host paths the sandbox hides,
every open of a canary file, writes down the server's stdout pipe (its answers: the proof the
tracer was attached during a call), and `touch` events: any file call on a path inside the lab
(the proof a handler looked at the path it was given). Paths come from strace's `-yy`
annotations where it gives them (the kernel's resolved path), else from the argument joined to
the directory fd's path.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from toolwitness.acquire.sandbox_witness import HARMLESS, SETUP_EXECS, attempt, server_calls
from toolwitness.acquire.strace_parse import (
    FD_PATH,
    is_dirfd,
    path_args,
    resolve,
    strings,
    syscalls,
    top_args,
)

_WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC")
_OPENS = frozenset({"open", "openat", "openat2", "creat"})
_MUTATIONS = {
    "unlink": "unlink", "unlinkat": "unlink", "rmdir": "unlink",
    "rename": "rename", "renameat": "rename", "renameat2": "rename",
    "mkdir": "mkdir", "mkdirat": "mkdir",
    "link": "link", "linkat": "link", "symlink": "link", "symlinkat": "link",
    "truncate": "write",
}  # fmt: skip
_EXECS = frozenset({"execve", "execveat"})
_PIPE = re.compile(r"^\d+<(pipe:\[\d+\])>$")


@dataclass(frozen=True)
class Event:
    pid: int
    time: float
    kind: str  # write unlink rename mkdir link exec connect hidden-read canary-read answer touch
    target: str  # a path, an address, or a program
    syscall: str
    result: str  # "0", "3", "-1 EROFS (Read-only file system)"
    line: str  # the raw line (bounded), for evidence

    @property
    def ok(self) -> bool:
        return not self.result.startswith("-1")


def _first_path(args: list[str]) -> str | None:
    dirfd: str | None = None
    for arg in args:
        if is_dirfd(arg):
            dirfd = arg
        elif arg.startswith('"'):
            text = strings(arg)
            return resolve(dirfd, text[0]) if text else None
    return None


def _open_event(
    name: str, args: list[str], result: str, canaries: dict[str, str]
) -> tuple[str, str] | None:
    at = name in ("openat", "openat2")
    dirfd = args[0] if at else None
    raw = strings(args[1] if at else args[0])
    if not raw:
        return None
    path = resolve(dirfd, raw[0])
    annotated = FD_PATH.match(result.split(" ", 1)[0])
    if annotated and annotated.group(1).startswith("/"):
        path = annotated.group(1)
    flags = args[2] if at and len(args) > 2 else (args[1] if len(args) > 1 else "")
    if path in canaries.values() or os.path.normpath(raw[0]) in canaries.values():
        return "canary-read", path
    writing = name == "creat" or any(f in flags for f in _WRITE_FLAGS)
    if writing and not path.startswith(HARMLESS) and not path.startswith("/proc/"):
        return "write", path
    return None


def _mutation(args: list[str]) -> str:
    """The target of an unlink/rename/mkdir/link call ("old -> new" for renames and links)."""
    return " -> ".join(path_args(args))


def classify(
    name: str, args_text: str, result: str, canaries: dict[str, str]
) -> tuple[str, str] | None:
    """(kind, target) for a file, process or pipe call worth keeping, else None."""
    args = top_args(args_text)
    if name in _OPENS:
        return _open_event(name, args, result, canaries)
    if name in _MUTATIONS:
        return _MUTATIONS[name], _mutation(args)
    if name in _EXECS:
        at = 1 if name == "execveat" else 0
        program = strings(args[at]) if len(args) > at else []
        argv = strings(args[at + 1]) if len(args) > at + 1 else []
        # The program and its arguments: `git version` at start-up is not `git status` in a call.
        return ("exec", " ".join([program[0], *argv[1:8]])[:300]) if program else None
    if name in ("write", "writev") and args:
        pipe = _PIPE.match(args[0])
        if pipe is not None:
            jsonrpc = len(args) > 1 and '\\"jsonrpc\\"' in args[1]
            return ("answer" if jsonrpc else "pipe-write"), pipe.group(1)
    return None


def parse(
    lines: Iterable[str],
    canaries: dict[str, str],
    areas: Sequence[str] = (),
    setup_execs: int = SETUP_EXECS,
) -> Iterator[Event]:
    """Events in file order (`areas`: the lab's folders as the server sees them)."""
    stdout_pipe: str | None = None
    roots = [a.rstrip("/") + "/" for a in areas]
    for call in server_calls(syscalls(lines), setup_execs):
        escape = attempt(call, areas)
        if escape is not None and escape.kind != "write":
            yield Event(call.pid, call.time, escape.kind, escape.target, call.name,
                        call.result, call.body[:300])  # fmt: skip
            continue
        kept = classify(call.name, call.args, call.result, canaries)
        if kept is None:
            path = _first_path(top_args(call.args)) if roots else None
            if path is not None and any((path + "/").startswith(r) for r in roots):
                yield Event(call.pid, call.time, "touch", path, call.name, call.result, "")
            continue
        kind, target = kept
        # The server's stdout is the pipe its first JSON-RPC message went down (it may
        # have been dup'ed away from fd 1); every later write to it is an answer.
        if kind == "answer":
            stdout_pipe = stdout_pipe or target
        elif kind == "pipe-write":
            if target != stdout_pipe:
                continue
            kind = "answer"
        yield Event(call.pid, call.time, kind, target, call.name, call.result, call.body[:300])


def read_trace(
    path: str,
    canaries: dict[str, str],
    max_bytes: int,
    areas: Sequence[str] = (),
    setup_execs: int = SETUP_EXECS,
) -> list[Event]:
    """All kept events of a trace file; a trace over `max_bytes` is refused (flooded)."""
    size = os.path.getsize(path)
    if size > max_bytes:
        raise ValueError(f"the syscall trace is {size} bytes, over the {max_bytes}-byte bound")
    with open(path, encoding="utf-8", errors="replace") as handle:
        return list(parse(handle, canaries, areas, setup_execs))
