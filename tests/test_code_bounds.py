"""Bounds of `code` / `scan --code` on hostile trees (issue 19): child limits with the reason in
the report, temporary folders removed when the child is killed, FIFOs never opened, garbage that
costs linear work, and every parser error class mapped to UNANALYZABLE (a test per class)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolwitness.code.analyse import analyse_directory
from toolwitness.code.frontends import js, python
from toolwitness.code.project import CodeLimits, load_project
from toolwitness.code.verify import UNANALYZABLE

SERVER_JS = b"""import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import fs from "node:fs";
const server = new McpServer({ name: "s", version: "1" });
server.registerTool("read_it", { description: "Read the file" }, async () => fs.readFileSync("x"));
"""


def _cli(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TMPDIR": str(tmp)}
    return subprocess.run(
        [sys.executable, "-m", "toolwitness", *args],
        capture_output=True, text=True, timeout=300, env=env, check=False,
    )  # fmt: skip


def _left_behind(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("toolwitness-code-"))


def _big_tree(root: Path, files: int) -> None:
    root.mkdir()
    (root / "server.js").write_bytes(SERVER_JS)
    body = "".join(f"export function f{i}(a) {{ return g{i}(a) + {i}; }}\n" for i in range(400))
    for index in range(files):
        (root / f"m{index}.js").write_text(body)


def test_fifo_in_a_package_tree_is_never_opened(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "server.js").write_bytes(SERVER_JS)
    os.mkfifo(tree / "blocked.ts")  # opening it for reading would block forever
    os.mkfifo(tree / "lib.py")
    project = load_project(tree)
    assert sorted(project.modules) == ["server.js"]
    done = _cli(["code", str(tree), "--format", "json"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["servers"][0]["tools"][0]["name"] == "read_it"


def test_wall_limit_stops_the_child_says_why_and_removes_the_temp_folder(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    _big_tree(tree, 200)
    done = _cli(["code", str(tree), "--format", "json", "--max-seconds", "0.2"], tmp_path)
    assert done.returncode == 3, done.stderr
    server = json.loads(done.stdout)["servers"][0]
    assert server["incomplete"] is True and server["grade"] is None
    assert "over the wall-time limit of 0.2 s" in server["errors"][0]
    assert _left_behind(tmp_path) == []  # the child was SIGKILLed; the parent cleaned up


def test_memory_limit_is_named_in_the_report(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    _big_tree(tree, 40)  # 16,000 functions: far more than 64 MiB holds (5 was at the edge)
    done = _cli(["code", str(tree), "--max-memory-mib", "64"], tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "memory limit of 64 MiB" in done.stdout or "killed" in done.stdout, done.stdout
    assert _left_behind(tmp_path) == []


def test_files_are_read_only_while_headroom_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under RLIMIT_AS the parse loop stops itself with a margin left (memory running out inside
    a parse can leave CPython 3.11 retrying an exception handler forever); without a limit it
    never stops."""
    import resource

    from toolwitness.code import project

    project.check_headroom()  # this process has no address-space limit
    in_use = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    for left, stops in ((project.HEADROOM_BYTES // 2, True), (project.HEADROOM_BYTES * 4, False)):
        limit = in_use + left
        monkeypatch.setattr(resource, "getrlimit", lambda _which, cap=limit: (cap, cap))
        if stops:
            with pytest.raises(MemoryError):
                project.check_headroom()
        else:
            project.check_headroom()


def test_an_abort_under_the_memory_limit_names_it() -> None:
    """Under RLIMIT_AS, CPython may abort (SIGABRT) and a C parser crash (SIGSEGV) instead of a
    MemoryError, depending on the allocation that fails; the report still names the limit."""
    import signal

    from toolwitness.code.isolate import MEMORY_STATUS, ChildLimits, _death

    limits = ChildLimits(10.0, 64, 10)
    assert "crashed (SIGABRT) under the memory limit of 64 MiB" in _death(-signal.SIGABRT, limits)
    assert "crashed (SIGSEGV) under the memory limit of 64 MiB" in _death(-signal.SIGSEGV, limits)
    assert "ended with status -15" in _death(-signal.SIGTERM, limits)
    assert "exceeded the memory limit of 64 MiB" in _death(MEMORY_STATUS, limits)


class _UnpicklableUnderTheLimit:
    """A result whose pickling runs out of memory, as a large one does under RLIMIT_AS."""

    def __reduce__(self) -> tuple[object, ...]:
        raise MemoryError


class _PipeThatFailsOnce:
    def __init__(self) -> None:
        self.tries = 0
        self.sent: list[bytes] = []

    def send_bytes(self, data: bytes) -> None:
        self.tries += 1
        if self.tries == 1:
            raise MemoryError
        self.sent.append(data)

    def close(self) -> None:
        pass


def test_running_out_of_memory_while_returning_the_result_names_the_limit() -> None:
    """Wherever the limit strikes (the work, pickling its result, sending it), the reason comes
    back as the memory limit: never "result could not be returned" nor a bare status 1 (which
    multiprocessing gives a child whose error handling itself ran out of memory, as in CI)."""
    import pickle

    from toolwitness.code.isolate import ChildLimits, LimitExceeded, _child, run_limited

    with pytest.raises(LimitExceeded, match="exceeded the memory limit of 64 MiB"):
        run_limited(_UnpicklableUnderTheLimit, ChildLimits(60.0, 64, 60))
    with pytest.raises(LimitExceeded, match="exceeded the memory limit of 64 MiB"):
        run_limited(lambda: [str(i) * 8 for i in range(2_000_000)], ChildLimits(60.0, 64, 60))
    pipe = _PipeThatFailsOnce()  # no limits: this runs in the test process itself
    _child(lambda: "result", ChildLimits(60.0, 0, 0), pipe)  # type: ignore[arg-type]
    assert pipe.tries == 2
    assert pickle.loads(pipe.sent[0]) == ("limit", "the analysis exceeded the memory limit of 0 MiB")


def test_scan_code_limit_is_that_servers_error(tmp_path: Path) -> None:
    from toolwitness.code.analyse import CodeOptions
    from toolwitness.code.isolate import ChildLimits
    from toolwitness.model import ServerSurface
    from toolwitness.pipeline import ScanOptions, exit_code, scan

    tree = tmp_path / "tree"
    _big_tree(tree, 200)
    surface = ServerSurface(id="big", source="t", source_root=str(tree))
    options = ScanOptions(code=CodeOptions(child=ChildLimits(wall_seconds=0.2)))
    result = scan([surface], options)
    assert "over the wall-time limit" in result.servers[0].errors[0]
    assert exit_code(result) == 3


def test_limits_are_checked_as_usage(tmp_path: Path) -> None:
    done = _cli(["code", str(tmp_path), "--max-memory-mib", "1"], tmp_path)
    assert done.returncode == 2 and "--max-memory-mib" in done.stderr


# -- garbage costs linear work --------------------------------------------------------------


def test_random_bytes_named_ts_are_not_parsed() -> None:
    """4 MiB of random bytes cost minutes in tree-sitter's recovery; they are refused at once."""
    data = bytes((i * 2654435761 >> 7) & 0xFF for i in range(4 << 20))
    module = js.parse_module("garbage.ts", data)
    assert module.nodes == 0 and "not source text" in module.errors[0]


def _walks(source: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    count = 0
    original = js._Builder.walk

    def counted(self: js._Builder, node: object, fn: object) -> None:
        nonlocal count
        count += 1
        original(self, node, fn)  # type: ignore[arg-type]

    monkeypatch.setattr(js._Builder, "walk", counted)
    js.parse_module("soup.ts", source)
    monkeypatch.setattr(js._Builder, "walk", original)
    return count


def test_token_soup_costs_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Valid text that is not a program: the walk visits a number of nodes proportional to the
    size (4x the bytes, 3x-5x the visits), counted, never timed."""
    words = ["const", "let", "x", "=", "(", ")", "{", "}", ";", "function", "return", "if", "else", "1", "'a'", "+", "-", "[", "]", "=>", "async"]
    piece = " ".join(words[(i * 7) % len(words)] for i in range(4000)).encode()
    small, large = _walks(piece, monkeypatch), _walks(piece * 4, monkeypatch)
    assert small > 1000
    assert 3.0 <= large / small <= 5.0


def test_node_budget_refuses_a_file_before_walking_it() -> None:
    module = js.parse_module("many.js", b"a;" * 5000, max_nodes=1000)
    assert "over the bound of 1000" in module.errors[0]
    assert module.functions == {} and module.registrations == []


def test_tree_node_budget_leaves_later_files_unanalysed(tmp_path: Path) -> None:
    for name in ("a.js", "b.js", "c.js"):
        (tmp_path / name).write_bytes(b"x;" * 1000)  # about 3,000 nodes each
    project = load_project(tmp_path, CodeLimits(max_total_nodes=5000))
    errors = [project.modules[k].errors for k in sorted(project.modules)]
    assert errors.count([]) == 1
    assert all("syntax nodes" in e[0] and "not analysed" in e[0] for e in errors if e)


# -- Python's parser: every error class -----------------------------------------------------

PY_CASES = {
    "SyntaxError": b"def f(:\n",
    "IndentationError": b"def f():\nreturn 1\n",
    "TabError": b"if x:\n\tpass\n        pass\n",
    "null bytes": b"x = 1\0\n",
    "bad encoding": b"# -*- coding: nonesuch -*-\nx = 1\n",
    "not not x100000": ("x = " + "not " * 100_000 + "p\n").encode(),
    "elif x100000": (
        "if a == 0:\n    pass\n" + "".join(f"elif a == {i}:\n    pass\n" for i in range(1, 100_000))
    ).encode(),
    "lambda x20000": ("f = " + "lambda: " * 20_000 + "0\n").encode(),
}


@pytest.mark.parametrize("case", sorted(PY_CASES))
def test_python_parser_errors_are_module_errors(case: str) -> None:
    module = python.parse_module("m.py", PY_CASES[case])
    assert module.errors, case
    assert module.errors[0].startswith(("not valid Python", "not analysed", "line "))


@pytest.mark.parametrize("case", ["not not x100000", "elif x100000", "lambda x20000"])
def test_deeply_nested_python_server_is_unanalyzable_not_exit_3(tmp_path: Path, case: str) -> None:
    (tmp_path / "server.py").write_bytes(
        b"from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('s')\n"
        b"import deep\n@mcp.tool()\ndef t() -> str:\n    '''Show it.'''\n    return deep.f()\n"
    )
    (tmp_path / "deep.py").write_bytes(PY_CASES[case])
    analysis = analyse_directory(tmp_path)
    assert any("deep.py" in note for note in analysis.notes)
    assert analysis.verdict("t").verdict == UNANALYZABLE  # its callee's file was not read


# -- tree-sitter: every error class ---------------------------------------------------------

JS_CASES = {
    "syntax error": b"function f( { return 1 }\n",
    "missing node": b"const x = (1 + 2;\n",
    "not UTF-8": b"const s = '\xff\xfe';\n",
    "NUL byte": b"const s = 1;\0\n",
    "nesting too deep": b"x = " + b"[" * 50_000 + b"]" * 50_000 + b";\n",
}


@pytest.mark.parametrize("case", sorted(JS_CASES))
def test_tree_sitter_errors_are_module_errors(case: str) -> None:
    module = js.parse_module("m.js", JS_CASES[case])
    assert module.errors, case


def _copies(root: Path, count: int) -> None:
    source = (Path(__file__).parent / "fixtures" / "code" / "ts-lists").glob("*.ts")
    texts = {p.name: p.read_text() for p in source}
    for index in range(count):
        folder = root / f"copy{index}"
        folder.mkdir(parents=True)
        for name, text in texts.items():
            renamed = text
            for tool in ("fetch_page", "query_db", "run_cmd", "lint_text", "read_file"):
                renamed = renamed.replace(tool, f"{tool}_{index}")
            (folder / name).write_text(renamed)


def test_analysis_work_grows_linearly_with_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten copies of a server cost about ten times the work of one, counted as resolution
    steps, syntax nodes and functions visited from every handler — never timed."""
    from toolwitness.code.resolve import Resolver

    def work(count: int) -> int:
        root = tmp_path / str(count)
        _copies(root, count)
        steps = 0
        original = Resolver._resolve

        def counted(self: Resolver, value: object) -> object:
            nonlocal steps
            steps += 1
            return original(self, value)  # type: ignore[arg-type]

        monkeypatch.setattr(Resolver, "_resolve", counted)
        analysis = analyse_directory(root)
        monkeypatch.setattr(Resolver, "_resolve", original)
        assert len(analysis.verdicts) == 5 * count
        nodes = sum(m.nodes for m in analysis.project.modules.values())
        return steps + nodes + sum(v.reach.visited for v in analysis.verdicts)

    one, ten = work(1), work(10)
    assert 7.0 <= ten / one <= 13.0
