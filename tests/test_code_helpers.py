"""Registrations through helpers and constructor options (§2), both languages; every fixture
under tests/fixtures/code/{ts,py}-{helpers,options} was written for these tests.

A tool whose construct were lost would be missing from the surface (with --surface it would be
UNANALYZABLE); a handler lost on the way would come out OK with `actual = ∅`. Both are asserted
against: each tool reaches exactly the sink of its own handler."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolwitness.code import ir
from toolwitness.code.analyse import CodeAnalysis, analyse_directory
from toolwitness.code.helpers import CallSites, names_in, substitute
from toolwitness.code.project import load_project
from toolwitness.code.resolve import Resolver

CODE = Path(__file__).parent / "fixtures" / "code"


def _analyse(name: str) -> CodeAnalysis:
    analysis = analyse_directory(CODE / name)
    assert analysis.code_coverage().complete, analysis.gaps
    return analysis


def _actual(analysis: CodeAnalysis) -> dict[str, set[str]]:
    return {v.name: set(v.actual) for v in analysis.verdicts}


def test_js_helper_called_in_a_loop_over_factories_from_module_namespaces() -> None:
    """`this.register(tool)` for each element of a list a function builds with `push` from
    `Object.values(namespace)`; each element a factory `defineTool(make)` called with options:
    names folded through the closure, handlers inlined through it."""
    found = _actual(_analyse("ts-helpers"))
    assert found == {
        "read_note": {"READ_FS"},
        "save_note": {"WRITE_FS"},
        "start_job": {"EXEC_PROCESS"},
    }


def test_python_decorator_factory_and_helper_registrations() -> None:
    """`@register("x")` whose inner decorator calls `mcp.tool(fn, name=name)` twice (a plain and
    an f-string name), and `add(fn, "title")` calling `mcp.add_tool(fn, name=title)`."""
    found = _actual(_analyse("py-helpers"))
    assert found == {
        "read_note": {"READ_FS"},
        "notes_read_note": {"READ_FS"},
        "save_note": {"WRITE_FS"},
        "notes_save_note": {"WRITE_FS"},
        "start_job": {"EXEC_PROCESS"},
    }


@pytest.mark.parametrize("tree", ["ts-options", "py-options"])
def test_tools_given_to_the_server_constructor(tree: str) -> None:
    """`new MCPServer({ tools: { readNote, runReport } })` (tool named by its key, execute
    through `createTool({...})`) and `Server(name, on_list_tools=…, on_call_tool=…)`."""
    found = _actual(_analyse(tree))
    if tree == "ts-options":
        assert found == {"readNote": {"READ_FS"}, "runReport": {"EXEC_PROCESS"}}
    else:
        assert found == {"read_note": {"READ_FS"}, "save_note": {"WRITE_FS"}}


def test_helper_without_call_sites_stays_not_followed(tmp_path: Path) -> None:
    """A helper nobody calls registers nothing that can be named: reported, not invented."""
    (tmp_path / "server.ts").write_text(
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'const server = new McpServer({ name: "x", version: "1" });\n'
        "export function add(t: any) { server.registerTool(t.name, {}, t.run); }\n"
    )
    analysis = analyse_directory(tmp_path)
    assert analysis.verdicts == [] or all(v.verdict == "UNANALYZABLE" for v in analysis.verdicts)
    assert any("not a constant" in note for note in analysis.notes)
    assert not analysis.code_coverage().complete


def test_call_site_work_is_counted_and_linear(tmp_path: Path) -> None:
    """Indexing call sites costs one step per call use: 10x the helper calls, ~10x the work."""
    work = []
    for copies in (20, 200):
        tree = tmp_path / f"n{copies}"
        tree.mkdir()
        calls = "".join(f'add({{ name: "t{i}", run: async () => 1 }});\n' for i in range(copies))
        (tree / "server.ts").write_text(
            'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
            'const server = new McpServer({ name: "x", version: "1" });\n'
            "function add(t: any) { server.registerTool(t.name, {}, t.run); }\n" + calls
        )
        resolver = Resolver(load_project(tree))
        sites = CallSites(resolver)
        fn = next(f for f in resolver.project.functions.values() if f.name == "add")
        assert len(sites.sites(fn.id)) == copies
        work.append(sites.work)
    assert 5 < work[1] / work[0] < 15, work


def test_substitute_replaces_parameters_inside_nested_values() -> None:
    param = ir.Name(("t", "name"), "f")
    value = ir.Obj((("n", ir.Concat((ir.Lit("x_"), param))),), ())
    out = substitute(value, {("t", "f"): ir.Name(("DEF",), "m")})
    assert [n.path for n in names_in(out)] == [("DEF", "name")]


@pytest.mark.parametrize("tree", ["ts-map", "py-map"])
def test_registries_filled_entry_by_entry(tree: str) -> None:
    """`this.tools.set(name, {definition, run})` listed by `Array.from(this.tools.values())
    .map(t => t.definition)` and dispatched by `const tool = this.tools.get(name)`; in Python
    `HANDLERS["x"] = fn` / `SPECS["x"] = Tool(...)`, `list(SPECS.values())`, `HANDLERS[name]`.
    Each tool reaches only its own entry (a Map read by `get` is narrowed like `map[name]`)."""
    analysis = _analyse(tree)
    assert {v.name: (v.verdict, set(v.actual)) for v in analysis.verdicts} == {
        "peek_note": ("OK", {"READ_FS"}),
        "drop_note": ("OK", {"WRITE_FS"}),
    }
