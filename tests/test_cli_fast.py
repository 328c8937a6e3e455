"""The command line's fast path (`cli_fast`): whatever it accepts, typer would have accepted with
the very same arguments; everything else is left to typer; its option table is typer's own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness import cli_fast
from toolwitness.cli_support import run_app
from toolwitness.commands import COMMANDS
from toolwitness.commands import code as code_command
from toolwitness.commands import scan as scan_command
from toolwitness.commands.code_run import CodeRequest
from toolwitness.commands.scan_run import ScanRequest

Request = ScanRequest | CodeRequest
_RUNNERS = {"scan": (scan_command, "run_scan", ScanRequest),
            "code": (code_command, "run_code", CodeRequest)}  # fmt: skip


def _typer_request(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, command: str = "scan"
) -> Request | None:
    """The request typer hands the runner for `toolwitness COMMAND ARGV`, or None if it refuses."""
    from toolwitness.cli_app import app

    module, runner, _ = _RUNNERS[command]
    seen: list[Request] = []
    with monkeypatch.context() as patch:
        patch.setattr(module, runner, lambda r: seen.append(r) or 0)
        code = run_app(app, [command, *argv])
    assert code in (0, 2), code
    return seen[0] if seen else None


def _fast_request(argv: list[str], command: str = "scan") -> Request | None:
    arguments = cli_fast.parse(argv, cli_fast._table()[command])
    return None if arguments is None else _RUNNERS[command][2](**arguments)


def _typed(request: Request) -> list[tuple[str, type, Any]]:
    """Field by field with its type: a StrEnum member equals its string, a Path does not."""
    out = []
    for name, value in request._asdict().items():
        items = value if isinstance(value, list) else [value]
        out.append((name, type(value), [(type(v), v) for v in items]))
    return out


def test_the_table_is_what_typer_declares() -> None:
    from toolwitness.cli_table import table_text

    assert cli_fast.TABLE.read_text("utf-8") == table_text(), (
        "the scan options changed: run `python -m toolwitness.cli_table`"
    )


def test_fast_commands_are_short_lived_and_in_the_table() -> None:
    for name in cli_fast.FAST_COMMANDS:
        assert name in COMMANDS and not COMMANDS[name].long_running


ACCEPTED = [
    [],
    ["tools.json"],
    ["a.json", "b.json", "-o", "out.json"],
    ["tools.json", "-o", "report.sarif"],
    ["tools.json", "-o", "report.sarif.json"],
    ["tools.json", "-o", "report", "--format", "csv"],
    ["tools.json", "-f", "json", "-o", "report.sarif"],
    ["-f", "terminal", "x"], ["-f", "text", "x"], ["-f", "md", "x"], ["--format=markdown", "x"],
    ["x", "-o", "-"], ["-", "-q"], ["--", "-weird-name.json"],
    ["x", "--fail-on", "high", "--min-grade", "b", "--min-grade", "C"],
    ["x", "--rules", "r1.yaml", "--rules=r2.yaml", "--include-builtins", "cursor"],
    ["x", "--max-tools", "20000", "--max-file-mib", "64", "--timeout", "0.1"],
    ["x", "--lock", "tw.lock", "--strict", "--server-id", "srv", "--pin-policy", "block-any-change"],
    ["x", "--discover", "--home", "/tmp", "--project", "p1", "--project", "p2", "--online"],
    ["x", "--live", "--stdio", "npx -y pkg", "--header", "A: b", "--bearer", "t", "--sandbox"],
    ["x", "--code", "--declared-from", "annotations", "--max-seconds", "10"],
    ["x", "--redact", "--debug", "--source-root", ".", "--write-baseline", "b.json"],
]  # fmt: skip


@pytest.mark.parametrize("argv", ACCEPTED, ids=" ".join)
def test_accepted_command_lines_get_typers_arguments(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _fast_request(argv)
    assert fast is not None
    typer_request = _typer_request(argv, monkeypatch)
    assert typer_request is not None
    assert _typed(fast) == _typed(typer_request)


LEFT_TO_TYPER = [
    ["--help"], ["x", "-h"], ["-qf", "json", "x"], ["-ojson.json", "x"], ["x", "--unknown"],
    ["-f", "nope", "x"], ["-f", "JSON", "x"], ["--max-tools", "0", "x"], ["--max-tools", "1e3"],
    ["--max-tools", " 5"], ["--timeout", "0.05", "x"], ["--concurrency", "65"], ["--redact=yes"],
    ["x", "-o"], ["x", "-o", "--debug"], ["x", "-o", "report.docx"], ["-5"], ["--min-grade", "G"],
    ["x", "--output", ""],
]  # fmt: skip


CODE_ACCEPTED = [
    ["pkg"], ["./dist", "-f", "json", "-o", "r.json"], ["pkg", "-o", "r.sarif"],
    ["pkg", "--declared-from", "annotations", "--graph", "read_file", "--debug"],
    ["pkg", "--debug", "--no-debug", "--allow-partial", "--max-memory-mib", "512"],
    ["pkg", "--surface", "tools.json", "--fail-on", "low", "--source-root", "/tmp"],
]  # fmt: skip


@pytest.mark.parametrize("argv", CODE_ACCEPTED, ids=" ".join)
def test_code_command_lines_get_typers_arguments(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _fast_request(argv, "code")
    assert fast is not None
    typer_request = _typer_request(argv, monkeypatch, "code")
    assert typer_request is not None
    assert _typed(fast) == _typed(typer_request)


@pytest.mark.parametrize("argv", [[], ["a", "b"], ["pkg", "--debug=1"], ["--", "-x", "y"]])
def test_code_needs_exactly_its_one_target(argv: list[str]) -> None:
    assert _fast_request(argv, "code") is None


@pytest.mark.parametrize("argv", LEFT_TO_TYPER, ids=" ".join)
def test_anything_else_is_left_to_typer(argv: list[str]) -> None:
    assert _fast_request(argv) is None


def test_completion_and_config_files_go_to_typer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = tmp_path / "c.json"
    catalog.write_text('{"tools": []}')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(cli_fast.COMPLETION_VARIABLE, "bash_complete")
    assert cli_fast.run(["scan", str(catalog)]) is None
    monkeypatch.delenv(cli_fast.COMPLETION_VARIABLE)
    (tmp_path / ".toolwitness.toml").write_text('fail-on = "high"\n')
    assert cli_fast.run(["scan", str(catalog)]) is None
    assert cli_fast.run(["rules"]) is None


_WORDS = st.sampled_from([
    "-f", "--format", "-o", "--output", "-q", "--quiet", "--redact", "--fail-on", "--min-grade",
    "--max-tools", "--timeout", "--rules", "--debug", "--", "-", "-h", "--lock", "--pin-policy",
    "json", "sarif", "md", "text", "csv", "high", "b", "B", "5", "0", "0.5", "x.json", "y.sarif",
    "z.txt", "w.docx", "reviewed", "--format=json", "--max-tools=7", "--quiet=1", "",
])  # fmt: skip


@settings(max_examples=150)
@given(st.lists(_WORDS, max_size=7))
def test_whatever_the_fast_path_accepts_typer_reads_the_same(argv: list[str]) -> None:
    fast = _fast_request(argv)
    if fast is None:
        return
    with pytest.MonkeyPatch.context() as patch:
        typer_request = _typer_request(argv, patch)
    assert typer_request is not None, argv
    assert _typed(fast) == _typed(typer_request), argv
