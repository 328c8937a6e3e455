"""Start-up imports only what the command needs (issue 17): checked by module sets, never time."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from toolwitness.commands import COMMANDS

CATALOG = ROOT / "examples" / "catalogs" / "weather.json"
# Not typer: a plain scan's command line is parsed by the fast path (cli_fast). Not jsonschema
# (nor what it imports): TW-CAP-016 decides valid schemas with the compiled metaschema table
# (`checks/capability/metaschema_eval.py`) and asks jsonschema only about a value that fails.
JSONSCHEMA = ("jsonschema", "jsonschema_specifications", "referencing", "rpds", "attrs", "attr")
HEAVY = (
    "toolwitness.code", "toolwitness.lab", "toolwitness.sweep", "toolwitness.acquire.live",
    "multiprocessing", "tarfile", "mcp", "rich", "typer", "toolwitness.cli_app",
    "toolwitness.commands.scan", "toolwitness.commands.integrity", "toolwitness.commands.lab",
    "toolwitness.commands.discover", "toolwitness.baseline", *JSONSCHEMA,
)  # fmt: skip


def _modules_after(argv: list[str]) -> set[str]:
    """The modules loaded by one `toolwitness` run, in a fresh interpreter."""
    code = (
        "import json, sys\n"
        "from toolwitness.cli import main\n"
        f"rc = main({argv!r})\n"
        "sys.stdout.write('\\n' + json.dumps([rc, sorted(sys.modules)]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    rc, modules = json.loads(proc.stdout.rsplit("\n", 1)[1])
    assert rc == 0, proc.stderr
    return set(modules)


def _heavy(modules: set[str]) -> list[str]:
    return sorted(
        m for m in modules
        if any(m == h or m.startswith(h + ".") for h in HEAVY) and m != "toolwitness.acquire.live_options"
    )  # fmt: skip


def test_a_one_tool_catalog_scan_imports_none_of_the_heavy_parts(tmp_path: Path) -> None:
    modules = _modules_after(["scan", str(CATALOG), "-o", str(tmp_path / "r.json")])
    assert _heavy(modules) == []
    loaded_commands = {m for m in modules if m.startswith("toolwitness.commands.")}
    for lazy in ("code", "sweep", "evaluate", "report", "snapshot", "rules", "fingerprint"):
        assert f"toolwitness.commands.{lazy}" not in loaded_commands, lazy
    assert "toolwitness.pipeline" in modules  # the scan did run


def test_sarif_report_needs_no_rich_either(tmp_path: Path) -> None:
    assert _heavy(_modules_after(["scan", str(CATALOG), "-o", str(tmp_path / "r.sarif")])) == []


def _importtime_scan(catalog: Path, report: Path) -> tuple[set[str], dict[str, Any]]:
    """`python -X importtime -m toolwitness scan CATALOG -f json -o REPORT`: the modules it
    imported (read off importtime's lines) and the report."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "toolwitness", "scan", str(catalog),
         "-f", "json", "-o", str(report)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("import time:")][1:]
    modules = {ln.rsplit("|", 1)[1].strip() for ln in lines}
    assert "toolwitness.pipeline" in modules  # read right: the scan's own imports are there
    return modules, json.loads(report.read_text("utf-8"))


def _schema_findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        f for server in report["servers"] for f in server["findings"] if f["rule_id"] == "TW-CAP-016"
    ]  # fmt: skip


@pytest.mark.parametrize(
    "catalog",
    [CATALOG, ROOT / "tests" / "fixtures" / "real" / "server-filesystem.json",
     ROOT / "tests" / "fixtures" / "real" / "mcp-server-time.json"],  # draft-07 $schema; $ref
    ids=lambda p: p.name,
)  # fmt: skip
def test_a_scan_of_valid_schemas_imports_no_jsonschema(catalog: Path, tmp_path: Path) -> None:
    modules, report = _importtime_scan(catalog, tmp_path / "r.json")
    assert sorted(modules & set(JSONSCHEMA)) == []
    assert _schema_findings(report) == []


def test_an_invalid_schema_still_gets_its_finding_from_jsonschema(tmp_path: Path) -> None:
    catalog = tmp_path / "bad.json"
    tool = {"name": "add", "description": "Adds two numbers.", "inputSchema": {
        "type": "object", "properties": {"x": {"type": "integr"}, "y": {"maxLength": -1}}}}
    catalog.write_text(json.dumps({"tools": [tool]}), "utf-8")
    modules, report = _importtime_scan(catalog, tmp_path / "r.json")
    assert "jsonschema" in modules
    (finding,) = _schema_findings(report)
    assert finding["location"] == "tools[0].inputSchema.properties.x.type"
    assert finding["message"] == (
        "not a valid JSON Schema (2020-12): 'integr' is not valid under any of the given schemas"
        " (and 1 more)"
    )


