"""Run a registry client (npm, pip) for a download, bounded in time, and classify its failures."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from toolwitness.errors import IncompleteScanError, InputError, ToolwitnessError
from toolwitness.procs import with_parent_death
from toolwitness.textnorm import excerpt

# Markers in a client's error output meaning "that package or version does not exist".
_NOT_FOUND = ("E404", "ETARGET", "EINVALIDTAGNAME", "EINVALIDPACKAGENAME", "404 Not Found")
_NO_MATCH = ("No matching distribution found", "Could not find a version that satisfies")
_MAX_OUTPUT = 32 * 1024 * 1024
# Downloads only: no lifecycle scripts, no audit/fund/update chatter, never a prompt.
_CLIENT_ENV = {
    "npm_config_ignore_scripts": "true",
    "npm_config_audit": "false",
    "npm_config_fund": "false",
    "npm_config_update_notifier": "false",
    "npm_config_yes": "false",
    "PIP_NO_INPUT": "1",
}


@dataclass
class RegistryFailure(Exception):
    spec: str
    detail: str
    not_found: bool
    no_match: bool

    def as_error(self) -> ToolwitnessError:
        if self.not_found or self.no_match:
            return InputError(f"not found in the registry: {self.detail}", source=self.spec)
        return IncompleteScanError(f"{self.spec}: download failed: {self.detail}")


def _first_error(text: str) -> str:
    """The line that says what went wrong (npm: after its `code` line; pip: its first ERROR)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    lines = [line for line in lines if "complete log of this run" not in line]
    errors = [line for line in lines if "ERR" in line or "error" in line.lower()]
    explained = [line for line in errors if not line.startswith("npm error code ")]
    return excerpt((explained or errors or lines or ["no output"])[0], 300)


def run_tool(argv: list[str], *, cwd: Path, timeout: float, spec: str) -> str:
    """Run a download client; stdout on success, RegistryFailure (or a clear error) otherwise."""
    env = {**os.environ, **_CLIENT_ENV}
    if shutil.which(argv[0]) is None:
        raise IncompleteScanError(f"{spec}: {argv[0]} is not installed")
    # The client dies with its caller: an analysis child stopped by its limits (SIGKILL) must not
    # leave npm or pip downloading on, orphaned.
    command = list(with_parent_death(argv))
    try:
        done = subprocess.run(
            command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
            timeout=timeout, check=False,
        )  # fmt: skip
    except FileNotFoundError:
        raise IncompleteScanError(f"{spec}: {argv[0]} is not installed") from None
    except subprocess.TimeoutExpired:
        raise IncompleteScanError(f"{spec}: {argv[0]} took longer than {timeout:g}s") from None
    stdout = done.stdout[:_MAX_OUTPUT].decode("utf-8", "replace")
    if done.returncode == 0:
        return stdout
    stderr = done.stderr[-_MAX_OUTPUT:].decode("utf-8", "replace")
    raise RegistryFailure(
        spec,
        _first_error(stderr or stdout),
        not_found=any(marker in stderr for marker in _NOT_FOUND),
        no_match=any(marker in stderr for marker in _NO_MATCH),
    )
