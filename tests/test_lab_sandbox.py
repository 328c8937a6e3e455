"""The sandbox boundary, unit by unit: its data, the seccomp program, the view, the witness."""

from __future__ import annotations

import errno
import json
import socket
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import require_tools
from toolwitness.acquire import seccomp
from toolwitness.acquire.sandbox import sandbox_argv
from toolwitness.acquire.sandbox_layout import Bind, file_system_view
from toolwitness.acquire.sandbox_policy import sandbox_policy
from toolwitness.acquire.sandbox_witness import attempt, server_calls
from toolwitness.acquire.strace_parse import Syscall, sockaddr, socket_protocol, syscalls
from toolwitness.errors import InputError


def test_the_boundary_data_matches_its_schema() -> None:
    data = resources.files("toolwitness.data")
    doc = yaml.safe_load(data.joinpath("sandbox.yaml").read_text(encoding="utf-8"))
    schema = json.loads(data.joinpath("sandbox.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema)
    assert sandbox_policy().denied  # and it loads


@pytest.mark.parametrize("arch", ["x86_64", "aarch64"])
def test_the_seccomp_program_decides_as_the_data_says(arch: str) -> None:
    program = seccomp.program(arch)
    numbers = sandbox_policy().numbers[arch]
    native = seccomp.audit_arch(arch)

    def run(nr: int, arg0: int = 0, audit: int = native) -> int:
        return seccomp.evaluate(program, audit, nr, arg0)

    allow, kill = 0x7FFF0000, 0x80000000
    assert run(numbers["socket"], socket.AF_UNIX) == allow
    assert run(numbers["socket"], socket.AF_INET6) == allow
    assert run(numbers["socket"], 40) == 0x50000 | errno.EAFNOSUPPORT  # AF_VSOCK
    assert run(numbers["io_uring_setup"]) == 0x50000 | errno.ENOSYS
    assert run(numbers["ptrace"]) == 0x50000 | errno.EPERM
    assert run(numbers["clone"], 0x10000000 | 17) == 0x50000 | errno.EPERM  # CLONE_NEWUSER
    assert run(numbers["clone"], 0x01200011) == allow  # what fork() passes
    assert run(0) == allow and run(numbers["socket"] + 1) == allow
    assert run(0, audit=0x40000003) == kill  # an i386 call
    if arch == "x86_64":
        assert run(0x40000000 | 41) == kill  # an x32 call
    assert all(jt < 256 and jf < 256 for _, jt, jf, _ in program)
    assert len(seccomp.compiled(arch)) == 8 * len(program)


_PROBE = r"""
import ctypes, errno, os, socket
out = {}
for name, family in (("unix", socket.AF_UNIX), ("vsock", 40), ("packet", 17)):
    try:
        socket.socket(family, socket.SOCK_STREAM if family != 17 else socket.SOCK_RAW).close()
        out[name] = "ok"
    except OSError as exc:
        out[name] = errno.errorcode[exc.errno]
libc = ctypes.CDLL(None, use_errno=True)
for name, call in (("io_uring_setup", lambda: libc.syscall(425, 1, 0)),
                   ("unshare", lambda: libc.unshare(0x10000000))):
    out[name] = "ok" if call() == 0 else errno.errorcode[ctypes.get_errno()]
status = open("/proc/self/status").read()
out["seccomp"] = status.split("Seccomp:")[1].split()[0]
out["tracer"] = status.split("TracerPid:")[1].split()[0]
print(out)
"""


def test_the_kernel_enforces_the_filter_and_the_tracer_is_invisible(tmp_path: Path) -> None:
    require_tools("bwrap", "strace")
    import ast
    import subprocess

    if seccomp.architecture() != "x86_64":
        pytest.skip("the probe script uses x86_64 syscall numbers")
    for trace in (None, "%network"):
        scratch = tmp_path / f"scratch-{trace is not None}"
        argv = sandbox_argv((sys.executable, "-c", _PROBE), binds=[], workdir="/",
                            path_env="/usr/bin:/bin", scratch=scratch, trace=trace)  # fmt: skip
        done = subprocess.run(argv, capture_output=True, timeout=60, check=True)
        seen = ast.literal_eval(done.stdout.decode().strip())
        assert seen["unix"] == "ok" and seen["vsock"] == seen["packet"] == "EAFNOSUPPORT"
        assert seen["io_uring_setup"] == "ENOSYS" and seen["unshare"] == "EPERM"
        assert seen["seccomp"] == "2" and seen["tracer"] == "0"  # traced from outside: hidden


def test_the_view_covers_host_sockets_and_secrets_in_named_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text("key", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(home / "agent.sock"))
    listening.listen()
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(home / "stale.sock"))  # a socket file no listener in this namespace owns
    stale.close()
    try:
        view = file_system_view(
            (sys.executable, str(home)), [Bind(str(tmp_path / "w"), "/w")], "/w", "/usr/bin:/x"
        )
    finally:
        listening.close()
    args = list(view.args)
    pairs = {(args[i], args[i + 2]) for i in range(len(args) - 2) if args[i].startswith("--")}
    assert ("--ro-bind", str(home)) in pairs
    assert ("--ro-bind", str(home / "agent.sock")) in pairs  # covered by /dev/null
    assert ("--ro-bind", str(home / "stale.sock")) in pairs  # found by the walk
    assert args[args.index(str(home / "agent.sock")) - 1] == "/dev/null"
    assert ("--tmpfs", str(home / ".ssh")) in {(args[i], args[i + 1]) for i in range(len(args) - 1)}
    for hidden in ("/run", "/var", "/tmp", "/home", "/root", "/mnt", "/sys"):
        assert hidden not in args, f"{hidden} is visible"
    assert view.path == "/usr/bin"  # a PATH entry the server cannot see is dropped


def test_a_named_folder_too_big_to_check_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.mkdir()
    for index in range(sandbox_policy().socket_walk_entries + 1):
        (big / f"f{index}").touch()
    with pytest.raises(InputError, match="cannot check it for sockets"):
        file_system_view((sys.executable, str(big)), [], "/", "/usr/bin")


def test_addresses_and_protocols_from_strace() -> None:
    assert sockaddr('{sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr("127.0.0.1")}') == (
        "AF_INET", "127.0.0.1:9")  # fmt: skip
    v6 = '{sa_family=AF_INET6, sin6_port=htons(443), inet_pton(AF_INET6, "::1", &sin6_addr)}'
    assert sockaddr(v6) == ("AF_INET6", "[::1]:443")
    assert sockaddr('{sa_family=AF_UNIX, sun_path="/run/docker.sock"}') == (
        "AF_UNIX", "unix:/run/docker.sock")  # fmt: skip
    assert sockaddr('{sa_family=AF_UNIX, sun_path=@"agent\\x01"}') == ("AF_UNIX", "unix:@agent\x01")
    assert socket_protocol("5<TCPv6:[88451]>") == "tcp"
    assert socket_protocol("3<UDP:[0.0.0.0:48328]>") == "udp"
    assert socket_protocol("7<socket:[1]>") == "socket"


def _call(name: str, args: str, result: str, pid: int = 9) -> Syscall:
    return Syscall(pid, 1.0, name, args, result, f"{name}({args}) = {result}")


def test_every_way_out_is_an_attempt_with_its_address() -> None:
    def seen(name: str, args: str, result: str) -> tuple[str, str] | None:
        found = attempt(_call(name, args, result), ["/home/u"])
        return (found.kind, found.target) if found else None

    udp = '3<UDP:[1]>, "x", 1, 0, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.1")}, 16'
    assert seen("sendto", udp, "1") == ("connect", "udp 10.0.0.1:53")
    msg = '3<UDP:[1]>, {msg_name={sa_family=AF_INET6, sin6_port=htons(9), inet_pton(AF_INET6, "::1", &sin6_addr)}, msg_namelen=28}, 0'
    assert seen("sendmsg", msg, "1") == ("connect", "udp [::1]:9")
    unix = '4<UNIX-STREAM:[2]>, {sa_family=AF_UNIX, sun_path=@"x"}, 5'
    assert seen("connect", unix, "-1 ECONNREFUSED (Connection refused)") == ("connect", "unix:@x")
    netlink = "5<NETLINK:[3]>, {sa_family=AF_NETLINK, nl_pid=0}, 12"
    assert seen("sendto", netlink, "20") is None  # libc asking for interfaces
    assert seen("socket", "AF_VSOCK, SOCK_STREAM, 0", "-1 EAFNOSUPPORT (x)") == (
        "connect", "AF_VSOCK socket (refused by the seccomp filter)")  # fmt: skip
    write = 'AT_FDCWD</home/u>, "/etc/x", O_WRONLY|O_CREAT, 0666'
    assert seen("openat", write, "-1 EROFS (Read-only file system)") == ("write", "/etc/x")
    inside = 'AT_FDCWD</home/u>, "notes.txt", O_WRONLY|O_CREAT, 0666'
    assert seen("openat", inside, "3</home/u/notes.txt>") is None  # its own home
    hidden = 'AT_FDCWD</home/u>, "/etc/hostname", O_RDONLY'  # exists on the host
    assert seen("openat", hidden, "-1 ENOENT (No such file or directory)") == (
        "hidden-read", "/etc/hostname")  # fmt: skip
    missing = 'AT_FDCWD</home/u>, "/no/such/file/anywhere", O_RDONLY'
    assert seen("openat", missing, "-1 ENOENT (No such file or directory)") is None


def test_the_launcher_and_bubblewrap_are_not_the_server() -> None:
    lines = [
        '1 1.0 execve("/bin/sh", ["sh"], 0x1 /* 2 vars */) = 0',
        '1 1.1 execve("/usr/bin/bwrap", ["bwrap"], 0x1 /* 2 vars */) = 0',
        '1 1.2 openat(AT_FDCWD</>, "/proc/self/uid_map", O_WRONLY) = 3</proc/1/uid_map>',
        '2 1.3 mkdir("/newroot/tmp", 0755) = 0',
        '3 1.4 execve("/usr/bin/python3", ["python3"], 0x1 /* 2 vars */) = 0',
        '3 1.5 mkdir("/home/u/x", 0755) = 0',
        "2 1.6 wait4(-1, NULL, 0, NULL) = 3",
        '4 1.7 mkdir("/home/u/y", 0755) = 0',
    ]
    kept = [(c.pid, c.name) for c in server_calls(syscalls(lines))]
    assert kept == [(3, "execve"), (3, "mkdir"), (4, "mkdir")]


def test_a_console_script_brings_its_interpreter(tmp_path: Path) -> None:
    """A venv's console script names only itself; its `#!` interpreter (a link into another
    prefix) must be visible too, or the sandbox cannot start it."""
    import os

    real = Path(os.path.realpath(sys.executable))
    venv_bin = tmp_path / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "python").symlink_to(real)
    script = venv_bin / "tool"
    script.write_text(f"#!{venv_bin / 'python'}\nprint(1)\n", encoding="utf-8")
    view = file_system_view((str(script),), [], "/", "/usr/bin")
    prefix = str(real.parent.parent)
    if not prefix.startswith(tuple(sandbox_policy().system_paths)):
        assert prefix in view.visible
    assert str(tmp_path / "venv") in view.visible
