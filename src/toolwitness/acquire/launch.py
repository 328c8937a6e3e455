"""Decide whether a stdio server may run, and with what: allowlist, minimal environment, dirs.

Connecting to a stdio server runs its code, so the command a config names is checked against a
small allowlist of package runners and interpreters (data: `data/live/launch-policy.yaml`) by its
file name; path tricks (`..`, relative paths into the working directory, control characters,
a name that only looks allowlisted) are refused. The server never sees the scanner's own
environment: PATH, a throwaway HOME and exactly the variables its config entry names.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from toolwitness.acquire.live_stdio import Launch
from toolwitness.acquire.sandbox import bubblewrap_argv
from toolwitness.datafiles import data_files
from toolwitness.errors import InputError, InternalError
from toolwitness.model import ServerSpec
from toolwitness.yamlload import load_yaml

_VERSION_SUFFIX = re.compile(r"\.[0-9]{1,2}")


@dataclass(frozen=True)
class LaunchPolicy:
    allowed_commands: frozenset[str]
    versioned_interpreters: frozenset[str]
    inherited_env: tuple[str, ...]


@lru_cache(maxsize=1)
def launch_policy() -> LaunchPolicy:
    text = data_files().joinpath("live/launch-policy.yaml").read_text()
    doc = load_yaml(text)
    try:
        names = [str(n) for n in doc["allowed_commands"]]
        versioned = [str(n) for n in doc["versioned_interpreters"]]
        inherited = tuple(str(n) for n in doc["inherited_env"])
    except (KeyError, TypeError) as exc:
        raise InternalError(f"launch-policy.yaml is malformed: {exc}") from None
    if not names or any(not n or "/" in n for n in names):
        raise InternalError("launch-policy.yaml: allowed_commands must be plain names")
    return LaunchPolicy(frozenset(names), frozenset(versioned), inherited)


class LaunchRefused(InputError):
    """The command is not allowed to run (policy, not a server failure)."""


def command_name(command: str) -> str:
    """The allowlist key of a command: its file name, with a Windows `.exe`/`.cmd` dropped."""
    name = PurePosixPath(command.replace("\\", "/")).name
    for suffix in (".exe", ".cmd"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    return name


def _allowed(name: str, policy: LaunchPolicy, extra: frozenset[str]) -> bool:
    if name in policy.allowed_commands or name in extra:
        return True
    return any(
        name.startswith(base) and _VERSION_SUFFIX.fullmatch(name[len(base) :])
        for base in policy.versioned_interpreters
    )


def check_command(command: str, extra_allowed: frozenset[str]) -> str:
    """Return the executable to run, or raise `LaunchRefused` saying why not."""
    if not command or command != command.strip():
        raise LaunchRefused("the command is empty or has surrounding whitespace")
    if any(ord(c) < 32 or ord(c) == 127 for c in command):
        raise LaunchRefused("the command holds control characters")
    parts = PurePosixPath(command.replace("\\", "/")).parts
    if ".." in parts:
        raise LaunchRefused(f"the command {command!r} walks out of its directory with '..'")
    if "/" in command and not os.path.isabs(command):
        raise LaunchRefused(
            f"the command {command!r} is a relative path: give a bare name or an absolute path"
        )
    name = command_name(command)
    policy = launch_policy()
    if not _allowed(name, policy, extra_allowed):
        allowed = ", ".join(sorted(policy.allowed_commands))
        raise LaunchRefused(
            f"refused to run {name!r}: not on the allowlist ({allowed}); "
            f"pass --allow-command {name} to run it"
        )
    if os.path.isabs(command) and not (os.path.isfile(command) and os.access(command, os.X_OK)):
        raise LaunchRefused(f"{command!r} is not an executable file")
    return command


def server_environment(spec: ServerSpec, home: Path) -> dict[str, str]:
    """PATH (and the policy's few inherited names), a throwaway HOME, then the spec's own env."""
    env: dict[str, str] = {}
    for key in launch_policy().inherited_env:
        value = os.environ.get(key)
        if value is not None and not value.startswith("()"):
            env[key] = value
    env.setdefault("PATH", os.defpath)
    env["HOME"] = str(home)
    env["TMPDIR"] = str(home)
    env.update(spec.transport.env)
    return env


def prepare_launch(
    spec: ServerSpec,
    *,
    scratch: Path,
    allow_commands: frozenset[str],
    sandbox: bool,
) -> Launch:
    """Build the spawn for `spec` inside `scratch` (a temp dir the caller removes)."""
    transport = spec.transport
    if transport.command is None:
        raise InputError("the stdio server has no command", source=spec.origin or spec.name)
    executable = check_command(transport.command, allow_commands)
    home = scratch / "home"
    work = scratch / "work"
    home.mkdir()
    work.mkdir()
    env = server_environment(spec, home)
    cwd = transport.cwd or str(work)
    if transport.cwd is not None and not os.path.isdir(transport.cwd):
        raise InputError(f"the working directory {transport.cwd!r} does not exist")
    argv: tuple[str, ...] = (executable, *transport.args)
    if sandbox:
        witness = scratch / "witness"
        argv = bubblewrap_argv(
            argv, home=home, workdir=Path(cwd), writable=(work,), env=env, scratch=witness
        )
    elif "/" not in executable and shutil.which(executable, path=env["PATH"]) is None:
        raise InputError(f"{executable!r} is not on PATH")
    return Launch(argv=argv, env=env, cwd=cwd)