def test_version_fast_path_loads_no_typer() -> None:
    code = "import runpy, sys; sys.argv = ['toolwitness', '--version']\n" \
        "try:\n    runpy.run_module('toolwitness', run_name='__main__')\n" \
        "except SystemExit:\n    pass\nprint(sorted(m for m in sys.modules if m.startswith('typer')))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout.splitlines()[-1] == "[]", proc.stdout + proc.stderr


def test_version_and_help_load_no_command() -> None:
    for argv in (["--version"], ["--help"]):
        modules = _modules_after(argv)
        assert not {m for m in modules if m.startswith("toolwitness.commands.")}, argv
        assert "toolwitness.pipeline" not in modules and "pydantic" not in modules, argv


def test_rules_listing_validates_no_builtin_pack_at_start() -> None:
    modules = _modules_after(["rules"])
    assert "jsonschema" not in modules
    assert "toolwitness.commands.scan" not in modules


def test_a_users_rule_pack_is_still_validated(tmp_path: Path) -> None:
    pack = tmp_path / "p.yaml"
    pack.write_text(
        "rules:\n  - id: TW-META-901\n    title: A custom rule\n    severity: low\n"
        "    confidence: heuristic\n    rationale: Why this rule matters to us.\n"
        "    benign_triggers: When it fires on benign text.\n"
        "    remediation: What to do about it.\n"
    )
    assert "jsonschema" in _modules_after(["rules", "--rules", str(pack)])


# --- the command table --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_table_entry_loads_its_command_with_the_same_summary(name: str) -> None:
    from toolwitness.cli_lazy import load_command

    command = load_command(name)
    assert command.name == name
    first_paragraph = inspect.cleandoc(command.callback.__doc__ or "").split("\n\n")[0]
    assert " ".join(first_paragraph.split()) == COMMANDS[name].summary, (
        "keep the summary in commands/__init__.py equal to the docstring's first paragraph"
    )


def test_every_registered_command_is_in_the_table() -> None:
    """A module's register() may add several commands; one missing from the table would be
    unreachable (the table is how `toolwitness` finds commands)."""
    from importlib import import_module

    import typer
    import typer.main

    for module in sorted({entry.module for entry in COMMANDS.values()}):
        app = typer.Typer()
        import_module(module).register(app)
        names = set(typer.main.get_group(app).commands)
        missing = sorted(n for n in names if n not in COMMANDS)
        assert not missing, f"add {missing} ({module}) to COMMANDS in commands/__init__.py"


def test_every_scan_option_has_a_help_panel() -> None:
    from toolwitness.cli_lazy import load_command
    from toolwitness.commands import scan

    params = {p.name for p in load_command("scan").params if p.param_type_name == "option"}
    missing = sorted(params - set(scan.HELP_PANELS))
    assert not missing, f"add {missing} to HELP_PANELS in commands/scan.py"
    assert set(scan.HELP_PANELS) <= params
    assert set(scan.HELP_PANELS.values()) >= scan.NOT_FROM_CONFIG


def test_scan_choice_literals_match_their_sources() -> None:
    from toolwitness.code.declared import DeclaredFrom
    from toolwitness.commands import scan
    from toolwitness.pipeline import GRADES

    assert typing.get_args(scan.DeclaredFromName) == tuple(d.value for d in DeclaredFrom)
    assert typing.get_args(scan.Grade) == GRADES


def test_code_forks_its_analysis_child_before_loading_the_analysis(tmp_path: Path) -> None:
    """`toolwitness code`: the verifier, the metadata checks and the pipeline are imported in
    the analysis child, not by the parent before the fork (which needs the CLI and the limits)."""
    target = ROOT / "tests" / "fixtures" / "code" / "py-fastmcp"
    code = (
        "import json, sys\n"
        "from toolwitness.commands import code_run\n"
        "seen = []\n"
        "real = code_run.run_limited\n"
        "def spy(work, limits):\n"
        "    seen.append(sorted(sys.modules))\n"
        "    return real(work, limits)\n"
        "code_run.run_limited = spy\n"
        "from toolwitness.cli import main\n"
        f"rc = main(['code', {str(target)!r}, '-f', 'json', '-o', {str(tmp_path / 'r.json')!r}])\n"
        "sys.stdout.write('\\n' + json.dumps([rc, seen[0]]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    rc, before_fork = json.loads(proc.stdout.rsplit("\n", 1)[1])
    assert rc in (0, 1), proc.stderr
    child_only = ("toolwitness.code.analyse", "toolwitness.checks", "toolwitness.pipeline", "typer")
    assert [m for m in before_fork if m.startswith(child_only)] == []
