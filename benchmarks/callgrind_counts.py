"""Instructions of whole `toolwitness scan` processes under callgrind: the count the performance
passes decide on (wall time on a shared 2-core machine spreads by 10-20% run to run; this does
not). For each source tree given, a one-tool benign scan and 5,000-tool benign and poisoned scans
of `benchmarks/catalogs.py`, bytecode compiled first, each run once:

    git archive e420130 src | tar -x -C /tmp/before
    python benchmarks/callgrind_counts.py src /tmp/before/src

Prints "catalog: count per tree" and the ratio of each tree to the first. Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from catalogs import write_catalog

_COLLECTED = re.compile(r"Collected : (\d+)")
CASES = (("benign", 1), ("benign", 5000), ("poisoned", 5000))
LIMITS = ["--max-tools", "20000", "--max-file-mib", "64"]


def count(src: str, catalog: Path, out: Path) -> int:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = src
    scan = [sys.executable, "-m", "toolwitness", "scan", str(catalog), "-f", "json", *LIMITS]
    subprocess.run(scan, env=env, stdout=subprocess.DEVNULL, check=False)  # compile bytecode
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *scan],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False,
    )  # fmt: skip
    found = _COLLECTED.search(run.stderr)
    if found is None:
        raise SystemExit(f"callgrind gave no count for {catalog.name} ({src}):\n{run.stderr[-500:]}")
    return int(found.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("srcs", nargs="+", help="source trees (PYTHONPATH), the first is the base")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for kind, n in CASES:
            catalog = write_catalog(n, kind, folder)
            counts = [count(src, catalog, folder / "cg.out") for src in args.srcs]
            ratios = " ".join(f"{c / counts[0]:.3f}x" for c in counts[1:])
            print(f"{kind}-{n}: " + " ".join(f"{c / 1e6:,.1f} M" for c in counts), ratios)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
