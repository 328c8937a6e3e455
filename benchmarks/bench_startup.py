"""Start-up cost of the `toolwitness` command, measured as whole processes.

Cases: `toolwitness --version`, a scan of a 1-tool catalog (JSON report to a file, the CI shape),
the same scan with the default terminal report, `toolwitness rules`, and `toolwitness code` on
the real server-filesystem package when `make servers` installed it; plus two floors measured in
the same run: `python -c pass` (the interpreter) and `python -c "import pydantic"` (the model
library every scan needs). Runs alternate between the cases (round robin) so machine load hits
them alike; the figures are medians of wall time, CPU time (user + system, the analysis child of
`code` included) and peak RSS, read with `wait4`. Each case also runs once under
`python -X importtime` for the number of modules it imports and the share of its wall time spent
importing (total cumulative import time of the top-level imports / that run's wall time; for
`code`, the analysis child's imports are counted too: it writes to the same stderr);
`--importtime-runs N` repeats those runs N times, alternated like the others, and reports the
medians of the import total (seconds) and of its share.

`--compare-src DIR` adds the same cases run from another source tree (PYTHONPATH=DIR, e.g. an
older checkout: `git archive 28e00d7 src | tar -x -C /tmp/before`), interleaved with ours.
"Ours" is the installed package (the environment's PYTHONPATH is dropped), or the tree `--src
DIR` names: from a git worktree whose venv installs another checkout, pass `--src src`, or the
installed copy is what is timed. Children run with bytecode caches, as an installed package has
them.

`--beyond-ascii` adds a one-tool scan whose description holds a dash, an accent and a CJK name.

Usage: python benchmarks/bench_startup.py [--runs 15] [--importtime-runs 1]
       [--src src] [--compare-src /tmp/before/src] [--beyond-ascii] [--json]
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
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILESYSTEM = ROOT / ".cache/test-servers/npm/node_modules/@modelcontextprotocol/server-filesystem"
TOOL = {
    "name": "get_forecast",
    "description": "Get the weather forecast for a city for the next 1-7 days.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
    "annotations": {"readOnlyHint": True, "openWorldHint": True},
}


@dataclass
class Case:
    label: str
    argv: list[str]
    env: dict[str, str]
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    modules: int = 0
    import_s: list[float] = field(default_factory=list)
    import_shares: list[float] = field(default_factory=list)


class Unsupported(Exception):
    """The command exits 2 (usage): that tree has no such command or option."""


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak RSS (KiB) of one whole process."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = proc.stderr.read() if proc.stderr else b""
    if proc.returncode == 2:
        raise Unsupported(stderr.decode()[-200:])
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}: {stderr.decode()[-400:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def _importtime(argv: list[str], env: dict[str, str]) -> tuple[int, float, float]:
    """(modules imported, seconds importing, share of the run's wall time spent importing)."""
    timed = [argv[0], "-X", "importtime", *argv[1:]]
    started = time.perf_counter()
    proc = subprocess.run(timed, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("import time:")]
    rows = [ln.split("|") for ln in lines[1:]]  # the first line is the header
    top_level_us = sum(int(r[1]) for r in rows if not r[2][1:].startswith(" "))
    return len(rows), top_level_us / 1e6, top_level_us / 1e6 / wall


# The same tool with text beyond ASCII (a dash, an accent, a CJK name), as real catalogs often
# have: such text loads the Unicode tables and the `regex` package (`--beyond-ascii`).
TOOL_BEYOND_ASCII = {
    **TOOL,
    "description": "Get the weather forecast for a city — Zürich or 東京 — for the next 1-7 days.",
}


def cases(
    workdir: Path, compare_src: Path | None, src: Path | None = None, beyond_ascii: bool = False
) -> list[Case]:
    catalog = workdir / "one-tool.json"
    catalog.write_text(json.dumps({"tools": [TOOL]}), encoding="utf-8")
    beyond = workdir / "one-tool-beyond-ascii.json"
    beyond.write_text(json.dumps({"tools": [TOOL_BEYOND_ASCII]}, ensure_ascii=False), "utf-8")
    report = str(workdir / "report.json")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode cached
    commands = {
        "--version": ["--version"],
        "scan 1 tool -o report.json": ["scan", str(catalog), "-f", "json", "-o", report],
        "scan 1 tool (terminal)": ["scan", str(catalog)],
        "rules": ["rules"],
    }
    if beyond_ascii:
        commands["scan 1 tool beyond ASCII -o report.json"] = [
            "scan", str(beyond), "-f", "json", "-o", report,
        ]  # fmt: skip
    if FILESYSTEM.is_dir():
        code_report = str(workdir / "code.json")
        commands["code server-filesystem"] = ["code", str(FILESYSTEM), "-f", "json", "-o",
                                              code_report]  # fmt: skip
    py = sys.executable
    found = [
        Case("python -c pass", [py, "-c", "pass"], env),
        Case("python -c 'import pydantic'", [py, "-c", "import pydantic"], env),
    ]
    trees = [("", env if src is None else {**env, "PYTHONPATH": str(src.resolve())})]
    if compare_src is not None:
        trees.append((f" [{compare_src}]", {**env, "PYTHONPATH": str(compare_src)}))
    for suffix, tree_env in trees:
        for label, args in commands.items():
            found.append(Case(label + suffix, [py, "-m", "toolwitness", *args], tree_env))
    return found


def measure(all_cases: list[Case], runs: int, importtime_runs: int = 1) -> list[Case]:
    supported = []
    for case in all_cases:  # warm the file cache and the bytecode of both trees
        try:
            _run(case.argv, case.env)
            supported.append(case)
        except Unsupported:
            print(f"skipped (not supported there): {case.label}", file=sys.stderr)
    all_cases[:] = supported
    for _ in range(runs):
        for case in all_cases:
            wall, cpu, rss = _run(case.argv, case.env)
            case.walls.append(wall)
            case.cpus.append(cpu)
            case.rss_kib.append(rss)
    for _ in range(importtime_runs):
        for case in all_cases:
            case.modules, seconds, share = _importtime(case.argv, case.env)
            case.import_s.append(seconds)
            case.import_shares.append(share)
    return all_cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--importtime-runs", type=int, default=1)
    parser.add_argument("--compare-src", type=Path, default=None)
    parser.add_argument("--src", type=Path, default=None, help="time this tree, not the installed")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--beyond-ascii", action="store_true",
                        help="also a one-tool scan whose description is not all ASCII")  # fmt: skip
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tw-bench-startup-") as work:
        all_cases = cases(Path(work), args.compare_src, args.src, args.beyond_ascii)
        all_cases = measure(all_cases, args.runs, args.importtime_runs)
    floor = statistics.median(all_cases[0].walls)
    rows = [
        {
            "case": c.label,
            "median_s": round(statistics.median(c.walls), 4),
            "over_python_s": round(statistics.median(c.walls) - floor, 4),
            "median_cpu_s": round(statistics.median(c.cpus), 4),
            "median_rss_mib": round(statistics.median(c.rss_kib) / 1024, 1),
            "modules": c.modules,
            "import_s": round(statistics.median(c.import_s), 4),
            "import_share": round(statistics.median(c.import_shares), 3),
            "runs": len(c.walls),
        }
        for c in all_cases
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    head = f"{'case':<52} {'wall':>8} {'-python':>8} {'CPU':>8} {'RSS MiB':>8} {'modules':>8}"
    print(f"{head} {'import':>8} {'share':>6}")
    for r in rows:
        print(
            f"{r['case']:<52} {r['median_s']:>7.3f}s {r['over_python_s']:>7.3f}s "
            f"{r['median_cpu_s']:>7.3f}s {r['median_rss_mib']:>8} {r['modules']:>8} "
            f"{r['import_s']:>7.3f}s {r['import_share']:>6.0%}"
        )
    print(f"({args.runs} runs per case, {args.importtime_runs} with -X importtime, alternated; "
          f"medians; nproc={os.cpu_count()}; load average {os.getloadavg()[0]:.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
