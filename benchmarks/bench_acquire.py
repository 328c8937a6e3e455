"""Safe unpacking and sink lookups: figures, and ratios against baselines measured in the same run.

1. Unpack a real tree (the installed test servers' node_modules, packed into a .tgz here) with
   `unpack_archive` (two passes, every check) vs `tarfile.extractall(filter="data")` (one pass,
   the stdlib's own safety filter) — the price of validating before writing.
2. How fast hostile archives are refused: 1 GiB of zeros in 100 files, and 100,000 empty files.
3. Sink catalog: cold load (YAML + JSON Schema) and `lookup()` throughput vs a plain dict `get`.

Usage: python benchmarks/bench_acquire.py [--tree DIR] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from timing import best

from toolwitness.acquire.archive import ArchiveRefused, unpack_archive
from toolwitness.code import sinks as sinks_module

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from archive_builders import many_empty_files_tar, zeros_tgz  # noqa: E402

DEFAULT_TREE = ROOT / ".cache" / "test-servers" / "npm" / "node_modules"


def pack(tree: Path, out: Path) -> tuple[int, int]:
    files = total = 0
    with tarfile.open(out, "w:gz") as tar:
        for path in sorted(tree.rglob("*")):
            if path.is_file() and not path.is_symlink():
                tar.add(path, arcname=f"package/{path.relative_to(tree)}", recursive=False)
                files += 1
                total += path.stat().st_size
    return files, total


def bench_unpack(tree: Path, work: Path, repeat: int) -> None:
    archive = work / "tree.tgz"
    files, total = pack(tree, archive)
    counter = iter(range(10**6))

    def ours() -> None:
        unpack_archive(archive, work / f"ours-{next(counter)}")

    def stdlib() -> None:
        with tarfile.open(archive, "r:gz") as tar:
            tar.extractall(work / f"std-{next(counter)}", filter="data")

    mine, base = best(ours, repeat), best(stdlib, repeat)
    print(
        f"unpack {files} files, {total / 2**20:.1f} MiB ({archive.stat().st_size / 2**20:.1f} MiB gz)"
    )
    print(f"  toolwitness unpack_archive: {mine * 1000:8.1f} ms  {files / mine:9.0f} files/s")
    print(f"  tarfile extractall(data):   {base * 1000:8.1f} ms  {files / base:9.0f} files/s")
    print(f"  ratio ours/baseline: {mine / base:.2f}x")


def bench_refusals(work: Path) -> None:
    zeros = zeros_tgz(work / "zeros.tgz", file_count=100, file_bytes=10 * 2**20)
    swarm = work / "swarm.tgz"
    swarm.write_bytes(gzip.compress(many_empty_files_tar(100_000), compresslevel=1))
    for name, archive in (("1 GiB of zeros, 100 files", zeros), ("100,000 empty files", swarm)):
        started = time.perf_counter()
        try:
            unpack_archive(archive, work / f"refused-{archive.stem}")
        except ArchiveRefused as exc:
            elapsed = time.perf_counter() - started
            print(
                f"refused {name} ({archive.stat().st_size / 2**20:.1f} MiB) in {elapsed * 1000:.0f} ms: {exc.reason}"
            )


def bench_sinks(repeat: int) -> None:
    def cold() -> object:
        sinks_module.load_sink_catalog.cache_clear()
        return sinks_module.load_sink_catalog()

    load = best(cold, repeat)
    catalog = sinks_module.load_sink_catalog()
    keys = [(s.language, s.module, s.name.replace("*", "x")) for s in catalog.entries()]
    keys += [("js", "lodash", "get"), ("py", "json", "loads")] * 100  # misses
    table = {k: k for k in keys}
    rounds = 20

    def lookups() -> None:
        for _ in range(rounds):
            for lang, module, name in keys:
                catalog.lookup(lang, module, name)

    def dict_gets() -> None:
        for _ in range(rounds):
            for key in keys:
                table.get(key)

    mine, base = best(lookups, repeat), best(dict_gets, repeat)
    n = rounds * len(keys)
    print(f"sink catalog: {len(catalog)} entries, cold load {load * 1000:.1f} ms")
    print(
        f"  lookup(): {n / mine:,.0f}/s   dict.get baseline: {n / base:,.0f}/s   ratio {mine / base:.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", type=Path, default=DEFAULT_TREE)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tw-bench-") as tmp:
        work = Path(tmp)
        if args.tree.is_dir():
            bench_unpack(args.tree, work, args.repeat)
        else:
            print(
                f"(no tree at {args.tree}; run scripts/install-test-servers.sh for the unpack figure)"
            )
        bench_refusals(work)
    bench_sinks(args.repeat)


if __name__ == "__main__":
    main()
