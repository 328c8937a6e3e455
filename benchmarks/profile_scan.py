"""Where an in-process `toolwitness scan` spends its CPU: CPU seconds per check, and a sampling
profile (a stack sample every `--interval` ms of CPU time, read with `SIGPROF`).

cProfile more than doubles a scan's time and inflates small functions most; sampling costs a few
percent and keeps the shares. Counts are samples, so read them as shares (one run, no baseline):

    PYTHONPATH=src .venv/bin/python benchmarks/profile_scan.py --catalog poisoned --tools 5000
    PYTHONPATH=src .venv/bin/python benchmarks/profile_scan.py --under tool_poisoning --depth 3

- per check: CPU seconds of each server check's `run` (the pipeline's loop, timed around it);
- inclusive: share of samples with the function anywhere on the stack (recursion counted once);
- exclusive: share with the function running, and the same summed per file;
- `--under NAME`: only samples below a function of that name, as call paths `--depth` deep.
"""

from __future__ import annotations

import argparse
import collections
import signal
import sys
import tempfile
import time
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from catalogs import KINDS, write_catalog

SRC = str(Path(__file__).resolve().parent.parent / "src") + "/"


def _where(code: CodeType) -> str:
    name = code.co_filename
    return name[len(SRC) :] if name.startswith(SRC) else Path(name).name


class Sampler:
    def __init__(self, under: str | None, depth: int) -> None:
        self.under, self.depth = under, depth
        self.samples = 0
        self.inclusive: collections.Counter[str] = collections.Counter()
        self.exclusive: collections.Counter[str] = collections.Counter()
        self.paths: collections.Counter[str] = collections.Counter()

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        stack: list[CodeType] = []
        while frame is not None:
            stack.append(frame.f_code)
            frame = frame.f_back
        stack.reverse()  # outermost first
        if self.under is not None:
            roots = [i for i, code in enumerate(stack) if code.co_name == self.under]
            if not roots:
                return
            below = [f"{Path(c.co_filename).stem}:{c.co_name}" for c in stack[roots[0] + 1 :]]
            for d in range(1, self.depth + 1):
                if len(below) >= d:
                    self.paths[" > ".join(below[:d])] += 1
            stack = stack[roots[0] :]
        self.samples += 1
        for key in {f"{_where(c)}:{c.co_name}" for c in stack}:
            self.inclusive[key] += 1
        if stack:
            self.exclusive[f"{_where(stack[-1])}:{stack[-1].co_name}"] += 1


def _timed_checks(per_check: collections.Counter[str]) -> None:
    from toolwitness import pipeline

    def check_server(surface: Any, ctx: Any, checks: Any, rules: Any) -> Any:
        found: list[Any] = []
        errors: list[str] = []
        for check in checks:
            start = time.process_time()
            found.extend(check.run(surface, ctx))
            per_check[check.name] += time.process_time() - start
        return found, errors

    pipeline._check_server = check_server  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--catalog", choices=KINDS, default="poisoned")
    parser.add_argument("--tools", type=int, default=5000)
    parser.add_argument("--interval", type=float, default=1.0, help="ms of CPU between samples")
    parser.add_argument("--under", help="only samples below a function of this name")
    parser.add_argument("--depth", type=int, default=2, help="call-path depth with --under")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()

    from toolwitness.cli import main as cli_main

    per_check: collections.Counter[str] = collections.Counter()
    _timed_checks(per_check)
    sampler = Sampler(args.under, args.depth)
    with tempfile.TemporaryDirectory() as tmp:
        catalog = write_catalog(args.tools, args.catalog, Path(tmp))
        argv = ["scan", str(catalog), "-f", "json", "--max-tools", "20000",
                "--max-file-mib", "64", "-o", str(Path(tmp) / "report.json")]  # fmt: skip
        signal.signal(signal.SIGPROF, sampler)
        signal.setitimer(signal.ITIMER_PROF, args.interval / 1000, args.interval / 1000)
        start = time.process_time()
        try:
            cli_main(argv)
        except SystemExit:
            pass
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0, 0)
        total = time.process_time() - start
    n = max(sampler.samples, 1)
    print(f"{args.tools} {args.catalog} tools: {total:.2f} s CPU in process, {n} samples")
    print("\nper check (CPU seconds)")
    for name, seconds in per_check.most_common(args.top):
        print(f"  {seconds:7.3f}  {name}")
    sections = [("inclusive", sampler.inclusive), ("exclusive", sampler.exclusive)]
    by_file: collections.Counter[str] = collections.Counter()
    for key, count in sampler.exclusive.items():
        by_file[key.rsplit(":", 1)[0]] += count
    sections.append(("exclusive by file", by_file))
    if args.under:
        sections.insert(0, (f"call paths below {args.under}", sampler.paths))
    for title, counter in sections:
        print(f"\n{title} (share of samples)")
        for key, count in counter.most_common(args.top):
            print(f"  {100 * count / n:5.1f}%  {key}")


if __name__ == "__main__":
    sys.exit(main())
