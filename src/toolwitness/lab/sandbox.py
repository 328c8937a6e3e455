"""The lab: a throwaway directory tree, planted files and canaries, and the sandboxed spawn.

Layout (all under one temporary root the caller removes):
  home/   HOME, with canary credentials ~/.ssh/id_rsa and ~/.aws/credentials
  work/   the working directory: notes/ (planted files for path arguments), .env (canary)
  tmp/    TMPDIR
  trace/  strace's output (outside the witnessed areas)
The server runs under bubblewrap (acquire/sandbox.py: read-only /, no network, every namespace
unshared, no capabilities, dies with us) with home/, work/ and tmp/ writable, under `strace -f`
started on the real interpreter, with a minimal environment that holds canary variables.
Two labs made from the same seed differ only in their root directory, so a control run and a
probe run compare path for path once the root is replaced by a label (`~`, `$WORK`, `$TMPDIR`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from toolwitness.acquire.sandbox import bubblewrap_argv
from toolwitness.errors import InputError

_TRACED = "%file,%process,%network,write,writev"
_STRING_BYTES = "512"
_SHEBANG_BYTES = 256
_DAEMON_CLIENTS = frozenset({"docker", "podman"})
_SHELLS = frozenset({"sh", "bash", "dash", "zsh"})


@dataclass(frozen=True)
class Lab:
    root: Path
    home: Path
    work: Path
    tmp: Path
    trace_dir: Path
    seed: str

    @property
    def areas(self) -> dict[str, Path]:
        """The witnessed writable areas by label."""
        return {"~": self.home, "$WORK": self.work, "$TMPDIR": self.tmp}

    @property
    def trace_file(self) -> Path:
        return self.trace_dir / "strace.log"

    @property
    def notes(self) -> Path:
        return self.work / "notes"

    @property
    def repo(self) -> Path:
        return self.work / "repo"

    @property
    def note(self) -> Path:
        return self.notes / "planted-note.txt"

    def canaries(self) -> dict[str, str]:
        """Canary label -> unique value (the same for every lab made from this seed)."""
        return {
            "ssh-key": f"TWCANARY-SSH-{self.seed}",
            "aws-credentials": f"TWCANARY-AWS-{self.seed}",
            "dotenv": f"TWCANARY-ENV-{self.seed}",
            "env-variable": f"TWCANARY-VAR-{self.seed}",
        }

    def canary_files(self) -> dict[str, Path]:
        return {
            "ssh-key": self.home / ".ssh" / "id_rsa",
            "aws-credentials": self.home / ".aws" / "credentials",
            "dotenv": self.work / ".env",
        }

    def label(self, path: str) -> str:
        """A lab path with its root replaced by the area's label; other paths unchanged."""
        for name, area in self.areas.items():
            base = str(area)
            if path == base or path.startswith(base + "/"):
                return name + path[len(base) :]
        return path

    def label_text(self, text: str) -> str:
        """Free text (a syscall line) with every lab path replaced by its label."""
        for name, area in self.areas.items():
            text = text.replace(str(area), name)
        return text.replace(str(self.root), "$LAB")


def make_lab(parent: Path, seed: str) -> Lab:
    root = parent / f"lab-{len(list(parent.iterdir()))}"
    lab = Lab(root, root / "home", root / "work", root / "tmp", root / "trace", seed)
    for path in (lab.home, lab.work, lab.tmp, lab.trace_dir, lab.notes):
        path.mkdir(parents=True)
    canary = lab.canaries()
    lab.note.write_text(f"planted note {seed}\n", encoding="utf-8")
    (lab.notes / "second-note.md").write_text(f"# second note {seed}\n", encoding="utf-8")
    files = lab.canary_files()
    files["ssh-key"].parent.mkdir(mode=0o700)
    files["ssh-key"].write_text(
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{canary['ssh-key']}\n"
        "-----END OPENSSH PRIVATE KEY-----\n",
        encoding="utf-8",
    )
    files["ssh-key"].chmod(0o600)
    files["aws-credentials"].parent.mkdir()
    files["aws-credentials"].write_text(
        "[default]\naws_access_key_id = AKIATWCANARY\n"
        f"aws_secret_access_key = {canary['aws-credentials']}\n",
        encoding="utf-8",
    )
    files["dotenv"].write_text(f"API_TOKEN={canary['dotenv']}\n", encoding="utf-8")
    _plant_repository(lab)
    return lab


def _plant_repository(lab: Lab) -> None:
    """work/repo: a git repository with one commit (for repo_path parameters), when git exists."""
    git = shutil.which("git")
    if git is None:
        return
    lab.repo.mkdir()
    (lab.repo / "README.md").write_text(f"planted repository {lab.seed}\n", encoding="utf-8")
    env = {
        "PATH": os.defpath,
        "HOME": str(lab.home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z",
    }
    identity = ["-c", "user.name=toolwitness lab", "-c", "user.email=lab@toolwitness.invalid"]
    for args in (["init", "-q", "-b", "main"], ["add", "README.md"],
                 [*identity, "commit", "-q", "-m", "planted"]):  # fmt: skip
        subprocess.run(
            [git, *args], cwd=lab.repo, env=env, check=True, capture_output=True, timeout=30
        )


def lab_environment(lab: Lab, extra: dict[str, str]) -> dict[str, str]:
    """PATH, a lab HOME/TMPDIR, no byte-code writes, a canary variable, then the spec's env."""
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(lab.home),
        "TMPDIR": str(lab.tmp),
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",  # a .pyc write would be blamed on the tool
        "NO_UPDATE_NOTIFIER": "1",
        "AWS_SECRET_ACCESS_KEY": lab.canaries()["env-variable"],
    }
    env.update(extra)
    return env


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


def strace_binary() -> str:
    found = shutil.which("strace")
    if found is None:
        raise InputError(
            "the lab needs strace for its syscall witness; install it (Debian/Ubuntu: apt-get "
            "install strace)"
        )
    return found


def lab_argv(
    lab: Lab,
    argv: tuple[str, ...],
    env: dict[str, str],
    *,
    trace: bool = True,
    sandbox: bool = True,
) -> tuple[str, ...]:
    """The full spawn: bubblewrap around strace around the real interpreter."""
    server = real_argv(argv, env)
    if os.path.basename(server[0]) in _DAEMON_CLIENTS:
        raise InputError(
            f"the lab cannot confine {os.path.basename(server[0])!r}: its container runs under "
            "a daemon outside the sandbox, where no witness sees it"
        )
    inner: tuple[str, ...] = server
    if trace:
        inner = (
            strace_binary(), "-f", "-ttt", "-qq", "-y", "-s", _STRING_BYTES,
            "-e", f"trace={_TRACED}", "-o", str(lab.trace_file), "--", *server,
        )  # fmt: skip
    if not sandbox:  # only the benchmark's baseline runs a server unconfined
        return inner
    return bubblewrap_argv(
        inner, home=lab.home, workdir=lab.work, writable=(lab.work, lab.tmp, lab.trace_dir), env=env
    )
