"""Live scanning speed against the seven real test servers; figures and ratios from one run.

1. Fleet: all seven servers (4 npm, 3 PyPI, each PyPI one from its own venv) written into one
   Claude Desktop config and scanned live and concurrently through `toolwitness.scan` (connect,
   list everything, run every check, digest). Baseline in the same run: each server on its own,
   one after another, with the bare SDK (`mcp.Client` over `stdio_client`: start-up, handshake,
   `list_tools`); the slowest of those is the floor a concurrent scan cannot beat.
   Target: fleet wall time within 1.25x of the slowest single server.
2. Overhead: one server (server-memory): the bare SDK `list_tools` call vs toolwitness's live
   acquisition (`acquire_live`: guarded spawn, handshake, every list, surface) and vs a whole
   `toolwitness.scan` (acquisition plus every check), interleaved, median of --repeat runs.
   Target: acquisition at most 10% over the bare call; the checks' own cost is shown apart.

Needs `scripts/install-test-servers.sh` to have run. Usage:
  python benchmarks/bench_live.py [--rounds 3] [--repeat 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from toolwitness.acquire.live import LiveOptions, acquire_live, acquire_many
from toolwitness.acquire.targets import resolve_targets
from toolwitness.model import ServerSpec, Transport
from toolwitness.pipeline import ScanOptions, scan

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT / ".cache" / "test-servers"


def npm_entry(package: str) -> str:
    folder = SERVERS / "npm" / "node_modules" / package
    manifest = json.loads((folder / "package.json").read_text())
    binary = manifest["bin"]
    rel = binary if isinstance(binary, str) else next(iter(binary.values()))
    return str((folder / rel).resolve())


def fleet(allowed_dir: str) -> dict[str, dict[str, Any]]:
    npm = {
        "filesystem": ("@modelcontextprotocol/server-filesystem", [allowed_dir]),
        "memory": ("@modelcontextprotocol/server-memory", []),
        "everything": ("@modelcontextprotocol/server-everything", []),
        "sequential-thinking": ("@modelcontextprotocol/server-sequential-thinking", []),
    }
    servers = {
        name: {"command": "node", "args": [npm_entry(pkg), *args]}
        for name, (pkg, args) in npm.items()
    }
    for name, module in (
        ("time", "mcp_server_time"),
        ("git", "mcp_server_git"),
        ("fetch", "mcp_server_fetch"),
    ):
        python = SERVERS / "venvs" / f"mcp-server-{name}" / "bin" / "python"
        servers[name] = {"command": str(python), "args": ["-m", module]}
    return servers


async def bare_sdk(command: str, args: list[str]) -> int:
    """What any MCP client does: start the server, handshake, list the tools."""
    params = StdioServerParameters(command=command, args=args, cwd=tempfile.gettempdir())
    async with Client(params) as client:
        return len((await client.list_tools()).tools)


def time_bare(command: str, args: list[str]) -> float:
    start = time.perf_counter()
    anyio.run(bare_sdk, command, args)
    return time.perf_counter() - start


def children_cpu() -> float:
    """CPU seconds used by reaped child processes (the servers) so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_scan(targets: list[Any], live: LiveOptions) -> tuple[float, int, int]:
    start = time.perf_counter()
    result = scan(targets, ScanOptions(live=live))
    elapsed = time.perf_counter() - start
    failed = sum(1 for s in result.servers if s.incomplete)
    return elapsed, result.tool_count(), failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3, help="fleet rounds (medians)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not (SERVERS / "venvs").is_dir():
        sys.stderr.write("run scripts/install-test-servers.sh first\n")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        servers = fleet(tmp)
        config = Path(tmp) / "claude_desktop_config.json"
        config.write_text(json.dumps({"mcpServers": servers}))
        live = LiveOptions(concurrency=len(servers))
        # Warm the OS caches and toolwitness's rule/check loading once, outside the timings.
        time_scan([str(config)], live)
        specs = resolve_targets([config]).specs
        # Rounds interleave the singles and the fleet so load from elsewhere hits both alike.
        single_runs: dict[str, list[float]] = {name: [] for name in servers}
        fleet_runs: list[float] = []
        acquire_walls: list[float] = []
        cpu_runs: list[float] = []
        for _ in range(args.rounds):
            for name, s in servers.items():
                single_runs[name].append(time_bare(s["command"], s["args"]))
            wall, fleet_tools, fleet_failed = time_scan([str(config)], live)
            fleet_runs.append(wall)
            cpu_before = children_cpu()
            start = time.perf_counter()
            acquire_many(specs, live)
            acquire_walls.append(time.perf_counter() - start)
            cpu_runs.append(children_cpu() - cpu_before)
        singles = {name: statistics.median(runs) for name, runs in single_runs.items()}
        fleet_wall = statistics.median(fleet_runs)
        acquire_wall = statistics.median(acquire_walls)
        servers_cpu = statistics.median(cpu_runs)
        slowest = max(singles, key=lambda n: singles[n])

        memory = servers["memory"]
        spec = ServerSpec(
            name="memory",
            transport=Transport(kind="stdio", command="node", args=tuple(memory["args"])),
        )
        bare_runs: list[float] = []
        acquire_runs: list[float] = []
        scan_runs: list[float] = []
        for _ in range(args.repeat):
            bare_runs.append(time_bare(memory["command"], memory["args"]))
            start = time.perf_counter()
            acquire_live(spec, LiveOptions())
            acquire_runs.append(time.perf_counter() - start)
            scan_runs.append(time_scan([spec], LiveOptions())[0])
    bare = statistics.median(bare_runs)
    acquired = statistics.median(acquire_runs)
    ours = statistics.median(scan_runs)
    report = {
        "cpus": os.cpu_count(),
        "fleet": {
            "servers": len(servers),
            "rounds": args.rounds,
            "tools": fleet_tools,
            "failed": fleet_failed,
            "wall_seconds": round(fleet_wall, 3),
            "single_server_seconds": {k: round(v, 3) for k, v in sorted(singles.items())},
            "sum_of_singles_seconds": round(sum(singles.values()), 3),
            "slowest_single": slowest,
            "slowest_single_seconds": round(singles[slowest], 3),
            "ratio_to_slowest": round(fleet_wall / singles[slowest], 3),
            "acquire_only_wall_seconds": round(acquire_wall, 3),
            "acquire_only_ratio_to_slowest": round(acquire_wall / singles[slowest], 3),
            "servers_cpu_seconds": round(servers_cpu, 3),
            "cpu_floor_seconds": round(servers_cpu / (os.cpu_count() or 1), 3),
            "target_ratio": 1.25,
        },
        "overhead": {
            "server": "server-memory",
            "repeat": args.repeat,
            "bare_sdk_list_tools_median_seconds": round(bare, 3),
            "toolwitness_live_acquire_median_seconds": round(acquired, 3),
            "toolwitness_live_scan_median_seconds": round(ours, 3),
            "acquire_overhead_percent": round((acquired / bare - 1) * 100, 1),
            "scan_overhead_percent": round((ours / bare - 1) * 100, 1),
            "target_percent": 10,
        },
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    f, o = report["fleet"], report["overhead"]
    print(f"cpus: {report['cpus']}")
    print(
        f"fleet: {f['servers']} servers, {f['tools']} tools, {f['failed']} failed "
        f"(medians of {f['rounds']} rounds)"
    )
    for name, seconds in f["single_server_seconds"].items():
        print(f"  alone, bare SDK  {name:<20} {seconds:6.2f} s")
    print(f"  sum of singles                        {f['sum_of_singles_seconds']:6.2f} s")
    print(f"  all seven, concurrent toolwitness scan {f['wall_seconds']:6.2f} s")
    print(
        f"  ratio to the slowest single ({f['slowest_single']}): "
        f"{f['ratio_to_slowest']:.2f}x (target <= 1.25x)"
    )
    print(
        f"  acquisition only (no checks)          {f['acquire_only_wall_seconds']:6.2f} s"
        f"  ratio {f['acquire_only_ratio_to_slowest']:.2f}x"
    )
    print(
        f"  the servers' own CPU time during it   {f['servers_cpu_seconds']:6.2f} s"
        f"  -> floor on {report['cpus']} cpus {f['cpu_floor_seconds']:.2f} s"
    )
    print(f"overhead ({o['server']}, median of {o['repeat']}, interleaved):")
    print(
        f"  bare SDK start + list_tools          {o['bare_sdk_list_tools_median_seconds']:6.3f} s"
    )
    print(
        f"  toolwitness live acquisition         {o['toolwitness_live_acquire_median_seconds']:6.3f}"
        f" s  {o['acquire_overhead_percent']:+.1f}% (target <= +10%)"
    )
    print(
        f"  toolwitness live scan (+ all checks) {o['toolwitness_live_scan_median_seconds']:6.3f}"
        f" s  {o['scan_overhead_percent']:+.1f}%"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
