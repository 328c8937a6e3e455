"""A SIGKILLed sweep takes its workers, forkserver, analysis children and helpers with it.

Only the main process is killed (not its process group): every descendant it had must be gone
soon after. Polled with a generous deadline; nothing here asserts how fast.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sweep_fixtures import EVIL_JS, build_fixtures, npm_tarball, write_list

_DEADLINE = 120.0


def _stat(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state, start time) of a live process, or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), fields[0], fields[19]


def descendants(root: int) -> dict[int, str]:
    """pid -> start time of every live descendant of `root`."""
    parents: dict[int, list[int]] = {}
    starts: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            found = _stat(int(entry.name))
            if found is not None and found[1] != "Z":
                parents.setdefault(found[0], []).append(int(entry.name))
                starts[int(entry.name)] = found[2]
    out: dict[int, str] = {}
    stack = [root]
    while stack:
        for child in parents.get(stack.pop(), []):
            out[child] = starts[child]
            stack.append(child)
    return out


def alive(processes: dict[int, str]) -> list[int]:
    """The processes still running (same pid and start time: not a reused pid)."""
    out = []
    for pid, start in processes.items():
        found = _stat(pid)
        if found is not None and found[1] != "Z" and found[2] == start:
            out.append(pid)
    return out


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_killing_the_sweep_kills_every_process_it_started(tmp_path: Path) -> None:
    expected = build_fixtures(tmp_path)
    # Modules that keep an analysis busy, so workers and the forkserver are up when we kill.
    body = "".join(f"export function f{i}(a) {{ return a + {i}; }}\n" for i in range(40_000))
    targets = []
    for index in range(6):
        name = f"busy{index}-1.0.0.tgz"
        npm_tarball(tmp_path / name, {"index.js": EVIL_JS, "big.js": body})
        targets.append(name)
    listing = write_list(tmp_path, targets + list(expected))
    argv = [sys.executable, "-m", "toolwitness", "sweep", str(listing),
            "-o", str(tmp_path / "results.jsonl"), "--workers", "2"]  # fmt: skip
    proc = subprocess.Popen(argv, start_new_session=True, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + _DEADLINE
        seen: dict[int, str] = {}
        while time.monotonic() < deadline and proc.poll() is None:
            seen.update(descendants(proc.pid))
            lines = [_cmdline(p) for p in alive(seen)]
            if any("forkserver" in c for c in lines) and sum("spawn_main" in c for c in lines) == 2:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the sweep ended before its workers were seen"
        seen.update(descendants(proc.pid))
        kinds = " ".join(_cmdline(p) for p in alive(seen))
        assert "forkserver" in kinds and "resource_tracker" in kinds
        os.kill(proc.pid, signal.SIGKILL)  # the main process only, not its group
        proc.wait()
        deadline = time.monotonic() + _DEADLINE
        while alive(seen) and time.monotonic() < deadline:
            time.sleep(0.1)
        survivors = {p: _cmdline(p) for p in alive(seen)}
        assert survivors == {}, f"processes outlived the sweep: {survivors}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in alive(descendants(proc.pid)):
            os.kill(pid, signal.SIGKILL)
