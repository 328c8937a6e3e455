"""Code verification of the real published servers (installed by scripts/install-test-servers.sh).

The npm packages are analysed as published (compiled ESM in dist/), the PyPI servers from their
installed site-packages. Each expected verdict was checked by reading the package's code: e.g.
filesystem's edit_file reads the file (fs.readFile, realpath in validatePath) and writes it
(writeFile + rename), which its annotations allow (readOnlyHint false) but its description does
not say ("Make line-based edits to a text file").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import NPM_MODULES, VENVS, missing_part, require_path
from toolwitness.code.analyse import CodeAnalysis, CodeOptions, analyse_directory
from toolwitness.code.declared import DeclaredFrom
from toolwitness.code.verify import OK, VIOLATION


def _npm(name: str) -> Path:
    return NPM_MODULES / "@modelcontextprotocol" / name / "dist"


def _pypi(name: str) -> Path:
    module = name.replace("-", "_")
    found = sorted(VENVS.glob(f"{name}/lib/python3.*/site-packages/{module}"))
    if not found:
        missing_part(f"{name} is not installed (bash scripts/install-test-servers.sh)")
    return found[0]


def _analyse(path: Path, mode: DeclaredFrom = DeclaredFrom.BOTH) -> CodeAnalysis:
    require_path(path)
    return analyse_directory(path, CodeOptions(declared_from=mode))


FS_READ_ONLY = [
    "read_file",
    "read_text_file",
    "read_media_file",
    "read_multiple_files",
    "list_directory",
    "list_directory_with_sizes",
    "directory_tree",
    "search_files",
    "get_file_info",
]


@pytest.fixture(scope="module")
def filesystem() -> CodeAnalysis:
    return _analyse(_npm("server-filesystem"))


def test_filesystem_read_only_tools_read_and_are_ok(filesystem: CodeAnalysis) -> None:
    assert len(filesystem.tools) == 14
    for name in FS_READ_ONLY:
        verdict = filesystem.verdict(name)
        assert verdict.verdict == OK, name
        assert verdict.actual == {"READ_FS"}, name
    assert filesystem.verdict("list_allowed_directories").actual == frozenset()


def test_filesystem_writers_reach_writes(filesystem: CodeAnalysis) -> None:
    for name in ("write_file", "edit_file", "create_directory", "move_file"):
        verdict = filesystem.verdict(name)
        assert verdict.actual == {"READ_FS", "WRITE_FS"}, name
        assert verdict.verdict == OK, name
    witness = filesystem.verdict("edit_file").witnesses()["WRITE_FS"][0]
    assert witness.file == "lib.js" and witness.symbol.startswith("fs.")
    assert any(step.startswith("applyFileEdits (lib.js:") for step in witness.path)


def test_filesystem_edit_file_violates_its_description() -> None:
    analysis = _analyse(_npm("server-filesystem"), DeclaredFrom.DESCRIPTION)
    edit = analysis.verdict("edit_file")
    assert edit.verdict == VIOLATION and edit.undeclared == {"READ_FS"}
    assert analysis.verdict("read_text_file").verdict == OK
    annotations_only = _analyse(_npm("server-filesystem"), DeclaredFrom.ANNOTATIONS)
    assert annotations_only.verdict("edit_file").verdict == OK


def test_memory_graph_tools() -> None:
    analysis = _analyse(_npm("server-memory"))
    assert len(analysis.tools) == 9
    for name in ("read_graph", "search_nodes", "open_nodes"):
        assert analysis.verdict(name).actual == {"READ_FS"}  # class method via module `let`
        assert analysis.verdict(name).verdict == OK
    for name in ("create_entities", "delete_relations"):
        assert analysis.verdict(name).actual == {"READ_FS", "WRITE_FS"}
        assert analysis.verdict(name).verdict == OK


def test_everything_environment_tool_reaches_env() -> None:
    analysis = _analyse(_npm("server-everything"))
    assert len(analysis.tools) == 19
    env = analysis.verdict("get-env")
    assert env.actual == {"ENV"} and env.verdict == OK  # the description says so
    witness = env.witnesses()["ENV"][0]
    assert (witness.file, witness.symbol) == ("tools/get-env.js", "process.env")
    assert analysis.verdict("gzip-file-as-resource").actual == {"NETWORK_OUTBOUND"}
    assert analysis.verdict("echo").actual == frozenset()
    assert "simulate-research-query" in {t.name for t in analysis.tools}  # registerToolTask


def test_git_tools_run_git() -> None:
    analysis = _analyse(_pypi("mcp-server-git"))
    assert len(analysis.tools) == 12
    assert analysis.verdict("git_status").actual == {"READ_FS", "EXEC_PROCESS"}
    assert analysis.verdict("git_reset").actual == {"WRITE_FS", "EXEC_PROCESS"}
    spec = next(t for t in analysis.tools if t.name == "git_status")
    assert spec.annotations is not None and spec.annotations["readOnlyHint"] is True
    assert all(v.verdict == OK for v in analysis.verdicts)


def test_fetch_and_time() -> None:
    fetch = _analyse(_pypi("mcp-server-fetch"))
    assert fetch.verdict("fetch").actual == {"NETWORK_OUTBOUND"}
    assert fetch.verdict("fetch").verdict == OK
    time = _analyse(_pypi("mcp-server-time"))
    assert {t.name for t in time.tools} == {"get_current_time", "convert_time"}
    assert all(v.verdict == OK and not v.actual for v in time.verdicts)


def test_a_planted_write_in_the_real_filesystem_server_is_caught(tmp_path: Path) -> None:
    """The OK verdicts above can fail: plant one write in a helper the read tools share."""
    source = _npm("server-filesystem")
    require_path(source, "server-filesystem")
    for path in source.glob("*.js"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    lib = tmp_path / "lib.js"
    original = "    return await fs.readFile(filePath, encoding);"
    text = lib.read_text()
    assert original in text
    lib.write_text(
        text.replace(original, "    await fs.appendFile('/tmp/log', filePath);\n" + original)
    )
    analysis = analyse_directory(tmp_path)
    read = analysis.verdict("read_text_file")
    assert read.verdict == VIOLATION and read.undeclared == {"WRITE_FS"}
    witness = read.witnesses()["WRITE_FS"][0]
    assert (witness.file, witness.symbol) == ("lib.js", "fs.appendFile")
    assert analysis.verdict("list_directory").verdict == OK  # does not call readFileContent


def test_a_planted_shell_in_the_real_time_server_is_caught(tmp_path: Path) -> None:
    source = _pypi("mcp-server-time")
    for path in source.glob("*.py"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    server = tmp_path / "server.py"
    original = '        """Get current time in specified timezone"""'
    text = server.read_text()
    assert original in text
    planted = original + '\n        subprocess.run("id", shell=True)'
    server.write_text("import subprocess\n" + text.replace(original, planted))
    analysis = analyse_directory(tmp_path)
    current = analysis.verdict("get_current_time")
    assert current.verdict == VIOLATION and "EXEC_SHELL" in current.undeclared
    assert analysis.verdict("convert_time").verdict == OK


def test_the_documented_verdict_table_is_current() -> None:
    """docs/code-verification.md lists every real tool's verdict; recompute each row."""
    from conftest import ROOT
    from toolwitness.code import lattice

    places = {
        "server-filesystem": _npm("server-filesystem"),
        "server-memory": _npm("server-memory"),
        "server-everything": _npm("server-everything"),
        "mcp-server-git": _pypi("mcp-server-git"),
        "mcp-server-fetch": _pypi("mcp-server-fetch"),
        "mcp-server-time": _pypi("mcp-server-time"),
    }
    modes = (DeclaredFrom.BOTH, DeclaredFrom.ANNOTATIONS, DeclaredFrom.DESCRIPTION)
    doc = (ROOT / "docs" / "code-verification.md").read_text(encoding="utf-8")
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in doc.splitlines()
        if line.startswith("| ") and line.split("|")[1].strip() in places
    ]
    assert len(rows) == 57
    analyses = {(pkg, m): _analyse(path, m) for pkg, path in places.items() for m in modes}
    for package, tool, actual, *verdicts in rows:
        base = analyses[(package, DeclaredFrom.BOTH)].verdict(tool)
        assert (", ".join(lattice.ordered(base.actual)) or "–") == actual, (package, tool)
        for mode, shown in zip(modes, verdicts, strict=True):
            result = analyses[(package, mode)].verdict(tool)
            undeclared = ", ".join(lattice.ordered(result.undeclared))
            expected = result.verdict + (f" ({undeclared})" if undeclared else "")
            assert shown == expected, (package, tool, mode)
