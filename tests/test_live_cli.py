"""The live command-line syntax, error unwrapping, and the quiet/progress decision."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import CONNECTION_CLOSED

from conftest import FIXTURES
from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.live_errors import describe_failure
from toolwitness.acquire.live_stdio import StdioDiagnostics, StreamBudget
from toolwitness.cli import main
from toolwitness.commands.live import LiveFlags, command_spec, scan_inputs, show_progress
from toolwitness.errors import UsageError
from toolwitness.model import ServerSpec

HOSTILE = FIXTURES / "servers" / "hostile.py"


def test_dash_dash_command_is_one_stdio_server(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scan", "-f", "json", "--live", "--", sys.executable, str(HOSTILE), "good"])
    report = json.loads(capsys.readouterr().out)
    assert code in (0, 1)
    (server,) = report["servers"]
    assert server["id"] == "hostile good"
    assert server["coverage"] == ["live"]
    assert len(server["tools"]) == 2


def test_without_live_a_command_is_not_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", "--", sys.executable, str(HOSTILE), "good"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_url_with_a_config_needs_live(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"a": {"command": "npx", "args": ["x"]}}}))
    flags = LiveFlags()
    with pytest.raises(UsageError, match="add --live"):
        scan_inputs([str(config), "http://127.0.0.1:9/mcp"], flags, InputLimits())
    targets, options = scan_inputs([str(config)], flags, InputLimits())
    assert options is None and targets == [str(config)]
    with pytest.raises(UsageError, match="--sandbox applies to live scans"):
        scan_inputs([str(config)], LiveFlags(sandbox=True), InputLimits())


def test_url_and_stdio_targets_are_live() -> None:
    targets, options = scan_inputs(
        ["https://mcp.example.org/sse"],
        LiveFlags(stdio=("npx -y @scope/pkg@1.2.3",)),
        InputLimits(),
    )
    assert options is not None
    specs = [t for t in targets if isinstance(t, ServerSpec)]
    kinds = sorted(s.transport.kind for s in specs)
    assert kinds == ["sse", "stdio"]
    stdio = next(s for s in specs if s.transport.kind == "stdio")
    assert stdio.name == "@scope/pkg" and stdio.package is not None
    assert stdio.package.version == "1.2.3"


def test_relative_script_becomes_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "server.js").write_text("// a server\n")
    monkeypatch.chdir(tmp_path)
    spec = command_spec(["node", "server.js", "--port", "3"])
    assert spec.transport.args[0] == str(tmp_path / "server.js")
    assert spec.transport.args[1:] == ("--port", "3")


def test_exception_group_unwraps_to_the_cause() -> None:
    closed = MCPError(CONNECTION_CLOSED, "Connection closed")
    cause = MCPError(-32602, "bad \x1b[31mparams\x1b[0m")
    group = BaseExceptionGroup("tasks", [ExceptionGroup("inner", [closed, cause])])
    message = describe_failure(group, "tools/list", None, "", 5)
    assert message.startswith("the server answered with error -32602 while waiting for tools/list")
    assert "\x1b" not in message  # server text is escaped


def test_stderr_tail_is_bounded_and_escaped() -> None:
    diag = StdioDiagnostics(StreamBudget(100, 1000, 64))
    diag.note_stderr(b"x" * 1000)
    diag.note_stderr(b"\nboom \x1b]0;title\x07\n")
    assert len(diag.stderr_tail) == 64
    summary = diag.summary()
    assert "boom" in summary and "\x1b" not in summary and "stderr was 1017 bytes" in summary


def test_progress_is_quiet_without_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert show_progress()
    monkeypatch.setenv("CI", "true")
    assert not show_progress()
    monkeypatch.delenv("CI")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert not show_progress()


def test_early_checks_equal_the_static_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Live servers are checked while others still connect; the findings must not differ."""
    snap = tmp_path / "good.json"
    command = f"{sys.executable} {HOSTILE} good"
    assert main(["snapshot", "--stdio", command, "-o", str(snap)]) == 0
    capsys.readouterr()
    main(["scan", "-f", "json", "--stdio", command])
    live = json.loads(capsys.readouterr().out)["servers"][0]
    main(["scan", "-f", "json", str(snap)])
    static = json.loads(capsys.readouterr().out)["servers"][0]
    assert live["coverage"] == static["coverage"] == ["live"]
    assert live["findings"] == static["findings"]
    assert live["findings"], "the fixture's delete_file tool should draw at least one finding"


def test_disabled_entry_is_not_started(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    marker = tmp_path / "started"
    script = tmp_path / "touch.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    config = tmp_path / "mcp.json"
    entry = {"command": sys.executable, "args": [str(script)], "disabled": True}
    config.write_text(json.dumps({"mcpServers": {"off": entry}}))
    code = main(["scan", "-f", "json", "--live", str(config)])
    server = json.loads(capsys.readouterr().out)["servers"][0]
    assert not marker.exists()
    assert server["coverage"] == ["config"] and not server["incomplete"]
    assert code in (0, 1)


def test_discovered_configs_are_connected_with_live(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    config = home / ".config" / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir(parents=True)
    entry = {"command": sys.executable, "args": [str(HOSTILE), "good"]}
    config.write_text(json.dumps({"mcpServers": {"fixture": entry}}))
    code = main(["scan", "-f", "json", "--live", "--discover", "--home", str(home)])
    (server,) = json.loads(capsys.readouterr().out)["servers"]
    assert code in (0, 1)
    assert server["id"] == "fixture" and server["coverage"] == ["live"]
    assert len(server["tools"]) == 2


def test_unbalanced_quote_in_stdio_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", "--stdio", "node 'server.js"]) == 2
    assert "No closing quotation" in capsys.readouterr().err
