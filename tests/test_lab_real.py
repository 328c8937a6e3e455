"""The lab on real servers (installed by scripts/install-test-servers.sh): what they really do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import npm_server_entry, pypi_server_bin, require_path
from toolwitness.cli import main

pytestmark = pytest.mark.requires_tools("bwrap", "strace", "node")


def _verdicts(report: Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    (server,) = json.loads(report.read_text(encoding="utf-8"))["servers"]
    return {t["name"]: t["probe"] for t in server["tools"]}, server["findings"]


def test_filesystem_server_read_only_tools_leave_no_trace(tmp_path: Path) -> None:
    entry = npm_server_entry("@modelcontextprotocol/server-filesystem")
    require_path(entry, "server-filesystem")
    out = tmp_path / "fs.json"
    code = main(["probe", "-f", "json", "-o", str(out), "--", "node", str(entry), "{lab}"])
    assert code == 0
    probes, findings = _verdicts(out)
    read_only = {n for n, p in probes.items() if p["verdict"] != "skipped"}
    assert {"read_text_file", "list_directory", "directory_tree", "get_file_info"} <= read_only
    assert {probes[n]["verdict"] for n in read_only} == {"refuted"}
    for name in read_only:
        evidence = probes[name]["evidence"]
        assert evidence["answers_traced"] == evidence["calls"]  # the tracer saw every answer
    # A directory tool got a directory, and the planted note was really read.
    assert probes["list_directory"]["evidence"]["arguments"][0] == {"path": "$WORK/notes"}
    assert probes["read_text_file"]["evidence"]["error_answers"] == 1  # only the nonce path
    for name in ("write_file", "edit_file", "move_file", "create_directory"):
        assert probes[name]["verdict"] == "skipped"
    assert not any(f["rule_id"].startswith("TW-LAB") for f in findings)


def test_git_server_status_rewrites_the_index_and_reads_run_git(tmp_path: Path) -> None:
    binary = pypi_server_bin("mcp-server-git")
    require_path(binary, "mcp-server-git")
    out = tmp_path / "git.json"
    (source,) = binary.parent.parent.glob("lib/python3*/site-packages/mcp_server_git")
    code = main([
        "probe", "-f", "json", "-o", str(out), "--allow-command", "mcp-server-git",
        "--source", str(source), "--", str(binary),
    ])  # fmt: skip
    assert code == 0
    probes, findings = _verdicts(out)
    status = probes["git_status"]
    assert status["verdict"] == "confirmed"
    observed = {(o.get("kind") or o.get("change"), o.get("target") or o.get("path"))
                for o in status["evidence"]["observed"]}  # fmt: skip
    # git's opportunistic index refresh: index.lock written, renamed over the index.
    assert ("write", "$WORK/repo/.git/index.lock") in observed
    assert ("exec", "/usr/bin/git status") in observed or any(
        kind == "exec" and target.endswith("git status") for kind, target in observed
    )
    assert probes["git_log"]["verdict"] == "confirmed"  # it runs git (TW-LAB-003)
    for name in ("git_commit", "git_add", "git_reset", "git_checkout", "git_create_branch"):
        assert probes[name]["verdict"] == "skipped"
    # Code verification predicted the git process but not the index write: the lab says so.
    compared = status["evidence"]["code_verification"]
    assert compared["predicted"] == ["EXEC_PROCESS", "READ_FS"]
    assert compared["agreement"] == "disagree: the lab saw WRITE_FS, which code did not predict"
    assert probes["git_log"]["evidence"]["code_verification"]["agreement"] == "agree"
    rules = {(f["rule_id"], f["tool"]) for f in findings}
    assert ("TW-LAB-001", "git_status") in rules and ("TW-LAB-003", "git_log") in rules
