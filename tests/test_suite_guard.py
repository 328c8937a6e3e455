"""The test suite itself: a green run under CI=true means every part ran.

A test that needs bubblewrap, strace, chromium or node skips on a developer machine without it
(saying how to install it) and FAILS under CI=true. These tests run pytest in a subprocess on
a probe file and on a real lab test with bubblewrap hidden from PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

PROBE = """
import pytest

@pytest.mark.requires_tools("no-such-program-twx")
def test_needs_a_missing_program():
    pass
"""


def _pytest(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _env(ci: bool, path: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    if path is not None:
        env["PATH"] = path
    return env


def test_a_missing_program_skips_locally_and_fails_in_ci(tmp_path: Path) -> None:
    probe = ROOT / "tests" / f"test_probe_guard_{os.getpid()}.py"
    probe.write_text(PROBE)
    try:
        local = _pytest([str(probe), "-rs"], _env(ci=False), ROOT)
        assert local.returncode == 0, local.stdout
        assert "1 skipped" in local.stdout and "no-such-program-twx is not installed" in local.stdout
        ci = _pytest([str(probe)], _env(ci=True), ROOT)
        assert ci.returncode == 1, ci.stdout
        assert "CI=true" in ci.stdout and "skipped" not in ci.stdout  # an error in set-up: red
    finally:
        probe.unlink()


def test_a_lab_test_fails_in_ci_when_bubblewrap_is_missing(tmp_path: Path) -> None:
    """PATH with everything the lab test needs except bwrap: under CI=true the run is red."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("strace", "node", "git", "sh", "env"):
        found = shutil.which(name)
        if found:
            (bin_dir / name).symlink_to(found)
    (bin_dir / "python3").symlink_to(sys.executable)
    target = "tests/test_lab_fixtures.py"
    ci = _pytest([target, "-x"], _env(ci=True, path=str(bin_dir)), ROOT)
    assert ci.returncode == 1, ci.stdout[-2000:]
    assert "bwrap is not installed" in ci.stdout
    assert " skipped" not in ci.stdout.splitlines()[-1]
