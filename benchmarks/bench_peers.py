"""Whole-process timings of `toolwitness scan` (and of peers) on the same generated catalogs.

Each measurement is one complete process — interpreter start, imports, reading the catalog, every
check, the report written — as a user runs it: wall seconds, CPU seconds (user + system) and peak
resident memory, read with `wait4` on that one child (as `/usr/bin/time -v` does). Several runs per
catalog, commands alternated within each round (the order flips every round, so neither always
runs on a warmer or a busier machine), medians reported. Catalogs (`catalogs.py`): 1, 1,000, 5,000
and 10,000 tools, benign and poisoned, deterministic, written to a temporary folder. `toolwitness
code` is timed on the real packages installed in `.cache/test-servers` (`make servers`).

    python benchmarks/bench_peers.py --repeat 5 \\
        --peer-cmd 'cisco=env LITELLM_LOCAL_MODEL_COST_MAP=True /tmp/cisco/bin/mcp-scanner
                    --analyzers yara --format raw static --tools {catalog}'

`--peer-cmd [NAME=]CMD` (repeatable) times another scanner on the same catalog files: `{catalog}`
is replaced by the catalog's path. Ratios are toolwitness ÷ peer (below 1: toolwitness is faster
or smaller). `--tw-cmd` replaces the toolwitness command (e.g. another checkout on PYTHONPATH; it
must print a JSON report, checked to cover every tool). `--compare-src DIR` adds `before`: the
same commands (`scan` and `code`) run from another source tree (`PYTHONPATH=DIR`, e.g.
`git archive main src | tar -x -C /tmp/base`), alternated with the current one in every round.
The machine may be shared: compare figures from one run, read CPU beside wall.

Children run with bytecode caches written and read (`PYTHONDONTWRITEBYTECODE` is dropped from
their environment), as an installed package has them: the warm-up run writes them.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from catalogs import KINDS
from timing import ProcessRun, run_process

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT / ".cache" / "test-servers"
CODE_TARGETS = {
    "server-filesystem": "npm/node_modules/@modelcontextprotocol/server-filesystem",
    "server-memory": "npm/node_modules/@modelcontextprotocol/server-memory",
    "server-everything": "npm/node_modules/@modelcontextprotocol/server-everything",
    "server-sequential-thinking": "npm/node_modules/@modelcontextprotocol/server-sequential-thinking",
    "mcp-server-time": "venvs/mcp-server-time/lib/python*/site-packages/mcp_server_time",
    "mcp-server-git": "venvs/mcp-server-git/lib/python*/site-packages/mcp_server_git",
    "mcp-server-fetch": "venvs/mcp-server-fetch/lib/python*/site-packages/mcp_server_fetch",
}


# An installed package has its bytecode compiled; without the caches every start recompiles
# every module (~0.4 s of a one-tool scan here).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass(frozen=True)
class Command:
    name: str
    template: list[str]  # argv with {catalog} (or {target}) still in it

    def argv(self, **fields: str) -> list[str]:
        return [part.format(**fields) for part in self.template]


@dataclass(frozen=True)
class Summary:
    wall: float  # medians over the runs
    cpu: float
    peak_mib: float
    runs: int


def summarise(runs: list[ProcessRun]) -> Summary:
    return Summary(
        statistics.median(r.wall for r in runs),
        statistics.median(r.cpu for r in runs),
        statistics.median(r.peak_rss_kib for r in runs) / 1024,
        len(runs),
    )


LIMITS = ["--max-tools", "20000", "--max-file-mib", "64"]  # above the default bounds


def toolwitness_cmd() -> list[str]:
    script = Path(sys.executable).with_name("toolwitness")  # the console script users run
    start = [str(script)] if script.exists() else [sys.executable, "-m", "toolwitness"]
    return [*start, "scan", "{catalog}", "-f", "json", *LIMITS]


def source_cmd(src: Path | None) -> list[str]:
    """`python -m toolwitness scan` from the installed package, or from the tree `src`."""
    start = ["env", f"PYTHONPATH={src.resolve()}"] if src is not None else []
    return [*start, sys.executable, "-m", "toolwitness", "scan", "{catalog}", "-f", "json", *LIMITS]


def code_cmd(template: list[str]) -> list[str]:
    return [*template[: template.index("scan")], "code", "{target}", "-f", "json"]


def parse_peer(text: str) -> Command:
    name, sep, cmd = text.partition("=")
    if not sep or " " in name or not name:
        name, cmd = "", text
    argv = shlex.split(cmd)
    if not any("{catalog}" in part for part in argv):
        raise SystemExit(f"--peer-cmd needs a {{catalog}} placeholder: {text!r}")
    return Command(name or Path(argv[0]).name, argv)


# This process stays small: a child's peak memory (`wait4`'s ru_maxrss) starts from this
# process's own peak, which Linux carries across fork and exec, so a 5,000-tool catalog built
# here or a report parsed here (~30 MiB) showed in the peak of every smaller run after it (a
# one-tool scan read 52 MiB instead of 26, `code` 69 MiB instead of 41). Catalogs are written by
# a child, and a report's summary is read from its last bytes.
_WRITE = "import sys; from pathlib import Path; from catalogs import write_catalog; " \
         "print(write_catalog(int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])))"  # fmt: skip
_TAIL = 1 << 16  # the summary, the report's last member, is a few hundred bytes


def write_apart(n: int, kind: str, folder: Path) -> Path:
    """`write_catalog(n, kind, folder)` in a child process (see above)."""
    done = subprocess.run(
        [sys.executable, "-c", _WRITE, str(n), kind, str(folder)], check=True,
        capture_output=True, text=True, cwd=Path(__file__).resolve().parent,
    )  # fmt: skip
    return Path(done.stdout.strip())


def report_summary(stdout: Path) -> dict[str, object]:
    """The "summary" member of a toolwitness JSON report, read from the file's last bytes (it is
    the document's last member; a '"summary": ' inside a string would have its quotes escaped)."""
    with stdout.open("rb") as f:
        f.seek(max(0, f.seek(0, os.SEEK_END) - _TAIL))
        tail = f.read().decode("utf-8", "replace")
    at = tail.rfind('"summary": ')
    if at < 0:
        raise SystemExit(f"no summary at the end of {stdout}")
    value, _ = json.JSONDecoder().raw_decode(tail, at + len('"summary": '))
    if not isinstance(value, dict):
        raise SystemExit(f"the summary of {stdout} is not an object")
    return value


