"""The GitHub Action, the workflows in docs/ci.md and the pre-commit hook, run locally."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest
import yaml

from ci_emulator import base_env, condition, run_step, substitute
from conftest import ROOT

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
CATALOGS = ROOT / "examples" / "catalogs"
ALLOWED_USES = {"actions/setup-python@v5", "github/codeql-action/upload-sarif@v3"}

pytestmark = pytest.mark.slow


def _git(repo: Path, *args: str) -> str:
    out = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True)
    return out.stdout


def _repository(root: Path) -> Path:
    """A repository that uses MCP: a project config (an unpinned package: a finding of its own)
    and two catalogs, one poisoned."""
    repo = root / "repo"
    (repo / "mcp").mkdir(parents=True)
    _git(repo, "init", "-q")
    config = {"mcpServers": {"files": {"command": "npx", "args": [
        "-y", "@modelcontextprotocol/server-filesystem", "/srv/data"]}}}  # fmt: skip
    (repo / ".mcp.json").write_text(json.dumps(config, indent=2))
    shutil.copy(CATALOGS / "notes-poisoned.json", repo / "mcp" / "notes.tools.json")
    shutil.copy(CATALOGS / "weather.json", repo / "mcp" / "weather.tools.json")
    return repo


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A fresh virtual environment where the action's own Install step has run (pip install of
    this repository). Its dependencies come from the test environment (a .pth file), so the
    step builds and installs toolwitness without downloading anything else."""
    work = tmp_path_factory.mktemp("ci")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    repo = _repository(work)
    env = base_env([venv / "bin"], repo)
    install = next(s for s in ACTION["runs"]["steps"] if s.get("name") == "Install toolwitness")
    context = _context({})
    done = run_step(install, context, env, repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("toolwitness ")
    located = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import toolwitness; print(toolwitness.__file__)"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert located.stdout.startswith(str(venv)), "the installed copy, not the test's source tree"
    return {"venv": venv, "repo": repo, "env": env}


def _context(inputs: dict[str, str]) -> dict[str, str]:
    defaults = {k: str(v.get("default", "")) for k, v in ACTION["inputs"].items()}
    unknown = set(inputs) - set(defaults)
    assert not unknown, unknown
    merged = {**defaults, **inputs}
    return {**{f"inputs.{k}": v for k, v in merged.items()}, "github.action_path": str(ROOT)}


def _run_action(runner: dict[str, Any], inputs: dict[str, str]) -> dict[str, Any]:
    """The Scan, Upload (condition only) and Gate steps, in order, as the runner runs them: a
    failed step skips the rest (no step asks for `always()`)."""
    context = _context(inputs)
    results: dict[str, Any] = {}
    failed = False
    for step in ACTION["runs"]["steps"]:
        if failed:
            results[step["name"]] = "skipped"
            continue
        if "if" in step and not condition(step["if"], context):
            results[step["name"]] = "skipped"
            continue
        if "uses" in step:
            results[step["name"]] = {k: substitute(str(v), context) for k, v in step["with"].items()}
            continue
        if step["name"] == "Install toolwitness":
            continue  # done once by the fixture
        results[step["name"]] = run_step(step, context, runner["env"], runner["repo"])
        failed = results[step["name"]].returncode != 0
    results["context"] = context
    return results


def test_action_uses_inputs_only_through_env() -> None:
    steps = ACTION["runs"]["steps"]
    assert ACTION["runs"]["using"] == "composite"
    for step in steps:
        assert ("uses" in step) != ("run" in step), step.get("name")
        if "run" in step:
            assert "${{" not in step["run"], f"{step['name']}: an expression inside a script"
            assert step["shell"] == "bash" and "if" not in step
        else:
            assert step["uses"] in ALLOWED_USES
    text = (ROOT / "action.yml").read_text()
    used = set(re.findall(r"inputs\.([\w-]+)", text))
    assert used == set(ACTION["inputs"]), "every input is used, and only declared ones"
    for output in ACTION["outputs"].values():
        assert output["value"].startswith("${{ steps.scan.outputs.")


def test_action_fails_on_a_poisoned_catalog_and_uploads_sarif(runner: dict[str, Any]) -> None:
    results = _run_action(runner, {"targets": "mcp/notes.tools.json"})
    scan = results["Scan"]
    assert scan.returncode == 0, scan.stderr
    assert scan.outputs["exit-code"] == "1", scan.stderr
    assert results["Upload SARIF to code scanning"] == {
        "sarif_file": "toolwitness.sarif", "category": "toolwitness"
    }
    sarif = json.loads((runner["repo"] / "toolwitness.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    rule_ids = {r["ruleId"] for run in sarif["runs"] for r in run["results"]}
    assert any(r.startswith("TW-INJ-") for r in rule_ids)
    assert "TW-SUP-001" in rule_ids  # the project's .mcp.json was discovered and scanned too
    gate = results["Gate on the exit code"]
    assert gate.returncode == 1 and "::error::" in gate.stdout


def test_action_passes_a_clean_catalog(runner: dict[str, Any]) -> None:
    results = _run_action(runner, {"targets": "mcp/weather.tools.json", "discover": "none",
                                   "sarif-file": "clean.sarif"})  # fmt: skip
    assert results["Scan"].outputs["exit-code"] == "0", results["Scan"].stderr
    assert results["Gate on the exit code"].returncode == 0
    assert (runner["repo"] / "clean.sarif").is_file()


def test_action_baseline_input(runner: dict[str, Any]) -> None:
    toolwitness = str(runner["venv"] / "bin" / "toolwitness")
    subprocess.run(
        [toolwitness, "scan", "mcp/notes.tools.json", "-q", "--write-baseline", "accepted.json"],
        cwd=runner["repo"], env=runner["env"], check=True,
    )  # fmt: skip
    results = _run_action(runner, {"targets": "mcp/notes.tools.json", "discover": "none",
                                   "baseline": "accepted.json"})  # fmt: skip
    assert results["Scan"].outputs["exit-code"] == "0", results["Scan"].stderr
    assert results["Gate on the exit code"].returncode == 0


def test_action_inputs_cannot_inject_shell(runner: dict[str, Any]) -> None:
    hostile = "mcp/weather.tools.json; touch pwned1 $(touch pwned2) `touch pwned3` *"
    results = _run_action(runner, {"targets": hostile, "discover": "none", "args": "; touch pwned4"})
    assert results["Scan"].outputs["exit-code"] == "2"  # ';' and the rest are file names
    assert not list(runner["repo"].glob("pwned*"))
    assert results["Gate on the exit code"].returncode == 2
    bogus = _run_action(runner, {"discover": "everything"})
    assert bogus["Scan"].returncode == 2 and "discover must be" in bogus["Scan"].stdout
    assert bogus["Gate on the exit code"] == "skipped"  # the job has failed already


# --- docs/ci.md ---------------------------------------------------------------------------------


def _doc_blocks(language: str) -> list[str]:
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def test_documented_action_workflow_uses_real_inputs() -> None:
    workflows = [yaml.safe_load(b) for b in _doc_blocks("yaml")]
    uses_action = [s for w in workflows if "jobs" in w for j in w["jobs"].values()
                   for s in j["steps"] if str(s.get("uses", "")).startswith("toolwitness/")]  # fmt: skip
    assert uses_action
    for step in uses_action:
        assert set(step.get("with", {})) <= set(ACTION["inputs"]), step


def test_documented_plain_workflow_runs(runner: dict[str, Any]) -> None:
    workflow = next(yaml.safe_load(b) for b in _doc_blocks("yaml") if "pip install" in b)
    steps = workflow["jobs"]["toolwitness"]["steps"]
    repo = runner["repo"]
    shutil.copy(CATALOGS / "notes-poisoned.json", repo / "mcp" / "tools.json")
    context: dict[str, str] = {}
    ran = []
    for step in steps:
        if "run" in step:  # `pip install toolwitness` finds the runner's copy installed
            ran.append(run_step(step, context, runner["env"], repo))
    scan, gate = ran
    assert scan.returncode == 0, scan.stderr
    assert context["steps.scan.outputs.exit-code"] == "1"
    assert json.loads((repo / "toolwitness.sarif").read_text())["version"] == "2.1.0"
    assert gate.returncode == 1


def test_documented_pre_commit_config_names_the_hook() -> None:
    config = next(yaml.safe_load(b) for b in _doc_blocks("yaml") if "hooks:" in b)
    hook_ids = {h["id"] for r in config["repos"] for h in r["hooks"]}
    assert hook_ids == {h["id"] for h in HOOKS}


# --- pre-commit ---------------------------------------------------------------------------------


def _staged_for_hook(repo: Path, hook: dict[str, Any]) -> list[str]:
    staged = _git(repo, "diff", "--cached", "--name-only").split()
    pattern = re.compile(hook["files"])
    return [f for f in staged if pattern.search(f)]


def test_hook_matches_configs_and_catalogs_only() -> None:
    (hook,) = HOOKS
    pattern = re.compile(hook["files"])
    for path in (".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json", "sub/.roo/mcp.json",
                 ".kiro/settings/mcp.json", "claude_desktop_config.json", "tools.json",
                 "mcp/notes.tools.json", "snap/server.surface.json", "cline_mcp_settings.json"):
        assert pattern.search(path), path
    for path in ("package.json", "tsconfig.json", "README.md", "tools.json.bak", "mcp.jsonc"):
        assert not pattern.search(path), path


def test_pre_commit_hook_entry_on_staged_files(tmp_path: Path) -> None:
    (hook,) = HOOKS
    assert hook["id"] == "toolwitness" and hook["language"] == "python"
    repo = _repository(tmp_path)
    (repo / "README.md").write_text("# a project\n")
    (repo / "package.json").write_text('{"name": "x"}\n')
    _git(repo, "add", "-A")
    files = _staged_for_hook(repo, hook)
    assert sorted(files) == [".mcp.json", "mcp/notes.tools.json", "mcp/weather.tools.json"]
    bin_dir = Path(sys.executable).parent
    env = base_env([bin_dir], repo)
    proc = subprocess.run([*shlex.split(hook["entry"]), *files], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 1, proc.stderr  # the poisoned catalog blocks the commit
    assert "Server notes" in proc.stdout
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "add configs")
    (repo / "mcp" / "weather.tools.json").write_text(
        (CATALOGS / "weather.json").read_text().replace("next 1-7 days", "next 1 to 7 days")
    )
    _git(repo, "add", "-A")
    files = _staged_for_hook(repo, hook)
    assert files == ["mcp/weather.tools.json"]
    proc = subprocess.run([*shlex.split(hook["entry"]), *files], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
