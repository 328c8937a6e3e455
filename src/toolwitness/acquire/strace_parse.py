"""Read `strace -f -ttt -yy` output: one `Syscall` per completed call, addresses decoded.

Shared by the lab's syscall witness (`lab/syscalls.py`) and the sandbox witness of
`scan --live --sandbox` (`acquire/sandbox_witness.py`). `<unfinished ...>` lines are joined with
their `resumed` halves (the call keeps the time it started). Strings are C literals as strace
prints them; `strings()` unescapes them, `top_args()` splits an argument list on its top-level
commas, `sockaddr()` turns `{sa_family=AF_INET, ...}` into `127.0.0.1:9`, `unix:/path`,
`unix:@abstract`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

_LINE = re.compile(r"^(\d+)\s+(\d+\.\d+)\s+(.*)$")
_CALL = re.compile(r"^([a-z0-9_]+)\((.*)\)\s+=\s+(.*)$", re.S)
_RESUMED = re.compile(r"^<\.\.\. ([a-z0-9_]+) resumed>(.*)$", re.S)
_DIRFD = re.compile(r"^(?:AT_FDCWD|\d+)<(.*)>$")
FD_PATH = re.compile(r"^-?\d+<(.*)>$")
_FAMILY = re.compile(r"sa_family=(AF_[A-Z0-9]+)")
_PORT = re.compile(r"sin6?_port=htons\((\d+)\)")
_V4 = re.compile(r'inet_addr\("([0-9.]+)"\)')
_V6 = re.compile(r'inet_pton\(AF_INET6, "([0-9a-fA-F:.]+)"')
_UNIX = re.compile(r'sun_path=(@?)"((?:[^"\\]|\\.)*)"')
_MAX_LINE = 64 * 1024  # a longer line is cut (its tail cannot be a syscall we need whole)


@dataclass(frozen=True)
class Syscall:
    pid: int
    time: float
    name: str
    args: str  # the raw argument list
    result: str  # "0", "3</path>", "-1 ENOENT (No such file or directory)"
    body: str  # the whole call, for evidence (bounded by the caller)

    @property
    def ok(self) -> bool:
        return not self.result.startswith("-1")


def syscalls(lines: Iterable[str]) -> Iterator[Syscall]:
    """Completed calls in file order (signals, exits and unmatched halves are dropped)."""
    pending: dict[int, tuple[float, str]] = {}
    for raw in lines:
        found = _LINE.match(raw[:_MAX_LINE].rstrip("\n"))
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
        if call:
            yield Syscall(pid, stamp, call.group(1), call.group(2), call.group(3).strip(), body)


def strings(args: str) -> list[str]:
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


def top_args(args: str) -> list[str]:
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


def resolve(dirfd: str | None, path: str) -> str:
    """An argument path made absolute against its directory fd's annotated path."""
    if os.path.isabs(path) or dirfd is None:
        return os.path.normpath(path) if os.path.isabs(path) else path
    found = _DIRFD.match(dirfd)
    return os.path.normpath(os.path.join(found.group(1), path)) if found else path


def is_dirfd(arg: str) -> bool:
    return _DIRFD.match(arg) is not None


def path_args(args: list[str]) -> list[str]:
    """The path arguments of a call, each made absolute against the dirfd printed before it."""
    out: list[str] = []
    dirfd: str | None = None
    for arg in args:
        if is_dirfd(arg):
            dirfd = arg
        elif arg.startswith('"'):
            text = strings(arg)
            if text:
                out.append(resolve(dirfd, text[0]))
    return out


def sockaddr(text: str) -> tuple[str, str] | None:
    """(family, address) of a printed sockaddr: ("AF_INET", "127.0.0.1:9"), ("AF_UNIX", ...)."""
    family = _FAMILY.search(text)
    if family is None:
        return None
    name = family.group(1)
    port = _PORT.search(text)
    if name == "AF_INET":
        host = _V4.search(text)
        return name, f"{host.group(1) if host else '?'}:{port.group(1) if port else '?'}"
    if name == "AF_INET6":
        host = _V6.search(text)
        return name, f"[{host.group(1) if host else '?'}]:{port.group(1) if port else '?'}"
    if name == "AF_UNIX":
        path = _UNIX.search(text)
        if path is None:
            return name, "unix:(unnamed)"
        decoded = strings(f'"{path.group(2)}"')[0]
        return name, f"unix:{path.group(1)}{decoded}"
    return name, name


def socket_protocol(fd_arg: str) -> str:
    """`3<TCP:[123]>` -> "tcp"; `<UDPv6:...>` -> "udp"; `<UNIX-STREAM:...>` -> "unix"."""
    found = FD_PATH.match(fd_arg)
    label = found.group(1).split(":", 1)[0].upper() if found else ""
    for prefix, name in (("TCP", "tcp"), ("UDP", "udp"), ("UNIX", "unix"), ("NETLINK", "netlink")):
        if label.startswith(prefix):
            return name
    return "socket"
