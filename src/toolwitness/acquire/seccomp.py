"""A classic-BPF seccomp program for bubblewrap's `--seccomp FD`, compiled from `data/sandbox.yaml`.

What seccomp can express, it enforces: the native ABI only (a call through i386 or x32 kills the
process), no io_uring (it would do file and socket work that neither the tracer nor this filter
sees), no new namespaces (clone with namespace flags, clone3, unshare, setns), no mount API, no
ptrace or cross-process memory access, no keyrings, bpf, perf, userfaultfd, kernel log, file
handles, kexec or modules, and `socket()` only for AF_UNIX, AF_INET, AF_INET6 and AF_NETLINK.

What it cannot express: `connect()` passes its address by pointer, and seccomp sees only the
pointer. Where a Unix socket may connect is therefore decided by the mount namespace (no host
socket folder is visible, host sockets inside visible folders are covered) and the network
namespace (abstract sockets and loopback are the sandbox's own); the syscall witness records
every attempt with its address. See docs/lab.md, "The sandbox boundary".
"""

from __future__ import annotations

import errno
import platform
import struct

from toolwitness.acquire.sandbox_policy import SandboxPolicy, sandbox_policy
from toolwitness.errors import InputError

_LD_ABS_W = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_JSET = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_RET = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000
_KILL_PROCESS = 0x80000000
_ERRNO = 0x00050000
_OFF_NR, _OFF_ARCH, _OFF_ARG0 = 0, 4, 16  # struct seccomp_data (args[0] low word: little endian)
_X32_BIT = 0x40000000
_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
_MACHINE = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}

Instruction = tuple[int, int, int, int]  # code, jump-if-true, jump-if-false, k


def architecture() -> str:
    machine = _MACHINE.get(platform.machine().lower())
    if machine is None:
        raise InputError(
            f"the sandbox's seccomp filter knows x86_64 and aarch64, not {platform.machine()!r}"
        )
    return machine


def _ret(value: int) -> Instruction:
    return (_RET, 0, 0, value)


def _errno(code: int) -> int:
    return _ERRNO | (code & 0xFFFF)


def program(arch: str | None = None, policy: SandboxPolicy | None = None) -> list[Instruction]:
    """The filter as instructions (tested directly, and packed by `compiled`)."""
    arch = arch or architecture()
    policy = policy or sandbox_policy()
    numbers = policy.numbers[arch]
    out: list[Instruction] = [
        (_LD_ABS_W, 0, 0, _OFF_ARCH),
        (_JEQ, 1, 0, _AUDIT_ARCH[arch]),
        _ret(_KILL_PROCESS),
        (_LD_ABS_W, 0, 0, _OFF_NR),
    ]
    if arch == "x86_64":
        out += [(_JGE, 0, 1, _X32_BIT), _ret(_KILL_PROCESS)]
    for call in policy.denied:
        out += [(_JEQ, 0, 1, numbers[call.name]), _ret(_errno(call.errno))]
    families = sorted(policy.socket_families.values())
    # socket(): allowed families return ALLOW, any other EAFNOSUPPORT.
    out.append((_JEQ, 0, len(families) + 3, numbers["socket"]))
    out.append((_LD_ABS_W, 0, 0, _OFF_ARG0))
    for index, family in enumerate(families):
        out.append((_JEQ, len(families) - index, 0, family))
    out += [_ret(_errno(errno.EAFNOSUPPORT)), _ret(_ALLOW)]
    # clone(): the flags are the first argument on both architectures.
    out.append((_JEQ, 0, 3, numbers["clone"]))
    out.append((_LD_ABS_W, 0, 0, _OFF_ARG0))
    out += [(_JSET, 0, 1, policy.clone_namespace_flags), _ret(_errno(errno.EPERM))]
    out.append(_ret(_ALLOW))
    return out


def compiled(arch: str | None = None) -> bytes:
    """The program as the kernel's `struct sock_filter[]` (what bwrap reads from its fd)."""
    return b"".join(struct.pack("=HBBI", *ins) for ins in program(arch))


def evaluate(instructions: list[Instruction], arch: int, nr: int, arg0: int = 0) -> int:
    """Run the program on one `seccomp_data` (a reference interpreter for the tests)."""
    data = {_OFF_ARCH: arch, _OFF_NR: nr, _OFF_ARG0: arg0 & 0xFFFFFFFF}
    accumulator = 0
    pc = 0
    while True:
        code, jt, jf, k = instructions[pc]
        if code == _LD_ABS_W:
            accumulator = data[k]
        elif code == _RET:
            return k
        elif code in (_JEQ, _JGE, _JSET):
            taken = {
                _JEQ: accumulator == k,
                _JGE: accumulator >= k,
                _JSET: bool(accumulator & k),
            }[code]
            pc += jt if taken else jf
        pc += 1


def audit_arch(arch: str) -> int:
    return _AUDIT_ARCH[arch]
