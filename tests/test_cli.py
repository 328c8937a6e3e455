"""The CLI end to end: exit codes, gates, errors without tracebacks, escaped output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from toolwitness.cli import main

GOOD = {"tools": [{"name": "x", "description": "Does x.", "inputSchema": {"type": "object"}}]}


def _run(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns)}
    return subprocess.run(
        [sys.executable, "-m", "toolwitness", *args], capture_output=True, text=True, timeout=120,
        env=env,
    )  # fmt: skip


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


# --- conventions (issue 16 §4) -------------------------------------------------------------------


def test_version_long_and_short(capsys: pytest.CaptureFixture[str]) -> None:
    from toolwitness import __version__

    for flag in ("--version", "-V"):
        proc = _run(flag)  # the console script's fast path
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == f"toolwitness {__version__}\n"
        assert main([flag]) == 0  # the option itself (also after other root options)
        assert capsys.readouterr().out == proc.stdout
    assert main(["--no-config", "--version"]) == 0
    assert capsys.readouterr().out == f"toolwitness {__version__}\n"


def test_short_help_everywhere() -> None:
    root = _run("-h")
    assert root.returncode == 0
    assert "scan" in root.stdout and "Verify servers" in root.stdout
    for command in ("scan", "code", "discover", "rules", "lock"):
        proc = _run(command, "-h")
        assert proc.returncode == 0, (command, proc.stderr)
        assert f"toolwitness {command}" in proc.stdout


def test_scan_help_is_grouped_and_has_no_bool_metavars() -> None:
    text = _run("scan", "--help", columns=200).stdout
    for panel in ("Output", "Gates", "Rules and accepted findings", "Live servers", "Limits"):
        assert panel in text, panel
    assert "<bool>" not in text
    assert "<text|json|sarif|csv|markdown|html>" in text  # choices shown, one name set
    assert "<critical|high|medium|low|info>" in text
    for command in ("code", "probe"):  # their own enums, shown with the same names
        assert "<text|json|sarif|csv|markdown|html>" in _run(command, "-h", columns=200).stdout
    for command in ("discover", "evaluate", "trust", "rules", "fingerprint"):
        assert "<text|json>" in _run(command, "-h", columns=200).stdout, command


def test_catalog_from_standard_input() -> None:
    catalog = (ROOT / "examples" / "catalogs" / "weather.json").read_bytes()
    proc = subprocess.run(
        [sys.executable, "-m", "toolwitness", "scan", "-", "-f", "json"],
        input=catalog, capture_output=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert [s["id"] for s in doc["servers"]] == ["stdin"]
    assert len(doc["servers"][0]["tools"]) == 2


def test_cat_pipe_into_scan_dash(tmp_path: Path) -> None:
    """The documented spelling, through a real shell pipe."""
    catalog = ROOT / "examples" / "catalogs" / "notes-poisoned.json"
    cmd = f"cat {catalog} | {sys.executable} -m toolwitness scan - --fail-on high"
    proc = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr  # the poisoned catalog trips the gate
    assert "Server stdin" in proc.stdout


def test_standard_input_is_bounded_like_a_file() -> None:
    big = b'{"tools": [' + b" " * (2 * 1024 * 1024) + b"]}"
    proc = subprocess.run(
        [sys.executable, "-m", "toolwitness", "scan", "-", "--max-file-mib", "1"],
        input=big, capture_output=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2
    assert b"<stdin>: over the 1048576-byte limit" in proc.stderr
    deep = b"[" * 200 + b"]" * 200
    proc = subprocess.run(
        [sys.executable, "-m", "toolwitness", "scan", "-"], input=deep, capture_output=True,
        timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    twice = subprocess.run(
        [sys.executable, "-m", "toolwitness", "scan", "-", "-"], input=b"{}", capture_output=True,
        timeout=120,
    )  # fmt: skip
    assert twice.returncode == 2 and b"once" in twice.stderr


def test_output_extension_picks_the_format(tmp_path: Path) -> None:
    catalog = str(ROOT / "examples" / "catalogs" / "weather.json")
    assert main(["scan", catalog, "-o", str(tmp_path / "r.sarif")]) == 0
    sarif = json.loads((tmp_path / "r.sarif").read_text())
    assert sarif["version"] == "2.1.0" and sarif["runs"]
    assert main(["scan", catalog, "-o", str(tmp_path / "r.json")]) == 0
    assert json.loads((tmp_path / "r.json").read_text())["schema"] == "toolwitness.report/1"
    assert main(["scan", catalog, "-o", str(tmp_path / "r.html")]) == 0
    assert (tmp_path / "r.html").read_text().lstrip().lower().startswith("<!doctype html")
    assert main(["scan", catalog, "-o", str(tmp_path / "r.csv")]) == 0
    assert (tmp_path / "r.csv").read_text().startswith("server")
    assert main(["scan", catalog, "-o", str(tmp_path / "r.md")]) == 0
    assert (tmp_path / "r.md").read_text().startswith("#")
    # an explicit --format wins over the extension
    assert main(["scan", catalog, "-f", "json", "-o", str(tmp_path / "x.html")]) == 0
    assert json.loads((tmp_path / "x.html").read_text())["schema"] == "toolwitness.report/1"


def test_unknown_output_extension_is_a_usage_error(tmp_path: Path) -> None:
    catalog = str(ROOT / "examples" / "catalogs" / "weather.json")
    proc = _run("scan", catalog, "-o", str(tmp_path / "report.xml"))
    assert proc.returncode == 2
    assert "give --format" in proc.stderr
    assert not (tmp_path / "report.xml").exists()
    code = _run("code", str(ROOT / "tests" / "fixtures" / "code" / "py-fastmcp"), "-o",
                str(tmp_path / "c.xml"))  # fmt: skip
    assert code.returncode == 2 and not (tmp_path / "c.xml").exists()


def test_one_format_name_set_with_old_spellings_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = str(ROOT / "examples" / "catalogs" / "weather.json")
    assert main(["scan", catalog, "-f", "text"]) == 0
    text = capsys.readouterr().out
    assert main(["scan", catalog, "-f", "terminal"]) == 0  # hidden alias
    assert capsys.readouterr().out == text
    assert main(["scan", catalog, "-f", "md"]) == 0
    assert capsys.readouterr().out.startswith("#")
    for command in (["rules"], ["fingerprint", catalog]):
        assert main([*command, "-f", "json"]) == 0
        as_format = capsys.readouterr().out
        assert main([*command, "--json"]) == 0  # hidden alias
        assert capsys.readouterr().out == as_format
        json.loads(as_format)
    fixture = str(ROOT / "tests" / "fixtures" / "code" / "py-fastmcp")
    assert main(["code", fixture, "-f", "text"]) == main(["code", fixture, "-f", "terminal"])
    assert main(["discover", "--home", str(tmp_path), "-f", "text"]) == 0


def test_quiet_prints_nothing_and_keeps_the_exit_code(tmp_path: Path) -> None:
    catalog = str(ROOT / "examples" / "catalogs" / "notes-poisoned.json")
    proc = _run("scan", catalog, "-q", "--fail-on", "high")
    assert (proc.returncode, proc.stdout, proc.stderr) == (1, "", "")
    out = tmp_path / "r.json"
    proc = _run("scan", catalog, "--quiet", "-o", str(out))
    assert proc.returncode == 0 and proc.stdout == "" and json.loads(out.read_text())["servers"]


def test_shell_completion() -> None:
    script = _run("--show-completion", "bash")
    assert script.returncode == 0 and "_TOOLWITNESS_COMPLETE" in script.stdout
    env = {**os.environ, "_TOOLWITNESS_COMPLETE": "complete_bash", "COMP_WORDS": "toolwitness sc",
           "COMP_CWORD": "1"}  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-m", "toolwitness"], env=env, capture_output=True, text=True, timeout=120
    )
    assert "scan" in proc.stdout.split(), proc.stdout + proc.stderr
    env["COMP_WORDS"], env["COMP_CWORD"] = "toolwitness scan --fail-on ", "3"
    proc = subprocess.run(
        [sys.executable, "-m", "toolwitness"], env=env, capture_output=True, text=True, timeout=120
    )
    assert {"critical", "high", "medium"} <= set(proc.stdout.split()), proc.stdout
