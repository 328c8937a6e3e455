"""One target → one result record. The unit every executor runs (local pool or Dask).

Steps: obtain the artifact (download the pinned version and record its sha256 and the
registry's integrity, or hash the local archive/directory); under `--frozen`, refuse an artifact
whose sha256 differs from the earlier run's; then analyse it in a child process with an
address-space limit and a wall-clock deadline (`child.py`). Whatever happens, a record comes
back: one bad package never stops the sweep.

A record's body is deterministic; only `timing` varies run to run (comparisons drop it).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolwitness.acquire.package import PackageSpec, fetch_package_artifact, parse_package_spec
from toolwitness.code.isolate import CRASHES
from toolwitness.errors import ToolwitnessError
from toolwitness.sweep.child import CPU_KEY
from toolwitness.sweep.isolation import run_isolated
from toolwitness.sweep.outcomes import DOWNLOAD_FAILED, ERROR, TIMEOUT, UNANALYZABLE
from toolwitness.sweep.targets import Target
from toolwitness.textnorm import excerpt

RECORD_SCHEMA = "toolwitness.sweep/1"
VOLATILE_KEYS = ("timing",)
_MAX_TREE_FILES = 20_000
_MAX_TREE_BYTES = 200 * 1024 * 1024


@dataclass(frozen=True)
class TaskSettings:
    timeout: float = 300.0  # wall seconds per target, download included
    memory_mib: int = 2048  # address space of the analysis process


@dataclass(frozen=True)
class Pin:
    """What a frozen replay must fetch again: the resolved version and the artifact's sha256."""

    version: str | None
    sha256: str | None  # None: the earlier run had no artifact for this target


class _Failed(Exception):
    def __init__(self, outcome: str, reason: str) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def tree_sha256(root: Path) -> str:
    """A directory's content digest: sorted relative paths and file digests (links skipped)."""
    entries: list[str] = []
    total = 0
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if path.is_symlink() or not path.is_file():
                continue
            total += path.stat().st_size
            if len(entries) >= _MAX_TREE_FILES or total > _MAX_TREE_BYTES:
                raise _Failed(UNANALYZABLE, "directory over the file-count or size bound")
            entries.append(f"{path.relative_to(root).as_posix()}\0{_sha256_file(path)}")
    return hashlib.sha256("\n".join(sorted(entries)).encode("utf-8")).hexdigest()


def _download(
    target: Target, work: Path, pin: Pin | None, frozen: bool, deadline: float
) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    spec = parse_package_spec(target.location)
    if frozen and pin is not None and pin.version is not None:
        spec = PackageSpec(spec.ecosystem, spec.name, pin.version)  # a dist-tag, resolved then
    remaining = deadline - time.monotonic()
    try:
        artifact = fetch_package_artifact(spec, work / "artifact", timeout=max(remaining, 1.0))
    except ToolwitnessError as exc:
        if time.monotonic() >= deadline:
            raise _Failed(TIMEOUT, "the download did not finish in time") from None
        raise _Failed(DOWNLOAD_FAILED, excerpt(str(exc), 400)) from None
    package = {"ecosystem": spec.ecosystem, "name": spec.name, "version": artifact.spec.version}
    record = {
        "file": artifact.path.name,
        "kind": artifact.kind,
        "sha256": artifact.sha256,
        "registry_integrity": artifact.registry_integrity,
    }
    return artifact.path, package, record


def _local(target: Target) -> tuple[Path, dict[str, Any]]:
    path = Path(target.location)
    if target.kind == "directory":
        if not path.is_dir():
            raise _Failed(DOWNLOAD_FAILED, "the directory no longer exists")
        return path, {"file": None, "kind": "directory", "sha256": tree_sha256(path)}
    if not path.is_file():
        raise _Failed(DOWNLOAD_FAILED, "no such archive")
    return path, {"file": path.name, "kind": "archive", "sha256": _sha256_file(path)}


# What a child killed by its address-space limit leaves on stderr.
_OUT_OF_MEMORY = ("MemoryError", "failed to map segment", "Cannot allocate memory")


