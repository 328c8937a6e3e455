"""Lab overhead per server and per tool: the same calls bare, sandboxed, traced, and as a probe.

Every configuration makes the calls the lab plans, with the same retry rules (a fallback try
after an error answer), in one SDK session:
  bare     the server run unconfined and untraced, no snapshots (the baseline, same run)
  sandbox  the lab's sandbox (bubblewrap, seccomp, the read-only view), snapshots around calls
  +strace  the same under the outside tracer (a probe run alone)
  probe    what `toolwitness probe` does: the limited child process, witness self-test, probe
           run, control run, verdicts
Figures are medians of --repeat runs (wall clock). The machine is shared (2 cores, other jobs
running), so absolute numbers are noisy; the ratios are measured in the same run.

Usage: python benchmarks/bench_lab.py [--repeat 3] [--only NAME]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.live_collect import PageLimits, Stage, collect_document
from toolwitness.acquire.live_stdio import Launch, StdioDiagnostics, StreamBudget, bounded_stdio
from toolwitness.lab.args import Try
from toolwitness.lab.isolated import ProbeLimits, probe_isolated
from toolwitness.lab.planner import Planner
from toolwitness.lab.probe import LabOptions
from toolwitness.lab.sandbox import lab_argv, lab_environment, make_lab
from toolwitness.lab.session import SessionLimits, _opening, lab_placeholders, run_session
from toolwitness.model import ServerSpec, Transport

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT / ".cache" / "test-servers"
NPM = SERVERS / "npm/node_modules/@modelcontextprotocol"
ALLOW = frozenset({"mcp-server-git", "mcp-server-time"})


def specs() -> dict[str, ServerSpec]:
    fixture = str(ROOT / "tests/fixtures/lab/lab_server.py")
    out: dict[str, tuple[str, tuple[str, ...]]] = {
        "fixture (python, stdlib)": (sys.executable, (fixture, "clean"))
    }
    for name, entry, args in (("server-filesystem", "server-filesystem/dist/index.js", ("{lab}",)),
                              ("server-memory", "server-memory/dist/index.js", ())):  # fmt: skip
        if (NPM / entry).exists():
            out[f"{name} (node)"] = ("node", (str(NPM / entry), *args))
    for name in ("mcp-server-git", "mcp-server-time"):
        binary = SERVERS / "venvs" / name / "bin" / name
        if binary.exists():
            out[f"{name} (python)"] = (str(binary), ())
    return {
        name: ServerSpec(name=name, transport=Transport(kind="stdio", command=cmd, args=args))
        for name, (cmd, args) in out.items()
    }


@asynccontextmanager
async def _stdio(launch: Launch) -> Iterator[Any]:  # type: ignore[misc]
    async with bounded_stdio(
        launch, StdioDiagnostics(StreamBudget(1 << 24, 1 << 26, 1 << 16))
    ) as s:
        yield s


async def bare(spec: ServerSpec) -> tuple[int, int]:
    """The lab's calls (and fallbacks) on an unconfined, untraced server, no snapshots."""
    with tempfile.TemporaryDirectory() as folder:
        lab = make_lab(Path(folder), "bench", confined=False)
        env = lab_environment(lab, {})
        args = tuple(lab_placeholders(a, lab) for a in spec.transport.args)
        argv = lab_argv(lab, (spec.transport.command or "", *args), env, trace=False)
        launch = Launch(argv=argv, env=env, cwd=str(lab.work))
        planner = Planner(lab, spec, False, 200, None)
        info = types.Implementation(name="bench", version="0")
        calls = 0
        async with Client(_stdio(launch), client_info=info, cache=None) as client:
            doc = await collect_document(
                client.session, "bench", Stage(), PageLimits(10, 5000, 5000)
            )
            plans = planner(surface_from_document(doc, server_id="bench", source="bench"))
            worked: dict[str, Try] = {}
            for tool, plan in plans:
                attempt, most = _opening(plan, worked.get(tool))
                for _ in range(most):
                    calls += 1
                    result = await client.call_tool(
                        tool, attempt.arguments, read_timeout_seconds=30
                    )
                    if not result.is_error:
                        worked.setdefault(tool, attempt)
                        break
                    text = "\n".join(getattr(c, "text", "") or "" for c in result.content)
                    following = plan.next_try(attempt, text)
                    if following is None:
                        break
                    attempt = following
        return calls, len({tool for tool, _ in plans})


async def session(spec: ServerSpec, trace: bool) -> int:
    with tempfile.TemporaryDirectory() as folder:
        lab = make_lab(Path(folder), "bench")
        limits = SessionLimits(trace=trace, allow_commands=ALLOW)
        record = await run_session(spec, lab, limits, Planner(lab, spec, False, 200, None))
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
    print(f"median of {opts.repeat} runs, wall seconds; 2 cores shared with other jobs "
          f"(load average {os.getloadavg()[0]:.1f} before)")  # fmt: skip
    header = f"{'server':26} {'tools':>5} {'calls':>5} {'bare':>6} {'sandbox':>7} {'+strace':>7}"
    print(header + f" {'probe':>6} {'probe/bare':>10} {'+/server':>8} {'+/tool':>7}")
    options = LabOptions(allow_commands=ALLOW)
    for name, spec in specs().items():
        if opts.only and opts.only not in name:
            continue
        t_bare, counted = median_time(lambda s=spec: anyio.run(bare, s), opts.repeat)
        t_box, _ = median_time(lambda s=spec: anyio.run(session, s, False), opts.repeat)
        t_trace, _ = median_time(lambda s=spec: anyio.run(session, s, True), opts.repeat)
        t_probe, _ = median_time(
            lambda s=spec: probe_isolated(s, options, ProbeLimits()), opts.repeat
        )
        calls, tools = counted if isinstance(counted, tuple) else (0, 0)
        extra = t_probe - t_bare
        per_tool = extra / tools if tools else float("nan")
        print(
            f"{name:26} {tools:>5} {calls:>5} {t_bare:>6.2f} {t_box:>7.2f} {t_trace:>7.2f}"
            f" {t_probe:>6.2f} {t_probe / t_bare:>9.1f}x {extra:>7.2f}s {per_tool:>6.2f}s"
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
