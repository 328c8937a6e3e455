"""Published servers nobody on this project wrote (packed by scripts/install-test-servers.sh,
integrity checked, never installed or run here), compared with the tools each lists live
(tests/fixtures/code/live/tools.json, recorded by benchmarks/bench_static_vs_live.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from toolwitness.code.against import against_surface
from toolwitness.code.analyse import CodeAnalysis, analyse_directory
from toolwitness.model import ServerSurface, Tool
from toolwitness.pipeline import code_scan_result, exit_code

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / ".cache" / "test-servers" / "packs"
LIVE = json.loads((Path(__file__).parent / "fixtures" / "code" / "live" / "tools.json").read_text())
DESKTOP = ("wonderwhy-er-desktop-commander-0.2.52", "@wonderwhy-er/desktop-commander@0.2.52")
KUBERNETES = ("mcp-server-kubernetes-4.1.7", "mcp-server-kubernetes@4.1.7")
GITHUB = ("modelcontextprotocol-server-github-2025.4.8", "@modelcontextprotocol/server-github@2025.4.8")


def _pack(folder: str) -> Path:
    root = PACKS / folder / "package"
    if not root.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{root} is missing: scripts/install-test-servers.sh did not run")
        pytest.skip(f"{folder} is not packed (scripts/install-test-servers.sh)")
    return root


def _surface(names: list[str]) -> ServerSurface:
    tools = tuple(Tool(name=n, description=f"The {n} tool", inputSchema={}) for n in names)
    return ServerSurface(id="live", source="live", tools=tools)


def _found(analysis: CodeAnalysis, live: list[str]) -> float:
    static = {spec.name for spec in analysis.tools}
    return len(static & set(live)) / len(live)


@pytest.mark.parametrize("pack", [DESKTOP, KUBERNETES], ids=["desktop-commander", "kubernetes"])
def test_tools_found_statically_and_the_rest_fail_closed(pack: tuple[str, str]) -> None:
    folder, key = pack
    analysis = analyse_directory(_pack(folder))
    live = LIVE.get(key) or sorted(spec.name for spec in analysis.tools)
    assert len(live) >= 20
    assert _found(analysis, live) >= 0.9
    assert analysis.code_coverage().complete, analysis.gaps
    # a tool the server lists that the code does not register: UNANALYZABLE, exit 3
    against = against_surface(analysis, _surface([*live, "tool_not_in_code"]))
    assert against.verdict("tool_not_in_code").verdict == "UNANALYZABLE"
    assert all(v.verdict != "OK" for v in against.verdicts if v.name == "tool_not_in_code")
    result = code_scan_result(against)
    assert exit_code(result) == 3 and result.servers[0].grade is None
    partial = code_scan_result(against, allow_partial=True)
    gate = [f for f in partial.servers[0].findings if f.rule_id == "TW-CODE-005"]
    assert len(gate) == 1 and gate[0].severity.value == "high"
    assert partial.servers[0].grade in ("C", "D", "F") and exit_code(partial) == 0


def test_server_github_verdicts() -> None:
    folder, key = GITHUB
    analysis = analyse_directory(_pack(folder))
    assert {spec.name for spec in analysis.tools} == set(LIVE[key])
    for tool in ("get_file_contents", "search_repositories", "list_issues"):
        verdict = analysis.verdict(tool)
        assert verdict.verdict == "OK", tool
        assert "NETWORK_OUTBOUND" in verdict.actual and verdict.authenticated
    doc = (ROOT / "docs" / "code-verification.md").read_text(encoding="utf-8")
    rows = [
        [c.strip() for c in line.strip("|").split("|")]
        for line in doc.splitlines()
        if line.startswith("| server-github |")
    ]
    assert len(rows) == 26
    for _, tool, verdict_text, undeclared in rows:
        verdict = analysis.verdict(tool.strip("`"))
        shown = ", ".join(sorted(verdict.undeclared)) or "–"
        assert (verdict.verdict, shown) == (verdict_text, undeclared), tool
