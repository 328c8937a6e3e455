"""The local Dask cluster docs/sweep.md shows listens on loopback only, and a sweep runs on it.

The documented commands are run as written, except for the ports (0: tests never bind fixed
ports) and a scheduler file to find the scheduler; then every listening socket of the scheduler
and of the worker processes (nannies included) is read from /proc and must be on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT
from sweep_fixtures import build_fixtures, write_list
from test_sweep_processes import alive, descendants
from toolwitness.sweep.results import read_records

pytest.importorskip("dask.distributed")

SCHEDULER = "dask scheduler --host 127.0.0.1 --port 8786 --dashboard-address 127.0.0.1:8787"
WORKERS = (
    "dask worker tcp://127.0.0.1:8786 --host 127.0.0.1 --dashboard-address 127.0.0.1:0 "
    "--nworkers 2 --nthreads 1"
)
SWEEP = "toolwitness sweep list.txt -o results.jsonl --scheduler tcp://127.0.0.1:8786"


def _listening(pids: list[int]) -> set[str]:
    """Local addresses of the TCP sockets these processes listen on."""
    inodes: set[str] = set()
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir() if Path(f"/proc/{pid}/fd").exists() else ():
            try:
                target = fd.readlink().as_posix()
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    out: set[str] = set()
    for table, v6 in (("/proc/net/tcp", False), ("/proc/net/tcp6", True)):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # LISTEN
                out.add(_address(fields[1], v6))
    return out


def _address(hex_address: str, v6: bool) -> str:
    host, port = hex_address.split(":")
    if not v6:
        octets = [str(int(host[i : i + 2], 16)) for i in range(6, -1, -2)]
        return f"{'.'.join(octets)}:{int(port, 16)}"
    return f"[{host}]:{int(port, 16)}"  # any v6 listener is itself a failure below


def _start(command: str, extra: list[str]) -> subprocess.Popen[bytes]:
    argv = command.replace(":8786", ":0").replace(":8787", ":0").split()
    argv = [str(Path(sys.executable).parent / argv[0]), *argv[1:], *extra]
    return subprocess.Popen(argv, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)  # fmt: skip


def test_the_documented_commands_are_the_ones_tested() -> None:
    text = (ROOT / "docs" / "sweep.md").read_text(encoding="utf-8")
    for command in (SCHEDULER, WORKERS, SWEEP):
        assert command in text


@pytest.mark.slow
def test_documented_local_cluster_binds_loopback_only(tmp_path: Path) -> None:
    if shutil.which("dask", path=str(Path(sys.executable).parent)) is None:
        pytest.fail("the dask command is missing from the venv (pip install 'toolwitness[sweep]')")
    address_file = tmp_path / "scheduler.json"
    scheduler = _start(SCHEDULER.replace("--port 8786", "--port 0"),
                       ["--scheduler-file", str(address_file)])  # fmt: skip
    workers: subprocess.Popen[bytes] | None = None
    try:
        deadline = time.monotonic() + 120
        while not address_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(address_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        workers = _start(WORKERS.replace("tcp://127.0.0.1:8786", "").replace("  ", " "),
                         ["--scheduler-file", str(address_file)])  # fmt: skip
        expected = build_fixtures(tmp_path)
        listing = write_list(tmp_path, list(expected))
        results = tmp_path / "results.jsonl"
        sweep = [sys.executable, "-m", "toolwitness", "sweep", str(listing), "-o", str(results),
                 "--scheduler", address]  # fmt: skip
        assert subprocess.run(sweep, capture_output=True, timeout=600, check=False).returncode == 0
        assert {r["target"]: r["outcome"] for r in read_records(results)} == expected
        pids = [scheduler.pid, *descendants(scheduler.pid), workers.pid, *descendants(workers.pid)]
        listening = _listening(pids)
        assert len(listening) >= 5  # scheduler, its dashboard, two workers and their nannies
        assert all(a.startswith("127.0.0.1:") for a in listening), listening
    finally:
        for proc in (workers, scheduler):
            if proc is not None and proc.poll() is None:
                tree = descendants(proc.pid)
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                for pid in alive(tree):
                    os.kill(pid, signal.SIGKILL)
