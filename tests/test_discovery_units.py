"""Discovery's own logic: every file read once, every kind of unreadable file a problem on record,
recorded project folders taken with care, problem notes read back exactly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from toolwitness.acquire.config_problems import problem_from_note, problem_note, problem_surfaces
from toolwitness.acquire.discovery import ConfigProblem, discover
from toolwitness.acquire.locations import DiscoveryEnv
from toolwitness.acquire.projects import MAX_PROJECTS, path_from_file_uri, usable_folder
from toolwitness.checks.interface import CheckContext
from toolwitness.checks.posture import unreadable_config
from toolwitness.rules import load_registry


def _env(home: Path, *projects: Path, recorded: bool = False) -> DiscoveryEnv:
    return DiscoveryEnv.from_environ(
        {"HOME": str(home)}, projects=tuple((p, "--project") for p in projects),
        recorded_projects=recorded, root=str(home / "no-system"),
    )  # fmt: skip


def _write(path: Path, doc: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def _servers(*names: str) -> dict[str, object]:
    return {"mcpServers": {n: {"command": "npx", "args": ["-y", f"{n}@1.0.0"]} for n in names}}


def test_every_kind_of_unreadable_file_is_a_problem_and_the_rest_is_read(tmp_path: Path) -> None:
    home = tmp_path / "h"
    _write(home / ".cursor/mcp.json", _servers("good"))
    _write(home / ".kiro/settings/mcp.json", '{"mcpServers": {"a": {"command": NaN}}}')
    _write(home / ".lmstudio/mcp.json", b"\xff\xfe".decode("latin-1"))
    (home / ".codeium/windsurf").mkdir(parents=True)
    os.mkfifo(home / ".codeium/windsurf/mcp_config.json")  # would block a naive reader forever
    (home / ".factory/mcp.json").mkdir(parents=True)  # a directory where a file should be
    _write(home / ".junie/mcp/mcp.json", _servers("locked")).chmod(0)
    found = discover(_env(home))
    by_dir = {Path(p.file).parent.name: p.reason for p in found.problems}
    assert "NaN" in by_dir["settings"]
    assert "FIFO" in by_dir["windsurf"]
    assert "directory" in by_dir[".factory"]
    if os.geteuid() != 0:  # root reads a mode-000 file anyway
        assert "Permission denied" in by_dir["mcp"]
        assert [s.name for s in found.specs] == ["good"]
    else:
        assert [s.name for s in found.specs] == ["good", "locked"]
    assert len(by_dir) == (5 if os.geteuid() != 0 else 4)
    states = {Path(loc.path).parent.name: loc.state for loc in found.locations}
    assert states["windsurf"] == "unreadable" and states[".cursor"] == "found"


def test_a_malformed_entry_costs_only_itself(tmp_path: Path) -> None:
    home = tmp_path / "h"
    _write(home / ".cursor/mcp.json", {"mcpServers": {
        "ok": {"command": "npx"}, "bad": {"command": ["not", "a", "string"], "url": "x"},
        "also-ok": {"url": "https://h.example/mcp"}}})  # fmt: skip
    found = discover(_env(home))
    assert [s.name for s in found.specs] == ["ok", "also-ok"]
    (problem,) = found.problems
    assert problem.location == "mcpServers.bad.url" and problem.client == "cursor"


def test_one_file_reached_twice_is_read_once(tmp_path: Path) -> None:
    home = tmp_path / "h"
    _write(
        home / ".mcp.json",
        {
            "mcpServers": {"a": {"command": "npx"}},
            "servers": {"b": {"url": "https://h.example/mcp"}},
        },
    )
    found = discover(_env(home, home, home))  # home is also the project folder, twice
    assert sorted(s.name for s in found.specs) == ["a", "b"]
    (loc,) = [loc for loc in found.locations if loc.state == "found"]
    assert loc.clients == ("visual-studio", "claude-code") and loc.servers == 2
    link = tmp_path / "p"
    link.symlink_to(home)
    assert len(discover(_env(home, link)).specs) == 2


def test_recorded_project_folders(tmp_path: Path) -> None:
    home, app = tmp_path / "h", tmp_path / "src" / "app"
    _write(app / ".vscode/mcp.json", {"servers": {"from-app": {"command": "npx"}}})
    workspace = home / ".config/Code/User/workspaceStorage/abc123/workspace.json"
    _write(workspace, {"folder": "file://" + str(app).replace(" ", "%20")})
    _write(home / ".gemini/trustedFolders.json", {str(tmp_path / "gone"): "TRUST_FOLDER",
                                                   "relative/path": "TRUST_FOLDER"})  # fmt: skip
    _write(
        home / ".codex/config.toml", '[projects."C:/git/windows-only"]\ntrust_level = "trusted"\n'
    )
    assert discover(_env(home)).specs == ()  # recorded folders are opt-in for the library
    found = discover(_env(home, recorded=True))
    assert [s.name for s in found.specs] == ["from-app"]
    origins = {p.path: (p.origin, p.state) for p in found.projects}
    assert origins[str(app)] == (f"recorded in {workspace}", "searched")
    assert origins[str(tmp_path / "gone")][1] == "absent"
    assert "relative/path" not in origins and "C:/git/windows-only" not in origins


def test_an_unreadable_registry_is_a_problem(tmp_path: Path) -> None:
    home = tmp_path / "h"
    _write(home / ".gemini/trustedFolders.json", '{"a": 1, "a": 2}')
    (problem,) = discover(_env(home, recorded=True)).problems
    assert "duplicate key" in problem.reason and "project folders" in problem.reason


def test_the_number_of_project_folders_is_bounded(tmp_path: Path) -> None:
    home = tmp_path / "h"
    folders = {str(tmp_path / f"p{i}"): {} for i in range(MAX_PROJECTS + 3)}
    _write(home / ".claude.json", {"projects": folders})
    found = discover(_env(home, recorded=True))
    assert sum(p.state == "skipped" for p in found.projects) == 3
    assert any("3 more recorded project folders" in p.reason for p in found.problems)


def test_file_uris_and_folder_paths() -> None:
    assert path_from_file_uri("file:///home/me/My%20App") == "/home/me/My App"
    assert path_from_file_uri("file:///c%3A/src/app") == "c:/src/app"
    assert path_from_file_uri("vscode-remote://ssh-remote+box/home/me") is None
    assert path_from_file_uri("file://otherhost/share") is None
    assert usable_folder("/a/b") == Path("/a/b")
    assert usable_folder("a/b") is None and usable_folder("/a\x00b") is None
    assert usable_folder("/" + "x" * 5000) is None


@pytest.mark.parametrize("location", [None, "mcpServers.bad", 'projects["/x [at \\"y\\"]"].a'])
def test_problem_notes_round_trip(location: str | None) -> None:
    problem = ConfigProblem("/h/.cursor/mcp.json", "not valid JSON: x [at y]", "cursor", location)
    assert problem_from_note(problem_note(problem)) == (problem.reason, location)
    assert problem_from_note("static scan of a client-config entry") is None


def test_problem_surfaces_carry_one_finding_per_problem() -> None:
    problems = [ConfigProblem("/a.json", "truncated"), ConfigProblem("/a.json", "bad", None, "x.y"),
                ConfigProblem("/b.json", "FIFO")]  # fmt: skip
    surfaces = problem_surfaces(problems)
    assert [s.id for s in surfaces] == ["unreadable: /a.json", "unreadable: /b.json"]
    ctx = CheckContext(rules=load_registry([]))
    findings = list(unreadable_config(surfaces[0], ctx))
    assert [(f.rule_id, f.location) for f in findings] == [
        ("TW-NET-008", "$"),
        ("TW-NET-008", "x.y"),
    ]
    assert "entry at x.y" in findings[1].message


def test_discovery_work_is_linear_in_project_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted, not timed: each recorded folder costs the same number of file looks."""
    from toolwitness.acquire import discovery

    looks: list[Path] = []
    real = discovery._parse

    def counting(path: Path, syntax: str, limits: object) -> object:
        looks.append(path)
        return real(path, syntax, limits)  # type: ignore[arg-type]

    monkeypatch.setattr(discovery, "_parse", counting)

    def run(count: int) -> int:
        home = tmp_path / f"h{count}"
        folders = {}
        for i in range(count):
            _write(
                home / "src" / f"p{i}" / ".vscode/mcp.json", {"servers": {"s": {"command": "npx"}}}
            )
            folders[str(home / "src" / f"p{i}")] = {}
        _write(home / ".claude.json", {"projects": folders})
        looks.clear()
        found = discover(_env(home, recorded=True))
        assert len(found.specs) == count
        return len(looks)

    base = run(0)
    per_folder = (run(20) - base) / 20
    assert per_folder > 10  # every project file of the table is looked at
    assert run(80) - base == 80 * per_folder


def test_a_huge_toml_integer_costs_only_its_file(tmp_path: Path) -> None:
    home = tmp_path / "h"
    _write(home / ".codex/config.toml", '[mcp_servers.a]\ncommand = "npx"\n')
    _write(home / ".codex/slow.config.toml", f"startup_timeout_sec = {'7' * 5000}\n")
    _write(home / ".claude/plugins/cache/m/p/1.0.0/.claude-plugin/plugin.json",
           {"name": "p", "mcpServers": "./servers.json"})  # fmt: skip
    found = discover(_env(home))
    assert [s.name for s in found.specs] == ["a"]
    (problem,) = found.problems
    assert problem.file.endswith("slow.config.toml") and "startup_timeout_sec" in problem.reason
