"""The CLI end to end: exit codes, gates, errors without tracebacks, escaped output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from toolwitness.cli import main

GOOD = {"tools": [{"name": "x", "description": "Does x.", "inputSchema": {"type": "object"}}]}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolwitness", *args], capture_output=True, text=True, timeout=120
    )


def test_demo_examples_scan(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scan", str(ROOT / "examples" / "catalogs")])
    out = capsys.readouterr().out
    assert code in (0, 1)
    assert "Server weather" in out and "Server notes-poisoned" in out


def test_bad_input_exits_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"tools": [{"name": "a", "inputSchema": {}}, {"name": "a", "inputSchema": {}}]}'
    )
    proc = _run("scan", str(bad))
    assert proc.returncode == 2
    assert "duplicate tool name" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_error_messages_are_escaped(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"\u202ekey": 1, "\u202ekey": 2}', encoding="utf-8")
    proc = _run("scan", str(bad))
    assert proc.returncode == 2
    assert "\u202e" not in proc.stderr
    assert "\\u202e" in proc.stderr


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert _run("scan").returncode == 2
    assert _run("scan", "--format", "xml", "x.json").returncode == 2
    catalog = tmp_path / "c.json"
    catalog.write_text(json.dumps(GOOD))
    assert _run("scan", str(catalog), "--min-grade", "Z").returncode == 2
    assert _run("explain", "TW-NOPE-001").returncode == 2


def test_fail_on_gate(write_json) -> None:  # type: ignore[no-untyped-def]
    empty = write_json("empty.json", {"tools": []})
    assert main(["scan", str(empty), "--fail-on", "high"]) == 0
    assert main(["scan", str(empty), "--fail-on", "medium"]) == 1


def test_fingerprint_json_and_text(write_json, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    path = write_json("c.json", GOOD)
    assert main(["fingerprint", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc[0]["surface_digest"].startswith("sha256:")
    assert set(doc[0]["tools"][0]["fields"]) == {
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
    }
    assert main(["fingerprint", str(path)]) == 0
    assert doc[0]["surface_digest"] in capsys.readouterr().out


def test_rules_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    assert "TW-META-001" in capsys.readouterr().out
    assert main(["rules", "--json"]) == 0
    rules = json.loads(capsys.readouterr().out)
    assert all(r["rationale"] and r["remediation"] for r in rules)
    for rule in rules:
        assert main(["explain", rule["id"]]) == 0
        out = capsys.readouterr().out
        assert rule["id"] in out and "What to do" in out


def test_custom_rule_pack_is_validated(tmp_path: Path) -> None:
    pack = tmp_path / "pack.yaml"
    pack.write_text("rules:\n  - id: NOT-AN-ID\n    title: x\n")
    proc = _run("rules", "--rules", str(pack))
    assert proc.returncode == 2
    assert "invalid rule pack" in proc.stderr


def test_library_api_does_not_print(capsys: pytest.CaptureFixture[str], write_json) -> None:  # type: ignore[no-untyped-def]
    import toolwitness

    result = toolwitness.scan([write_json("c.json", GOOD)])
    assert isinstance(result, toolwitness.ScanResult)
    assert capsys.readouterr() == ("", "")
