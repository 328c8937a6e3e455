"""SARIF for GitHub code scanning, end to end: scans run in a subfolder of a real git repository
give repo-relative URIs under %SRCROOT%, the real line and column of each JSON finding, no
absolute path anywhere, and pass both the SARIF 2.1.0 schema and GitHub's ingestion rules.

Golden files (tests/golden/sarif/*.sarif, the version masked) pin the whole document for a
catalog, a config and a code scan. Regenerate them after an intended change with:

    UPDATE_GOLDEN=1 .venv/bin/pytest -q tests/test_sarif.py -k golden
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import FIXTURES, ROOT, SERVERS
from sarif_github import github_problems
from toolwitness.cli import main

GOLDEN = ROOT / "tests" / "golden" / "sarif"
SCANS = {
    "catalog": ["scan", "catalog.json"],
    "config": ["scan", "mcp.json"],
    "code": ["code", "ts-sdk"],
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository with the fixtures in `sub/`; the current folder is `sub/`."""
    root = tmp_path / "repo"
    sub = root / "sub"
    sub.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for name in ("catalog.json", "mcp.json"):
        shutil.copy(FIXTURES / "sarif" / name, sub / name)
    shutil.copytree(FIXTURES / "code" / "ts-sdk", sub / "ts-sdk")
    monkeypatch.chdir(sub)
    return root


def _sarif(args: list[str], out: Path) -> dict[str, Any]:
    assert main([*args, "--format", "sarif", "--output", str(out)]) in (0, 1)
    doc: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return doc


def _schema() -> dict[str, Any]:
    path = SERVERS / "fixtures" / "sarif-2.1.0.json"
    if not path.exists():
        pytest.fail("official SARIF schema missing: run scripts/install-test-servers.sh")
    schema: dict[str, Any] = json.loads(path.read_text())
    return schema


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _physical(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [loc["physicalLocation"] for r in doc["runs"][0]["results"] for loc in r["locations"]]


@pytest.mark.parametrize("kind", sorted(SCANS))
def test_scan_in_a_subfolder_is_repo_relative_and_valid(kind: str, repo: Path) -> None:
    out = repo.parent / f"{kind}.sarif"
    doc = _sarif(SCANS[kind], out)
    jsonschema.Draft4Validator(_schema()).validate(doc)
    assert github_problems(out.read_text(encoding="utf-8")) == []
    run = doc["runs"][0]
    assert run["results"], "the fixture has findings"
    assert set(run["originalUriBaseIds"]) == {"%SRCROOT%"}
    assert all("uri" not in base for base in run["originalUriBaseIds"].values())
    for physical in _physical(doc):
        artifact = physical["artifactLocation"]
        assert artifact["uriBaseId"] == "%SRCROOT%"
        assert artifact["uri"].startswith("sub/")
        assert (repo / artifact["uri"]).is_file()  # a real file, at the place GitHub looks
    absolute = (str(repo.parent), str(Path.home()), os.path.realpath(repo.parent))
    leaks = [s for s in _strings(doc) if any(a in s for a in absolute)]
    assert leaks == []


# (rule, JSON path) → the line and column the finding's member starts at in the fixture file.
EXPECTED_START = {
    "catalog": {
        ("TW-CAP-001", "tools[1].annotations.readOnlyHint"): (26, 25),  # "read_only_hint"
        ("TW-INJ-002", "tools[2].description"): (30, 9),
        ("TW-CAP-011", "tools[2].inputSchema.properties.endpoint"): (35, 13),
        ("TW-FLOW-001", "tools[2]"): (28, 7),
    },
    "config": {  # JSONC: comments and trailing commas, positions still the file's
        ("TW-SUP-002", "package.name"): (8, 22),  # the args element holding the package
    },
}


@pytest.mark.parametrize("kind", sorted(EXPECTED_START))
def test_json_findings_start_at_their_real_line_and_column(kind: str, repo: Path) -> None:
    doc = _sarif(SCANS[kind], repo.parent / "out.sarif")
    starts = {}
    for result in doc["runs"][0]["results"]:
        region = result["locations"][0]["physicalLocation"]["region"]
        key = (result["ruleId"], result["properties"]["jsonPath"])
        starts[key] = (region["startLine"], region["startColumn"])
        logical = [loc["name"] for loc in result["locations"][0]["logicalLocations"]]
        assert result["properties"]["jsonPath"] in logical
    for key, expected in EXPECTED_START[kind].items():
        assert starts[key] == expected, key
    assert all(line > 1 for line, _ in starts.values())


def test_code_scan_metadata_findings_sit_at_the_tool_registration(repo: Path) -> None:
    doc = _sarif(SCANS["code"], repo.parent / "out.sarif")
    lines = (repo / "sub" / "ts-sdk" / "index.ts").read_text().splitlines()
    meta = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "TW-META-003"]
    assert meta
    for result in meta:
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == "sub/ts-sdk/index.ts"
        tool = result["locations"][0]["logicalLocations"][0]["name"]
        assert tool in lines[physical["region"]["startLine"] - 1]  # registerTool("name", …)


def test_source_root_option_and_default_without_git(tmp_path: Path, repo: Path) -> None:
    doc = _sarif(["scan", "catalog.json", "--source-root", "."], tmp_path / "a.sarif")
    assert {p["artifactLocation"]["uri"] for p in _physical(doc)} == {"catalog.json"}
    plain = tmp_path / "plain"  # no repository above it: relative to the current folder
    plain.mkdir()
    shutil.copy(FIXTURES / "sarif" / "catalog.json", plain / "catalog.json")
    os.chdir(plain)
    doc = _sarif(["scan", "catalog.json"], tmp_path / "b.sarif")
    assert {p["artifactLocation"]["uri"] for p in _physical(doc)} == {"catalog.json"}


def _masked(text: str) -> str:
    doc = json.loads(text)
    driver = doc["runs"][0]["tool"]["driver"]
    driver["version"] = driver["semanticVersion"] = "<version>"
    return json.dumps(doc, indent=2, ensure_ascii=True) + "\n"


@pytest.mark.parametrize("kind", sorted(SCANS))
def test_golden_sarif(kind: str, repo: Path) -> None:
    out = repo.parent / "golden.sarif"
    _sarif(SCANS[kind], out)
    got = _masked(out.read_text(encoding="utf-8"))
    golden = GOLDEN / f"{kind}.sarif"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(got, encoding="utf-8")
    assert golden.exists(), "no golden file: run UPDATE_GOLDEN=1 pytest tests/test_sarif.py"
    assert got == golden.read_text(encoding="utf-8"), (
        f"SARIF for the {kind} scan changed; if intended: "
        "UPDATE_GOLDEN=1 .venv/bin/pytest -q tests/test_sarif.py -k golden"
    )
    assert github_problems(golden.read_text(encoding="utf-8")) == []
