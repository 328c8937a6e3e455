"""Suppressions: justified, scoped, out of the score, listed in the report; bad files exit 2.
Custom rule packs cannot redefine built-in rule ids."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from toolwitness.cli import main
from toolwitness.errors import InputError
from toolwitness.suppressions import parse_suppressions

REAL = Path(__file__).parent / "fixtures" / "real"
FILESYSTEM = str(REAL / "server-filesystem.json")
SCHEMA = Path(__file__).parent.parent / "src" / "toolwitness" / "data" / "report.schema.json"


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def scan_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["scan", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_suppressed_findings_leave_the_score_and_are_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, before = scan_json([FILESYSTEM], capsys)
    server = before["servers"][0]
    assert any(f["rule_id"] == "TW-CAP-012" for f in server["findings"])
    supp = write(
        tmp_path,
        "suppressions:\n"
        "  - rule: TW-CAP-012\n"
        "    tool: '*'\n"
        "    server: server-file*\n"
        "    justification: the server confines every path to its allowed roots in code\n",
    )
    code, after = scan_json([FILESYSTEM, "--suppressions", supp], capsys)
    assert code == 0
    jsonschema.validate(after, json.loads(SCHEMA.read_text()))
    s = after["servers"][0]
    assert not any(f["rule_id"] == "TW-CAP-012" for f in s["findings"])
    assert {x["finding"]["rule_id"] for x in s["suppressed"]} == {"TW-CAP-012"}
    assert all(x["justification"].startswith("the server confines") for x in s["suppressed"])
    assert not any(p["rule_id"] == "TW-CAP-012" for p in s["score_vector"])
    assert s["score"] >= server["score"]


def test_tool_scope_only_suppresses_matching_tools(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    supp = write(
        tmp_path, "suppressions:\n  - {rule: TW-CAP-012, tool: 'read_*', justification: ok}\n"
    )
    _, doc = scan_json([FILESYSTEM, "--suppressions", supp], capsys)
    s = doc["servers"][0]
    assert {x["finding"]["tool"][:5] for x in s["suppressed"]} == {"read_"}
    assert any(f["rule_id"] == "TW-CAP-012" and f["tool"] == "write_file" for f in s["findings"])


def test_other_servers_are_not_suppressed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    supp = write(
        tmp_path, "suppressions:\n  - {rule: TW-CAP-012, server: elsewhere, justification: ok}\n"
    )
    _, doc = scan_json([FILESYSTEM, "--suppressions", supp], capsys)
    assert doc["servers"][0]["suppressed"] == []


def test_terminal_summary_counts_suppressed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    supp = write(
        tmp_path, "suppressions:\n  - {rule: TW-CAP-012, justification: confined in code}\n"
    )
    assert main(["scan", FILESYSTEM, "--suppressions", supp]) == 0
    out = capsys.readouterr().out
    assert "suppressed" in out and "confined in code" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("suppressions:\n  - {rule: TW-CAP-012}\n", "justification"),
        ("suppressions:\n  - {rule: TW-CAP-012, justification: '   '}\n", "justification"),
        ("suppressions:\n  - {rule: TW-CAP-012, justification: ok, why: x}\n", "unknown key"),
        ("suppressions:\n  - {rule: cap-12, justification: ok}\n", "rule id"),
        ("suppressions:\n  - {rule: TW-META-005, justification: ok}\n", "cannot be suppressed"),
        ("suppressions:\n  - {rule: TW-CAP-012, tool: 7, justification: ok}\n", "tool"),
        ("suppressions: {}\n", "list"),
        ("- rule: TW-CAP-012\n", "list"),
        ("suppressions: [\n", "YAML"),
        ("suppressions:\n  - just a string\n", "mapping"),
    ],
)
def test_malformed_suppressions_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    assert main(["scan", FILESYSTEM, "--suppressions", write(tmp_path, text)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_unknown_rule_and_missing_file_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unknown = write(tmp_path, "suppressions:\n  - {rule: TW-CAP-999, justification: typo}\n")
    assert main(["scan", FILESYSTEM, "--suppressions", unknown]) == 2
    assert "unknown rule TW-CAP-999" in capsys.readouterr().err
    assert main(["scan", FILESYSTEM, "--suppressions", str(tmp_path / "nope.yaml")]) == 2


def test_yaml_is_loaded_safely() -> None:
    with pytest.raises(InputError):
        parse_suppressions("!!python/object/apply:os.system ['true']\n", "evil.yaml")


def test_custom_pack_cannot_redefine_a_builtin_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = write(
        tmp_path,
        "rules:\n"
        "  - id: TW-CAP-001\n"
        "    title: Nothing to see here\n"
        "    severity: info\n"
        "    confidence: heuristic\n"
        "    rationale: an attempt to downgrade a built-in rule\n"
        "    benign_triggers: none\n"
        "    remediation: do not do this at all\n",
        "pack.yaml",
    )
    assert main(["scan", FILESYSTEM, "--rules", pack]) == 2
    assert "redefines existing rule(s) TW-CAP-001" in capsys.readouterr().err
    fresh = pack.replace("pack.yaml", "fresh.yaml")
    Path(fresh).write_text(
        Path(pack).read_text().replace("TW-CAP-001", "TW-CAP-900"), encoding="utf-8"
    )
    assert main(["rules", "--rules", fresh]) == 0
    assert "TW-CAP-900" in capsys.readouterr().out


def test_sarif_marks_suppressed_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    supp = write(
        tmp_path, "suppressions:\n  - {rule: TW-CAP-012, justification: confined in code}\n"
    )
    assert main(["scan", FILESYSTEM, "--format", "sarif", "--suppressions", supp]) == 0
    doc = json.loads(capsys.readouterr().out)
    schema = (
        Path(__file__).parent.parent / ".cache" / "test-servers" / "fixtures" / "sarif-2.1.0.json"
    )
    if not schema.exists():
        pytest.fail("official SARIF schema missing: run scripts/install-test-servers.sh")
    jsonschema.Draft4Validator(json.loads(schema.read_text())).validate(doc)
    results = doc["runs"][0]["results"]
    marked = [r for r in results if r.get("suppressions")]
    assert marked and all(r["ruleId"] == "TW-CAP-012" for r in marked)
    assert marked[0]["suppressions"] == [{"kind": "external", "justification": "confined in code"}]
    assert all(not r.get("suppressions") for r in results if r["ruleId"] != "TW-CAP-012")


def test_markdown_lists_suppressed_with_escaped_justification(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    supp = write(
        tmp_path, "suppressions:\n  - {rule: TW-CAP-012, justification: '<b>ok</b> [x](y)'}\n"
    )
    assert main(["scan", FILESYSTEM, "--format", "markdown", "--suppressions", supp]) == 0
    out = capsys.readouterr().out
    assert "suppressed:** TW-CAP-012" in out
    assert "<b>" not in out and "&lt;b&gt;ok&lt;/b&gt; \\[x\\]\\(y\\)" in out
