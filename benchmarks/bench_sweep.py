"""Sweep throughput on local artifacts (no network): targets/minute with 1 and 2 workers.

The artifacts are the installed official servers (npm: filesystem, memory, everything, packed
as npm-style tarballs without their node_modules; PyPI: git, fetch, time, packed as wheels from
their installed package directories), copied under distinct names until there are --targets of
them. Each run sweeps all of them into a fresh results file through `run_sweep` with the local
pool — the full per-target path (hash, unpack, surface, metadata checks, code verification, each
in a memory-limited child). The 1-worker run is the baseline of the ratio, measured in the same
run. Wall time includes starting the pool's workers (a one-off ~2 s import each).

With `--scheduler ADDRESS` (a running dask.distributed cluster; for tls:// the client reads its
certificates from dask's configuration, e.g. DASK_DISTRIBUTED__COMM__TLS__CA_FILE) the same
artifacts are also swept on the cluster, and its records are compared with the local run's.

Usage: python benchmarks/bench_sweep.py [--targets 24] [--workers 1 2] [--scheduler tls://...]
"""

from __future__ import annotations

import argparse
import io
import os
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

from toolwitness.sweep.executor import DaskExecutor, Executor, LocalExecutor
from toolwitness.sweep.results import dumps_record, read_records
from toolwitness.sweep.run import SweepOptions, run_sweep
from toolwitness.sweep.targets import load_targets
from toolwitness.sweep.task import comparable

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT / ".cache/test-servers"
NPM = ["server-filesystem", "server-memory", "server-everything"]
PYPI = {"mcp-server-git": "mcp_server_git", "mcp-server-fetch": "mcp_server_fetch",
        "mcp-server-time": "mcp_server_time"}  # fmt: skip


def _add_tree(add: object, root: Path, prefix: str) -> None:
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and not path.is_symlink() and "node_modules" not in rel.parts:
            add(path, f"{prefix}{rel.as_posix()}")  # type: ignore[operator]


def build_artifacts(dest: Path, count: int) -> Path:
    originals: list[tuple[str, bytes]] = []
    for name in NPM:
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
            _add_tree(
                lambda p, n, t=tar: t.add(p, n),
                SERVERS / "npm/node_modules/@modelcontextprotocol" / name,
                "package/",
            )
        originals.append((f"{name}.tgz", buffer.getvalue()))
    for dist, module in PYPI.items():
        site = next((SERVERS / "venvs" / dist / "lib").glob("python3*/site-packages"))
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            _add_tree(lambda p, n, z=zf: z.write(p, n), site / module, f"{module}/")
        originals.append((f"{dist}-py3-none-any.whl", buffer.getvalue()))
    lines = []
    for index in range(count):
        name, data = originals[index % len(originals)]
        target = f"copy{index:04d}-{name}"
        (dest / target).write_bytes(data)
        lines.append(target)
    listing = dest / "list.txt"
    listing.write_text("\n".join(lines) + "\n")
    return listing


class _Clock:
    """Observer: when each record arrived (steady state excludes the workers' start-up)."""

    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.arrivals: list[float] = []
        self.cpu: list[float] = []

    def started(self, total: int, skipped: int, workers: int) -> None:
        return None

    def finished(self, record: dict[str, Any]) -> None:
        self.arrivals.append(time.perf_counter() - self.t0)
        self.cpu.append(float(record["timing"].get("analysis_cpu_seconds", 0.0)))


def sweep_once(
    listing: Path, workers: int, work: Path, executor: Executor | None = None, name: str = ""
) -> tuple[float, float, float, dict[str, int]]:
    """(wall seconds, steady-state targets/min, mean analysis CPU s per target, outcomes)."""
    results = work / f"results-{name or workers}.jsonl"
    clock = _Clock()
    summary = run_sweep(
        load_targets(listing), results, SweepOptions(), executor or LocalExecutor(workers), clock
    )
    wall = time.perf_counter() - clock.t0
    first, last = clock.arrivals[workers - 1], clock.arrivals[-1]
    steady = (len(clock.arrivals) - workers) / (last - first) * 60 if last > first else 0.0
    cpu = sum(clock.cpu) / len(clock.cpu)
    return wall, steady, cpu, dict(summary.counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--targets", type=int, default=24)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--scheduler", help="also sweep on this dask scheduler and compare")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-sweep-") as tmp:
        work = Path(tmp)
        listing = build_artifacts(work, args.targets)
        print(f"{args.targets} local artifacts (6 real servers, copied); cores: {os.cpu_count()}; "
              f"load average before: {os.getloadavg()[0]:.1f}")  # fmt: skip
        rates: dict[int, float] = {}
        steady: dict[int, float] = {}
        for workers in args.workers:
            seconds, steady[workers], cpu, counts = sweep_once(listing, workers, work)
            rates[workers] = args.targets / seconds * 60
            print(f"workers={workers}: {seconds:.1f} s wall, {rates[workers]:.1f} targets/min "
                  f"(with start-up), {steady[workers]:.1f} targets/min steady, "
                  f"analysis CPU {cpu:.2f} s/target, outcomes {counts}")  # fmt: skip
        first = args.workers[0]
        for workers in args.workers[1:]:
            print(f"scaling {workers} vs {first} workers: {rates[workers] / rates[first]:.2f}x "
                  f"with start-up, {steady[workers] / steady[first]:.2f}x steady")  # fmt: skip
        per_worker = steady[first] / first
        hours = 10_000 / per_worker / 60
        if args.scheduler:
            _on_dask(listing, work, args.scheduler, args.targets, args.workers[-1])
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        print(f"projected wall time for 10,000 packages at {per_worker:.1f} targets/min per "
              f"worker (steady): {hours:.1f} h on 1 worker, {hours / 8:.2f} h on 8 workers "
              "(local artifacts; downloads not included)")  # fmt: skip


def _on_dask(listing: Path, work: Path, address: str, targets: int, local: int) -> None:
    executor = DaskExecutor(address)
    try:
        seconds, steady, cpu, counts = sweep_once(listing, executor.workers, work, executor, "dask")
    finally:
        executor.close()
    print(f"dask {address} ({executor.workers} worker threads): {seconds:.1f} s wall, "
          f"{targets / seconds * 60:.1f} targets/min (with start-up), {steady:.1f} steady, "
          f"analysis CPU {cpu:.2f} s/target, outcomes {counts}")  # fmt: skip

    def lines(path: Path) -> dict[str, str]:
        return {r["target"]: dumps_record(comparable(r)) for r in read_records(path)}

    same = lines(work / "results-dask.jsonl") == lines(work / f"results-{local}.jsonl")
    print(f"records identical to the local {local}-worker run (timing dropped): {same}")


if __name__ == "__main__":
    main()
