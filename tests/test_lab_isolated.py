"""`probe` runs its analysis under the sweep's kind of limits, and leaves nothing behind.

Wall time, memory and CPU are capped (`--lab-timeout`, `--lab-memory-mib`); a limit that is hit
is named in the report (TW-LAB-006, the server's error, exit 3); the lab's temporary folder is
removed on every exit path, a SIGKILL of the analysis child included, and the server dies too.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from test_sweep_processes import alive, descendants

SERVER = FIXTURES / "lab" / "lab_server.py"
_DEADLINE = 180.0


pytestmark = pytest.mark.requires_tools("bwrap", "strace")


def _silent_server(marker: str) -> list[str]:
    """A stdio server that never answers initialize (the marker finds its process)."""
    return [sys.executable, "-c", "import sys, time; time.sleep(600)", marker]


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
                state = (entry / "stat").read_text().rsplit(")", 1)[-1].split()[0]
            except OSError:
                continue
            if marker.encode() in cmdline and state != "Z":
                found.append(int(entry.name))
    return found


def _run(tmp_path: Path, *args: str) -> subprocess.Popen[bytes]:
    scratch = tmp_path / "tmp"
    scratch.mkdir(exist_ok=True)
    argv = [sys.executable, "-m", "toolwitness", "probe", "-f", "json",
            "-o", str(tmp_path / "report.json"), *args]  # fmt: skip
    env = {**os.environ, "TMPDIR": str(scratch)}
    return subprocess.Popen(argv, env=env, start_new_session=True, stderr=subprocess.PIPE)


def _report(tmp_path: Path) -> dict[str, Any]:
    (server,) = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["servers"]
    return dict(server)


def _lab_error(server: dict[str, Any]) -> str:
    (finding,) = [f for f in server["findings"] if f["rule_id"] == "TW-LAB-006"]
    assert finding["tool"] is None
    return str(finding["message"])


def _wait_gone(marker: str) -> None:
    deadline = time.monotonic() + _DEADLINE
    while _processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_with(marker) == [], "the server outlived the probe"


def test_the_wall_clock_limit_is_named_and_the_lab_removed(tmp_path: Path) -> None:
    marker = f"tw-silent-{secrets.token_hex(6)}"
    proc = _run(tmp_path, "--lab-timeout", "12", "--timeout", "120", "--", *_silent_server(marker))
    assert proc.wait(timeout=_DEADLINE) == 3
    server = _report(tmp_path)
    assert "did not finish within 12s (--lab-timeout)" in _lab_error(server)
    assert any("--lab-timeout" in e for e in server["errors"])
    assert list((tmp_path / "tmp").iterdir()) == []
    _wait_gone(marker)


def test_the_memory_limit_is_named(tmp_path: Path) -> None:
    proc = _run(tmp_path, "--lab-memory-mib", "64", "--", sys.executable, str(SERVER), "clean")
    assert proc.wait(timeout=_DEADLINE) == 3
    assert "exceeded its memory limit of 64 MiB" in _lab_error(_report(tmp_path))
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_sigkilled_analysis_child_leaves_no_folder_and_no_server(tmp_path: Path) -> None:
    marker = f"tw-silent-{secrets.token_hex(6)}"
    proc = _run(tmp_path, "--timeout", "300", "--", *_silent_server(marker))
    try:
        deadline = time.monotonic() + _DEADLINE
        child = None
        while child is None and time.monotonic() < deadline:
            for pid in alive(descendants(proc.pid)):
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
                if b"toolwitness.lab.child" in cmdline and _processes_with(marker):
                    child = pid
            time.sleep(0.1)
        assert child is not None, "the analysis child never started the server"
        assert list((tmp_path / "tmp").iterdir()) != []  # the lab exists while it runs
        os.kill(child, signal.SIGKILL)
        assert proc.wait(timeout=_DEADLINE) == 3
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert "the lab's analysis was killed (SIGKILL)" in _lab_error(_report(tmp_path))
    assert list((tmp_path / "tmp").iterdir()) == []
    _wait_gone(marker)
