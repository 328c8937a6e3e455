"""`toolwitness code` on artifacts and package specs: hostile input exits 2 with one clear line."""

from __future__ import annotations

import gzip
import json
import tarfile
from pathlib import Path

import pytest

from archive_builders import files_tgz, member, write_tgz, write_zip, zeros_tgz
from toolwitness.cli import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    err = capsys.readouterr().err
    return code, err


def test_cli_refuses_path_traversal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = files_tgz(tmp_path / "evil.tgz", {"package/index.js": b"", "../../owned": b"x"})
    code, err = _run(["code", str(archive)], capsys)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "evil.tgz" in err and "'../../owned'" in err and "escapes the destination" in err


def test_cli_refuses_symlink_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = write_tgz(
        tmp_path / "link.tgz", [(member("package/x", tarfile.SYMTYPE, link="/etc/passwd"), None)]
    )
    code, err = _run(["code", str(archive)], capsys)
    assert code == 2 and "symlink points outside the archive" in err


def test_cli_refuses_a_gigabyte_of_zeros(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = zeros_tgz(tmp_path / "zeros.tgz", file_count=100, file_bytes=10 * 1024 * 1024)
    code, err = _run(["code", str(archive)], capsys)
    assert code == 2 and "compression ratio" in err


def test_cli_refuses_a_zip_with_dotdot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = write_zip(tmp_path / "evil-1.0-py3-none-any.whl", {"../evil.py": b"x"})
    code, err = _run(["code", str(archive)], capsys)
    assert code == 2 and "'../evil.py'" in err


def test_cli_refuses_a_malformed_archive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "broken.tgz"
    archive.write_bytes(gzip.compress(b"x" * 1000)[:-12])
    code, err = _run(["code", str(archive)], capsys)
    assert code == 2 and "malformed or truncated" in err


@pytest.mark.parametrize("spec", ["npm:left-pad@^1.0.0", "pypi:requests>=2", "npm:--foo@1"])
def test_cli_refuses_an_inexact_package_spec(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(["code", spec], capsys)
    assert code == 2 and "package spec" in err


@pytest.mark.live
@pytest.mark.parametrize(
    ("spec", "tools"),
    [
        (
            "npm:@modelcontextprotocol/server-memory@2026.8.31",
            {"create_entities", "read_graph", "search_nodes", "delete_entities"},
        ),
        ("pypi:mcp-server-time==2026.10.19", {"get_current_time", "convert_time"}),
    ],
)
def test_cli_analyses_a_downloaded_package(
    spec: str, tools: set[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    code, err = _run(["code", spec, "--format", "json", "--output", str(out)], capsys)
    assert code == 0, err
    server = json.loads(out.read_text())["servers"][0]
    # The server is named after the package it analysed (name and pinned version).
    assert server["id"] == spec.split(":", 1)[1] and server["coverage"] == ["package"]
    found = {tool["name"] for tool in server["tools"]}
    assert tools <= found
    assert all(tool["verdict"] in {"OK", "VIOLATION", "UNANALYZABLE"} for tool in server["tools"])
