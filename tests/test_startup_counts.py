"""Start-up work counted, never timed: how many modules a one-tool catalog scan imports (270 at
this writing with the probe's own PyYAML: 271 before `toolwitness.sha` left hashlib unloaded,
316 before the confusable-homoglyphs tables were read without importing the package, whose
`utils` imports urllib.request, http and email; 628 before issue 17, 313 before the data folder was
read without importlib.resources (`datafiles.py`), 315 before html and mimetypes
loaded on first use, 323 before the scan's dataclasses
became `@plainclass` (no dataclasses, inspect, ast, dis, tokenize), 389 before the scan's models
became plain records without pydantic, 548 before the scan's command line
stopped loading typer, 490 before the client-config, advisory, name-table, confusable and YAML
modules loaded on first use, 440 before TW-CAP-016 decided valid schemas without jsonschema and
rfc8785, packaging, tomllib, shlex and python-bidi loaded on first use), that no shipped data file
is parsed as YAML on the way (the precompiled table serves all of them), and which modules stay
unloaded until an input needs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from module_probe import NAMES_PROBE

CATALOG = ROOT / "examples" / "catalogs" / "weather.json"
MAX_SCAN_MODULES = 282  # 277 now (each reading is a small module: frames_carrier and frames_open_slot
# came in wave 22), with a little room; a new heavy dependency (anyascii at import: +17) breaks it

_PROBE = """
import json, sys
import yaml
parsed = []
real_load = yaml.load
def counting_load(stream, Loader):
    parsed.append(str(stream)[:60])
    return real_load(stream, Loader=Loader)
