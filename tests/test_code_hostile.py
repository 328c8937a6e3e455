"""Hostile source trees: fuzzed text, deep nesting, too many or too large files, symlinks,
modules loaded by computed names. Refused with a clear error or made UNANALYZABLE, never a crash
and never silently OK."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.code.analyse import analyse_directory
from toolwitness.code.frontends import js, python
from toolwitness.code.project import CodeLimits, load_project
from toolwitness.code.verify import UNANALYZABLE
from toolwitness.errors import InputError

JS_PIECES = st.sampled_from(
    [
        "server.tool(",
        "registerTool(",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        '"x"',
        "=>",
        "async ",
        "function f",
        "class A ",
        "extends ",
        "this.",
        "require(",
        "import ",
        "export ",
        "switch(",
        "case 1:",
        "if(",
        ",",
        ";",
        "`${",
        "}`",
        "new ",
        "a.b",
        "\n",
        "\u202e",
        "\x00",
    ]
)
PY_PIECES = st.sampled_from(
    [
        "@mcp.tool()\n",
        "def f(",
        "):\n",
        "    ",
        "return ",
        "class A:\n",
        "import os\n",
        "from . import x\n",
        "match x:\n",
        "case 1:\n",
        "if a == 'b':\n",
        "(",
        ")",
        "[",
        "]",
        "lambda: ",
        "self.",
        "x = ",
        "\n",
        "'s'",
        "\u202e",
        "async ",
        "await ",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(JS_PIECES, max_size=60).map("".join))
def test_js_front_end_never_raises(source: str) -> None:
    for name in ("a.js", "a.ts", "a.tsx"):
        module = js.parse_module(name, source.encode("utf-8", "surrogatepass"))
        assert module.key == name


@settings(max_examples=150, deadline=None)
@given(st.lists(PY_PIECES, max_size=60).map("".join))
def test_python_front_end_never_raises(source: str) -> None:
    module = python.parse_module("a.py", source.encode())
    assert module.key == "a.py"


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes(data: bytes) -> None:
    js.parse_module("a.js", data)
    python.parse_module("a.py", data)


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    assert js.parse_module("x.js", b"a = " + b"[" * 30000 + b"]" * 30000).errors
    assert python.parse_module("x.py", b"x = [" + b"1+" * 100000 + b"1]").errors


def test_deeply_nested_handler_is_unanalyzable(tmp_path: Path) -> None:
    nested = "[" * 20000 + "]" * 20000
    (tmp_path / "s.js").write_text(
        f'server.registerTool("deep", {{ description: "Show" }}, () => {nested});\n'
    )
    analysis = analyse_directory(tmp_path)
    if analysis.tools:  # the registration may sit past the point the walk gave up
        assert analysis.verdict("deep").verdict == UNANALYZABLE


def test_too_many_files_is_refused(tmp_path: Path) -> None:
    for i in range(5):
        (tmp_path / f"m{i}.js").write_text("export const a = 1;\n")
    with pytest.raises(InputError, match="more than 4 source files"):
        load_project(tmp_path, CodeLimits(max_files=4))


def test_oversized_file_is_a_gap_not_a_rejected_run(tmp_path: Path) -> None:
    """A file over the per-file bound is not analysed, and says so; the rest still is."""
    (tmp_path / "big.js").write_bytes(b" " * 2048)
    (tmp_path / "small.js").write_bytes(b"const x = 1;\n")
    project = load_project(tmp_path, CodeLimits(max_file_bytes=1024))
    assert project.modules["big.js"].errors == ["file over 1024 bytes: not analysed"]
    assert project.modules["small.js"].errors == []


def test_symlinks_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.js").write_text("export const s = 1;\n")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.js").write_text("export const a = 1;\n")
    (tree / "link").symlink_to(outside, target_is_directory=True)
    (tree / "l.js").symlink_to(outside / "secret.js")
    assert sorted(load_project(tree).modules) == ["a.js"]


def test_computed_module_loads_are_unanalyzable(tmp_path: Path) -> None:
    (tmp_path / "s.js").write_text(
        "const name = process.argv[2];\n"
        'server.registerTool("load", { description: "Show" }, () => require(name).run());\n'
    )
    (tmp_path / "p.py").write_text(
        "import importlib\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"
        "@mcp.tool()\ndef plug(n: str) -> str:\n    '''Show a plugin.'''\n"
        "    return importlib.import_module(n).run()\n"
    )
    analysis = analyse_directory(tmp_path)
    assert analysis.verdict("load").verdict == UNANALYZABLE
    plug = analysis.verdict("plug")  # the catalog also counts import_module as code loading
    assert plug.verdict != "OK" and "EXEC_EVAL" in plug.actual
    assert any("computed name" in r for r in plug.reasons)


def test_an_object_that_spreads_itself_does_not_recurse_forever(tmp_path: Path) -> None:
    """Regression: flow-insensitive bindings make `x = {...x}` a cycle through spreads."""
    (tmp_path / "s.js").write_text(
        'const fs = require("fs");\n'
        "let state = {};\n"
        "for (let i = 0; i < 3; i++) { state = { ...state, [i]: i }; }\n"
        "state = { ...state, save: () => fs.writeFileSync('/x', '') };\n"
        'server.registerTool("t", { description: "Show" }, () => state.save());\n'
    )
    analysis = analyse_directory(tmp_path)
    assert analysis.verdict("t").actual == {"WRITE_FS"}


def test_a_very_long_call_chain_stays_bounded(tmp_path: Path) -> None:
    chain = "z" + ".optional()" * 3000
    (tmp_path / "s.js").write_text(
        f'const schema = {chain};\nserver.registerTool("t", {{ description: "Show" }}, () => schema.parse());\n'
    )
    analysis = analyse_directory(tmp_path)
    assert analysis.verdict("t").verdict == "UNANALYZABLE"  # found, but its file was cut short
    assert any("line 1: nesting too deep" in note for note in analysis.notes)


PROGRAM_PIECES = st.sampled_from(
    [
        'const fs = require("fs");\n',
        'import { exec } from "child_process";\n',
        'import * as m from "./m.js";\n',
        "let x = {};\n",
        "x = { ...x, f: () => fs.rmSync('/a') };\n",
        "class A extends A { m() { this.m(); return new A(); } }\n",
        "const a = new A();\n",
        'server.registerTool("t", { description: "Show", annotations: x }, () => a.m());\n',
        'server.tool("u", "Read a file", async () => { exec(x.f); return m.y(); });\n',
        "function f(g) { return g(f); }\n",
        "f(f);\n",
        "export { x as y };\n",
        "export * from './s.js';\n",
        "switch (n) { case 'u': fs.writeFileSync(); case 't': break; }\n",
    ]
)


@settings(max_examples=40, deadline=None)
@given(st.lists(PROGRAM_PIECES, max_size=14).map("".join))
def test_analysis_of_arbitrary_programs_never_raises(source: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "s.js").write_text(source)
        (root / "m.js").write_text(source.replace("./m.js", "./s.js"))
        analysis = analyse_directory(root)
        for verdict in analysis.verdicts:
            assert verdict.verdict in ("OK", "VIOLATION", "UNANALYZABLE")