def check_toolwitness_output(stdout: Path, tools: int) -> None:
    """A toolwitness JSON report must cover every tool: a truncated or refused scan is no figure."""
    summary = report_summary(stdout)
    if summary["tools"] != tools or summary.get("incomplete"):
        raise SystemExit(f"toolwitness scanned {summary['tools']} of {tools} tools: {summary}")


def measure(
    commands: list[Command], fields: dict[str, str], repeat: int, ok: set[int], tmp: Path
) -> dict[str, list[ProcessRun]]:
    runs: dict[str, list[ProcessRun]] = {c.name: [] for c in commands}
    for round_no in range(repeat):
        order = commands if round_no % 2 == 0 else commands[::-1]
        for command in order:
            out, err = tmp / f"{command.name}.out", tmp / f"{command.name}.err"
            run = run_process(command.argv(**fields), out, err, CHILD_ENV)
            if run.returncode not in ok:
                tail = err.read_text(errors="replace")[-600:]
                raise SystemExit(f"{command.name} exited {run.returncode}:\n{tail}")
            runs[command.name].append(run)
    return runs


def row(label: str, results: dict[str, Summary], base: str) -> str:
    cells = []
    for name, s in results.items():
        cell = f"{name} {s.wall:.2f} s wall, {s.cpu:.2f} s CPU, {s.peak_mib:.0f} MiB"
        if name != base:
            b = results[base]
            cell += (
                f" (toolwitness/{name}: wall {b.wall / s.wall:.2f}×, CPU {b.cpu / s.cpu:.2f}×,"
                f" memory {b.peak_mib / s.peak_mib:.2f}×)"
            )
        cells.append(cell)
    return f"{label:<22} " + "\n                       ".join(cells)


def code_targets(names: list[str]) -> dict[str, Path]:
    found = {}
    for name in names:
        matches = sorted(SERVERS.glob(CODE_TARGETS[name]))
        if not matches:
            raise SystemExit(f"{name} is not installed under {SERVERS} (run `make servers`)")
        found[name] = matches[0]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 1000, 5000, 10000])
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--peer-cmd", action="append", default=[], metavar="[NAME=]CMD")
    parser.add_argument("--tw-cmd", help="the toolwitness command, with {catalog}")
    parser.add_argument("--compare-src", type=Path, metavar="DIR",
                        help="also time `before`: the same commands from this source tree")  # fmt: skip
    parser.add_argument("--ok-exit", default="0,1", help="exit codes that count as a finished run")
    parser.add_argument("--code", nargs="*", choices=sorted(CODE_TARGETS), default=None,
                        help="packages for `toolwitness code` (default: all installed ones)")  # fmt: skip
    parser.add_argument("--no-code", action="store_true", help="skip `toolwitness code`")
    parser.add_argument("--json", type=Path, help="also write every run here")
    args = parser.parse_args()
    ok = {int(code) for code in args.ok_exit.split(",")}
    if args.tw_cmd:
        template = shlex.split(args.tw_cmd)
    else:  # beside a source tree, both run as `python -m` (the same start-up path)
        template = source_cmd(None) if args.compare_src else toolwitness_cmd()
    tw = Command("toolwitness", template)
    before = [Command("before", source_cmd(args.compare_src))] if args.compare_src else []
    commands = [tw, *before] + [parse_peer(text) for text in args.peer_cmd]
    record: dict[str, dict[str, list[dict[str, float]]]] = {}
    print(f"{args.repeat} runs each, alternated, medians; peak memory = max resident set")
    with tempfile.TemporaryDirectory(prefix="tw-bench-") as folder:
        tmp = Path(folder)
        warm = write_apart(1, "benign", tmp)
        measure(commands, {"catalog": str(warm)}, 1, ok, tmp)  # page cache, bytecode: not timed
        for kind in args.kinds:
            for n in args.sizes:
                catalog = write_apart(n, kind, tmp)
                runs = measure(commands, {"catalog": str(catalog)}, args.repeat, ok, tmp)
                for command in (tw, *before):
                    check_toolwitness_output(tmp / f"{command.name}.out", n)
                label = f"{n:,} {kind} tool{'s' if n > 1 else ''}"
                record[label] = {k: [asdict(r) for r in v] for k, v in runs.items()}
                print(row(label, {k: summarise(v) for k, v in runs.items()}, tw.name), flush=True)
        if not args.no_code and "scan" in template:
            names = args.code if args.code is not None else [
                name for name in CODE_TARGETS if list(SERVERS.glob(CODE_TARGETS[name]))
            ]  # fmt: skip
            code = [Command(c.name, code_cmd(c.template)) for c in (tw, *before)]
            for name, target in code_targets(names).items():
                runs = measure(code, {"target": str(target)}, args.repeat, ok, tmp)
                record[f"code {name}"] = {k: [asdict(r) for r in v] for k, v in runs.items()}
                print(row(f"code {name}", {k: summarise(v) for k, v in runs.items()}, tw.name),
                      flush=True)  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
