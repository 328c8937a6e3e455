"""Code verification speed: the published server-filesystem package, and how time grows.

Times are CPU seconds (best of N), wall time shown for the 1x case: the machine may be shared.

1. Analyse the installed @modelcontextprotocol/server-filesystem dist/ (5 files, 14 tools):
   parse + resolve + reach every handler + verdicts, with the sink catalog already loaded (a
   one-off cost per process, measured separately). Target: under 300 ms.
2. Growth: generated servers made of 10x and 100x copies of that package (each copy's tools
   renamed so every tool stays distinct), analysed as one tree; time ratio vs the 1x baseline
   measured in the same run (linear growth would be ~10 and ~100), and files/second.

Usage: python benchmarks/bench_code.py [--package DIR] [--repeat 5]
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from timing import best

from toolwitness.code.analyse import analyse_directory
from toolwitness.code.sinks import load_sink_catalog

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / ".cache/test-servers/npm/node_modules/@modelcontextprotocol/server-filesystem/dist"
_TOOL = re.compile(rb'(registerTool\(\s*")([^"]+)(")')


def wall(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def replicate(package: Path, copies: int, dest: Path) -> int:
    files = 0
    for index in range(copies):
        folder = dest / f"copy{index:03d}"
        folder.mkdir(parents=True)
        for source in sorted(package.glob("*.js")):
            data = _TOOL.sub(
                lambda m, i=index: m[1] + m[2] + f"_{i}".encode() + m[3], source.read_bytes()
            )
            (folder / source.name).write_bytes(data)
            files += 1
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--package", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    started = time.perf_counter()
    load_sink_catalog()
    print(f"sink catalog load (once per process): {(time.perf_counter() - started) * 1000:.0f} ms")

    files = len(list(args.package.glob("*.js")))
    analysis = analyse_directory(args.package)
    base = best(lambda: analyse_directory(args.package), args.repeat, time.process_time)
    walls = sorted(wall(lambda: analyse_directory(args.package)) for _ in range(args.repeat))
    print(
        f"server-filesystem: {files} files, {len(analysis.tools)} tools: "
        f"{base * 1000:.1f} ms CPU (best of {args.repeat}), wall {walls[0] * 1000:.1f} ms best / "
        f"{walls[len(walls) // 2] * 1000:.1f} ms median, {files / base:.0f} files/s"
    )
    with tempfile.TemporaryDirectory() as work:
        for factor in (10, 100):
            tree = Path(work) / f"x{factor}"
            count = replicate(args.package, factor, tree)
            tools = len(analyse_directory(tree).tools)
            elapsed = best(
                lambda t=tree: analyse_directory(t), max(1, args.repeat // 2), time.process_time
            )
            print(
                f"{factor:>3}x generated server: {count} files, {tools} tools: "
                f"{elapsed * 1000:.0f} ms, {count / elapsed:.0f} files/s, "
                f"ratio vs 1x {elapsed / base:.1f} (linear = {factor})"
            )


if __name__ == "__main__":
    main()
