"""Client-config acquisition and the static (posture + supply-chain) scan; figures and ratios.

For a generated config of N server entries (a realistic mix of npx/uvx/docker/shell commands and
HTTP URLs, env references and literal tokens), in the same run:
  baseline   plain `json.loads` of the same bytes (what any config reader must pay)
  parse      hostile parse + entry normalisation + package specs -> ServerSpec list
  static     parse + config-only surfaces + every registered check (the `scan CONFIG` path)
  discover   finding and reading the 20 fixture config files of the first 11 clients, and the
             30-client home + project tree of tests/client_fixtures.py (every location in the
             table tried, each file read once, the two damaged files recorded as problems)
  projects   discovery with P recorded project folders (each searched for every project file):
             the cost per folder, for two values of P (their ratio shows the growth)
  process    `python -m toolwitness discover` on the 30-client tree, against a bare
             `python -c pass` started the same way (the fixed cost of a whole process)
Usage: python benchmarks/bench_configs.py [--sizes 500 2000] [--repeat 5]
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolwitness.acquire.configs import DiscoveryEnv, discover, discover_specs
from toolwitness.acquire.targets import resolve_targets
from toolwitness.pipeline import ScanOptions, scan_surfaces

TESTS = Path(__file__).resolve().parent.parent / "tests"
FIXTURES = TESTS / "fixtures" / "configs"
sys.path.insert(0, str(TESTS))
from client_fixtures import build_client_tree  # noqa: E402  (the tests' 30-client tree)


def entry(i: int) -> dict[str, Any]:
    kind = i % 6
    if kind == 0:
        return {
            "command": "npx",
            "args": ["-y", f"@modelcontextprotocol/server-filesystem@2026.8.{i % 31}", "/tmp"],
        }
    if kind == 1:
        return {
            "command": "uvx",
            "args": [f"mcp-server-git=={2025 + i % 2}.7.1"],
            "env": {"GITHUB_TOKEN": "${env:GH}"},
        }
    if kind == 2:
        return {
            "command": "docker",
            "args": ["run", "-i", "--rm", "-p", "8080:8080", f"mcp/time:{i}"],
        }
    if kind == 3:
        return {"url": f"http://localhost:{3000 + i}/mcp"}
    if kind == 4:
        return {
            "command": "bash",
            "args": ["-c", f"npx server-filesytem-{i}"],
            "env": {"API_KEY": f"k{i}Zq8Lm2Wx9Pt4Rv7Yn1"},
        }
    return {
        "url": f"https://mcp{i}.example.com/mcp",
        "headers": {"Authorization": "Bearer ${env:T}"},
    }


def generate(n: int) -> bytes:
    return json.dumps({"mcpServers": {f"server-{i}": entry(i) for i in range(n)}}).encode()


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 2000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    options = ScanOptions()
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            path = Path(tmp) / "claude_desktop_config.json"
            data = generate(n)
            path.write_bytes(data)
            base, _ = timed(lambda: json.loads(path.read_bytes()), args.repeat)
            parse, _ = timed(lambda: resolve_targets([path]), args.repeat)

            def static() -> int:
                surfaces = resolve_targets([path]).surfaces()
                return len(scan_surfaces(surfaces, options).findings())

            scanned, _ = timed(static, args.repeat)
            findings = static()
            print(
                f"N={n:>5} entries ({len(data) / 1024:.0f} KiB): json.loads {base * 1e3:7.2f} ms |"
                f" parse {parse * 1e3:7.2f} ms ({parse / base:5.1f}x) |"
                f" static scan {scanned * 1e3:8.2f} ms ({scanned / base:6.1f}x,"
                f" {scanned / n * 1e6:6.1f} us/entry, {findings} findings)"
            )
    env = DiscoveryEnv.from_environ({}, home=FIXTURES / "home", project=FIXTURES / "project")
    found, _ = timed(lambda: discover_specs(env), args.repeat)
    count = len(discover_specs(env))
    print(
        f"discover: 20 fixture files, {count} servers: {found * 1e3:.2f} ms (best of {args.repeat})"
    )
    with tempfile.TemporaryDirectory() as tmp:
        tree = build_client_tree(Path(tmp))
        env = DiscoveryEnv.from_environ(
            {"HOME": str(tree.home)}, projects=((tree.project, "current folder"),),
            recorded_projects=True,
        )  # fmt: skip
        result = discover(env)
        best, _ = timed(lambda: discover(env), args.repeat)
        print(
            f"discover: 30-client tree, {len(result.locations)} locations, {len(result.files())}"
            f" files, {len(result.specs)} servers, {len(result.problems)} problems:"
            f" {best * 1e3:.2f} ms (best of {args.repeat})"
        )
        per_folder = [_projects(Path(tmp), p, args.repeat) for p in (50, 200)]
        print(
            f"projects: 50 recorded folders {per_folder[0] * 1e3:.3f} ms/folder, 200 folders"
            f" {per_folder[1] * 1e3:.3f} ms/folder (ratio {per_folder[1] / per_folder[0]:.2f})"
        )
        _processes(tree.home, tree.project, args.repeat)


def _projects(tmp: Path, count: int, repeat: int) -> float:
    home = tmp / f"projects-{count}"
    folders = {}
    for i in range(count):
        folder = home / "src" / f"p{i}"
        (folder / ".vscode").mkdir(parents=True)
        (folder / ".vscode" / "mcp.json").write_text('{"servers": {"s": {"command": "npx"}}}')
        folders[str(folder)] = {}
    (home / ".claude.json").write_text(json.dumps({"projects": folders}))
    env = DiscoveryEnv.from_environ({"HOME": str(home)}, recorded_projects=True)
    best, _ = timed(lambda: discover(env), repeat)
    return best / count


def _processes(home: Path, project: Path, repeat: int) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CONFIG_HOME", "CODEX_HOME")}
    env["HOME"] = str(home)

    def run(argv: list[str]) -> None:
        subprocess.run(argv, cwd=project, env=env, check=True, capture_output=True)

    bare, _ = timed(lambda: run([sys.executable, "-c", "pass"]), repeat)
    whole, _ = timed(lambda: run([sys.executable, "-m", "toolwitness", "discover"]), repeat)
    print(
        f"process: python -c pass {bare * 1e3:.0f} ms; toolwitness discover (30 clients)"
        f" {whole * 1e3:.0f} ms ({whole / bare:.1f}x the bare interpreter)"
    )


if __name__ == "__main__":
    main()