yaml.load = counting_load
from toolwitness.cli import main
rc = main(sys.argv[1:])
sys.stdout.write("\\n" + json.dumps([rc, len(sys.modules), parsed, sorted(sys.modules)]))
"""


# The modules a command leaves loaded (no yaml import of its own, unlike _PROBE).
_NAMES = NAMES_PROBE


def _run(
    argv: list[str], cwd: Path = ROOT, probe: str = _PROBE
) -> tuple[int, int, list[str], list[str]]:
    proc = subprocess.run(
        [sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=300,
        cwd=cwd,
    )  # fmt: skip
    rc, modules, parsed, names = json.loads(proc.stdout.rsplit("\n", 1)[1])
    assert rc in (0, 1), proc.stderr
    return rc, modules, parsed, names


def _probe(argv: list[str]) -> tuple[int, int, list[str]]:
    rc, modules, parsed, _ = _run(argv)
    return rc, modules, parsed


def test_one_tool_scan_module_count(tmp_path: Path) -> None:
    _, modules, _ = _probe(["scan", str(CATALOG), "-f", "json", "-o", str(tmp_path / "r.json")])
    assert 250 < modules <= MAX_SCAN_MODULES, modules


def test_no_shipped_data_file_is_parsed_as_yaml(tmp_path: Path) -> None:
    _, _, parsed = _probe(["scan", str(CATALOG), "-f", "json", "-o", str(tmp_path / "r.json")])
    assert parsed == []
    _, _, parsed = _probe(["rules"])
    assert parsed == []


# Loaded on first use only: none of them is needed to scan a catalog of plain ASCII tools with
# no package (a client config, a versioned package, a YAML file, `--include-builtins`, a
# non-ASCII character each load theirs). A guard against an eager import creeping back.
NOT_ON_A_CATALOG_SCAN = (
    "yaml",  # yamlload: every shipped data file is served precompiled (datacache)
    "toolwitness.yamlstrict",
    "toolwitness.acquire.configs",  # client tables and discovery: a client config only
    "toolwitness.acquire.clients",
    "toolwitness.acquire.discovery",
    "toolwitness.supply.advisories",  # posture: a versioned package only
    "toolwitness.supply.names",  # supply chain: a package only
    "toolwitness.supply.registry",
    "rapidfuzz",
    "confusable_homoglyphs",  # unicode.script: the first non-ASCII character
    "urllib.request",
    "ssl",
    # TW-CAP-016: a keyword value the compiled metaschema rules do not find valid
    "jsonschema", "jsonschema_specifications", "referencing", "rpds", "attrs",
    "rfc8785",  # integrity.canonical: a value Python's encoder may not write as RFC 8785 does
    "packaging",  # supply.versions: a PyPI package's PEP 440 version
    "tomllib",  # a TOML client config, or a pyproject.toml mentioning toolwitness
    "toolwitness.acquire.jsonc",  # a JSONC client config
    "toolwitness.acquire.config_entry",  # a client config's entries
    "shlex",  # a --stdio command line
    "bidi",  # python-bidi: the displayed form of a bidi hit
    "regex",  # unicode.script / unicode.bidi: a non-ASCII text's tokens, a bidi control
    # records: pydantic validates untrusted documents only (a snapshot's transport or package,
    # lock files, lab and probe files); its plugin loader brings importlib.metadata
    "pydantic", "pydantic_core", "annotated_types", "typing_inspection", "importlib.metadata",
    # plainclass: the scan's records are declared without dataclasses (and its inspect)
    "dataclasses", "inspect",
    # issue 17, fourteenth pass: a text with HTML entities, a file-type table, a registry date,
    # a base64 run or OSC 52 load theirs; an HTTP header name is checked without `string`
    "html", "html.entities", "mimetypes", "datetime", "base64", "string",
    # the data folder is a plain path on disk (`datafiles.py`): importlib.resources and what it
    # brings load only for a zipped package
    "importlib.resources", "zipfile", "tempfile", "shutil", "bz2", "lzma",
)  # fmt: skip


def test_a_plain_catalog_scan_leaves_the_lazy_modules_unloaded(tmp_path: Path) -> None:
    catalog = tmp_path / "plain.json"
    catalog.write_text(json.dumps({"tools": [{
        "name": "get_forecast", "description": "Get the weather forecast for a city.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
    }]}))  # fmt: skip
    rc, _, _, names = _run(
        ["scan", str(catalog), "-f", "json", "-o", str(tmp_path / "r.json")], tmp_path, _NAMES
    )
    assert rc in (0, 1)
    loaded = set(names)
    assert [m for m in NOT_ON_A_CATALOG_SCAN if m in loaded] == []
    assert "toolwitness.checks.catalog" in loaded  # the probe did scan


def test_a_one_tool_scan_imports_no_pydantic(tmp_path: Path) -> None:
    """Issue 17: the surface, findings, results and rules are records; pydantic (a quarter of
    a one-tool scan when it loaded) waits for a document that needs validating."""
    for argv in (["-f", "json", "-o", str(tmp_path / "r.json")], [], ["-f", "sarif"]):
        rc, _, _, names = _run(["scan", str(CATALOG), *argv], ROOT, _NAMES)
        assert rc in (0, 1)
        loaded = set(names)
        assert "toolwitness.records" in loaded and "toolwitness.checks.catalog" in loaded
        assert not any(n == "pydantic" or n.startswith("pydantic.") for n in loaded), argv


def test_no_report_format_imports_dataclasses(tmp_path: Path) -> None:
    """Issue 17: the records a scan and its reports declare are `@plainclass` (toolwitness/
    plainclass.py): declared as dataclasses, they cost ~35 ms of a one-tool scan."""
    for fmt in ("json", "terminal", "sarif", "html", "markdown", "csv"):
        rc, _, _, names = _run(["scan", str(CATALOG), "-f", fmt, "-o", str(tmp_path / fmt)],
                               ROOT, _NAMES)  # fmt: skip
        assert rc in (0, 1) and "toolwitness.checks.catalog" in names
        assert "dataclasses" not in names, fmt


def test_a_snapshot_with_a_transport_still_validates_it_with_pydantic(tmp_path: Path) -> None:
    """The other side: the snapshot's transport is untrusted, so pydantic is imported for it and
    says what is wrong as it always did."""
    snapshot = tmp_path / "snap.json"
    snapshot.write_text(json.dumps({
        "schema": "toolwitness.surface/1", "id": "s", "tools": [],
        "transport": {"kind": "stdio", "args": "not-a-list"},
    }))  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-m", "toolwitness", "scan", str(snapshot), "-f", "json"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert "invalid transport: args: Input should be a valid tuple" in proc.stderr, proc.stderr


def test_the_lazy_modules_load_when_their_input_asks(tmp_path: Path) -> None:
    """The other side: a client config with a versioned npm package loads them (the scan is
    the same code, so the deferred imports are reached, not skipped)."""
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"fs": {
        "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem@2025.1.1"],
    }}}))  # fmt: skip
    rc, _, _, names = _run(["scan", str(config), "-f", "json"], tmp_path, _NAMES)
    assert rc in (0, 1)
    loaded = set(names)
    for name in ("toolwitness.acquire.configs", "toolwitness.acquire.config_entry",
                 "toolwitness.supply.advisories", "rapidfuzz"):  # fmt: skip
        assert name in loaded, name


# `code`'s analysis child: what it must not load for a local JS or Python server.
NOT_IN_A_CODE_ANALYSIS = (
    "lemminflect",  # code/lemmas.py reads its data files in place
    "numpy",  # lemminflect's inflection models
    "yaml",  # code/sinks.py: the shipped sink catalogs come precompiled (datacache)
    "urllib.request",  # acquire/pypi_sdist: a PyPI sdist download only
)

_CODE = """
import json, sys, tempfile
from pathlib import Path
from toolwitness.code.analyse import CodeOptions, analyse_target
from toolwitness.pipeline import code_scan_result
from toolwitness.report.interface import ReportOptions, formatter_for
analysis = analyse_target(sys.argv[1], Path(tempfile.mkdtemp()), CodeOptions())
text = formatter_for("json", ReportOptions()).format(code_scan_result(analysis))
sys.stdout.write("\\n" + json.dumps([len(analysis.tools), sorted(sys.modules)]))
"""


def test_code_analysis_leaves_the_lazy_modules_unloaded() -> None:
    for fixture in ("js-fastmcp", "py-fastmcp"):
        target = ROOT / "tests" / "fixtures" / "code" / fixture
        proc = subprocess.run(
            [sys.executable, "-c", _CODE, str(target)], capture_output=True, text=True,
            timeout=300, cwd=ROOT,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        tools, names = json.loads(proc.stdout.rsplit("\n", 1)[1])
        assert tools > 0, fixture
        loaded = set(names)
        assert [m for m in NOT_IN_A_CODE_ANALYSIS if m in loaded] == [], fixture
