"""What of the host a sandboxed server sees: bubblewrap's file-system arguments.

The root is an empty tmpfs, remounted read-only at the end. Read-only from the host: the system
folders and a short list of /etc entries (`data/sandbox.yaml`), and the folders the command line
needs — the server's install (the folder above `node_modules`, a venv or interpreter prefix
above `bin/`) and the folders and files it names. The writable areas come from the caller.
Never visible: /run, /var, /tmp, /home, /root, /mnt, /sys and the rest of /etc, and the secret
locations of `data/sandbox.yaml` (covered even inside a named folder).

Unix sockets inside a visible folder are covered by /dev/null (a connect then fails with
ECONNREFUSED and the witness records the address): every path socket the scanner's network
namespace lists in /proc/net/unix, and every socket file found by walking the folders the command
line names (a socket bound from another namespace, a container, is not listed there). A named
folder too big to walk is refused, never exposed unchecked.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from toolwitness.acquire.sandbox_policy import SandboxPolicy, sandbox_policy
from toolwitness.errors import InputError

_PROC_NET_UNIX_BYTES = 32 * 1024 * 1024
_SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".pyz")


@dataclass(frozen=True)
class Bind:
    """A writable area: a host folder, seen inside the sandbox at `inside`."""

    host: str
    inside: str


@dataclass(frozen=True)
class View:
    args: tuple[str, ...]  # bubblewrap's mount options, in order
    visible: tuple[str, ...]  # host paths visible read-only (besides the system ones)
    path: str  # PATH limited to the folders the server can see


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def host_sockets() -> set[str]:
    """Path sockets bound in this network namespace (the host's daemons and agents)."""
    try:
        with open("/proc/net/unix", "rb") as handle:
            data = handle.read(_PROC_NET_UNIX_BYTES)
    except OSError:
        return set()
    out: set[str] = set()
    for line in data.decode("utf-8", "replace").splitlines()[1:]:
        fields = line.split(None, 7)
        if len(fields) == 8 and fields[7].startswith("/"):
            out.add(fields[7])
    return out


def _is_socket(entry: os.DirEntry[str]) -> bool:
    if entry.is_file(follow_symlinks=False) or entry.is_symlink():
        return False
    return stat.S_ISSOCK(entry.stat(follow_symlinks=False).st_mode)


def walk_sockets(root: str, budget: int) -> list[str]:
    """Socket files under `root` (links not followed); over `budget` entries is refused."""
    found: list[str] = []
    seen = 0
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    seen += 1
                    if seen > budget:
                        raise InputError(
                            f"the folder {root!r} that the server's command line names holds "
                            f"more than {budget} entries; the sandbox cannot check it for "
                            "sockets, so it is not exposed: name a smaller folder"
                        )
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    elif _is_socket(entry):
                        found.append(entry.path)
        except OSError:
            continue  # unreadable for us: the server (same user) cannot read it either
    return found


def _secrets(policy: SandboxPolicy) -> list[str]:
    homes = {os.path.realpath(os.path.expanduser("~")), "/root"}
    out = [os.path.join(h, s) for h in sorted(homes) for s in policy.home_secrets]
    return out + list(policy.host_secrets)


def _shebang(path: str) -> str | None:
    """The absolute interpreter a script's `#!` line names (`/usr/bin/env` is a system path)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
    return words[0] if words and os.path.isabs(words[0]) else None


def install_root(path: str) -> str | None:
    """The folder a named program needs around it, or None when it is not an install."""
    parts = path.split("/")
    if "node_modules" in parts:
        return "/".join(parts[: parts.index("node_modules")]) or "/"
    parent = os.path.dirname(path)
    if os.path.basename(parent) in ("bin", "sbin") and os.path.isfile(path):
        return os.path.dirname(parent)
    folder = parent
    for _ in range(5):
        if os.path.isfile(os.path.join(folder, "pyvenv.cfg")):
            return folder
        folder = os.path.dirname(folder)
    return None


class _Planner:
    def __init__(self, policy: SandboxPolicy, binds: Sequence[Bind]) -> None:
        self.policy = policy
        self.secrets = _secrets(policy)
        self.bound = [b.host for b in binds]  # host folders already in the sandbox
        self.home = os.path.realpath(os.path.expanduser("~"))
        self.installs: set[str] = set()
        self.named: set[str] = set()  # folders to walk for sockets
        self.files: set[str] = set()

    def hidden(self, path: str) -> bool:
        """Already visible (system, a writable area) or never to be shown (a secret)."""
        system = [*self.policy.system_paths, "/etc", "/proc", "/dev"]
        return any(_under(path, root) for root in (*system, *self.bound, *self.secrets))

    def add(self, arg: str, script: bool, depth: int = 0) -> None:
        interpreter = _shebang(arg) if depth < 4 else None
        if interpreter is not None:  # a console script runs its interpreter: show that too
            self.add(interpreter, True, depth + 1)
        for path in dict.fromkeys((os.path.normpath(arg), os.path.realpath(arg))):
            if not os.path.lexists(path) or self.hidden(path) or path == "/":
                continue
            if stat.S_ISSOCK(os.lstat(path).st_mode):
                continue  # a socket named outright stays hidden
            root = install_root(path)
            if root is not None and root not in ("/", self.home) and root.count("/") >= 2:
                self.installs.add(root)
            elif os.path.isdir(path):
                self.named.add(path)
            elif script:
                self.named.add(os.path.dirname(path))
            else:
                self.files.add(path)


def _named_paths(command: Sequence[str]) -> Iterable[tuple[str, bool]]:
    """(path, is-the-entry-script) for every absolute path an argument names."""
    script_seen = False
    for index, arg in enumerate(command):
        value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
        if not os.path.isabs(value) or "\0" in value:
            continue
        script = (index > 0 and not script_seen and value.endswith(_SCRIPT_SUFFIXES)) or index == 0
        script_seen = script_seen or (index > 0 and script)
        yield value, script


def file_system_view(
    command: Sequence[str],
    binds: Sequence[Bind],
    workdir: str,
    path_env: str,
    tmpfs: Sequence[str] = (),
) -> View:
    policy = sandbox_policy()
    plan = _Planner(policy, binds)
    for value, script in _named_paths(command):
        plan.add(value, script)
    if not any(_under(workdir, b.inside) for b in binds):
        plan.add(workdir, False)
    args: list[str] = []
    for system in policy.system_paths:
        if os.path.islink(system):
            args += ["--symlink", os.readlink(system), system]
        elif os.path.isdir(system):
            args += ["--ro-bind", system, system]
    args += ["--dir", "/etc"]
    for entry in policy.etc_entries:
        if os.path.lexists(f"/etc/{entry}"):
            args += ["--ro-bind-try", f"/etc/{entry}", f"/etc/{entry}"]
    for masked in policy.etc_masked:
        if os.path.isdir(f"/etc/{masked}"):
            args += ["--tmpfs", f"/etc/{masked}", "--remount-ro", f"/etc/{masked}"]
    args += ["--dev", "/dev", "--proc", "/proc"]
    for folder in tmpfs:  # before the binds and folders that may lie under it
        args += ["--tmpfs", folder]
    trees = sorted(plan.installs | plan.named)
    trees = [t for t in trees if not any(_under(t, o) and t != o for o in trees)]
    singles = [f for f in sorted(plan.files) if not any(_under(f, t) for t in trees)]
    # Parents before children: the lab's /tmp before a named folder under /tmp, HOME before
    # the working directory inside it.
    mounts = [("--ro-bind", t, t) for t in (*trees, *singles)]
    mounts += [("--bind", b.host, b.inside) for b in binds]
    for option, host, inside in sorted(mounts, key=lambda m: (m[2].count("/"), m[2])):
        args += [option, host, inside]
    for secret in plan.secrets:
        if any(_under(secret, t) for t in trees) and os.path.lexists(secret):
            if os.path.isdir(secret) and not os.path.islink(secret):
                args += ["--tmpfs", secret, "--remount-ro", secret]
            else:
                args += ["--ro-bind", "/dev/null", secret]
    sockets = host_sockets()
    for folder in sorted(plan.named):
        sockets.update(walk_sockets(folder, policy.socket_walk_entries))
    roots = (*trees, *(f"/etc/{e}" for e in policy.etc_entries), *policy.system_paths)
    for socket_path in sorted(sockets):
        if any(_under(socket_path, r) for r in roots) and os.path.lexists(socket_path):
            args += ["--ro-bind", "/dev/null", socket_path]
    visible = [*trees, *singles]
    seen = (*policy.system_paths, *trees, *(b.inside for b in binds))
    path = ":".join(p for p in path_env.split(":") if p and any(_under(p, s) for s in seen))
    return View(tuple(args), tuple(visible), path or "/usr/local/bin:/usr/bin:/bin")
