"""`toolwitness trust`: every configured or pinned server in one table (and as JSON)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from toolwitness.cli import main

SHIFTING = FIXTURES / "shifting_server.py"
KEY = "shifting-notes"


def _dump(path: Path, *options: str) -> Path:
    out = subprocess.run(
        [sys.executable, str(SHIFTING), "--dump-tools", *options],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(out)
    return path


@pytest.fixture
def lock(tmp_path: Path) -> Path:
    path = tmp_path / "toolwitness.lock"
    assert main(["lock", str(_dump(tmp_path / "v1.json")), "-o", str(path), "-y"]) == 0
    other = {
        "serverInfo": {"name": "calendar"},
        "tools": [{"name": "list_events", "inputSchema": {"type": "object"}}],
    }
    (tmp_path / "cal.json").write_text(json.dumps(other))
    assert main(["lock", str(tmp_path / "cal.json"), "-o", str(path), "-y"]) == 0
    return path


def _trust(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["trust", *args, "-f", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "toolwitness.trust/1"
    return code, {row["server"]: row for row in doc["servers"]}


def test_pinned_servers_nobody_scanned_are_listed(
    lock: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, rows = _trust(capsys, "--lock", str(lock))
    assert code == 0 and set(rows) == {KEY, "calendar"}
    assert rows[KEY]["state"] == "not seen" and rows[KEY]["tools"] == 4
    assert rows[KEY]["evidence"] == "lock" and rows[KEY]["surface_digest"].startswith("sha256:")


def test_scanned_servers_show_state_change_and_blocked_tools(
    lock: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    poisoned = _dump(tmp_path / "now" / "notes.json", "--variant", "poison")
    bare = _dump(tmp_path / "now" / "copy.json", "--bare")
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(
        json.dumps({"mcpServers": {"files": {"command": "npx", "args": ["-y", "x@1"]}}})
    )
    code, rows = _trust(capsys, str(poisoned), str(bare), str(config), "--lock", str(lock))
    assert code == 1  # a server in use is blocked
    assert rows[KEY]["state"] == "blocked" and rows[KEY]["blocked"] == ["search_notes"]
    assert rows[KEY]["last_change"] == "now: search_notes modified (description)"
    assert rows["copy"]["state"] == "no key" and rows["copy"]["resembles"] == [KEY]
    assert rows["files"]["state"] == "not connected" and rows["files"]["tools"] is None
    assert rows["calendar"]["state"] == "not seen"
    capsys.readouterr()
    assert main(["trust", str(poisoned), "--lock", str(lock)]) == 1
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == [
        "server",
        "state",
        "tools",
        "surface",
        "digest",
        "blocked",
        "last",
        "change",
    ]
    assert any(
        line.startswith(KEY) and "blocked" in line and "search_notes" in line for line in table
    )
    code, rows = _trust(capsys, str(_dump(tmp_path / "same.json")), "--lock", str(lock))
    assert code == 0 and rows[KEY]["state"] == "matched" and rows[KEY]["last_change"] is None


MCP_SESSION = Path(__file__).resolve().parent.parent / "examples" / "walkthrough" / "mcp_session.py"


def _gateway_session(lock: Path, audit: Path, variant: str) -> None:
    """A raw JSON-RPC session through the real gateway: list, shift to `variant`, list again."""
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "shift", "arguments": {"variant": variant}},
        },
        {"jsonrpc": "2.0", "id": 4, "method": "tools/list"},
    ]
    argv = [
        sys.executable,
        "-m",
        "toolwitness",
        "gateway",
        "--lock",
        str(lock),
        "--audit",
        str(audit),
        "--",
        sys.executable,
        str(SHIFTING),
    ]
    # One request at a time, as a client acting on replies does: piped all at once, the server
    # may answer the second tools/list before the shifting call took effect (requests are
    # handled concurrently), and the audit would then never see the shifted list.
    session = audit.with_name(f"session-{variant}.jsonl")
    session.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    play = [sys.executable, str(MCP_SESSION), str(session), "--", *argv]
    done = subprocess.run(play, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.live
def test_the_gateway_audit_log_gives_the_last_check_and_change(
    lock: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    audit = tmp_path / "audit.jsonl"
    _gateway_session(lock, audit, "gain-read-only")
    code, rows = _trust(capsys, "--lock", str(lock), "--audit", str(audit))
    assert code == 1
    row = rows[KEY]
    assert (row["state"], row["blocked"], row["evidence"]) == ("blocked", ["sync"], "audit")
    assert row["last_change"].endswith("(gateway): sync modified (annotations)")
    assert rows["calendar"]["state"] == "not seen"
    _gateway_session(lock, audit, "same")  # a later session saw the pinned surface again
    code, rows = _trust(capsys, "--lock", str(lock), "--audit", str(audit))
    assert code == 0 and rows[KEY]["state"] == "matched" and rows[KEY]["blocked"] == []
    assert "sync modified" in rows[KEY]["last_change"]  # the last change is still named


def test_hostile_audit_logs(lock: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = json.dumps(
        {"event": "tools/list", "server": KEY, "state": "matched", "changes": [], "dropped": []}
    )
    cut = tmp_path / "cut.jsonl"
    cut.write_text(good + "\n" + '{"event": "tools/li')
    capsys.readouterr()
    assert main(["trust", "--lock", str(lock), "--audit", str(cut)]) == 0
    assert "unfinished last record was skipped" in capsys.readouterr().err
    for body in (good + "\n{not json}\n" + good + "\n", '{"event": 1}\n', '{"a": 1, "a": 2}\n'):
        bad = tmp_path / "bad.jsonl"
        bad.write_text(body)
        assert main(["trust", "--lock", str(lock), "--audit", str(bad)]) == 2
    assert main(["trust", "--lock", str(lock), "--audit", "/dev/zero"]) == 2
    assert main(["trust", "--lock", str(tmp_path / "missing.lock")]) == 2


def test_the_table_escapes_what_the_lockfile_and_servers_named() -> None:
    from toolwitness.commands.trust import render_table
    from toolwitness.integrity.trust import TrustRow

    row = TrustRow("a\x1b[2Jb", "blocked", None, 1, "now: x\u202e modified", ("t\x07",), "scan")
    text = render_table([row])
    assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
    assert "a\\u001b[2Jb" in text or "a\\x1b[2Jb" in text
