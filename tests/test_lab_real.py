"""The lab on real servers (installed by scripts/install-test-servers.sh): what they really do.

Acceptance of the lab's verdict rules on real code: no tool is refuted whose calls all errored
(a refuted tool has at least one exercised call), and git's `git_status` on a repository the
user names (`--repo`) is confirmed for the index write it makes, on the lab's copy only.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import npm_server_entry, pypi_server_bin, require_path
from toolwitness.cli import main

pytestmark = pytest.mark.requires_tools("bwrap", "strace", "node", "git")


def _verdicts(report: Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    (server,) = json.loads(report.read_text(encoding="utf-8"))["servers"]
    return {t["name"]: t["probe"] for t in server["tools"]}, server["findings"]


def _no_refuted_without_exercise(probes: dict[str, dict[str, Any]]) -> None:
    for name, probe in probes.items():
        if probe["verdict"] != "refuted":
            continue
        evidence = probe["evidence"]
        assert evidence["calls_exercised"] >= 1, f"{name} refuted without one exercised call"
        assert probe["calls_errored"] < probe["calls"], f"{name} refuted though every call erred"


def test_filesystem_server_read_only_tools_leave_no_trace(tmp_path: Path) -> None:
    entry = require_path(npm_server_entry("@modelcontextprotocol/server-filesystem"))
    out = tmp_path / "fs.json"
    code = main(["probe", "-f", "json", "-o", str(out), "--", "node", str(entry), "{lab}"])
    assert code == 0
    probes, findings = _verdicts(out)
    read_only = {n for n, p in probes.items() if p["verdict"] != "skipped"}
    assert {"read_text_file", "list_directory", "directory_tree", "get_file_info"} <= read_only
    assert {probes[n]["verdict"] for n in read_only} == {"refuted"}
    _no_refuted_without_exercise(probes)
    for name in read_only:
        evidence = probes[name]["evidence"]
        assert evidence["answers_traced"] == evidence["calls"]  # the tracer saw every answer
    # A directory tool got the planted folder, and the planted note was really read.
    listing = probes["list_directory"]["evidence"]["tries"][0]
    assert listing["exercised"] and listing["arguments"]["path"].startswith("$WORK/")
    for name in ("write_file", "edit_file", "move_file", "create_directory"):
        assert probes[name]["verdict"] == "skipped"
    assert not any(f["rule_id"].startswith("TW-LAB") for f in findings)


def _user_repository(root: Path) -> Path:
    repo = root / "project"
    repo.mkdir()
    (repo / "app.py").write_text("print('hello')\n", encoding="utf-8")
    git = ["git", "-c", "user.name=dev", "-c", "user.email=dev@example.invalid"]
    for args in (["init", "-q", "-b", "main"], ["add", "app.py"], ["commit", "-qm", "first"]):
        subprocess.run([*git, *args], cwd=repo, check=True, capture_output=True, timeout=30)
    (repo / "app.py").write_text("print('hello, world')\n", encoding="utf-8")  # unstaged
    return repo


def test_git_server_on_a_user_repository_rewrites_the_copy_index(tmp_path: Path) -> None:
    binary = require_path(pypi_server_bin("mcp-server-git"))
    repo = _user_repository(tmp_path)
    index_before = (repo / ".git" / "index").read_bytes()
    out = tmp_path / "git.json"
    code = main([
        "probe", "-f", "json", "-o", str(out), "--allow-command", "mcp-server-git",
        "--repo", str(repo), "--", str(binary), "--repository", "{repo}",
    ])  # fmt: skip
    assert code == 0
    probes, findings = _verdicts(out)
    status = probes["git_status"]
    assert status["verdict"] == "confirmed"
    observed = {(o.get("kind") or o.get("change"), o.get("target") or o.get("path"))
                for o in status["evidence"]["observed"]}  # fmt: skip
    # git's opportunistic index refresh, on the lab's copy of the user's repository.
    assert ("write", "$WORK/project/.git/index.lock") in observed
    assert any(kind == "exec" and target.endswith("git status") for kind, target in observed)
    assert status["evidence"]["tries"][0]["arguments"]["repo_path"] == "$WORK/project"
    _no_refuted_without_exercise(probes)
    for name in ("git_commit", "git_add", "git_reset", "git_checkout", "git_create_branch"):
        assert probes[name]["verdict"] == "skipped"
    assert ("TW-LAB-001", "git_status") in {(f["rule_id"], f["tool"]) for f in findings}
    assert (repo / ".git" / "index").read_bytes() == index_before  # the user's own is untouched


def test_git_server_agrees_with_code_verification_on_the_planted_repository(
    tmp_path: Path,
) -> None:
    binary = require_path(pypi_server_bin("mcp-server-git"))
    out = tmp_path / "git.json"
    (source,) = binary.parent.parent.glob("lib/python3*/site-packages/mcp_server_git")
    code = main([
        "probe", "-f", "json", "-o", str(out), "--allow-command", "mcp-server-git",
        "--source", str(source), "--", str(binary),
    ])  # fmt: skip
    assert code == 0
    probes, _ = _verdicts(out)
    _no_refuted_without_exercise(probes)
    # Code verification predicted the git process but not the index write: the lab says so.
    compared = probes["git_status"]["evidence"]["code_verification"]
    assert compared["predicted"] == ["EXEC_PROCESS", "READ_FS"]
    assert compared["agreement"] == "disagree: the lab saw WRITE_FS, which code did not predict"
    assert probes["git_log"]["evidence"]["code_verification"]["agreement"] == "agree"


def test_memory_server_read_tools_are_exercised_and_refuted(tmp_path: Path) -> None:
    entry = require_path(npm_server_entry("@modelcontextprotocol/server-memory"))
    out = tmp_path / "memory.json"
    assert main(["probe", "-f", "json", "-o", str(out), "--", "node", str(entry)]) == 0
    probes, findings = _verdicts(out)
    called = {n: p for n, p in probes.items() if p["verdict"] != "skipped"}
    assert set(called) == {"read_graph", "search_nodes", "open_nodes"}
    assert {p["verdict"] for p in called.values()} == {"refuted"}
    _no_refuted_without_exercise(probes)
    assert not any(f["rule_id"].startswith("TW-LAB") for f in findings)


def test_time_server_gets_real_timezones_from_its_descriptions(tmp_path: Path) -> None:
    binary = require_path(pypi_server_bin("mcp-server-time"))
    out = tmp_path / "time.json"
    code = main(["probe", "-f", "json", "-o", str(out), "--allow-command", "mcp-server-time",
                 "--", str(binary)])  # fmt: skip
    assert code == 0
    probes, _ = _verdicts(out)
    _no_refuted_without_exercise(probes)
    first = probes["get_current_time"]["evidence"]["tries"][0]
    assert first["arguments"] == {"timezone": "America/New_York"}  # its description's example
    assert not first["error_answer"] and first["exercised"]
    convert = probes["convert_time"]["evidence"]["tries"][0]["arguments"]
    assert convert["time"] == "10:30"  # the HH:MM layout its description names
    assert {p["verdict"] for p in probes.values()} == {"refuted"}
