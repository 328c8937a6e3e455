"""`scan --code`: code verdicts and TW-CODE findings inside an ordinary scan."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, npm_server_entry
from toolwitness.cli import main
from toolwitness.code.in_scan import CodeTarget, code_target
from toolwitness.model import PackageRef, ServerSurface, Transport

FIXTURE = ROOT / "tests" / "fixtures" / "code" / "py-fastmcp"


def _scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["scan", *args, "-f", "json"])
    return code, json.loads(capsys.readouterr().out)


def _project(tmp_path: Path) -> Path:
    """The py-fastmcp fixture as an installed project: a pyproject.toml above its script."""
    root = tmp_path / "notes-server"
    shutil.copytree(FIXTURE, root)
    (root / "pyproject.toml").write_text('[project]\nname = "notes"\nversion = "1.0"\n')
    return root


def test_live_server_from_a_local_install_gets_verdicts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    entry = npm_server_entry("@modelcontextprotocol/server-filesystem")
    stdio = f"node {entry} {tmp_path}"
    code, doc = _scan(capsys, "--stdio", stdio, "--code", "--declared-from", "description")
    assert code == 0
    (server,) = doc["servers"]
    assert "source" in server["coverage"] and "live" in server["coverage"]
    assert (
        "--code: analysed the local install its command runs; 14 tool registration(s) in the code"
        in server["notes"]
    )
    verdicts = {t["name"]: t["verdict"] for t in server["tools"]}
    assert verdicts["read_text_file"] == "OK"
    assert verdicts["edit_file"] == "VIOLATION"  # reads the file it edits; says only "edit"
    assert any(
        f["rule_id"] == "TW-CODE-002" and f["tool"] == "edit_file" for f in server["findings"]
    )
    # The same scan without --code carries no verdicts and no code findings.
    code, plain = _scan(capsys, "--stdio", stdio)
    assert {t["verdict"] for t in plain["servers"][0]["tools"]} == {None}
    assert not any(f["rule_id"].startswith("TW-CODE") for f in plain["servers"][0]["findings"])


def test_config_only_server_is_checked_on_the_tools_its_code_registers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = _project(tmp_path)
    config = tmp_path / "mcp.json"
    server = {"command": "python", "args": [str(root / "notes" / "server.py")]}
    config.write_text(json.dumps({"mcpServers": {"notes": server}}))
    code, doc = _scan(capsys, str(config), "--code")
    (result,) = doc["servers"]
    assert result["id"] == "notes"
    assert {"config", "source"} <= set(result["coverage"])
    verdicts = {t["name"]: t["verdict"] for t in result["tools"]}
    assert verdicts["list_notes"] == "OK"
    assert verdicts["archive"] == "VIOLATION"
    archive = [f for f in result["findings"] if f["tool"] == "archive"]
    assert any(f["rule_id"] == "TW-CODE-002" for f in archive)
    assert any("server.py" in (w.get("file") or "") for f in archive for w in f["witnesses"])
    assert code == 0  # no threshold given


def test_catalog_without_code_says_so_and_passes_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, doc = _scan(capsys, str(ROOT / "examples" / "catalogs" / "weather.json"), "--code")
    (server,) = doc["servers"]
    assert any("--code: not verified" in n for n in server["notes"])
    assert {t["verdict"] for t in server["tools"]} == {None}
    assert code == 0


def test_unreadable_code_is_a_note_not_a_crash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = tmp_path / "broken"
    root.mkdir()
    (root / "package.json").write_text("{not json")
    (root / "index.js").write_bytes(b"\xff\xfe" * 10 + b"function (")
    config = tmp_path / "mcp.json"
    entry = {"command": "node", "args": [str(root / "index.js")]}
    config.write_text(json.dumps({"mcpServers": {"broken": entry}}))
    code, doc = _scan(capsys, str(config), "--code")
    (server,) = doc["servers"]
    assert code in (0, 1)
    assert (
        "--code: analysed the local install its command runs; 0 tool registration(s) in the code"
        in server["notes"]
    )
    assert any(f["rule_id"] == "TW-CODE-004" for f in server["findings"])  # what was unreadable


def _surface(**kw: Any) -> ServerSurface:
    return ServerSurface(id="s", **kw)


def test_where_the_code_comes_from(tmp_path: Path) -> None:
    assert code_target(_surface(source_root=str(tmp_path))) == CodeTarget(
        str(tmp_path), "its source directory"
    )
    pinned = PackageRef(ecosystem="npm", name="@scope/srv", version="1.2.3")
    assert code_target(_surface(package=pinned)) == CodeTarget(
        "npm:@scope/srv@1.2.3", "the npm registry"
    )
    py = PackageRef(ecosystem="pypi", name="mcp-server-time", version="2026.10.19")
    assert code_target(_surface(package=py)) == CodeTarget(
        "pypi:mcp-server-time==2026.10.19", "PyPI"
    )
    unpinned = PackageRef(ecosystem="npm", name="srv")
    assert "not pinned" in str(code_target(_surface(package=unpinned)))
    missing = Transport(kind="stdio", command="node", args=("/nonexistent/x.js",))
    assert isinstance(code_target(_surface(transport=missing)), str)
    assert isinstance(code_target(_surface()), str)
