"""The lab: a throwaway tree, planted files and canaries, and the sandboxed, traced spawn.

Host layout (all under one temporary root the caller removes):
  home/    seen inside as /home/<user> (HOME), with canary ~/.ssh/id_rsa and ~/.aws/credentials
  work/    seen inside as /home/<user>/<project> (the working directory): a planted folder of
           notes, a planted git repository, a canary .env
  tmp/     seen inside as /tmp (TMPDIR): writes to /tmp are witnessed too
  scratch/ the tracer's output and the seccomp program, outside everything the server sees
The user, project and file names and the canary values come from the run's seed (`names.py`), so
no fixed name or prefix marks the lab, and the host path of the lab never shows inside.
The spawn is `acquire/sandbox.py`'s: the tracer outside bubblewrap, seccomp inside.
Two labs made from the same seed differ only in their host root: a control run and a probe run
compare path for path once paths are labelled (`~`, `$WORK`, `$TMPDIR`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from toolwitness.acquire.sandbox import Bind, sandbox_spawn, strace_binary, trace_file
from toolwitness.acquire.sandbox_witness import SETUP_EXECS
from toolwitness.errors import InputError
from toolwitness.lab.interpreter import real_argv
from toolwitness.lab.names import LabNames, access_key_id, lab_names

__all__ = ["Lab", "lab_argv", "lab_environment", "make_lab", "real_argv", "strace_binary"]

_TRACED = "%file,%process,%network,write,writev"
_DAEMON_CLIENTS = frozenset({"docker", "podman"})
_SANDBOX_TMP = "/tmp"  # noqa: S108 - inside the sandbox: the lab's own tmp/


@dataclass(frozen=True)
class Lab:
    root: Path
    home: Path
    work: Path
    tmp: Path
    scratch: Path
    names: LabNames
    confined: bool = True  # False: the benchmark's unconfined baseline (paths are host paths)
    # Host folders the last spawn made visible at their own paths (a folder the command line
    # names under /tmp is that folder, not the lab's TMPDIR): never relabelled.
    exposed: list[str] = field(default_factory=list)

    @property
    def seed(self) -> str:
        return self.names.seed

    @property
    def areas(self) -> dict[str, Path]:
        """The witnessed writable areas by label (host folders)."""
        return {"~": self.home, "$WORK": self.work, "$TMPDIR": self.tmp}

    @property
    def inside(self) -> dict[str, str]:
        """The same areas as the server sees them."""
        if not self.confined:
            return {k: str(v) for k, v in self.areas.items()}
        home = f"/home/{self.names.user}"
        return {"~": home, "$WORK": f"{home}/{self.names.project}", "$TMPDIR": _SANDBOX_TMP}

    @property
    def trace_file(self) -> Path:
        return trace_file(self.scratch)

    @property
    def setup_execs(self) -> int:
        """Programs the trace starts before the server (the launcher and bwrap when confined)."""
        return SETUP_EXECS if self.confined else 0

    def path(self, labelled: str) -> str:
        """A labelled path (`$WORK/notes`) as the server sees it."""
        area, _, rest = labelled.partition("/")
        base = self.inside[area]
        return f"{base}/{rest}" if rest else base

    def host(self, labelled: str) -> Path:
        area, _, rest = labelled.partition("/")
        return self.areas[area] / rest if rest else self.areas[area]

    @property
    def notes(self) -> str:
        return f"$WORK/{self.names.notes}"

    @property
    def note(self) -> str:
        return f"{self.notes}/{self.names.note}"

    @property
    def repo(self) -> str:
        return "$WORK/repo"

    def canaries(self) -> dict[str, str]:
        return dict(self.names.canaries)

    def canary_files(self) -> dict[str, str]:
        """Canary label -> labelled path."""
        return {"ssh-key": "~/.ssh/id_rsa", "aws-credentials": "~/.aws/credentials",
                "dotenv": "$WORK/.env"}  # fmt: skip

    def _prefixes(self) -> list[tuple[str, str]]:
        pairs = [(v, k) for k, v in self.inside.items()]
        pairs += [(str(v), k) for k, v in self.areas.items()]
        return sorted(set(pairs), key=lambda p: -len(p[0]))  # $WORK lies inside ~ inside

    def label(self, path: str) -> str:
        """A lab path (inside or host) with its area replaced by the label; others unchanged."""
        if any(path == e or path.startswith(e + "/") for e in self.exposed):
            return path
        for base, name in self._prefixes():
            if path == base or path.startswith(base + "/"):
                return name + path[len(base) :]
        return path

    def label_text(self, text: str) -> str:
        """Free text (a syscall line) with every lab path replaced by its label."""
        kept = {f"\0{i}\0": e for i, e in enumerate(sorted(self.exposed, key=len, reverse=True))}
        for mark, exposed in kept.items():
            text = _whole_path(exposed).sub(mark, text)
        for base, name in self._prefixes():
            text = _whole_path(base).sub(name.replace("\\", "\\\\"), text)
        for mark, exposed in kept.items():
            text = text.replace(mark, exposed)
        return text.replace(str(self.root), "$LAB")


def _whole_path(base: str) -> re.Pattern[str]:
    """`base` where a path starts and its component ends (`/var/tmp` holds no `/tmp`)."""
    return re.compile(r"(?<![\w.~$/-])" + re.escape(base) + r"(?![\w.-])")


def make_lab(parent: Path, seed: str, *, confined: bool = True) -> Lab:
    root = parent / f"lab-{len(list(parent.iterdir()))}"
    names = lab_names(seed)
    lab = Lab(root, root / "home", root / "work", root / "tmp", root / "scratch", names, confined)
    for path in (lab.home, lab.work, lab.tmp, lab.scratch, lab.host(lab.notes)):
        path.mkdir(parents=True)
    if confined:  # the mount point of the working directory inside HOME, there from the start
        (lab.home / names.project).mkdir()
    canary = lab.canaries()
    lab.host(lab.note).write_text(f"{names.notes} {names.note}\n", encoding="utf-8")
    (lab.host(lab.notes) / names.second).write_text(f"# {names.second}\n", encoding="utf-8")
    files = {k: lab.host(v) for k, v in lab.canary_files().items()}
    files["ssh-key"].parent.mkdir(mode=0o700)
    files["ssh-key"].write_text(
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{canary['ssh-key']}\n"
        "-----END OPENSSH PRIVATE KEY-----\n",
        encoding="utf-8",
    )
    files["ssh-key"].chmod(0o600)
    files["aws-credentials"].parent.mkdir()
    files["aws-credentials"].write_text(
        f"[default]\naws_access_key_id = {access_key_id(seed)}\n"
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
    repo = lab.host(lab.repo)
    repo.mkdir()
    (repo / "README.md").write_text(f"{lab.names.project}\n", encoding="utf-8")
    env = {
        "PATH": os.defpath,
        "HOME": str(lab.home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z",
    }
    identity = ["-c", f"user.name={lab.names.user}", "-c", f"user.email={lab.names.user}@localhost"]
    for args in (["init", "-q", "-b", "main"], ["add", "README.md"],
                 [*identity, "commit", "-q", "-m", "initial"]):  # fmt: skip
        subprocess.run([git, *args], cwd=repo, env=env, check=True, capture_output=True, timeout=30)


def lab_environment(lab: Lab, extra: dict[str, str]) -> dict[str, str]:
    """PATH, the lab's HOME/TMPDIR/user, no byte-code writes, canary keys, then the spec's env."""
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": lab.inside["~"],
        "TMPDIR": lab.inside["$TMPDIR"],
        "USER": lab.names.user,
        "LOGNAME": lab.names.user,
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",  # a .pyc write would be blamed on the tool
        "NO_UPDATE_NOTIFIER": "1",
        "AWS_ACCESS_KEY_ID": access_key_id(lab.seed),
        "AWS_SECRET_ACCESS_KEY": lab.canaries()["env-variable"],
    }
    env.update(extra)
    return env


def lab_argv(
    lab: Lab, argv: tuple[str, ...], env: dict[str, str], *, trace: bool = True
) -> tuple[str, ...]:
    """The full spawn: the tracer outside bubblewrap around the real interpreter."""
    server = real_argv(argv, env)
    if os.path.basename(server[0]) in _DAEMON_CLIENTS:
        raise InputError(
            f"the lab cannot confine {os.path.basename(server[0])!r}: its container runs under "
            "a daemon outside the sandbox, where no witness sees it"
        )
    if not lab.confined:  # only the benchmark's baseline runs a server unconfined
        tracer = (strace_binary(), "-f", "-ttt", "-qq", "-yy", "-s", "512",
                  "-e", f"trace={_TRACED}", "-o", str(lab.trace_file), "--")  # fmt: skip
        return (*tracer, *server) if trace else server
    binds = [Bind(str(lab.areas[k]), lab.inside[k]) for k in ("~", "$WORK", "$TMPDIR")]
    argv, view = sandbox_spawn(
        server,
        binds=binds,
        workdir=lab.inside["$WORK"],
        path_env=env.get("PATH", ""),
        scratch=lab.scratch,
        trace=_TRACED if trace else None,
        string_bytes=512,
    )
    lab.exposed[:] = sorted(set(lab.exposed) | set(view.visible))
    return argv
