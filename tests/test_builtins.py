"""Client built-in tools in the toxic-flow analysis (`--include-builtins`, TW-FLOW-008)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.checks.flow.builtins import builtin_clients
from toolwitness.cli import main
from toolwitness.findings import Confidence, Finding, Severity
from toolwitness.pipeline import ScanOptions, scan_surfaces
from toolwitness.yamlload import load_yaml

ISSUES = {
    "name": "read_issue_comments",
    "description": "Read the comments of a GitHub issue.",
    "inputSchema": {"type": "object", "properties": {"issue": {"type": "string"}}},
}


def _flows(tools: list[dict[str, Any]], clients: tuple[str, ...]) -> list[Finding]:
    surface = surface_from_document({"tools": tools}, server_id="gh", source="test")
    result = scan_surfaces([surface], ScanOptions(check_options={"include_builtins": clients}))
    return [f for f in result.servers[0].findings if f.rule_id == "TW-FLOW-008"]


def test_the_data_file_matches_its_schema() -> None:
    data = resources.files("toolwitness.data")
    doc = load_yaml(data.joinpath("builtins.yaml").read_text("utf-8"))
    jsonschema.validate(doc, json.loads(data.joinpath("builtins.schema.json").read_text("utf-8")))
    assert {"claude-code", "cursor", "vscode", "windsurf", "gemini-cli", "codex"} <= set(
        doc["clients"]
    )
    for client in doc["clients"].values():
        assert client["source"].startswith("https://") and client["checked"]


def test_docs_list_every_client() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "flows.md").read_text("utf-8")
    for cid, client in builtin_clients().items():
        assert f"`{cid}`" in doc and client.source in doc


def test_an_untrusted_reader_completes_the_trifecta_with_claude_codes_builtins() -> None:
    (f,) = _flows([ISSUES], ("claude-code",))
    assert f.severity is Severity.HIGH and f.confidence is Confidence.HEURISTIC  # Bash asks
    paths = [w.path[0] for w in f.witnesses]
    assert paths[0] == "tools[0].name"
    assert paths[1:] == ["builtins.claude-code.Read", "builtins.claude-code.Bash"]
    assert "built-in" in f.message and all(
        "built-in of Claude Code" in (w.detail or "") for w in f.witnesses[1:]
    )


def test_without_the_option_or_a_hop_there_is_no_builtin_finding() -> None:
    assert _flows([ISSUES], ()) == []
    calc = {"name": "add", "description": "Add two numbers.", "inputSchema": {"type": "object"}}
    assert _flows([calc], ("claude-code",)) == []  # the server plays no part of the chain


def test_a_client_without_a_sink_does_not_complete_it() -> None:
    assert _flows([ISSUES], ("codex",)) == []  # its shell has no network by default


def test_each_client_is_one_finding() -> None:
    found = _flows([ISSUES], ("cursor", "gemini-cli"))
    assert sorted(f.message.split("'s")[0] for f in found) == ["with Cursor", "with Gemini CLI"]


def test_an_unknown_client_in_the_library_fails_the_scan_closed() -> None:
    surface = surface_from_document({"tools": [ISSUES]}, server_id="gh", source="test")
    result = scan_surfaces([surface], ScanOptions(check_options={"include_builtins": ("nope",)}))
    assert result.servers[0].incomplete


def test_cli_include_builtins(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalog = tmp_path / "gh.json"
    catalog.write_text(json.dumps({"tools": [ISSUES]}), encoding="utf-8")
    assert main(["scan", str(catalog), "--include-builtins", "vscode", "-f", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (f,) = [f for f in doc["servers"][0]["findings"] if f["rule_id"] == "TW-FLOW-008"]
    assert "VS Code" in f["message"]
    assert main(["scan", str(catalog), "--include-builtins", "vscode", "--fail-on", "high"]) == 1
    capsys.readouterr()
    assert main(["scan", str(catalog), "--include-builtins", "emacs"]) == 2
    assert "unknown client 'emacs'" in capsys.readouterr().err
    assert main(["scan", str(catalog)]) == 0


def test_docs_table_is_generated_from_the_data() -> None:
    from toolwitness.checks.flow.builtins import builtins_table

    doc = (Path(__file__).parent.parent / "docs" / "flows.md").read_text("utf-8")
    assert builtins_table() in doc
