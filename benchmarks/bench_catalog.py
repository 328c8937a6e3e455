"""Load + digest (+ report) a generated catalog of N tools; prints figures and ratios.

Baseline in the same run: plain `json.loads` of the same bytes (what any loader must pay).
Usage: python benchmarks/bench_catalog.py [--sizes 10000 20000] [--repeat 5] [--cli]

The headline is the first scan of a fresh process (each repeat is a new process), because that is
what one `toolwitness scan` pays: every per-text cache starts empty.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.integrity.canonical import digest_surface
from toolwitness.pipeline import ScanOptions, scan_surfaces
from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for


def generate(n: int) -> bytes:
    tools = []
    for i in range(n):
        tools.append(
            {
                "name": f"tool_{i}",
                "title": f"Tool {i}",
                "description": f"Reads record {i} from the inventory service and returns it as JSON. "
                "Use it when the user asks about stock levels.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": "Record id"},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                        "fields": {"type": "array", "items": {"type": "string"}},
                    },
                    "required": ["id"],
                },
                "annotations": {"readOnlyHint": True, "openWorldHint": False},
            }
        )
    return json.dumps({"tools": tools}).encode()


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, float, float]:
    """Best wall time, median wall time, best CPU time of this process (robust to a busy box)."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls), statistics.median(walls), min(cpus)


def cli_run(data: bytes, repeat: int) -> None:
    """What a user waits for: `toolwitness scan FILE -f json` as a fresh process (import, load,
    every check with cold caches, digest, score, report), against a process that only starts
    Python and parses the same file."""
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        catalog = Path(tmp) / "catalog.json"
        catalog.write_bytes(data)
        out = Path(tmp) / "report.json"
        tw = [sys.executable, "-m", "toolwitness", "scan", str(catalog), "-f", "json"]
        tw += ["-o", str(out), "--max-tools", "20000", "--max-file-mib", "512"]
        base = [sys.executable, "-c", f"import json; json.load(open({str(catalog)!r}))"]

        def run(cmd: list[str]) -> float:
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            return time.perf_counter() - start

        runs = {"scan": [], "base": []}
        for _ in range(repeat):  # interleaved, so both see the same machine
            runs["scan"].append(run(tw))
            runs["base"].append(run(base))
        scan, baseline = min(runs["scan"]), min(runs["base"])
        tools = len(json.loads(data)["tools"])
        print(
            f"CLI: toolwitness scan -f json of {tools} tools {scan * 1000:.0f} ms wall best"
            f" ({tools / scan:.0f} tools/s end to end); python start + json.load baseline"
            f" {baseline * 1000:.0f} ms ({scan / baseline:.1f}x)"
        )


def cold_scan(n: int) -> tuple[float, float]:
    """One first scan of a fresh process: (CPU s, wall s). Every per-text cache is cold, as in a
    CLI run; a one-tool scan first loads the lexicons and tables (a one-time cost, not per tool)
    with a text that shares nothing with the measured catalog."""
    limits = InputLimits(max_tools=max(n, 1), max_file_bytes=512 * 1024 * 1024)
    doc = parse_json_bytes(generate(n), "bench", limits)
    surface = surface_from_document(doc, server_id="b", source="bench", limits=limits)
    warm = {"name": "warm_up", "description": "Loads tables.", "inputSchema": {"type": "object"}}
    tiny = parse_json_bytes(json.dumps({"tools": [warm]}).encode(), "warm-up", limits)
    scan_surfaces(
        [surface_from_document(tiny, server_id="w", source="w", limits=limits)],
        ScanOptions(limits=limits),
    )
    cpu, wall = time.process_time(), time.perf_counter()
    scan_surfaces([surface], ScanOptions(limits=limits))
    return time.process_time() - cpu, time.perf_counter() - wall


def cold_runs(n: int, repeat: int) -> tuple[float, float]:
    """Best CPU and best wall time of `repeat` first scans, each in a new process."""
    import subprocess
    import sys

    cpus, walls = [], []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, __file__, "--cold", str(n)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        cpus.append(float(out[0]))
        walls.append(float(out[1]))
    return min(cpus), min(walls)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cli", action="store_true", help="also time a whole CLI run")
    parser.add_argument("--cold", type=int, help=argparse.SUPPRESS)  # child: one first scan
    args = parser.parse_args()
    if args.cold is not None:
        print(*cold_scan(args.cold))
        return
    limits = InputLimits(max_tools=max(args.sizes), max_file_bytes=512 * 1024 * 1024)
    results = {}
    for n in args.sizes:
        data = generate(n)

        def load_digest() -> None:
            doc = parse_json_bytes(data, "bench", limits)
            digest_surface(surface_from_document(doc, server_id="b", source="bench", limits=limits))

        doc = parse_json_bytes(data, "bench", limits)
        surface = surface_from_document(doc, server_id="b", source="bench", limits=limits)
        cold_cpu, cold_wall = cold_runs(n, args.repeat)
        baseline = best(lambda: json.loads(data), args.repeat)
        load = best(load_digest, args.repeat)
        result = scan_surfaces([surface], ScanOptions(limits=limits))
        warm = best(lambda: scan_surfaces([surface], ScanOptions(limits=limits)), args.repeat)
        report = best(
            lambda: formatter_for(OutputFormat.JSON, ReportOptions()).format(result), args.repeat
        )
        results[n] = load[0]
        print(
            f"{n:>6} tools ({len(data) / 1e6:.1f} MB): json.loads baseline"
            f" {baseline[0] * 1000:.0f} ms; load+digest {load[0] * 1000:.0f} ms wall (median"
            f" {load[1] * 1000:.0f} ms, CPU {load[2] * 1000:.0f} ms,"
            f" {load[0] / baseline[0]:.1f}x baseline)\n"
            f"        all checks + digest + score, first scan of a process (best of {args.repeat}"
            f" processes): CPU {cold_cpu * 1000:.0f} ms = {n / cold_cpu:.0f} tools/s, wall"
            f" {cold_wall * 1000:.0f} ms = {n / cold_wall:.0f} tools/s"
            f" ({cold_cpu / baseline[2]:.1f}x the json.loads baseline's CPU)\n"
            f"        the same scan again in that process (per-text caches warm): CPU"
            f" {warm[2] * 1000:.0f} ms = {n / warm[2]:.0f} tools/s; JSON report"
            f" {report[0] * 1000:.0f} ms"
        )
        if args.cli:
            cli_run(data, args.repeat)
    sizes = sorted(results)
    if len(sizes) >= 2:
        a, b = sizes[0], sizes[-1]
        print(f"growth: {b}/{a} tools = {b / a:.1f}x size -> {results[b] / results[a]:.2f}x time")


if __name__ == "__main__":
    main()
