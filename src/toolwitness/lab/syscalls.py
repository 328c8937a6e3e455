"""Syscall witness: parse `strace -f -ttt -y` output into the events the lab cares about.

Kept: opens for writing (O_WRONLY/O_RDWR/O_CREAT/O_TRUNC, creat), unlink/rmdir/rename/mkdir/
link/symlink/truncate, execve, connect, every open of a canary file, and writes down the
server's stdout pipe (its answers: the proof the tracer was attached during a call). The rest
is dropped. Paths come from strace's `-y` annotations where it gives them (the
kernel's resolved path), else from the argument joined to the directory fd's path.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

_LINE = re.compile(r"^(\d+)\s+(\d+\.\d+)\s+(.*)$")
_CALL = re.compile(r"^([a-z0-9_]+)\((.*)\)\s+=\s+(.*)$", re.S)
_RESUMED = re.compile(r"^<\.\.\. ([a-z0-9_]+) resumed>(.*)$", re.S)
_FD_PATH = re.compile(r"^-?\d+<(.*)>$")
_DIRFD = re.compile(r"^(?:AT_FDCWD|\d+)<(.*)>$")
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
_HARMLESS = ("/dev/null", "/dev/tty", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
_INET = ("AF_INET", "AF_INET6")
_PIPE = re.compile(r"^\d+<(pipe:\[\d+\])>$")


@dataclass(frozen=True)
class Event:
    pid: int
    time: float
    kind: str  # write | unlink | rename | mkdir | link | exec | connect | canary-read | answer
    target: str  # a path, an address, or a program
    syscall: str
    result: str  # "0", "3", "-1 EROFS (Read-only file system)"
    line: str  # the raw line (bounded), for evidence

    @property
    def ok(self) -> bool:
        return not self.result.startswith("-1")


def _strings(args: str) -> list[str]:
    """The C string literals of an strace argument list, unescaped."""
    out: list[str] = []
    i = 0
    while (start := args.find('"', i)) >= 0:
        buf: list[str] = []
        j = start + 1
        while j < len(args) and args[j] != '"':
            if args[j] == "\\" and j + 1 < len(args):
                j += 1
                esc = args[j]
                if esc == "x" and j + 2 < len(args):
                    buf.append(chr(int(args[j + 1 : j + 3], 16)))
                    j += 2
                elif esc.isdigit():
                    digits = re.match(r"[0-7]{1,3}", args[j:])
                    assert digits is not None
                    buf.append(chr(int(digits.group(), 8)))
                    j += len(digits.group()) - 1
                else:
                    buf.append({"n": "\n", "t": "\t", "r": "\r"}.get(esc, esc))
            else:
                buf.append(args[j])
            j += 1
        out.append("".join(buf))
        i = j + 1
    return out


def _top_args(args: str) -> list[str]:
    """Split on top-level commas (outside quotes, brackets, braces and <...> annotations)."""
    parts: list[str] = []
    depth = 0
    quoted = False
    start = 0
    i = 0
    while i < len(args):
        c = args[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in "[{(<":
            depth += 1
        elif c in "]})>":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(args[start:i].strip())
            start = i + 1
        i += 1
    parts.append(args[start:].strip())
    return parts


def _resolve(dirfd: str | None, path: str) -> str:
    if os.path.isabs(path) or dirfd is None:
        return os.path.normpath(path) if os.path.isabs(path) else path
    found = _DIRFD.match(dirfd)
    return os.path.normpath(os.path.join(found.group(1), path)) if found else path


def _open_event(
    name: str, args: list[str], result: str, canaries: dict[str, str]
) -> tuple[str, str] | None:
    at = name in ("openat", "openat2")
    dirfd = args[0] if at else None
    raw = _strings(args[1] if at else args[0])
    if not raw:
        return None
    path = _resolve(dirfd, raw[0])
    annotated = _FD_PATH.match(result.split(" ", 1)[0])
    if annotated:
        path = annotated.group(1)
    flags = args[2] if at and len(args) > 2 else (args[1] if len(args) > 1 else "")
    if path in canaries.values() or os.path.normpath(raw[0]) in canaries.values():
        return "canary-read", path
    writing = name == "creat" or any(f in flags for f in _WRITE_FLAGS)
    if writing and not path.startswith(_HARMLESS) and not path.startswith("/proc/"):
        return "write", path
    return None


def _mutation(name: str, args: list[str]) -> str:
    """The target of an unlink/rename/mkdir/link call ("old -> new" for renames and links)."""
    paths: list[str] = []
    dirfd: str | None = None
    for arg in args:
        if _DIRFD.match(arg):
            dirfd = arg
        elif arg.startswith('"'):
            text = _strings(arg)
            if text:
                paths.append(_resolve(dirfd, text[0]))
    return " -> ".join(paths)


def classify(
    name: str, args_text: str, result: str, canaries: dict[str, str]
) -> tuple[str, str] | None:
    """(kind, target) for a syscall worth keeping, else None."""
    args = _top_args(args_text)
    if name in _OPENS:
        return _open_event(name, args, result, canaries)
    if name in _MUTATIONS:
        return _MUTATIONS[name], _mutation(name, args)
    if name in _EXECS:
        at = 1 if name == "execveat" else 0
        program = _strings(args[at]) if len(args) > at else []
        argv = _strings(args[at + 1]) if len(args) > at + 1 else []
        # The program and its arguments: `git version` at start-up is not `git status` in a call.
        return ("exec", " ".join([program[0], *argv[1:8]])[:300]) if program else None
    if name == "connect" and len(args) > 1 and any(f in args[1] for f in _INET):
        return "connect", args[1][:200]
    if name in ("write", "writev") and args:
        pipe = _PIPE.match(args[0])
        if pipe is not None:
            jsonrpc = len(args) > 1 and '\\"jsonrpc\\"' in args[1]
            return ("answer" if jsonrpc else "pipe-write"), pipe.group(1)
    return None


def parse(lines: Iterable[str], canaries: dict[str, str]) -> Iterator[Event]:
    """Events in file order; `<unfinished ...>` lines are joined with their `resumed` halves."""
    pending: dict[int, tuple[float, str]] = {}
    stdout_pipe: str | None = None
    for raw in lines:
        found = _LINE.match(raw.rstrip("\n"))
        if not found:
            continue
        pid, stamp, body = int(found.group(1)), float(found.group(2)), found.group(3)
        if body.endswith("<unfinished ...>"):
            pending[pid] = (stamp, body[: -len("<unfinished ...>")].rstrip())
            continue
        resumed = _RESUMED.match(body)
        if resumed:
            if pid not in pending:
                continue
            stamp, head = pending.pop(pid)
            body = head + resumed.group(2)
        call = _CALL.match(body)
        if not call:
            continue
        kept = classify(call.group(1), call.group(2), call.group(3).strip(), canaries)
        if kept is not None:
            kind, target = kept
            # The server's stdout is the pipe its first JSON-RPC message went down (it may
            # have been dup'ed away from fd 1); every later write to it is an answer.
            if kind == "answer":
                stdout_pipe = stdout_pipe or target
            elif kind == "pipe-write":
                if target != stdout_pipe:
                    continue
                kind = "answer"
            yield Event(pid, stamp, kind, target, call.group(1), call.group(3).strip(), body[:300])


def read_trace(path: str, canaries: dict[str, str], max_bytes: int) -> list[Event]:
    """All kept events of a trace file; a trace over `max_bytes` is refused (flooded)."""
    size = os.path.getsize(path)
    if size > max_bytes:
        raise ValueError(f"the syscall trace is {size} bytes, over the {max_bytes}-byte bound")
    with open(path, encoding="utf-8", errors="replace") as handle:
        return list(parse(handle, canaries))
