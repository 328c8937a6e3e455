"""SARIF locations in the cases a repository scan does not show: files outside the source root,
servers with no file, files changed after the scan, YAML configs, many findings in one file, and
fingerprints that survive moved lines and renumbered tools."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from sarif_github import github_problems
from toolwitness.model import ServerSurface
from toolwitness.pipeline import ScanOptions, scan, scan_surfaces
from toolwitness.report import sarif_artifacts
from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for
from toolwitness.report.sarif_anchors import catalog_tool_paths, parse_location
from toolwitness.result import ScanResult


def _sarif(result: ScanResult, root: Path) -> dict[str, Any]:
    text = formatter_for(OutputFormat.SARIF, ReportOptions(source_root=root)).format(result)
    assert github_problems(text) == []
    doc: dict[str, Any] = json.loads(text)
    return doc


def _physical(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [loc["physicalLocation"] for r in doc["runs"][0]["results"] for loc in r["locations"]]


def test_file_outside_the_source_root_gets_its_own_base(tmp_path: Path) -> None:
    root, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    shutil.copy(FIXTURES / "sarif" / "catalog.json", elsewhere / "tools.json")
    doc = _sarif(scan([elsewhere / "tools.json"]), root)
    bases = doc["runs"][0]["originalUriBaseIds"]
    assert set(bases) == {"%SRCROOT%", "OUTSIDE1"}
    assert bases["OUTSIDE1"]["description"]["text"] == (
        "outside the source root: a folder named elsewhere"
    )
    assert {p["artifactLocation"]["uri"] for p in _physical(doc)} == {"tools.json"}
    assert str(tmp_path) not in json.dumps(doc)


def test_server_without_a_file_is_named_not_invented(tmp_path: Path) -> None:
    surface = ServerSurface(id="live:weather", source="https://mcp.example/", tools=())
    doc = _sarif(scan_surfaces([surface], ScanOptions()), tmp_path)
    uris = {
        (p["artifactLocation"]["uri"], p["artifactLocation"]["uriBaseId"]) for p in _physical(doc)
    }
    assert uris == {("live%3Aweather", "SERVERS")}  # ':' escaped: never read as a URI scheme
    assert "SERVERS" in doc["runs"][0]["originalUriBaseIds"]


def test_file_changed_after_the_scan_gives_no_guessed_line(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    shutil.copy(FIXTURES / "sarif" / "catalog.json", path)
    result = scan([path])
    doc = json.loads(path.read_text())
    doc["result"]["tools"].reverse()  # same bytes bound, other tools at each place
    path.write_text(json.dumps(doc, indent=1))
    regions = [p["region"] for p in _physical(_sarif(result, tmp_path))]
    assert regions and all(r["startLine"] == 1 for r in regions)


def test_yaml_config_points_at_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(
        "name: demo\nversion: 0.0.1\nschema: v1\nmcpServers:\n"
        "  - name: files\n    command: npx\n    args: ['-y', '@modelcontextprotocol/server-filesytem']\n"
    )
    doc = _sarif(scan([path]), tmp_path)
    assert {p["artifactLocation"]["uri"] for p in _physical(doc)} == {"config.yaml"}


def _many_findings(path: Path, tools: int) -> None:
    path.write_text(
        json.dumps(
            {
                "tools": [
                    {
                        "name": f"tool_{i}",
                        "inputSchema": {"type": "string"},
                        "annotations": {"readOnlyHint": True},
                        "description": "Deletes every file in the folder.",
                    }
                    for i in range(tools)
                ]
            },
            indent=2,
        )
    )


def test_paths_are_resolved_once_per_report_not_per_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "many.json"
    _many_findings(path, 300)
    result = scan([path])
    assert len(result.servers[0].findings) >= 600
    calls = {"n": 0}
    real = os.path.realpath

    def counted(p: Any) -> str:
        calls["n"] += 1
        return real(p)

    monkeypatch.setattr(sarif_artifacts.os.path, "realpath", counted)
    doc = _sarif(result, tmp_path)
    assert len(doc["runs"][0]["results"]) == len(result.servers[0].findings)
    assert calls["n"] <= 5


def _fingerprints(doc: dict[str, Any]) -> dict[tuple[str, str], str]:
    out = {}
    for r in doc["runs"][0]["results"]:
        tool = r["locations"][0]["logicalLocations"][0]["name"]
        out[(r["ruleId"], tool)] = r["partialFingerprints"]["primaryLocationLineHash"]
    return out


def test_fingerprints_survive_moved_lines_and_renumbered_tools(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    shutil.copy(FIXTURES / "sarif" / "catalog.json", path)
    before = _fingerprints(_sarif(scan([path]), tmp_path))
    doc = json.loads(path.read_text())
    doc["result"]["tools"].insert(
        0, {"name": "ping", "description": "Reply pong.", "inputSchema": {"type": "object"}}
    )
    path.write_text(json.dumps(doc, indent=4))  # every line moves, every tool renumbers
    after = _fingerprints(_sarif(scan([path]), tmp_path))
    assert before and all(after[key] == value for key, value in before.items())


def test_catalog_shapes_number_tools_like_the_reader() -> None:
    tool = {"name": "a", "inputSchema": {"type": "object"}}
    assert catalog_tool_paths([tool, tool]) == [(0,), (1,)]
    assert catalog_tool_paths({"tools": [tool]}) == [("tools", 0)]
    assert catalog_tool_paths(tool) == [()]
    assert catalog_tool_paths({"jsonrpc": "2.0", "result": {"tools": [tool]}}) == [
        ("result", "tools", 0)
    ]
    pages = [{"result": {"tools": [tool], "nextCursor": "x"}}, {"tools": [tool, tool]}]
    assert catalog_tool_paths(pages) == [
        (0, "result", "tools", 0),
        (1, "tools", 0),
        (1, "tools", 1),
    ]


def test_locations_parse_back_from_the_path_writer() -> None:
    from toolwitness import paths

    parts: tuple[str | int, ...] = ("tools", 3, "inputSchema", "properties", 'we"ird\\ key', "x")
    assert parse_location(paths.join(parts)) == parts
    assert parse_location("$") == ()
    assert parse_location("code:index.ts:3") is None


def test_live_server_from_a_config_points_at_its_entry(tmp_path: Path) -> None:
    from toolwitness.model import Coverage, Tool

    config = tmp_path / "mcp.json"
    config.write_text('{\n  "mcpServers": {\n    "notes": {"command": "notes-server"}\n  }\n}\n')
    surface = ServerSurface(
        id="notes",
        source=f"{config} at mcpServers.notes",
        coverage=(Coverage.LIVE,),
        tools=(Tool(name="wipe", description="", inputSchema={"type": "string"}),),
    )
    doc = _sarif(scan_surfaces([surface], ScanOptions()), tmp_path)
    physical = _physical(doc)
    assert physical and {p["artifactLocation"]["uri"] for p in physical} == {"mcp.json"}
    assert {p["region"]["startLine"] for p in physical} == {3}  # the entry, not line 1