def _analyse(job: dict[str, Any], work: Path, deadline: float) -> dict[str, Any]:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _Failed(TIMEOUT, "no time left for the analysis after the download")
    job = {**job, "workdir": str(work), "cpu_seconds": max(int(remaining) + 1, 1)}
    ended = run_isolated(job, work, remaining)
    if ended.timed_out:
        raise _Failed(TIMEOUT, "the analysis did not finish in time")
    if ended.returncode == -signal.SIGXCPU:
        raise _Failed(TIMEOUT, "the analysis used up its CPU time")
    if ended.returncode != 0 or ended.output is None:
        tail = ended.stderr_tail or ""
        if any(mark in tail for mark in _OUT_OF_MEMORY):  # died of the limit, not of a bug
            raise _Failed(
                UNANALYZABLE, f"analysis exceeded the memory limit of {job['memory_mib']} MiB"
            )
        if ended.returncode in CRASHES and job["memory_mib"]:  # a crash on a failed allocation
            name = signal.Signals(-ended.returncode).name
            raise _Failed(
                UNANALYZABLE,
                f"analysis crashed ({name}) under the memory limit of {job['memory_mib']} MiB",
            )
        detail = f"analysis exited with {ended.returncode}: {tail or 'no output'}"
        raise _Failed(ERROR, excerpt(detail, 400))
    body: dict[str, Any] = json.loads(ended.output)
    return body


def base_record(target: Target, outcome: str = ERROR, reason: str = "") -> dict[str, Any]:
    return {
        "schema": RECORD_SCHEMA,
        "target": target.key,
        "kind": target.kind,
        "outcome": outcome,
        "reason": reason,
        "package": None,
        "artifact": None,
        "server": None,
        "notes": [],
    }


def run_target(
    target: Target, settings: TaskSettings, pin: Pin | None = None, frozen: bool = False
) -> dict[str, Any]:
    """The full record for one target; never raises for anything the target did."""
    started = time.monotonic()
    deadline = started + settings.timeout
    record = base_record(target)
    cpu: float | None = None
    with tempfile.TemporaryDirectory(prefix="toolwitness-sweep-") as tmp:
        work = Path(tmp)
        try:
            if frozen and pin is None:
                raise _Failed(
                    DOWNLOAD_FAILED, "no pinned artifact for this target in the frozen run"
                )
            if target.kind in ("npm", "pypi"):
                path, record["package"], record["artifact"] = _download(
                    target, work, pin, frozen, deadline
                )
            else:
                path, record["artifact"] = _local(target)
            expected = pin.sha256 if frozen and pin is not None else None
            if expected is not None and record["artifact"]["sha256"] != expected:
                raise _Failed(
                    DOWNLOAD_FAILED,
                    f"artifact sha256 {record['artifact']['sha256']} differs from the frozen "
                    f"run's {expected}",
                )
            job = {
                "key": target.key,
                "package": record["package"],
                "memory_mib": settings.memory_mib,
                "archive": str(path) if target.kind != "directory" else None,
                "directory": str(path) if target.kind == "directory" else None,
                "redact": [[str(path), path.name], [str(work), "<work>"]],
            }
            body = _analyse(job, work, deadline)
            cpu = body.pop(CPU_KEY, None)
            record.update(body)
        except _Failed as failed:
            record.update(outcome=failed.outcome, reason=failed.reason)
        except Exception as exc:  # fail closed, keep sweeping
            record.update(outcome=ERROR, reason=excerpt(f"{type(exc).__name__}: {exc}", 400))
    record["timing"] = {"seconds": round(time.monotonic() - started, 3)}
    if cpu is not None:  # CPU seconds of the analysis child (machine load does not inflate it)
        record["timing"]["analysis_cpu_seconds"] = cpu
    return record


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """The record without its run-dependent fields (what reruns and executors must agree on)."""
    return {k: v for k, v in record.items() if k not in VOLATILE_KEYS}
