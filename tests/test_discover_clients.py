"""Acceptance for discovery: 30 clients' configs in a home and a project folder (one truncated,
one with `${VAR:-default}`, one with a 5,000-digit integer); `toolwitness discover` run in the
project folder with no flags lists ≥ 95% of the servers, names each unreadable file with its
reason and exits 0; `scan --discover` scans them; no planted secret reaches any output format."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from client_fixtures import SECRET_BODY, ClientTree, build_client_tree
from toolwitness.acquire.clients import client_table
from toolwitness.cli import main

_CLEARED = ("XDG_CONFIG_HOME", "APPDATA", "LOCALAPPDATA", "CODEX_HOME", "COPILOT_HOME",
            "USERPROFILE", "ProgramData", "PROGRAMDATA", "ProgramFiles", "PROGRAMFILES")  # fmt: skip
# Values a careless tool would expand into its report: they must never appear.
_REAL_ENV = {"API_BASE_URL": "https://leaked-base.invalid", "SENTRY_TOKEN": "sntrys_LEAKED0123456789",
             "GH_TOKEN": "ghp_LEAKEDLEAKEDLEAKEDLEAKEDLEAKEDLEAKED"}  # fmt: skip


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ClientTree:
    built = build_client_tree(tmp_path)
    monkeypatch.setenv("HOME", str(built.home))
    for var in _CLEARED:
        monkeypatch.delenv(var, raising=False)
    for var, value in _REAL_ENV.items():
        monkeypatch.setenv(var, value)
    monkeypatch.chdir(built.project)
    return built


def _discover_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["discover", "--format", "json", *args]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert isinstance(doc, dict)
    return doc


def test_the_fixture_covers_30_clients_of_the_table(tree: ClientTree) -> None:
    assert len(tree.clients) == 30
    assert tree.clients <= {c.id for c in client_table().clients}


def test_discover_in_the_project_folder_lists_the_servers_and_names_unreadable_files(
    tree: ClientTree, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _discover_json(capsys)
    servers = doc["servers"]
    assert isinstance(servers, list)
    listed = {s["name"]: s["client"] for s in servers}
    expected = set(tree.servers)
    assert set(listed) <= expected
    recall = len(set(listed) & expected) / len(expected)
    assert recall >= 0.95, sorted(expected - set(listed))
    assert set(listed) == expected - tree.lost  # exactly the damaged files' servers are missing
    assert all(listed[name] == tree.servers[name] for name in listed)  # the right client each
    problems = doc["problems"]
    assert isinstance(problems, list)
    by_file = {p["file"]: p for p in problems}
    for path, words in tree.unreadable.items():
        assert words in by_file[str(path)]["reason"], by_file[str(path)]
        assert by_file[str(path)]["rule_id"] == "TW-NET-008"
    assert len(problems) == len(tree.unreadable)
    projects = {p["path"]: p for p in doc["projects"]}  # type: ignore[union-attr]
    assert projects[str(tree.project)]["origin"] == "current folder"
    assert projects[str(tree.extra_project)]["state"] == "searched"
    assert projects["/home/someone-else/gone"]["state"] == "absent"


def test_references_are_kept_as_written_and_never_expanded(
    tree: ClientTree, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _discover_json(capsys)
    by_name = {s["name"]: s for s in doc["servers"]}  # type: ignore[union-attr]
    api = by_name["project-api"]
    assert api["url"] == "${API_BASE_URL:-https://api.example.com}/mcp"
    assert api["transport"] == "http"
    assert api["headers"] == {"Authorization": "Bearer ${API_KEY}"}
    assert by_name["project-tool"]["command"] == "${HOME}/bin/project-mcp"
    assert by_name["plugin-db"]["command"] == "${CLAUDE_PLUGIN_ROOT}/servers/db-server"
    assert by_name["copilot-remote"]["headers"] == {"X-Token": "${GH_TOKEN:-<redacted>}"}
    text = json.dumps(doc)
    for value in _REAL_ENV.values():
        assert value not in text


def test_discover_text_says_where_it_looked(
    tree: ClientTree, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["discover"]) == 0
    out = capsys.readouterr().out
    head = out.splitlines()[0]
    assert head.endswith(", 2 problems (nothing was started)")
    assert "unreadable" in out.splitlines()[1] and "absent (--verbose lists them)" in out
    cursor = tree.home / ".cursor" / "mcp.json"
    assert f"  unreadable: {cursor}  (cursor; not valid JSON" in out
    assert (
        f"  project searched: {tree.extra_project}  (recorded in {tree.home / '.claude.json'})"
        in out
    )
    assert main(["discover", "--verbose"]) == 0
    verbose = capsys.readouterr().out
    assert f"  absent:     {tree.project / '.roo' / 'mcp.json'}" not in verbose  # it exists
    assert f"  absent:     {tree.project / '.kilocode' / 'mcp.json'}  (kilo-code" in verbose


def test_no_project_searches_only_the_user_folders(
    tree: ClientTree, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _discover_json(capsys, "--no-project")
    names = {s["name"] for s in doc["servers"]}  # type: ignore[union-attr]
    assert "project-api" not in names and "tools-recorded-only" not in names
    assert "code-sentry" in names  # local scope of ~/.claude.json is a user file
    assert doc["projects"] == []
    only = _discover_json(capsys, "--no-project", "--project", str(tree.extra_project))
    assert "tools-recorded-only" in {s["name"] for s in only["servers"]}  # type: ignore[union-attr]


def test_scan_discover_scans_every_server_and_each_unreadable_file(
    tree: ClientTree, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scan", "--discover", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    ids = {s["id"] for s in doc["servers"]}
    assert len(ids) == len(tree.servers) - len(tree.lost) + len(tree.unreadable)
    unread = [s for s in doc["servers"] if s["id"].startswith("unreadable: ")]
    assert {s["id"][len("unreadable: ") :] for s in unread} == {str(p) for p in tree.unreadable}
    for server in unread:
        (finding,) = server["findings"]
        assert finding["rule_id"] == "TW-NET-008" and finding["severity"] == "medium"
    api = next(s for s in doc["servers"] if s["id"] == "project-api")
    assert not any(f["rule_id"] == "TW-NET-003" for f in api["findings"])  # its default is https
    assert main(["scan", "--discover", "--fail-on", "medium"]) == 1  # thresholds still apply
    capsys.readouterr()


@pytest.mark.parametrize("fmt", ["terminal", "json", "sarif", "csv", "markdown", "html"])
def test_no_planted_secret_reaches_a_scan_report(
    tree: ClientTree, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    main(["scan", "--discover", "--format", fmt])
    out = capsys.readouterr().out
    assert "TW-NET-006" in out or fmt == "html" or "NET-006" in out  # the secret was seen…
    assert SECRET_BODY not in out  # …and never printed
    for value in _REAL_ENV.values():
        assert value not in out


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_no_planted_secret_reaches_discover(
    tree: ClientTree, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    assert main(["discover", "--format", fmt, "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "<redacted>" in out and SECRET_BODY not in out


def test_discover_as_a_process_in_the_project_folder(tree: ClientTree) -> None:
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    env["HOME"] = str(tree.home)
    proc = subprocess.run(
        [sys.executable, "-m", "toolwitness", "discover"],
        capture_output=True, text=True, timeout=120, env=env, check=False, cwd=tree.project,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    listed = sum(1 for name in tree.servers if f"  {name}" in proc.stdout)
    assert listed / len(tree.servers) >= 0.95
    for path in tree.unreadable:
        assert str(path) in proc.stdout
    assert SECRET_BODY not in proc.stdout + proc.stderr
