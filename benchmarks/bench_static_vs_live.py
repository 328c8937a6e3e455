"""Static against live: the tools code verification finds in a published artifact, compared with
the tools the same server lists when it runs.

    python benchmarks/bench_static_vs_live.py [--only NAME ...] [--work DIR] [--markdown]
                                              [--reuse-live]

For each package of PACKAGES (pinned versions, published on npm or PyPI, servers that start
without credentials): install it into its own prefix or venv (npm with --ignore-scripts), run it
in the bubblewrap sandbox (`toolwitness snapshot --sandbox`: no network, read-only root) and take
its `tools/list`, then analyse the installed artifact statically twice — alone (the tools its
code registers) and against the live list (`code --surface`: every live tool not found is
UNANALYZABLE). The installed package is analysed where npm or pip put it, so a dependency that
defines its tools is followed from the install around it (`node_modules` beside it). Per
package: live tools, found statically, verified (OK or VIOLATION), whether any tool that was not
followed came out OK (must never happen), and the constructs not followed.
Installs are cached under --work (default .cache/bench-static-live); nothing is committed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TW = [sys.executable, "-m", "toolwitness"]
NOT_IN_CODE = "no registration of this tool was found in the code"


@dataclass(frozen=True)
class Package:
    ecosystem: str  # npm | pypi
    name: str
    version: str
    args: tuple[str, ...] = ()  # command-line arguments the server needs ({work}: --work)
    script: str | None = None  # the bin / console script to run, when not the only one


PACKAGES = (
    Package("npm", "@modelcontextprotocol/server-filesystem", "2026.8.31", ("{work}/fsroot",)),
    Package("npm", "@modelcontextprotocol/server-memory", "2026.8.31"),
    Package("npm", "@modelcontextprotocol/server-everything", "2026.8.31"),
    Package("npm", "@modelcontextprotocol/server-sequential-thinking", "2026.8.31"),
    Package("npm", "@modelcontextprotocol/server-github", "2025.4.8"),
    Package("npm", "@modelcontextprotocol/server-gitlab", "2025.4.25"),
    Package("npm", "@modelcontextprotocol/server-puppeteer", "2025.5.12"),
    Package("npm", "@modelcontextprotocol/server-aws-kb-retrieval", "0.6.2"),
    Package("npm", "@modelcontextprotocol/server-everart", "0.6.2"),
    Package("npm", "@modelcontextprotocol/server-slack", "2025.4.25"),
    Package("npm", "@modelcontextprotocol/server-brave-search", "0.6.2"),
    Package("npm", "@modelcontextprotocol/server-google-maps", "0.6.2"),
    Package("npm", "@modelcontextprotocol/server-postgres", "0.6.2", ("postgresql://localhost/x",)),
    Package("npm", "@wonderwhy-er/desktop-commander", "0.2.52"),
    Package("npm", "mcp-server-kubernetes", "4.1.7"),
    Package("npm", "@upstash/context7-mcp", "4.1.1"),
    Package("npm", "@playwright/mcp", "0.0.83"),
    Package("npm", "@executeautomation/playwright-mcp-server", "1.0.12"),
    Package("npm", "chrome-devtools-mcp", "1.11.0"),
    Package("npm", "@notionhq/notion-mcp-server", "2.5.2"),
    Package("npm", "mcp-server-code-runner", "0.1.8"),
    Package("npm", "@kimtaeyoon83/mcp-server-youtube-transcript", "0.1.1"),
    Package("npm", "@mzxrai/mcp-webresearch", "0.1.7"),
    Package("npm", "@tokenizin/mcp-npx-fetch", "1.0.0"),
    Package("npm", "@kazuph/mcp-fetch", "1.6.3"),
    Package("npm", "@antv/mcp-server-chart", "0.9.10"),
    Package("npm", "@cyanheads/git-mcp-server", "2.15.3"),
    Package("npm", "mcp-server-fetch-typescript", "0.1.1"),
    Package("npm", "@benborla29/mcp-server-mysql", "2.0.9"),
    Package("npm", "tavily-mcp", "0.2.22"),
    Package("pypi", "mcp-server-time", "2026.10.19"),
    Package("pypi", "mcp-server-git", "2026.10.19"),
    Package("pypi", "mcp-server-fetch", "2026.10.24"),
    Package("pypi", "mcp-server-sqlite", "2025.4.25", ("--db-path", "/tmp/bench.db")),
    Package("pypi", "mcp-server-calculator", "0.2.1"),
    Package("pypi", "duckduckgo-mcp-server", "0.7.0"),
    Package("pypi", "arxiv-mcp-server", "0.8.2"),
    Package("pypi", "wikipedia-mcp", "2.0.1"),
    Package("pypi", "mcp-shell-server", "1.1.14"),
    Package("pypi", "mcp-text-editor", "1.2.2"),
    Package("pypi", "mcp-simple-arxiv", "0.6.0"),
    Package("pypi", "mcp-pandoc", "0.11.1"),
)


@dataclass
class Row:
    package: str
    live: int | None = None
    found: int = 0  # live tools with a registration found statically
    registered: int = 0  # tools the code registers on its own (no live list)
    verified: int = 0
    ok_not_followed: int = 0  # must stay 0: an OK verdict for a tool whose code was not found
    constructs: list[str] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0


def _run(
    cmd: list[str], timeout: float, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd, check=False
    )


def _slug(package: Package) -> str:
    return package.name.lstrip("@").replace("/", "-")


def _install_npm(package: Package, work: Path) -> tuple[list[str], Path]:
    prefix = work / "npm" / _slug(package)
    installed = prefix / "node_modules" / package.name
    if not (installed / "package.json").is_file():
        prefix.mkdir(parents=True, exist_ok=True)
        (prefix / "package.json").write_text('{"private": true}')
        done = _run(
            ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
             "--ignore-scripts", "--loglevel=error", f"{package.name}@{package.version}"],
            900,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"npm install failed: {done.stderr.strip()[-300:]}")
    manifest = json.loads((installed / "package.json").read_text())
    bins = manifest.get("bin")
    if isinstance(bins, str):
        entry = bins
    elif isinstance(bins, dict) and bins:
        entry = bins.get(package.script or "", None) or next(iter(bins.values()))
    else:
        entry = manifest.get("main", "index.js")
    return ["node", str(installed / entry), *_args(package, work)], installed


def _install_pypi(package: Package, work: Path) -> tuple[list[str], Path]:
    venv = work / "venvs" / _slug(package)
    python = venv / "bin" / "python"
    if not (venv / f".installed-{package.version}").is_file():
        # the system interpreter: the sandbox hides the scanner's home (a pyenv build lives there)
        _run(["/usr/bin/python3", "-m", "venv", "--clear", str(venv)], 300)
        done = _run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             f"{package.name}=={package.version}"],
            900,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"pip install failed: {done.stderr.strip()[-300:]}")
        (venv / f".installed-{package.version}").touch()
    # Entry points and file lists are package metadata: read them without importing the server.
    probe = (
        "import importlib.metadata as m, json, sys\n"
        f"d = m.distribution({package.name!r})\n"
        "eps = [(e.name, e.value) for e in d.entry_points if e.group == 'console_scripts']\n"
        "print(json.dumps({'eps': eps, 'site': str(d.locate_file(''))}))\n"
    )
    info = json.loads(_run([str(python), "-c", probe], 60).stdout)
    eps = info["eps"]
    name, value = next(((n, v) for n, v in eps if n == package.script), eps[0])
    top = value.split(":")[0].split(".")[0]
    return [str(venv / "bin" / name), *_args(package, work)], Path(info["site"]) / top


def _args(package: Package, work: Path) -> list[str]:
    """The server's arguments; a folder it is given lives under --work (a busy /tmp holds more
    entries than the sandbox checks for sockets, and is then refused)."""
    out = [arg.replace("{work}", str(work)) for arg in package.args]
    for arg in out:
        if arg.startswith(str(work)) and not arg.endswith(".db"):
            Path(arg).mkdir(parents=True, exist_ok=True)
    return out


def _live(cmd: list[str], out: Path) -> list[str]:
    done = _run(
        [*TW, "snapshot", "--stdio", " ".join(cmd), "--sandbox", "--server-timeout", "90",
         "--allow-command", Path(cmd[0]).name, "-o", str(out)],
        180,
    )  # fmt: skip
    if done.returncode != 0 or not out.is_file():
        raise RuntimeError(f"live listing failed: {(done.stderr or done.stdout).strip()[-300:]}")
    return [t["name"] for t in json.loads(out.read_text())["tools"]]


def _static(tree: Path, surface: Path | None) -> dict[str, object]:
    args = [*TW, "code", str(tree), "--format", "json", "--allow-partial", "--max-seconds", "600"]
    if surface is not None:
        args += ["--surface", str(surface)]
    done = _run(args, 900)
    if done.returncode not in (0, 1, 3):
        raise RuntimeError(f"code exited {done.returncode}: {done.stderr.strip()[-300:]}")
    report: dict[str, object] = json.loads(done.stdout)
    return report


def measure(package: Package, work: Path, reuse_live: bool = False) -> Row:
    row = Row(f"{package.name}@{package.version}")
    started = time.monotonic()
    try:
        installer = _install_npm if package.ecosystem == "npm" else _install_pypi
        cmd, tree = installer(package, work)
        snapshot = work / "live" / f"{_slug(package)}.json"
        snapshot.parent.mkdir(parents=True, exist_ok=True)
        if reuse_live and snapshot.is_file():  # a listing taken by an earlier run of this bench
            live = [t["name"] for t in json.loads(snapshot.read_text())["tools"]]
        else:
            live = _live(cmd, snapshot)
        tree = tree.resolve()  # the work directory may link installs made by an earlier run
        row.live = len(live)
        alone = _static(tree, None)["servers"][0]  # type: ignore[index]
        row.registered = len(alone["tools"])
        against = _static(tree, snapshot)["servers"][0]  # type: ignore[index]
        for tool in against["tools"]:
            reason = tool.get("verdict_reason") or ""
            missing = NOT_IN_CODE in reason
            row.found += not missing
            row.verified += tool.get("verdict") in ("OK", "VIOLATION")
            row.ok_not_followed += missing and tool.get("verdict") == "OK"
        row.constructs = sorted(
            {f["message"][:160] for f in against["findings"] if f["rule_id"] == "TW-CODE-004"}
        )[:5]
    except (
        RuntimeError, OSError, subprocess.TimeoutExpired, KeyError, ValueError, StopIteration
    ) as exc:  # fmt: skip
        row.error = f"{type(exc).__name__}: {exc}"[:300]
    row.seconds = round(time.monotonic() - started, 1)
    return row


def markdown(rows: list[Row]) -> str:
    lines = [
        "| package | live tools | found statically | verified | OK but not followed | not followed |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        if r.error is not None or r.live is None:
            continue
        missed = "; ".join(r.constructs)[:200] or "-"
        lines.append(
            f"| {r.package} | {r.live} | {r.found} | {r.verified} | {r.ok_not_followed} | {missed} |"
        )
    measured = [r for r in rows if r.error is None and r.live is not None]
    live = sum(r.live or 0 for r in measured)
    found = sum(r.found for r in measured)
    lines.append(
        f"| **{len(measured)} packages** | **{live}** | **{found} ({found / max(live, 1):.1%})** "
        f"| **{sum(r.verified for r in measured)}** "
        f"| **{sum(r.ok_not_followed for r in measured)}** | |"
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--work", type=Path, default=ROOT / ".cache" / "bench-static-live")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument(
        "--reuse-live", action="store_true",
        help="use the live tools/list saved under --work by an earlier run instead of re-running",
    )  # fmt: skip
    args = parser.parse_args()
    args.work = args.work.resolve()
    args.work.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("NO_COLOR", "1")
    rows: list[Row] = []
    for package in PACKAGES:
        if args.only and package.name not in args.only:
            continue
        row = measure(package, args.work, args.reuse_live)
        rows.append(row)
        print(json.dumps(asdict(row)), flush=True)
    (args.work / "results.json").write_text(json.dumps([asdict(r) for r in rows], indent=1))
    if args.markdown:
        print(markdown(rows))
        for r in rows:
            if r.error is not None:
                print(f"- {r.package}: not measured ({r.error})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
