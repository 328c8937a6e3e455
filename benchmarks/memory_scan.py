"""Where a `toolwitness scan` process's peak memory comes from: resident memory after each stage
(catalog read, checks, report written as the command line writes it), and what the scan
allocated and still holds when its result is built, by the file that allocated it.

The peak is what `bench_peers.py` reports (`wait4`); this script says which stage sets it and
which modules hold the memory then. One run, no baseline; run it on two trees to compare:

    PYTHONPATH=src .venv/bin/python benchmarks/memory_scan.py --catalog poisoned --tools 5000
    PYTHONPATH=/tmp/base/src .venv/bin/python benchmarks/memory_scan.py --catalog poisoned

- stages: resident and peak MiB (`/proc/self/statm`, `ru_maxrss`) after reading the catalog,
  after the scan (as the command line runs it: its memos dropped, see `memo.release_after_scan`,
  when the tree has it) and after the JSON report is made and written to /dev/null;
- `--held`: a second pass under `tracemalloc` (slower): the memory the scan allocated and still
  holds once the result is built, by allocating file, and by line for `--under` files.
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

from catalogs import KINDS, write_catalog


def _resident() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def _peak() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--catalog", choices=KINDS, default="poisoned")
    parser.add_argument("--tools", type=int, default=5000)
    parser.add_argument("--held", action="store_true", help="also trace what the scan holds")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--under", action="append", default=[], metavar="PATH-PART")
    args = parser.parse_args()

    gc.disable()  # as `cli.main` runs a scan
    from toolwitness import memo
    from toolwitness.acquire.catalog import load_catalog_file
    from toolwitness.cli_support import emit
    from toolwitness.report.interface import ReportOptions
    from toolwitness.report.json_format import JsonFormat

    releasing = getattr(memo, "release_after_scan", None)
    with tempfile.TemporaryDirectory() as tmp:
        catalog = write_catalog(args.tools, args.catalog, Path(tmp))
        start = _resident()
        surface = load_catalog_file(catalog)
        print(f"{args.tools} {args.catalog} tools")
        print(f"  start          {start:6.0f} MiB resident")
        print(f"  catalog read   {_resident():6.0f} MiB resident, peak {_peak():4.0f}")
        if releasing is not None:
            releasing(True)
        result = _scan_surface(surface)
        print(f"  scanned        {_resident():6.0f} MiB resident, peak {_peak():4.0f}")
        text = JsonFormat(ReportOptions()).format(result)
        emit(text, Path("/dev/null"))
        print(f"  report written {_resident():6.0f} MiB resident, peak {_peak():4.0f}")
        del text, result
        if releasing is not None:
            releasing(False)
        if args.held:
            _held(surface, args.top, args.under)


def _scan_surface(surface: Any) -> Any:
    from toolwitness.pipeline import scan

    return scan([surface])


def _held(surface: Any, top: int, under: list[str]) -> None:
    from toolwitness.pipeline import scan

    tracemalloc.start(1)
    result = scan([surface])
    snapshot = tracemalloc.take_snapshot()
    tracemalloc.stop()
    by_file = snapshot.statistics("filename")
    total = sum(s.size for s in by_file)
    print(f"\nheld by the scan once its result is built (memos kept): {total / 1e6:.1f} MB")
    for stat in by_file[:top]:
        name = stat.traceback[0].filename.split("/src/")[-1]
        print(f"  {stat.size / 1e6:6.1f} MB {stat.count:8d} objects  {name}")
    if under:
        print("\nby line, in files matching " + ", ".join(under))
        for stat in snapshot.statistics("lineno")[: top * 20]:
            frame = stat.traceback[0]
            if any(part in frame.filename for part in under):
                name = frame.filename.split("/src/")[-1]
                print(f"  {stat.size / 1e6:6.2f} MB {stat.count:8d}  {name}:{frame.lineno}")
    del result


if __name__ == "__main__":
    sys.exit(main())
