"""Report formats: schema-valid, deterministic, and never a raw hidden character or formula."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from conftest import SERVERS
from toolwitness.acquire.catalog import surface_from_document
from toolwitness.pipeline import ScanOptions, scan_surfaces
from toolwitness.report.csv_format import neutralise
from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for
from toolwitness.report.markdown import md
from toolwitness.result import ScanResult

HOSTILE = "=cmd|' /C calc'!A0 \u202egnp.exe\u200b \x1b[2J\x1b]8;;http://x\x07 [bold]x[/bold] <script>alert(1)</script> | `x`"


def _result() -> ScanResult:
    surfaces = [
        surface_from_document(
            {
                "tools": [
                    {"name": "ok_tool", "description": "Fine.", "inputSchema": {"type": "object"}},
                    {"name": "+bad\u202e", "inputSchema": {"type": "string"}},
                ]
            },
            server_id="srv-a",
            source="a.json",
        ),
        surface_from_document({"tools": []}, server_id="srv-empty", source="e.json"),
    ]
    return scan_surfaces(surfaces, ScanOptions())


def _hostile_result() -> ScanResult:
    from toolwitness.findings import Confidence, Finding, Severity, Witness
    from toolwitness.result import ScanResult

    base = _result()
    server = base.servers[0]
    finding = Finding(
        rule_id="TW-META-003",
        title="Tool has no description",
        severity=Severity.HIGH,
        confidence=Confidence.STRONG,
        tool="+bad\u202e",
        location="tools[1].description",
        message="m",
        evidence=HOSTILE,
        witnesses=(
            Witness(kind="source", file="src/x.ts", line=3, column=4, symbol="fs.writeFile"),
        ),
    )
    server = server.model_copy(update={"findings": (*server.findings, finding)})
    return ScanResult(servers=(server, *base.servers[1:]))


def test_format_registry_is_exhaustive() -> None:
    for fmt in OutputFormat:
        assert formatter_for(fmt, ReportOptions()).format(_result())


def _schema() -> dict[str, object]:
    return json.loads(
        resources.files("toolwitness.data").joinpath("report.schema.json").read_text()
    )


def test_json_report_validates_against_shipped_schema() -> None:
    for result in (_result(), _hostile_result()):
        doc = json.loads(formatter_for(OutputFormat.JSON, ReportOptions()).format(result))
        jsonschema.Draft202012Validator(_schema()).validate(doc)
        assert doc["schema"] == "toolwitness.report/1"
        assert doc["summary"]["servers"] == 2


def test_reports_are_byte_identical_across_runs() -> None:
    for fmt in OutputFormat:
        a = formatter_for(fmt, ReportOptions()).format(_hostile_result())
        b = formatter_for(fmt, ReportOptions()).format(_hostile_result())
        assert a == b


def test_sarif_validates_against_official_schema() -> None:
    schema_path = SERVERS / "fixtures" / "sarif-2.1.0.json"
    if not schema_path.exists():
        pytest.fail(
            "official SARIF schema missing: run scripts/install-test-servers.sh (make test does)"
        )
    schema = json.loads(schema_path.read_text())
    doc = json.loads(formatter_for(OutputFormat.SARIF, ReportOptions()).format(_hostile_result()))
    jsonschema.Draft4Validator(schema).validate(doc)
    run = doc["runs"][0]
    rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert {r["ruleId"] for r in run["results"]} <= rules
    for r in run["results"]:
        assert r["partialFingerprints"]["primaryLocationLineHash"]
        assert r["locations"][0]["logicalLocations"]
    source_hit = [r for r in run["results"] if r["message"]["text"].startswith("m")]
    region = source_hit[0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 17}
    assert all(rule["help"]["text"] for rule in run["tool"]["driver"]["rules"])


def test_sarif_fingerprints_stable_when_lines_move() -> None:
    doc = json.loads(formatter_for(OutputFormat.SARIF, ReportOptions()).format(_hostile_result()))
    prints = [
        r["partialFingerprints"]["primaryLocationLineHash"] for r in doc["runs"][0]["results"]
    ]
    assert len(prints) == len(set(prints))


def test_csv_neutralises_formulas_and_hidden_chars() -> None:
    text = formatter_for(OutputFormat.CSV, ReportOptions()).format(_hostile_result())
    rows = list(csv.reader(io.StringIO(text)))
    for row in rows[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert "\u202e" not in text and "\x1b" not in text and "\u200b" not in text
    assert "\\u202e" in text
    assert neutralise("@SUM(1)") == "'@SUM(1)"
    assert neutralise("plain") == "plain"


@pytest.mark.parametrize(
    "cell",
    [" =HYPERLINK(\"https://x.test\")", "\u00a0=1+1", "  \t+A1", "\u2003-2", "\uff1dSUM(A1)", "\n@A1"],
)
def test_csv_neutralises_formulas_behind_leading_blanks(cell: str) -> None:
    assert neutralise(cell) == "'" + cell
    assert neutralise("a =b") == "a =b"  # a formula sign later in the text is plain text


@pytest.mark.parametrize("fmt", list(OutputFormat))
def test_no_raw_hidden_or_escape_characters_in_any_format(fmt: OutputFormat) -> None:
    text = formatter_for(fmt, ReportOptions()).format(_hostile_result())
    for bad in ("\u202e", "\u200b", "\x1b", "\x07"):
        assert bad not in text


def test_markdown_is_inert() -> None:
    text = formatter_for(OutputFormat.MARKDOWN, ReportOptions()).format(_hostile_result())
    assert "<script>" not in text
    assert "&lt;script&gt;" in text
    assert md("a|b") == "a\\|b"


def test_terminal_does_not_interpret_markup() -> None:
    text = formatter_for(OutputFormat.TERMINAL, ReportOptions(color=True)).format(_hostile_result())
    assert "[bold]x[/bold]" in text
    assert "\\u202e" in text


def test_redact_masks_evidence_everywhere() -> None:
    for fmt in OutputFormat:
        text = formatter_for(fmt, ReportOptions(redact=True)).format(_hostile_result())
        assert "alert(1)" not in text
        assert "redacted" in text


def test_empty_server_is_not_clean() -> None:
    result = _result()
    empty = next(s for s in result.servers if s.id == "srv-empty")
    assert [f.rule_id for f in empty.findings] == ["TW-META-001"]


def test_output_file_written(tmp_path: Path) -> None:
    from toolwitness.cli import main

    catalog = tmp_path / "c.json"
    catalog.write_text(
        json.dumps(
            {"tools": [{"name": "x", "description": "d", "inputSchema": {"type": "object"}}]}
        )
    )
    out = tmp_path / "r.sarif"
    assert main(["scan", str(catalog), "--format", "sarif", "--output", str(out)]) == 0
    assert json.loads(out.read_text())["version"] == "2.1.0"


def _in_pty(args: list[str], columns: int) -> str:
    """Run the CLI with stdout on a real pseudo-terminal `columns` wide; its output, ANSI-free."""
    import fcntl
    import os
    import pty
    import re
    import struct
    import subprocess
    import sys
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolwitness", *args],
        stdout=follower, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=120)
    os.close(leader)
    text = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _long_message_catalog(path: Path) -> Path:
    sentence = "Permanently delete every notebook and every note inside the chosen folder now."
    path.write_text(
        json.dumps(
            {
                "tools": [
                    {
                        "name": "wipe_notebooks",
                        "description": sentence,
                        "inputSchema": {"type": "object"},
                        "annotations": {"readOnlyHint": True},
                    }
                ]
            }
        )
    )
    return path


def test_terminal_width_follows_the_terminal(tmp_path: Path) -> None:
    catalog = _long_message_catalog(tmp_path / "c.json")
    text = _in_pty(["scan", str(catalog)], columns=80)
    lines = text.splitlines()
    assert "Server c" in text
    assert max(len(line) for line in lines) <= 80
    # Wrapped between words, never inside one.
    words = set(re.findall(r"[A-Za-z]{4,}", "\n".join(lines)))
    assert {"readOnlyHint", "declared", "metadata", "destructive", "executes"} <= words
    wide = _in_pty(["scan", str(catalog)], columns=200)
    assert max(len(line) for line in wide.splitlines()) > 80


def test_piped_output_is_not_hard_wrapped(tmp_path: Path) -> None:
    import subprocess
    import sys

    catalog = _long_message_catalog(tmp_path / "c.json")
    proc = subprocess.run(
        [sys.executable, "-m", "toolwitness", "scan", str(catalog)],
        capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "40"},
    )  # fmt: skip
    title = "readOnlyHint claims read-only, but the tool writes, deletes, executes or sends"
    assert any(title in line for line in proc.stdout.splitlines())  # one line, however long
