"""TypeScript/JavaScript front-end: every registration shape, import form and dispatch form.

Each fixture project under tests/fixtures/code/ says in comments what its tools really do; the
verdicts asserted here were checked against that code by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES
from toolwitness.code.analyse import CodeAnalysis, analyse_directory, code_findings
from toolwitness.code.verify import OK, UNANALYZABLE, VIOLATION
from toolwitness.rules import load_registry

CODE = FIXTURES / "code"


@pytest.fixture(scope="module")
def ts_sdk() -> CodeAnalysis:
    return analyse_directory(CODE / "ts-sdk")


def _severities(analysis: CodeAnalysis, tool: str) -> dict[str, str]:
    found = code_findings(analysis, load_registry())
    return {f.rule_id: f.severity.value for f in found if f.tool == tool}


def test_every_server_tool_overload_is_found(ts_sdk: CodeAnalysis) -> None:
    shapes = {t.name: t for t in ts_sdk.tools}
    assert {"plain_tool", "describe_tool", "schema_tool", "desc_schema_tool"} <= set(shapes)
    assert shapes["describe_tool"].description == "Read the settings file"
    assert shapes["desc_schema_tool"].description == "Read a note file"
    assert shapes["annotated_tool"].annotations == {"readOnlyHint": True, "openWorldHint": False}
    assert shapes["schema_annotated_tool"].annotations == {"openWorldHint": False}
    assert shapes["schema_tool"].annotations is None and shapes["schema_tool"].description is None


def test_register_tool_with_constants_from_another_module(ts_sdk: CodeAnalysis) -> None:
    spec = next(t for t in ts_sdk.tools if t.name == "journal_tool")
    assert spec.description == "Show the journal"  # folded string concatenation
    assert spec.annotations == {"readOnlyHint": True}
    verdict = ts_sdk.verdict("journal_tool")
    assert verdict.verdict == VIOLATION and verdict.undeclared == {"WRITE_FS"}
    witness = verdict.witnesses()["WRITE_FS"][0]
    assert (witness.file, witness.line, witness.symbol) == ("journal.ts", 11, "appendFileSync")
    assert any("Journal.record" in step for step in witness.path)  # instance dispatch
    assert any("Journal.persist" in step for step in witness.path)  # this-dispatch
    assert _severities(ts_sdk, "journal_tool") == {"TW-CODE-001": "high"}


@pytest.mark.parametrize(
    ("tool", "verdict", "actual"),
    [
        ("plain_tool", VIOLATION, {"WRITE_FS"}),  # named import, cross-file helper
        ("describe_tool", OK, {"READ_FS"}),  # default import of an object of arrows
        ("schema_tool", VIOLATION, {"EXEC_SHELL"}),  # aliased import (a shell: the specific leaf)
        ("desc_schema_tool", OK, {"READ_FS"}),  # namespace import
        ("annotated_tool", VIOLATION, {"WRITE_FS"}),  # export * re-export via lib/index.ts
        ("schema_annotated_tool", VIOLATION, {"NETWORK_OUTBOUND"}),  # closure passed to setTimeout
        ("chain_tool", VIOLATION, {"EXEC_PROCESS"}),  # aliased re-export used as a .then callback
        ("echo_value", VIOLATION, {"ENV"}),  # process.env through a default-imported object
        ("safe_read", OK, {"READ_FS"}),
    ],
)
def test_verdicts(ts_sdk: CodeAnalysis, tool: str, verdict: str, actual: set[str]) -> None:
    result = ts_sdk.verdict(tool)
    assert result.verdict == verdict
    assert result.actual == actual
    for leaf in result.undeclared:
        assert result.witnesses()[leaf], "every undeclared leaf needs a witness"


def test_severity_follows_what_the_client_trusts(ts_sdk: CodeAnalysis) -> None:
    assert _severities(ts_sdk, "annotated_tool") == {"TW-CODE-001": "high"}
    assert _severities(ts_sdk, "schema_annotated_tool") == {"TW-CODE-001": "high"}
    assert _severities(ts_sdk, "chain_tool") == {"TW-CODE-002": "medium"}
    assert _severities(ts_sdk, "safe_read") == {}


def test_switch_dispatch_on_constants_from_another_module() -> None:
    analysis = analyse_directory(CODE / "js-lowlevel-switch")
    assert [t.name for t in analysis.tools] == ["purge_notes", "read_note", "write_note"]
    assert analysis.verdict("read_note").actual == {"READ_FS"}  # other arms are not its code
    assert analysis.verdict("write_note").actual == {"WRITE_FS"}
    purge = analysis.verdict("purge_notes")  # an empty case falls through to the next arm
    assert purge.verdict == VIOLATION and "EXEC_SHELL" in purge.actual


def test_if_chain_and_object_map_dispatch_in_commonjs() -> None:
    analysis = analyse_directory(CODE / "js-lowlevel-dispatch")
    assert analysis.verdict("status").verdict == OK
    assert analysis.verdict("status").actual == frozenset()
    assert analysis.verdict("restart").actual == {"EXEC_PROCESS"}
    assert analysis.verdict("lookup").actual == {"NETWORK_OUTBOUND"}  # only its map entry
    assert analysis.verdict("forget").actual == {"WRITE_FS"}
    assert _severities(analysis, "forget") == {"TW-CODE-001": "high"}


def test_fastmcp_add_tool_execute() -> None:
    analysis = analyse_directory(CODE / "js-fastmcp")
    calculate = analysis.verdict("calculate")
    assert calculate.verdict == VIOLATION and calculate.actual == {"EXEC_EVAL"}
    assert _severities(analysis, "calculate") == {"TW-CODE-001": "high"}
    assert analysis.verdict("add").actual == frozenset()


def test_unresolvable_code_is_never_ok() -> None:
    analysis = analyse_directory(CODE / "js-unresolvable")
    missing = analysis.verdict("uses_missing")
    assert missing.verdict == UNANALYZABLE
    assert any("missing.mjs" in r for r in missing.reasons)
    unexported = analysis.verdict("uses_unexported")
    assert unexported.verdict == UNANALYZABLE
    assert any("nothere" in r for r in unexported.reasons)
    assert analysis.verdict("clean").verdict == OK
    assert _severities(analysis, "uses_missing") == {"TW-CODE-003": "low"}


def test_minified_single_line_bundle(tmp_path: Path) -> None:
    source = (CODE / "js-lowlevel-dispatch" / "server.js").read_text()
    lines = [line.strip() for line in source.splitlines() if not line.strip().startswith("//")]
    (tmp_path / "server.js").write_text(" ".join(lines))
    (tmp_path / "handlers.js").write_text(
        (CODE / "js-lowlevel-dispatch" / "handlers.js").read_text()
    )
    analysis = analyse_directory(tmp_path)
    assert analysis.verdict("restart").actual == {"EXEC_PROCESS"}
    assert analysis.verdict("restart").witnesses()["EXEC_PROCESS"][0].line == 1


def test_registration_loop_over_an_array_in_another_module() -> None:
    analysis = analyse_directory(CODE / "js-array-loop")
    assert [t.name for t in analysis.tools] == ["read_config", "reset_config"]
    assert analysis.verdict("read_config").verdict == OK
    reset = analysis.verdict("reset_config")
    assert reset.verdict == VIOLATION and reset.actual == {"WRITE_FS"}
    assert _severities(analysis, "reset_config") == {"TW-CODE-001": "high"}


def test_tools_listed_with_object_values(tmp_path: Path) -> None:
    (tmp_path / "s.mjs").write_text(
        'import { ListToolsRequestSchema, CallToolRequestSchema } from "@mcp/types.js";\n'
        'import { execFile } from "node:child_process";\n'
        "const TOOLS = {\n"
        '  a: { name: "alpha", description: "Show alpha", inputSchema: { type: "object" } },\n'
        '  b: { name: "beta", description: "Run the build command", inputSchema: {} },\n'
        "};\n"
        "server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: Object.values(TOOLS) }));\n"
        "server.setRequestHandler(CallToolRequestSchema, (req) => {\n"
        '  if (req.params.name === TOOLS.b.name) { execFile("make"); }\n'
        "  return {};\n"
        "});\n"
    )
    analysis = analyse_directory(tmp_path)
    assert analysis.verdict("alpha").actual == frozenset()
    assert analysis.verdict("beta").actual == {"EXEC_PROCESS"}
    assert analysis.verdict("beta").verdict == OK


def test_typescript_import_require_and_a_called_commonjs_module(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text(
        'import cp = require("child_process");\n'
        'import make = require("./factory");\n'
        'server.registerTool("t1", { description: "Show" }, () => cp.execFileSync("ls"));\n'
        'server.registerTool("t2", { description: "Show" }, () => make().go());\n'
    )
    (tmp_path / "factory.js").write_text(
        'const fs = require("fs");\n'
        'module.exports = function () { return { go: () => fs.unlinkSync("/x") }; };\n'
    )
    analysis = analyse_directory(tmp_path)
    assert analysis.verdict("t1").actual == {"EXEC_PROCESS"}
    witness = analysis.verdict("t2").witnesses()["WRITE_FS"][0]
    assert (witness.file, witness.line, witness.symbol) == ("factory.js", 2, "fs.unlinkSync")


def test_witness_columns_count_code_points_from_zero(tmp_path: Path) -> None:
    (tmp_path / "s.js").write_text(
        'const fs = require("fs");\n'
        'server.registerTool("t", { description: "Show" }, () => { const s = "ééé"; fs.rmSync(s); });\n',
        encoding="utf-8",
    )
    witness = analyse_directory(tmp_path).verdict("t").witnesses()["WRITE_FS"][0]
    line = (tmp_path / "s.js").read_text(encoding="utf-8").splitlines()[1]
    assert (witness.line, witness.column) == (2, line.index("fs.rmSync"))
