"""`toolwitness discover` and `scan --discover` end to end, with HOME pointed at a temp dir."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES
from toolwitness.cli import main

CONFIGS = FIXTURES / "configs"
TOKEN = "ghp_" + "r9Tq2Wm5Zx" * 4  # built here so the file itself holds no token


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture HOME, with the environment pointing at it and nothing else, run
    from an empty folder (the current folder is searched as a project by default)."""
    target = tmp_path / "home"
    shutil.copytree(CONFIGS / "home", target)
    monkeypatch.setenv("HOME", str(target))
    for var in (
        "XDG_CONFIG_HOME",
        "APPDATA",
        "CODEX_HOME",
        "USERPROFILE",
        "LOCALAPPDATA",
        "COPILOT_HOME",
        "ProgramData",
        "PROGRAMDATA",
        "ProgramFiles",
        "PROGRAMFILES",
    ):
        monkeypatch.delenv(var, raising=False)  # fmt: skip
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    return target


def test_discover_text_lists_servers_without_connecting(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["discover"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("13 config files, 24 servers (nothing was started)")
    assert "claude-desktop  filesystem" in out
    assert "package:   npm @modelcontextprotocol/server-filesystem (2026.8.31)" in out
    assert "codex  linear" in out and "Authorization=Bearer ${env:LINEAR_TOKEN}" in out
    assert "kiro  fetch  (disabled)" in out


def test_discover_json_with_project(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["discover", "--format", "json", "--project", str(CONFIGS / "project")])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    assert doc["schema"] == "toolwitness.discover/1"
    assert len(doc["files"]) == 20 and len(doc["servers"]) == 32
    clients = {s["client"] for s in doc["servers"]}
    assert clients == {
        "claude-desktop", "claude-code", "cursor", "vscode", "windsurf", "continue",
        "gemini-cli", "zed", "codex", "kiro", "opencode",
    }  # fmt: skip
    vscode = next(s for s in doc["servers"] if s["name"] == "Perplexity")
    assert vscode["env"] == {"PERPLEXITY_API_KEY": "${input:perplexity-key}"}
    assert vscode["package"] == {
        "ecosystem": "docker",
        "name": "mcp/perplexity-ask",
        "spec": "mcp/perplexity-ask",
    }


def test_discover_redacts_literal_secrets(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cursor = home / ".cursor" / "mcp.json"
    cursor.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "gh": {
                        "command": "npx",
                        "args": ["-y", "gh-mcp@1.0.0", "--token", TOKEN],
                        "env": {"GITHUB_TOKEN": TOKEN},
                    },
                    "web": {
                        "url": f"https://h.example/mcp?key={TOKEN}",
                        "headers": {"Authorization": f"Bearer {TOKEN}"},
                    },
                    "db": {"url": f"https://user:{TOKEN}@h.example/mcp"},
                }
            }
        )
    )
    for fmt in ("text", "json"):
        assert main(["discover", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert TOKEN[4:] not in out, fmt
        assert "<redacted>" in out


def test_scan_discover_static_by_default(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scan", "--discover", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    assert doc["summary"]["servers"] == 24 and doc["summary"]["tools"] == 0
    assert all(s["coverage"] == ["config"] for s in doc["servers"])
    rules = {f["rule_id"] for s in doc["servers"] for f in s["findings"]}
    assert "TW-META-001" not in rules
    assert {"TW-NET-007", "TW-SUP-001", "TW-NET-005", "TW-NET-002"} <= rules
    git = next(s for s in doc["servers"] if s["id"] == "git")
    assert any("CVE-2025-68145" in f["message"] for f in git["findings"])


def test_scan_discover_with_fail_on_gates(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["scan", "--discover", "--fail-on", "critical", "--project", str(CONFIGS / "project")])
        == 1
    )
    out = capsys.readouterr().out
    assert "CVE-2025-49596" in out  # the project's Inspector pin
    assert "nothing was listed" in out


def test_discover_names_a_hostile_config_and_reads_the_rest(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / ".cursor" / "mcp.json").write_text('{"mcpServers": {"a": {"command": "x"}, "a": {}}}')
    assert main(["discover"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("13 config files, 22 servers, 1 problem (nothing was started)")
    assert f"unreadable: {home / '.cursor' / 'mcp.json'}  (cursor; duplicate key 'a')" in out
    assert "claude-desktop  filesystem" in out  # the other files were still read
    # Named on the command line, the same file is still an error.
    assert main(["scan", str(home / ".cursor" / "mcp.json")]) == 2
    assert "duplicate key" in capsys.readouterr().err


def test_discover_empty_home_and_bad_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["discover", "--home", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("0 config files, 0 servers")
    assert main(["scan", "--discover", "--home", str(tmp_path)]) == 2
    assert "found no MCP server" in capsys.readouterr().err
    assert main(["discover", "--home", str(tmp_path / "missing")]) == 2
    assert main(["scan", "--home", str(tmp_path), str(CONFIGS / "project" / ".mcp.json")]) == 2
    assert "apply with --discover" in capsys.readouterr().err
    assert main(["scan", "--no-project", str(CONFIGS / "project" / ".mcp.json")]) == 2


def test_discover_as_a_subprocess_reads_home_from_environment(tmp_path: Path) -> None:
    home = tmp_path / "h"
    shutil.copytree(CONFIGS / "home" / ".codex", home / ".codex")
    env = {
        k: v for k, v in os.environ.items() if k not in ("XDG_CONFIG_HOME", "APPDATA", "CODEX_HOME")
    }
    env["HOME"] = str(home)
    proc = subprocess.run(
        [sys.executable, "-m", "toolwitness", "discover", "--format", "json"],
        capture_output=True, text=True, timeout=120, env=env, check=False, cwd=home,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert [s["name"] for s in doc["servers"]] == ["docs", "linear"]


@pytest.mark.live
def test_scan_discover_live_connects_the_discovered_specs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from conftest import npm_server_entry

    entry = npm_server_entry("@modelcontextprotocol/server-memory")
    cursor = tmp_path / ".cursor"
    cursor.mkdir()
    (cursor / "mcp.json").write_text(
        json.dumps({"mcpServers": {"memory": {"command": "node", "args": [str(entry)]}}})
    )
    code = main(["scan", "--discover", "--live", "--home", str(tmp_path), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    (server,) = doc["servers"]
    assert server["id"] == "memory" and "live" in server["coverage"]
    assert len(server["tools"]) == 9


def test_discover_escapes_hostile_names(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (home / ".cursor" / "mcp.json").write_text(
        json.dumps(
            {"mcpServers": {"evil\u202e\x1b[31m": {"command": "npx\u200b", "args": ["\x07"]}}}
        )
    )
    assert main(["discover"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out and "\u200b" not in out
    assert "evil\\u202e\\u001b[31m" in out
