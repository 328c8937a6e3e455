"""Sweep real published packages (npm and PyPI, pinned) together with local fixture archives."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sweep_fixtures import build_fixtures, write_list
from toolwitness.cli import main
from toolwitness.sweep.results import read_records

PUBLISHED = {
    "npm:@modelcontextprotocol/server-filesystem@2026.8.31": 14,
    "npm:@modelcontextprotocol/server-memory@2026.8.31": 9,
    "npm:@modelcontextprotocol/server-everything@2026.8.31": 19,
    "pypi:mcp-server-git==2026.10.19": 12,
    "pypi:mcp-server-fetch==2026.10.24": 1,
    "pypi:mcp-server-time==2026.10.19": 2,
}


@pytest.mark.live
@pytest.mark.slow
def test_sweep_published_packages_and_fixtures(tmp_path: Path) -> None:
    local = build_fixtures(tmp_path)
    listing = write_list(tmp_path, [*PUBLISHED, *local])
    results = tmp_path / "results.jsonl"
    assert main(["sweep", str(listing), "-o", str(results), "--workers", "2"]) == 0
    records = {r["target"]: r for r in read_records(results)}
    assert set(records) == set(PUBLISHED) | set(local)
    for target, tools in PUBLISHED.items():
        record = records[target]
        assert record["outcome"] == "ANALYSED", (target, record["reason"])
        assert len(record["server"]["tools"]) == tools, target
        # the pinned version and the artifact's hashes are recorded
        name, version = re.split(r"@(?=[^@]+$)|==", target.split(":", 1)[1])
        assert record["package"] == {
            "ecosystem": target.split(":")[0],
            "name": name,
            "version": version,
        }
        assert re.fullmatch(r"[0-9a-f]{64}", record["artifact"]["sha256"])
        if target.startswith("npm:"):
            assert record["artifact"]["registry_integrity"].startswith("sha512-")
    for target, outcome in local.items():
        assert records[target]["outcome"] == outcome
    # filesystem: the read-only tools' code is checked against their annotations
    fs_tools = {
        t["name"]: t
        for t in records["npm:@modelcontextprotocol/server-filesystem@2026.8.31"]["server"]["tools"]
    }
    assert fs_tools["write_file"]["verdict"] in ("OK", "VIOLATION")
    assert "WRITE_FS" in fs_tools["write_file"]["actual"]

    report_json = tmp_path / "report.json"
    report_md = tmp_path / "report.md"
    argv = ["sweep-report", str(results), "-o", str(report_md), "--json", str(report_json)]
    assert main(argv) == 0
    report = json.loads(report_json.read_text())
    assert report["targets"] == len(PUBLISHED) + len(local)
    assert report["outcomes"]["ANALYSED"] == len(PUBLISHED) + 2
    assert report["outcomes"]["NO_TOOLS_FOUND"] == 1
    assert report["outcomes"]["NO_ENTRY"] == 1
    assert report["outcomes"]["UNANALYZABLE"] == 1
    assert report["outcomes"]["DOWNLOAD_FAILED"] == 1
    assert report["tools_inspected"] == sum(PUBLISHED.values()) + 3
    assert sum(report["tool_verdicts"].values()) == report["tools_inspected"]

    # a frozen replay fetches the same versions and gets the same artifacts
    replay = tmp_path / "replay.jsonl"
    published = write_list(tmp_path, list(PUBLISHED), "published.txt")
    argv = ["sweep", str(published), "-o", str(replay), "--frozen", str(results)]
    assert main(argv) == 0
    for record in read_records(replay):
        assert record["outcome"] == "ANALYSED"
        assert record["artifact"] == records[record["target"]]["artifact"]
