"""Python front-end: FastMCP decorators, add_tool, low-level list/call_tool with if and match.

The fixtures are parsed with `ast`, never imported: importing them would fail (their `mcp`
imports are the 1.x API) and would run their code.
"""

from __future__ import annotations

import sys

import pytest

from conftest import FIXTURES
from toolwitness.code.analyse import CodeAnalysis, analyse_directory, code_findings
from toolwitness.code.verify import OK, UNANALYZABLE, VIOLATION
from toolwitness.rules import load_registry

CODE = FIXTURES / "code"


@pytest.fixture(scope="module")
def fastmcp() -> CodeAnalysis:
    return analyse_directory(CODE / "py-fastmcp")


def test_fixture_modules_are_not_imported(fastmcp: CodeAnalysis) -> None:
    assert not any(name.startswith("notes") for name in sys.modules)
    assert fastmcp.tools


def test_names_descriptions_and_annotations(fastmcp: CodeAnalysis) -> None:
    tools = {t.name: t for t in fastmcp.tools}
    assert set(tools) == {"list_notes", "save_note", "show_note", "archive", "note_name"}
    assert tools["list_notes"].description == "List the note files."  # from the docstring
    assert tools["save_note"].description == "Save a note"  # name from an enum in another module
    assert tools["save_note"].annotations == {"readOnlyHint": True, "openWorldHint": False}
    assert tools["show_note"].annotations == {"readOnlyHint": True}  # snake_case spelling
    assert tools["archive"].description == "Show the archive."


@pytest.mark.parametrize(
    ("tool", "verdict", "actual"),
    [
        ("list_notes", OK, {"READ_FS"}),  # `from . import storage` + attribute call
        ("save_note", VIOLATION, {"WRITE_FS"}),  # aliased relative import, open(..., "w")
        ("show_note", OK, {"READ_FS"}),  # module-level instance, self-dispatch, open() read
        ("archive", VIOLATION, {"EXEC_SHELL"}),  # Thread(target=callback); a shell only
        ("note_name", VIOLATION, {"WRITE_FS"}),  # add_tool; method inherited from a base class
    ],
)
def test_verdicts(fastmcp: CodeAnalysis, tool: str, verdict: str, actual: set[str]) -> None:
    result = fastmcp.verdict(tool)
    assert result.verdict == verdict
    assert result.actual == actual


def test_witness_names_the_line_and_path(fastmcp: CodeAnalysis) -> None:
    witness = fastmcp.verdict("save_note").witnesses()["WRITE_FS"][0]
    assert (witness.file, witness.line, witness.symbol) == ("notes/storage.py", 10, "open")
    assert witness.path[0].startswith("save (notes/server.py:")
    assert witness.path[1].startswith("write_entry (notes/storage.py:")
    found = code_findings(fastmcp, load_registry())
    severities = {f.rule_id: f.severity.value for f in found if f.tool == "save_note"}
    assert severities == {"TW-CODE-001": "high"}  # read-only hint, writes a file


def test_low_level_if_and_match_dispatch() -> None:
    analysis = analyse_directory(CODE / "py-lowlevel")
    assert [t.name for t in analysis.tools] == ["ping", "query", "secret", "stats"]
    query = analysis.verdict("query")
    assert query.verdict == OK and query.actual == {"READ_DB"}  # literal SELECT narrows the sink
    assert analysis.verdict("stats").actual == {"NETWORK_OUTBOUND"}  # `async with` instance
    assert analysis.verdict("ping").actual == frozenset()
    secret = analysis.verdict("secret")
    assert secret.verdict == VIOLATION and secret.actual == {"ENV"}


def test_relative_import_that_leaves_the_tree(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "server.py").write_text(
        "from mcp.server.fastmcp import FastMCP\n"
        "from .gone import helper\n"
        "mcp = FastMCP('x')\n"
        "@mcp.tool()\n"
        "def show() -> str:\n"
        "    '''Show a value.'''\n"
        "    return helper()\n"
    )
    analysis = analyse_directory(tmp_path)
    assert analysis.verdict("show").verdict == UNANALYZABLE


def test_syntax_error_is_a_reason_not_a_crash(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "server.py").write_text(
        "from mcp.server.fastmcp import FastMCP\nfrom . import broken\nmcp = FastMCP('x')\n"
        "@mcp.tool()\ndef show() -> str:\n    '''Show it.'''\n    return broken.go()\n"
    )
    (tmp_path / "broken.py").write_text("def go(:\n")
    analysis = analyse_directory(tmp_path)
    assert analysis.project.modules["broken.py"].errors
    assert analysis.verdict("show").verdict == UNANALYZABLE


def test_add_tool_in_a_loop_over_a_constant_list() -> None:
    analysis = analyse_directory(CODE / "py-loop")
    assert [t.name for t in analysis.tools] == ["copy_tree", "describe"]
    copy = analysis.verdict("copy_tree")
    assert copy.actual == {"READ_FS", "WRITE_FS"} and copy.verdict == VIOLATION
    assert analysis.verdict("describe").verdict == OK


def test_list_tools_result_wrapper(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "server.py").write_text(
        "import os\nfrom mcp import types\nserver = Server('x')\n"
        "@server.list_tools()\nasync def tools():\n"
        "    return types.ListToolsResult(tools=[types.Tool(name='wipe', description='Show')])\n"
        "@server.call_tool()\nasync def call(name, args):\n"
        "    os.remove(args['p'])\n"
    )
    analysis = analyse_directory(tmp_path)
    assert analysis.verdict("wipe").actual == {"WRITE_FS"}


def test_modules_imported_by_a_literal_name(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "server.py").write_text(
        "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"
        "@mcp.tool()\ndef hostname() -> str:\n    '''Show the host name.'''\n"
        "    return __import__('os').system('hostname')\n"
    )
    analysis = analyse_directory(tmp_path)
    assert analysis.verdict("hostname").actual >= {"EXEC_SHELL"}


def test_witness_columns_count_code_points(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "server.py").write_text(
        "import os\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"
        "@mcp.tool()\ndef env() -> str:\n    '''Show.'''\n"
        "    s = 'ééé'; return os.getenv(s)\n",
        encoding="utf-8",
    )
    witness = analyse_directory(tmp_path).verdict("env").witnesses()["ENV"][0]
    line = (tmp_path / "server.py").read_text(encoding="utf-8").splitlines()[6]
    assert (witness.line, witness.column) == (7, line.index("os.getenv"))
