"""Probe a stdio server in a limited child process, with the sweep's kind of limits.

`probe` and `scan --lab` run each stdio probe in `python -m toolwitness.lab.child`: a wall-clock
deadline (`--lab-timeout`), an address-space cap (`--lab-memory-mib`) and a CPU cap (the
deadline's seconds). A limit that is hit is the probe's error, named (TW-LAB-006 on the server,
and an incomplete scan): "did not finish within 1800s", "exceeded its memory limit of 4096 MiB",
"used up its CPU time". The lab folder is made and removed here, in the parent, so it goes away
whatever the child does, SIGKILL included; the child and everything it started die with it
(`procs.die_with_parent`, bubblewrap's `--die-with-parent`).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass

from toolwitness.errors import InputError
from toolwitness.lab.probe import LabOptions, ServerProbe
from toolwitness.model import ServerSpec
from toolwitness.textnorm import excerpt


@dataclass(frozen=True)
class ProbeLimits:
    timeout: float = 1800.0  # wall seconds for one server's whole probe
    memory_mib: int = 4096  # address space of the analysis (and of what it starts)


def _reason(returncode: int, limits: ProbeLimits, stderr: bytes) -> str:
    if returncode == -signal.SIGXCPU:
        return f"the lab's analysis used up its CPU time ({int(limits.timeout) + 1}s)"
    if returncode == -signal.SIGKILL:
        return "the lab's analysis was killed (SIGKILL)"
    tail = stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
    if any("MemoryError" in line or "failed to map" in line for line in tail):
        return f"the lab's analysis exceeded its memory limit of {limits.memory_mib} MiB"
    detail = excerpt(tail[0], 300) if tail else "no output"
    return f"the lab's analysis exited with {returncode}: {detail}"


def probe_isolated(
    spec: ServerSpec,
    options: LabOptions,
    limits: ProbeLimits,
) -> ServerProbe:
    """The same `ServerProbe` `probe_server` returns, computed in a limited child process."""
    fields = {k: v for k, v in asdict(options).items() if k != "allow_commands"}
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        job = {
            "spec": spec.model_dump(mode="json"),
            "options": fields,
            "allow_commands": sorted(options.allow_commands),
            "parent": folder,
            "parent_pid": os.getpid(),
            "memory_mib": limits.memory_mib,
            "cpu_seconds": int(limits.timeout) + 1,
        }
        child = subprocess.Popen(
            [sys.executable, "-m", "toolwitness.lab.child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            out, err = child.communicate(json.dumps(job).encode("utf-8"), timeout=limits.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            why = f"the lab's analysis did not finish within {limits.timeout:g}s (--lab-timeout)"
            return ServerProbe(spec.name, error=why)
        finally:
            _kill_group(child.pid)
        if child.returncode != 0 or not out:
            return ServerProbe(spec.name, error=_reason(child.returncode, limits, err))
        doc = json.loads(out)
        if doc.get("refused"):
            raise InputError(str(doc["error"]))  # the lab cannot run (no bwrap, a refused command)
        return ServerProbe.from_json(doc)


def _kill_group(pgid: int) -> None:
    """Anything the child left in its process group goes with it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
