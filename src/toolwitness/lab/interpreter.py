"""The real program behind a command: script shebangs and version-manager shims resolved.

strace then traces the interpreter that runs the server, not a launcher, and the call windows
are not padded with a shim's own process start-up.
"""

from __future__ import annotations

import os
import shutil
import subprocess

from toolwitness.errors import InputError

_SHEBANG_BYTES = 256
_SHELLS = frozenset({"sh", "bash", "dash", "zsh"})


def _shebang(path: str) -> list[str] | None:
    try:
        with open(path, "rb") as handle:
            head = handle.read(_SHEBANG_BYTES)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    line = head[2:].split(b"\n", 1)[0].decode("utf-8", errors="replace").strip()
    return line.split() or None


def _ask_interpreter(name: str, path: str, env: dict[str, str]) -> str | None:
    """A version-manager shim (a shell script named python3/node): ask it for its real binary."""
    probe = {
        "python": ["-c", "import sys; print(sys.executable)"],
        "node": ["-p", "process.execPath"],
    }
    family = "node" if name.startswith("node") else "python" if name.startswith("python") else None
    if family is None:
        return None
    try:
        done = subprocess.run(
            [path, *probe[family]], env=env, capture_output=True, timeout=15, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = done.stdout.decode("utf-8", errors="replace").strip()
    return found if done.returncode == 0 and os.path.isabs(found) else None


def real_argv(argv: tuple[str, ...], env: dict[str, str], depth: int = 0) -> tuple[str, ...]:
    """Resolve script shebangs (`#!/usr/bin/env node`) and interpreter shims to the real binary.

    strace then traces the interpreter that runs the server, not a launcher, and the call
    windows are not padded with a shim's own process start-up.
    """
    found = shutil.which(argv[0], path=env.get("PATH"))
    if found is None:
        raise InputError(f"{argv[0]!r} is not on PATH")
    if depth >= 4:
        return (found, *argv[1:])
    words = _shebang(found)
    if words is None:
        return (found, *argv[1:])
    if os.path.basename(words[0]) in _SHELLS and os.path.basename(found) not in _SHELLS:
        real = _ask_interpreter(os.path.basename(found), found, env)
        return (real, *argv[1:]) if real else (found, *argv[1:])
    if os.path.basename(words[0]) == "env":
        rest = [w for w in words[1:] if not w.startswith("-")]
        if not rest:
            return (found, *argv[1:])
        return real_argv((rest[0], *rest[1:], found, *argv[1:]), env, depth + 1)
    return real_argv((words[0], *words[1:], found, *argv[1:]), env, depth + 1)
