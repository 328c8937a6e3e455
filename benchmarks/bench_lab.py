"""Lab overhead: a probed server's calls bare vs in the sandbox vs sandbox + strace vs the full
probe (witness self-test, probe run with snapshots around every call, control run, verdicts).

Every configuration makes the same calls with the same synthesised arguments:
  bare          the server run directly, SDK session: initialize, tools/list, the calls
  bwrap         the same in the lab sandbox (bubblewrap), no tracer, snapshots around calls
  bwrap+strace  the same under strace -f (the probe run alone)
  full probe    `probe_server`: self-test + probe run + control run + verdicts
Figures are medians of --repeat runs (wall clock). The machine is shared (2 cores, other jobs
running), so absolute numbers are noisy; the ratios are measured in the same run.

Usage: python benchmarks/bench_lab.py [--repeat 3] [--only NAME]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.live_collect import PageLimits, Stage, collect_document
from toolwitness.acquire.live_stdio import Launch, StdioDiagnostics, StreamBudget, bounded_stdio
from toolwitness.lab.probe import LabOptions, _Planner, probe_server
from toolwitness.lab.sandbox import lab_environment, make_lab, real_argv
from toolwitness.lab.session import SessionLimits, lab_placeholders, run_session
from toolwitness.model import ServerSpec, Transport

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT / ".cache" / "test-servers"
FS = SERVERS / "npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
GIT = SERVERS / "venvs/mcp-server-git/bin/mcp-server-git"


def specs() -> dict[str, ServerSpec]:
    fixture = str(ROOT / "tests/fixtures/lab/lab_server.py")
    out = {"fixture (python, stdlib)": (sys.executable, (fixture, "clean"))}
    if FS.exists():
        out["server-filesystem (node)"] = ("node", (str(FS), "{lab}"))
    if GIT.exists():
        out["mcp-server-git (python)"] = (str(GIT), ())
    return {
        name: ServerSpec(name=name, transport=Transport(kind="stdio", command=cmd, args=args))
        for name, (cmd, args) in out.items()
    }


ALLOW = frozenset({"mcp-server-git"})


async def bare(spec: ServerSpec) -> tuple[int, int]:
    """The calls the lab would make, on an unconfined, untraced server (no snapshots)."""
    with tempfile.TemporaryDirectory() as d:
        lab = make_lab(Path(d), "bench")
        env = lab_environment(lab, {})
        args = tuple(lab_placeholders(a, lab) for a in spec.transport.args)
        argv = real_argv((spec.transport.command or "", *args), env)
        launch = Launch(argv=argv, env=env, cwd=str(lab.work))
        diag = StdioDiagnostics(StreamBudget(1 << 24, 1 << 26, 1 << 16))
        planner = _Planner(lab, all_tools=False)
        info = types.Implementation(name="bench", version="0")
        async with Client(bounded_stdio_cm(launch, diag), client_info=info, cache=None) as client:
            doc = await collect_document(
                client.session, "bench", Stage(), PageLimits(10, 5000, 5000)
            )
            surface = surface_from_document(doc, server_id="bench", source="bench")
            plans = planner(surface)
            for tool, plan in plans:
                await client.call_tool(tool, plan.arguments, read_timeout_seconds=30)
        return len(plans), len({tool for tool, _ in plans})


def bounded_stdio_cm(launch: Launch, diag: StdioDiagnostics):  # type: ignore[no-untyped-def]
    return bounded_stdio(launch, diag)


async def session(spec: ServerSpec, sandbox: bool, trace: bool) -> int:
    with tempfile.TemporaryDirectory() as d:
        lab = make_lab(Path(d), "bench")
        limits = SessionLimits(trace=trace, sandbox=sandbox, allow_commands=ALLOW)
        record = await run_session(spec, lab, limits, _Planner(lab, all_tools=False))
        assert record.error is None, record.error
        return len(record.calls)


def median_time(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    times: list[float] = []
    value: object = None
    for _ in range(repeat):
        started = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times), value


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default=None)
    opts = parser.parse_args()
    print(f"median of {opts.repeat} runs, wall seconds (shared 2-core machine: noisy)")
    header = f"{'server':26} {'tools':>5} {'calls':>5} {'bare':>6} {'bwrap':>6} {'+strace':>7}"
    print(header + f" {'full':>6} {'full/bare':>9} {'+/server':>8} {'+/tool':>7}")
    for name, spec in specs().items():
        if opts.only and opts.only not in name:
            continue
        t_bare, calls = median_time(lambda s=spec: anyio.run(bare, s), opts.repeat)
        t_bwrap, _ = median_time(lambda s=spec: anyio.run(session, s, True, False), opts.repeat)
        t_strace, _ = median_time(lambda s=spec: anyio.run(session, s, True, True), opts.repeat)
        options = LabOptions(allow_commands=ALLOW)
        t_full, _ = median_time(lambda s=spec: probe_server(s, options), opts.repeat)
        n, tools = calls if isinstance(calls, tuple) else (0, 0)
        extra = t_full - t_bare
        per_tool = extra / tools if tools else float("nan")
        print(
            f"{name:26} {tools:>5} {n:>5} {t_bare:>6.2f} {t_bwrap:>6.2f} {t_strace:>7.2f}"
            f" {t_full:>6.2f} {t_full / t_bare:>8.1f}x {extra:>7.2f}s {per_tool:>6.2f}s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
