"""`--sandbox`: wrap a stdio server's argv in bubblewrap.

The server gets a read-only view of the root file system, fresh /dev, /proc and /tmp, no network
(every namespace is unshared, the network one included), a throwaway HOME and working directory
that are the only writable places, no capabilities, its own session (no terminal injection) and
a pid namespace that dies with the scanner. The scanner's own home directory is hidden unless
the server itself lives there (node from nvm, a venv under ~).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

from toolwitness.errors import InputError

# Runners that hand the work to a daemon outside the sandbox: wrapping them protects nothing.
_DAEMON_CLIENTS = frozenset({"docker", "podman"})
# Inside the sandbox /tmp is a fresh tmpfs, not the host's shared one.
_SANDBOX_TMP = "/tmp"  # noqa: S108


def bubblewrap_binary() -> str:
    found = shutil.which("bwrap")
    if found is None:
        raise InputError(
            "--sandbox needs bubblewrap (`bwrap`); install it (Debian/Ubuntu: apt-get install "
            "bubblewrap) or scan without --sandbox"
        )
    return found


def _under(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([os.path.realpath(path), root]) == root
    except ValueError:
        return False


def _mentions(argv: Iterable[str], root: str) -> bool:
    return any(os.path.isabs(arg) and _under(arg, root) for arg in argv)


def _reexposed(arg: str, hidden: Iterable[str]) -> set[str]:
    """The top-level folders, under a hidden tree, that a path the command names lives in.

    A server named by its entry file or venv interpreter needs its neighbours too
    (`node_modules` beside `dist/`, `pyvenv.cfg` above `bin/`), so the whole folder comes back,
    read-only. The path as written, its resolved target (venv symlinks) and its resolved folder
    (a symlinked parent) all count."""
    out: set[str] = set()
    written = os.path.abspath(arg)
    candidates = {written, os.path.realpath(written), os.path.realpath(os.path.dirname(written))}
    for candidate in candidates:
        for root in hidden:
            if candidate == root or os.path.commonpath([candidate, root]) != root:
                continue
            first = os.path.relpath(candidate, root).split(os.sep)[0]
            out.add(os.path.join(root, first))
    return out


def bubblewrap_argv(
    argv: tuple[str, ...],
    *,
    home: Path,
    workdir: Path,
    writable: Iterable[Path],
    env: Mapping[str, str],
) -> tuple[str, ...]:
    """The bwrap command line that runs `argv` confined; `home` and `writable` stay writable."""
    name = Path(argv[0]).name
    if name in _DAEMON_CLIENTS:
        raise InputError(
            f"--sandbox cannot confine {name!r}: the container runs under its daemon, outside "
            "the sandbox; scan it without --sandbox (docker's own isolation applies)"
        )
    executable = shutil.which(argv[0], path=env.get("PATH")) or argv[0]
    wrapped: list[str] = [
        bubblewrap_binary(),
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", _SANDBOX_TMP,
    ]  # fmt: skip
    hidden = [_SANDBOX_TMP]
    scanner_home = os.path.realpath(os.path.expanduser("~"))
    server_paths = (executable, *argv[1:], str(workdir))
    if scanner_home not in ("/", "") and not _mentions(server_paths, scanner_home):
        wrapped += ["--tmpfs", scanner_home]
        hidden.append(scanner_home)
    # Folders the command line names inside a hidden tree come back read-only (the server's own
    # install, an allowed dir), so a server that lives under /tmp or ~ still runs.
    exposed: set[str] = set()
    for arg in server_paths:
        if os.path.isabs(arg) and os.path.exists(arg):
            exposed |= _reexposed(arg, hidden)
    for folder in sorted(exposed):
        if os.path.exists(folder):
            wrapped += ["--ro-bind", folder, folder]
    for path in (home, *writable):
        wrapped += ["--bind", str(path), str(path)]
    wrapped += [
        "--chdir", str(workdir),
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--cap-drop", "ALL",
        "--",
        *argv,
    ]  # fmt: skip
    return tuple(wrapped)
