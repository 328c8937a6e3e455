"""Registration discovery (§2) and resolution (§3) as published servers write them, in both
languages; every fixture under tests/fixtures/code/{ts,py}-* was written for these tests.

Each tool's handler reaches exactly the sinks of its own branch (dispatch narrowed through a
local variable), so a tool whose construct were lost would come out OK with `actual = ∅` or,
with the union of all branches, as a false VIOLATION: both are asserted against."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolwitness.code.analyse import CodeAnalysis, analyse_directory

CODE = Path(__file__).parent / "fixtures" / "code"


def _analyse(name: str) -> CodeAnalysis:
    analysis = analyse_directory(CODE / name)
    assert analysis.code_coverage().complete, analysis.gaps
    return analysis


def _actual(analysis: CodeAnalysis) -> dict[str, tuple[str, set[str]]]:
    return {v.name: (v.verdict, set(v.actual)) for v in analysis.verdicts}


@pytest.mark.parametrize("tree", ["ts-lists", "py-lists"])
def test_lists_composed_at_run_time_and_wrapped_dispatch(tree: str) -> None:
    """try block, ternary, spread/concatenation, filter, map/comprehension; the call handler
    wrapped by a higher-order function or decorator; `h = HANDLERS[name]; h(args)`."""
    found = _actual(_analyse(tree))
    assert {"fetch_page", "query_db", "run_cmd", "lint_text"} <= set(found)
    assert found["fetch_page"] == ("OK", {"NETWORK_OUTBOUND"})
    # a receiver typed by an annotation on a class field (better-sqlite3 / sqlite3)
    assert "READ_DB" in found["query_db"][1]
    # util.promisify(exec) / functools.partial(subprocess.run): the sink is kept
    assert found["run_cmd"][0] == "OK" and found["run_cmd"][1] & {"EXEC_SHELL", "EXEC_PROCESS"}
    # functions kept in a list and called through map: the rule that writes is reached
    assert found["lint_text"] == ("VIOLATION", {"WRITE_FS"})


def test_bound_function_is_followed() -> None:
    found = _actual(_analyse("ts-lists"))
    assert found["read_file"] == ("OK", {"READ_FS"})


@pytest.mark.parametrize("tree", ["ts-loops", "py-loops"])
def test_tools_registered_in_loops(tree: str) -> None:
    """forEach/for-of over definitions (TS); a loop over functions with the call form
    `mcp.tool()(fn)` and `add_tool` in a loop over dicts (Python)."""
    found = _actual(_analyse(tree))
    names = {"show_file", "start_job"} | (
        {"remove_file"} if tree == "ts-loops" else {"remove_tree"}
    )
    assert set(found) == names
    assert found["show_file"] == ("OK", {"READ_FS"})
    assert found["start_job"][1] == {"EXEC_PROCESS"}
    removed = found.get("remove_file") or found["remove_tree"]
    assert removed == ("OK", {"WRITE_FS"})


@pytest.mark.parametrize("tree", ["ts-class-registry", "py-class-registry"])
def test_class_registry_dispatching_through_this_handlers(tree: str) -> None:
    found = _actual(_analyse(tree))
    assert found == {"peek": ("OK", {"READ_FS"}), "purge": ("OK", {"WRITE_FS"})}


def test_tsc_commonjs_output() -> None:
    """`exports.x = …`, `__importDefault(require(…))`, `(0, fn)(…)` and the getter that
    `Object.defineProperty(exports, …)` re-exports through."""
    found = _actual(_analyse("ts-commonjs"))
    assert found["save_note"] == ("OK", {"WRITE_FS"})
    assert found["list_notes"] == ("VIOLATION", {"EXEC_PROCESS"})


def test_python_reexports_through_package_init() -> None:
    found = _actual(_analyse("py-reexport"))
    assert found == {"archive": ("VIOLATION", {"WRITE_FS"})}


def test_tools_list_that_is_not_constant_is_incomplete_not_ok(tmp_path: Path) -> None:
    (tmp_path / "server.ts").write_text(
        'import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
        'import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n'
        "const server = new Server({name: 's', version: '1'});\n"
        "server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: load() }));\n"
    )
    covered = analyse_directory(tmp_path).code_coverage()
    assert not covered.complete and covered.found == 0
    assert "the tools list is not a constant" in covered.reason()


def test_openapi_generated_tools_say_so(tmp_path: Path) -> None:
    (tmp_path / "server.ts").write_text(
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'import SwaggerParser from "@apidevtools/swagger-parser";\n'
        "const server = new McpServer({name: 's', version: '1'});\n"
        "for (const op of ops()) server.tool(op.id, op.summary, async () => call(op));\n"
    )
    covered = analyse_directory(tmp_path).code_coverage()
    assert not covered.complete
    assert "generated from an API description at run time" in covered.reason()


def test_a_library_that_is_no_server_is_complete(tmp_path: Path) -> None:
    (tmp_path / "lib.js").write_text("export const x = 1;\n")
    assert analyse_directory(tmp_path).code_coverage().complete
