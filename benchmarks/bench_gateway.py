"""Gateway overhead: one tools/call request/response round trip, direct vs through the gateway.

Both legs run in the same process run, against the same servers: the real npm
`server-everything` (tool `echo`, the acceptance target) and `server-memory` (tool
`read_graph`) when they are installed, and the stdlib fixture server
(`tests/fixtures/rugpull_server.py`, tool `echo`). Raw newline-delimited JSON-RPC over pipes (no
SDK on the client side), so the figure is what the gateway adds, not client-library noise. Each
leg: initialize, one tools/list (checked against a lock that pins the server), a pause while the
gateway loads its metadata checks in the background (`--settle`), warm-up, then N timed calls.
The legs alternate in blocks so drift in machine load hits both alike.

Also printed: start-up (spawn to the initialize answer) for each leg, a one-off cost.

Usage: python benchmarks/bench_gateway.py [--calls 2000] [--block 250] [--settle 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "rugpull_server.py"
NPM = ROOT / ".cache/test-servers/npm/node_modules/@modelcontextprotocol"


class Connection:
    """A server process spoken to over its stdio pipes."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )
        self.next_id = 0
        self.spawned = time.perf_counter_ns()
        self.started_ms = 0.0

    def request(
        self, method: str, params: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """Send one request; return (round-trip ns, response), skipping notifications."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.next_id += 1
        line = json.dumps(
            {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}}
        )
        data = line.encode() + b"\n"
        start = time.perf_counter_ns()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()
        while True:
            answer = self.proc.stdout.readline()
            if not answer:
                raise RuntimeError("server closed the connection")
            if b'"id"' in answer:
                elapsed = time.perf_counter_ns() - start
                return elapsed, json.loads(answer)

    def open(self) -> list[dict[str, Any]]:
        """Handshake and list; start-up is the time from spawn to the initialize answer."""
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        )
        self.started_ms = (time.perf_counter_ns() - self.spawned) / 1e6
        assert self.proc.stdin is not None
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.proc.stdin.flush()
        _, listed = self.request("tools/list")
        tools: list[dict[str, Any]] = listed["result"]["tools"]
        return tools

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(
    name: str,
    server: list[str],
    tool: str,
    args: dict[str, Any],
    calls: int,
    block: int,
    work: Path,
    settle: float,
) -> dict[str, Any]:
    env = {"PATH": os.environ.get("PATH", ""), "MEMORY_FILE_PATH": str(work / f"{name}.jsonl")}
    direct = Connection(server, env)
    tools = direct.open()
    catalog = work / f"{name}.json"
    catalog.write_text(json.dumps({"tools": tools}))
    lock = work / f"{name}.lock"
    key = ["--server-id", name]
    subprocess.run(
        [sys.executable, "-m", "toolwitness", "lock", str(catalog), "-o", str(lock), "--yes", *key],
        check=True,
        capture_output=True,
    )
    audit = work / f"{name}.audit.jsonl"
    gateway_argv = [sys.executable, "-m", "toolwitness", "gateway", "--lock", str(lock), *key]
    proxied = Connection([*gateway_argv, "--audit", str(audit), "--", *server], env)
    assert len(proxied.open()) == len(tools)
    time.sleep(settle)  # the gateway's background load of the checks: not a per-call cost
    samples: dict[str, list[float]] = {"direct": [], "gateway": []}
    for conn in (direct, proxied):  # warm-up: caches, JIT (node), page faults
        for _ in range(100):
            conn.request("tools/call", {"name": tool, "arguments": args})
    done = 0
    while done < calls:
        n = min(block, calls - done)
        for label, conn in (("direct", direct), ("gateway", proxied)):
            for _ in range(n):
                elapsed, answer = conn.request("tools/call", {"name": tool, "arguments": args})
                assert "result" in answer, answer
                samples[label].append(elapsed / 1000.0)  # µs
        done += n
    direct.close()
    proxied.close()
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    record = next(r for r in records if r["event"] == "tools/list")
    out: dict[str, Any] = {"server": name, "calls": calls, "pin_state": record["state"]}
    for label, values in samples.items():
        out[label] = {
            "median_us": round(statistics.median(values), 1),
            "p99_us": round(_percentile(values, 0.99), 1),
            "mean_us": round(statistics.fmean(values), 1),
        }
    out["startup_ms"] = {"direct": round(direct.started_ms), "gateway": round(proxied.started_ms)}
    out["added_median_us"] = round(out["gateway"]["median_us"] - out["direct"]["median_us"], 1)
    out["added_p99_us"] = round(out["gateway"]["p99_us"] - out["direct"]["p99_us"], 1)
    out["median_ratio"] = round(out["gateway"]["median_us"] / out["direct"]["median_us"], 2)
    return out


def _npm_entry(package: str) -> Path | None:
    """The installed package's bin script (see scripts/install-test-servers.sh), if any."""
    folder = NPM / package
    if not folder.exists():
        return None
    manifest = json.loads((folder / "package.json").read_text())
    binary = (
        manifest["bin"]
        if isinstance(manifest["bin"], str)
        else next(iter(manifest["bin"].values()))
    )
    return (folder / binary).resolve()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--block", type=int, default=250)
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    targets: list[tuple[str, list[str], str, dict[str, Any]]] = []
    for package, extra, tool, args in (
        ("server-everything", ["stdio"], "echo", {"message": "ping"}),
        ("server-memory", [], "read_graph", {}),
    ):
        entry = _npm_entry(package)
        if entry is not None:
            targets.append((package, ["node", str(entry), *extra], tool, args))
    targets.append(("fixture", [sys.executable, str(FIXTURE)], "echo", {"text": "ping"}))
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, server, tool, args in targets:
            results.append(
                measure(
                    name,
                    server,
                    tool,
                    args,
                    options.calls,
                    options.block,
                    Path(tmp),
                    options.settle,
                )
            )
    if options.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{'server':<18} {'leg':<8} {'median µs':>10} {'p99 µs':>10} {'mean µs':>10}")
    for r in results:
        for leg in ("direct", "gateway"):
            f = r[leg]
            print(
                f"{r['server']:<18} {leg:<8} {f['median_us']:>10} {f['p99_us']:>10} {f['mean_us']:>10}"
            )
        print(
            f"{'':<18} added: median {r['added_median_us']} µs, p99 {r['added_p99_us']} µs;"
            f" gateway/direct median ratio {r['median_ratio']}x over {r['calls']} calls each"
            f" (pin {r['pin_state']})"
        )
        print(
            f"{'':<18} start-up to the initialize answer: direct {r['startup_ms']['direct']} ms,"
            f" gateway {r['startup_ms']['gateway']} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
