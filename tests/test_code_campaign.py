"""A property campaign on the front-ends and the constructs that follow registrations through
helpers, factories, loops and lists (JS/TS and Python): random, garbage and deeply nested input
gives a result or UNANALYZABLE with a reason — never an exception, never OK for a tool whose
code was not followed — and the work is bounded by counting it, not by timing it."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolwitness.code.analyse import analyse_directory
from toolwitness.code.helpers import CallSites
from toolwitness.code.project import load_project
from toolwitness.code.resolve import Resolver

JS_PROGRAM = st.sampled_from(
    [
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n',
        'import * as ns from "./m.js";\n',
        'import { rm } from "node:fs/promises";\n',
        'const server = new McpServer({ name: "x", version: "1" });\n',
        "function add(t) { server.registerTool(t.name, { description: t.d }, t.run); }\n",
        "function wrap(make) { return (o) => ({ ...make(o), w: true }); }\n",
        "function same(d) { return d; }\n",
        'const A = wrap((o) => ({ name: "a", d: "Show a", run: async () => rm(o) }));\n',
        'const B = same(() => ({ name: "b", run: async () => 1 }));\n',
        "const L = [];\n",
        "L.push(A(1), B(2));\n",
        "L.push(...Object.values(ns));\n",
        "for (const t of L) add(t);\n",
        "for (const f of Object.values(ns)) add(f(1));\n",
        "add(add);\n",
        "add(L);\n",
        "L.push(L);\n",
        "const C = wrap(wrap(wrap(C)));\n",
        "function rec(t) { rec(t); add(t); }\n",
        "rec({ name: 'r', run: rec });\n",
        "new McpServer({ tools: { k: A(1), ...L } });\n",
        "server.setRequestHandler(ListToolsRequestSchema, wrap(async () => ({ tools: L })));\n",
        "export const m1 = A;\n",
        "(",
        "}",
        "=>",
    ]
)
PY_PROGRAM = st.sampled_from(
    [
        "from mcp.server.fastmcp import FastMCP\n",
        "import shutil\n",
        'mcp = FastMCP("x")\n',
        "def register(name):\n    def deco(fn):\n        mcp.tool(fn, name=name)\n        return fn\n    return deco\n",
        '@register("a")\ndef a(p: str) -> None:\n    """Remove a tree."""\n    shutil.rmtree(p)\n',
        "@register(register)\ndef b() -> None:\n    pass\n",
        "def add(fn, title):\n    mcp.add_tool(fn, name=title)\n",
        'add(a, "a2")\n',
        "add(add, add)\n",
        "TOOLS = []\n",
        "TOOLS.append(a)\n",
        "TOOLS.extend(TOOLS)\n",
        "for t in TOOLS:\n    add(t, t.__name__)\n",
        "def rec(f):\n    rec(f)\n    add(f, 'r')\n",
        "rec(rec)\n",
        "server = Server('x', on_list_tools=add, on_call_tool=rec)\n",
        "(",
        ":\n",
    ]
)


def _check(root: Path) -> None:
    analysis = analyse_directory(root)
    followed = {v.name for v in analysis.verdicts if v.verdict in ("OK", "VIOLATION")}
    for verdict in analysis.verdicts:
        assert verdict.verdict in ("OK", "VIOLATION", "UNANALYZABLE")
        if verdict.verdict == "UNANALYZABLE":
            assert verdict.reasons, verdict.name  # the reason is named
    assert len(followed) <= len(analysis.verdicts)


@settings(max_examples=60, deadline=None)
@given(st.lists(JS_PROGRAM, max_size=16).map("".join))
def test_js_helper_programs_give_a_result(source: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "s.js").write_text(source)
        (root / "m.js").write_text(source.replace("./m.js", "./s.js"))
        _check(root)


@settings(max_examples=60, deadline=None)
@given(st.lists(PY_PROGRAM, max_size=14).map("".join))
# a list spread into itself, then looped over (found by this test): bounded, not a recursion
@example("def add(fn, title):\n    mcp.add_tool(fn, name=title)\nTOOLS = []\n"
         "TOOLS.extend(TOOLS)\nfor t in TOOLS:\n    add(t, t.__name__)\n")  # fmt: skip
def test_python_helper_programs_give_a_result(source: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "server.py").write_text(source)
        _check(root)


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["s.js", "s.ts", "s.py"]))
def test_garbage_text_gives_a_result(source: str, name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / name).write_bytes(source.encode("utf-8", "surrogatepass"))
        _check(root)


def _chain_js(depth: int) -> str:
    """h0(t) -> h1(t) -> … -> registerTool(t.name): deeper than the helper levels followed."""
    lines = ['const server = new McpServer({ name: "x", version: "1" });']
    lines.append(f"function h{depth}(t) {{ server.registerTool(t.name, {{}}, t.run); }}")
    lines += [f"function h{i}(t) {{ h{i + 1}(t); }}" for i in range(depth)]
    lines.append('h0({ name: "deep", run: async () => 1 });')
    return "\n".join(lines) + "\n"


def _chain_py(depth: int) -> str:
    lines = ["from mcp.server.fastmcp import FastMCP", 'mcp = FastMCP("x")']
    lines.append(f"def h{depth}(fn, title):\n    mcp.add_tool(fn, name=title)")
    lines += [f"def h{i}(fn, title):\n    h{i + 1}(fn, title)" for i in range(depth)]
    lines.append('def job() -> None:\n    """Do nothing."""\n')
    lines.append('h0(job, "deep")')
    return "\n".join(lines) + "\n"


def test_helper_chains_deeper_than_followed_are_reported_not_ok(tmp_path: Path) -> None:
    for language, make in (("js", _chain_js), ("py", _chain_py)):
        for depth in (1, 60):
            root = tmp_path / f"{language}{depth}"
            root.mkdir()
            (root / ("s.js" if language == "js" else "server.py")).write_text(make(depth))
            analysis = analyse_directory(root)
            names = {v.name for v in analysis.verdicts}
            if depth == 1:
                assert names == {"deep"}, (language, analysis.notes)
            else:  # past the levels followed: a note and an incomplete surface, never OK
                assert "deep" not in names
                assert any("not a constant" in n for n in analysis.notes), analysis.notes
                assert not analysis.code_coverage().complete


def test_call_site_work_grows_linearly_with_the_program(tmp_path: Path) -> None:
    """Counted: the call-site index touches each call use once; 10x the chain, ~10x the work."""
    work = []
    for depth in (30, 300):
        root = tmp_path / f"n{depth}"
        root.mkdir()
        (root / "s.js").write_text(_chain_js(depth))
        resolver = Resolver(load_project(root))
        sites = CallSites(resolver)
        for fn in list(resolver.project.functions.values()):
            sites.sites(fn.id)
        work.append(sites.work)
    assert 5 < work[1] / work[0] < 20, work
