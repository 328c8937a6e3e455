"""The stdio gateway: the policy on its own, then end to end with the official `mcp` SDK client
against the real npm server-memory and against a fixture server that pulls the rug mid-session."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import mcp.types as mcp_types
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from conftest import FIXTURES, npm_server_entry
from toolwitness.cli import main
from toolwitness.integrity.gate import ToolGate
from toolwitness.integrity.lines import LineReader
from toolwitness.integrity.lock import entry_for
from toolwitness.model import ServerSurface, Tool

RUGPULL = FIXTURES / "rugpull_server.py"
RUGPULL_KEY = ["--server-id", "rugpull-fixture"]  # the serverInfo name the fixture reports
MEMORY_PACKAGE = "@modelcontextprotocol/server-memory"


def _gateway_argv(lock: Path, *options: str) -> list[str]:
    return [sys.executable, "-m", "toolwitness", "gateway", "--lock", str(lock), *options, "--"]


def _text(result: mcp_types.CallToolResult) -> str:
    first = result.content[0]
    assert isinstance(first, mcp_types.TextContent)
    return first.text


async def _with_session(
    argv: list[str],
    body: Callable[[ClientSession, anyio.Event], Awaitable[None]],
    env: dict[str, str] | None = None,
) -> None:
    list_changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, mcp_types.ToolListChangedNotification):
            list_changed.set()

    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
    with anyio.fail_after(60):
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write, message_handler=on_message) as session,
        ):
            await session.initialize()
            await body(session, list_changed)


def _pin_fixture(tmp_path: Path) -> Path:
    """Pin the fixture server's initial tools (as `toolwitness lock` would from a snapshot), under
    the serverInfo name the server reports: the gateway finds the pin without --server-id."""
    dump = subprocess.run(
        [sys.executable, str(RUGPULL), "--dump-tools"], capture_output=True, check=True, text=True
    )
    catalog = tmp_path / "rug.json"
    catalog.write_text(dump.stdout)
    lock = tmp_path / "toolwitness.lock"
    assert main(["lock", str(catalog), "-o", str(lock), "--yes", *RUGPULL_KEY]) == 0
    return lock


# --- end to end: the rug pull ----------------------------------------------------------------------


@pytest.mark.live
def test_rug_pull_mid_session_is_dropped_and_refused(tmp_path: Path) -> None:
    lock = _pin_fixture(tmp_path)
    audit = tmp_path / "audit.jsonl"
    argv = [*_gateway_argv(lock, "--audit", str(audit)), sys.executable, str(RUGPULL)]

    async def body(session: ClientSession, list_changed: anyio.Event) -> None:
        first = await session.list_tools()
        assert {t.name for t in first.tools} == {"lookup", "rotate", "echo"}
        assert _text(await session.call_tool("lookup", {"id": "7"})) == "record 7"
        assert _text(await session.call_tool("rotate", {})) == "rotated"
        with anyio.fail_after(10):
            await list_changed.wait()
        second = await session.list_tools()
        assert {t.name for t in second.tools} == {"rotate", "echo"}
        with pytest.raises(MCPError) as refused:
            await session.call_tool("lookup", {"id": "7"})
        message = refused.value.error.message
        assert "toolwitness gateway refused" in message
        assert "readOnlyHint: absent → true" in message
        assert _text(await session.call_tool("echo", {"text": "still here"})) == "still here"

    anyio.run(_with_session, argv, body)
    records = [json.loads(line) for line in audit.read_text().splitlines()]
    assert records[0]["event"] == "identified" and records[0]["server"] == "rugpull-fixture"
    checks = [r for r in records if r["event"] == "tools/list"]
    assert [r["state"] for r in checks] == ["matched", "blocked"]
    assert checks[1]["dropped"] == ["lookup"]
    (change,) = checks[1]["changes"]
    assert {k: change[k] for k in ("tool", "change", "fields", "widening")} == {
        "tool": "lookup",
        "change": "modified",
        "fields": ["description", "annotations"],
        "widening": True,
    }
    assert change["blocked_by"][0] == "widening"
    assert change["digest"].startswith("sha256:") and change["pinned"].startswith("sha256:")
    assert any(r["event"] == "list_changed" for r in records)
    assert any(r["event"] == "refused" and r["tool"] == "lookup" for r in records)
    for text in (audit.read_text(), lock.read_text()):
        assert "SECRET-RUGPULL-TEXT" not in text
        assert "Look up a customer record" not in text
        assert "Rotate the session key" not in text


@pytest.mark.live
def test_on_change_drop_also_drops_changed_tools(tmp_path: Path) -> None:
    catalog = tmp_path / "rug.json"
    dump = subprocess.run(
        [sys.executable, str(RUGPULL), "--dump-tools"], capture_output=True, text=True
    )
    doc = json.loads(dump.stdout)
    doc["tools"][2]["description"] = "An older wording of echo."  # the pin differs from what runs
    catalog.write_text(json.dumps(doc))
    lock = tmp_path / "toolwitness.lock"
    assert main(["lock", str(catalog), "-o", str(lock), "--yes", *RUGPULL_KEY]) == 0

    async def body(session: ClientSession, _: anyio.Event) -> None:
        listed = await session.list_tools()
        assert {t.name for t in listed.tools} == {"lookup", "rotate"}
        with pytest.raises(MCPError, match="changed since pinned"):
            await session.call_tool("echo", {"text": "x"})

    argv = [*_gateway_argv(lock, "--on-change", "drop"), sys.executable, str(RUGPULL)]
    anyio.run(_with_session, argv, body)

    async def warn_body(session: ClientSession, _: anyio.Event) -> None:
        listed = await session.list_tools()
        assert {t.name for t in listed.tools} == {"lookup", "rotate", "echo"}

    anyio.run(_with_session, [*_gateway_argv(lock), sys.executable, str(RUGPULL)], warn_body)


# --- end to end: a real npm server ---------------------------------------------------------------


@pytest.mark.live
def test_sdk_session_through_gateway_to_server_memory(tmp_path: Path) -> None:
    entry = npm_server_entry(MEMORY_PACKAGE)
    env = {"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")}
    catalog = tmp_path / "memory.json"

    async def snapshot(session: ClientSession, _: anyio.Event) -> None:
        listed = await session.list_tools()
        tools = [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in listed.tools]
        catalog.write_text(json.dumps({"tools": tools}))

    anyio.run(_with_session, ["node", str(entry)], snapshot, env)  # direct: the pin's source
    lock = tmp_path / "toolwitness.lock"
    assert main(["lock", str(catalog), "-o", str(lock), "--yes", "--server-id", "memory"]) == 0
    audit = tmp_path / "audit.jsonl"

    async def body(session: ClientSession, _: anyio.Event) -> None:
        listed = await session.list_tools()
        names = {t.name for t in listed.tools}
        assert len(names) == 9 and {"create_entities", "read_graph"} <= names
        created = await session.call_tool(
            "create_entities",
            {
                "entities": [
                    {"name": "gateway", "entityType": "proxy", "observations": ["forwards"]}
                ]
            },
        )
        assert not created.is_error
        graph = await session.call_tool("read_graph", {})
        assert "gateway" in _text(graph)

    argv = [
        *_gateway_argv(lock, "--server-id", "memory", "--audit", str(audit)),
        "node",
        str(entry),
    ]
    anyio.run(_with_session, argv, body, env)
    (record,) = [json.loads(line) for line in audit.read_text().splitlines()]
    assert record["state"] == "matched" and record["server"] == "memory"


# --- the process: exit status, oversize, malformed answers ------------------------------------------


def _raw_gateway(
    lock: Path, server: list[str], lines: list[bytes], *options: str
) -> tuple[int, list[Any], str]:
    proc = subprocess.run(  # raw sessions skip initialize: the pin is named by --server-id
        [*_gateway_argv(lock, *RUGPULL_KEY, *options), *server],
        input=b"".join(lines),
        capture_output=True,
        timeout=60,
    )
    out = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return proc.returncode, out, proc.stderr.decode()


def _request(request_id: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    doc: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        doc["params"] = params
    return json.dumps(doc).encode() + b"\n"


@pytest.mark.live
def test_exit_status_of_the_server_is_passed_on(tmp_path: Path) -> None:
    lock = _pin_fixture(tmp_path)
    code, out, _ = _raw_gateway(
        lock, [sys.executable, str(RUGPULL), "--exit-code", "5"], [_request(1, "ping")]
    )
    assert code == 5
    assert out == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


@pytest.mark.live
def test_server_that_dies_ends_the_gateway(tmp_path: Path) -> None:
    lock = _pin_fixture(tmp_path)
    proc = subprocess.Popen(
        [*_gateway_argv(lock), sys.executable, "-c", "import sys; sys.exit(7)"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    # stdin stays open: the gateway must notice the server's exit on its own
    assert proc.wait(timeout=30) == 7
    assert proc.stdin is not None
    proc.stdin.close()


@pytest.mark.live
def test_oversize_client_message_is_rejected_not_forwarded(tmp_path: Path) -> None:
    lock = _pin_fixture(tmp_path)
    big = _request(
        1, "tools/call", {"name": "echo", "arguments": {"text": "x" * (2 * 1024 * 1024)}}
    )
    code, out, _ = _raw_gateway(
        lock,
        [sys.executable, str(RUGPULL)],
        [big, _request(2, "ping")],
        "--max-message-mib",
        "1",
    )
    assert code == 0
    assert out[0]["id"] is None and "over" in out[0]["error"]["message"]
    assert out[1] == {"jsonrpc": "2.0", "id": 2, "result": {}}


def _scripted_server(tmp_path: Path, answer: str) -> list[str]:
    """A server that answers any tools/list with the raw text `answer` (with the id spliced in)."""
    script = tmp_path / "scripted.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg.get('method') == 'tools/list':\n"
        f"        sys.stdout.write({answer!r}.replace('ID', json.dumps(msg['id'])) + '\\n')\n"
        "        sys.stdout.flush()\n"
    )
    return [sys.executable, str(script)]


@pytest.mark.live
def test_duplicate_key_tools_list_is_rejected_fail_closed(tmp_path: Path) -> None:
    lock = _pin_fixture(tmp_path)
    sneaky = (
        '{"jsonrpc": "2.0", "id": ID, "result": {"tools": []}, '
        '"result": {"tools": [{"name": "lookup", "inputSchema": {"type": "object"}, '
        '"annotations": {"readOnlyHint": true}}]}}'
    )
    code, out, err = _raw_gateway(
        lock, _scripted_server(tmp_path, sneaky), [_request(3, "tools/list")]
    )
    assert code == 0
    assert out == []  # neither reading of the ambiguous answer reached the client
    assert "duplicate key" in err


@pytest.mark.live
def test_escaped_keys_do_not_sneak_a_list_past_the_check(tmp_path: Path) -> None:
    lock = _pin_fixture(tmp_path)
    escaped = (
        '{"jsonrpc": "2.0", "id": ID, "result": {"\\u0074ools": [{"name": "lookup", '
        '"inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}]}}'
    )
    code, out, _ = _raw_gateway(
        lock, _scripted_server(tmp_path, escaped), [_request(4, "tools/list")]
    )
    assert code == 0
    assert out[0]["id"] == 4
    assert out[0]["result"]["tools"] == []


def test_gateway_usage_errors(tmp_path: Path) -> None:
    missing = tmp_path / "none.lock"
    assert main(["gateway", "--lock", str(missing), "--", "true"]) == 2
    lock = _pin_fixture(tmp_path)
    assert main(["gateway", "--lock", str(lock), "--on-change", "ignore", "--", "true"]) == 2
    assert main(["gateway", "--lock", str(lock), "--", "/nonexistent/server-binary"]) == 2


# --- the policy on its own -----------------------------------------------------------------------


def _raw(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "inputSchema": {"type": "object"}, **fields}


def _pinned_gate(on_change: str = "warn") -> ToolGate:
    surface = ServerSurface(
        id="s",
        tools=(
            Tool(name="a", inputSchema={"type": "object"}),
            Tool(name="b", inputSchema={"type": "object"}),
        ),
    )
    return ToolGate(server_id="s", entry=entry_for(surface), on_change=on_change)


def test_gate_judges_pages_and_names_removals_at_the_end() -> None:
    gate = _pinned_gate()
    first = gate.check_page(
        [_raw("a", annotations={"readOnlyHint": True})], continuation=False, complete=False
    )
    assert first.kept == [] and set(first.dropped) == {"a"} and first.record is None
    assert gate.refusal("a") is not None
    last = gate.check_page([_raw("c")], continuation=True, complete=True)
    assert last.kept == [_raw("c")]
    assert last.record is not None
    assert last.record["state"] == "blocked"
    assert [(c["tool"], c["change"]) for c in last.record["changes"]] == [
        ("a", "modified"),
        ("b", "removed"),
        ("c", "added"),
    ]
    # a fresh listing where the server reverted: the tool is allowed again
    again = gate.check_page([_raw("a"), _raw("b")], continuation=False, complete=True)
    assert again.dropped == {} and gate.refusal("a") is None
    assert again.record is not None and again.record["state"] == "matched"


def test_gate_malformed_page_keeps_earlier_verdicts() -> None:
    gate = _pinned_gate()
    gate.check_page(
        [_raw("a", annotations={"readOnlyHint": True}), _raw("b")],
        continuation=False,
        complete=True,
    )
    bad = gate.check_page([_raw("a"), _raw("a")], continuation=False, complete=True)
    assert bad.error is not None and "duplicate" in bad.error
    assert gate.refusal("a") is not None  # still refused: a bad page unblocks nothing
    assert gate.check_page({"not": "a list"}, continuation=False, complete=True).error


def test_unpinned_gate_takes_a_session_baseline() -> None:
    gate = ToolGate(server_id="s", entry=None)
    first = gate.check_page([_raw("a")], continuation=False, complete=True)
    assert first.record is not None and first.record["state"] == "unpinned" and first.dropped == {}
    later = gate.check_page(
        [_raw("a", annotations={"readOnlyHint": True})], continuation=False, complete=True
    )
    assert set(later.dropped) == {"a"}
    assert later.record is not None and later.record["baseline"] == "session"


def test_line_reader_bounds() -> None:
    stream = io.BytesIO(b"short\n" + b"x" * 100 + b"\nnext\ntail")
    reader = LineReader(stream, 10)
    assert reader.next() == b"short\n"
    assert reader.next() is LineReader.OVERSIZE
    assert reader.next() == b"next\n"
    assert reader.next() == b"tail"
    assert reader.next() is None
    exact = LineReader(io.BytesIO(b"0123456789\n"), 10)
    assert exact.next() == b"0123456789\n"


@pytest.mark.live
def test_batched_call_to_a_dropped_tool_is_refused_and_the_rest_forwarded(tmp_path: Path) -> None:
    lock = _pin_fixture(tmp_path)
    proc = subprocess.Popen(
        [*_gateway_argv(lock, *RUGPULL_KEY), sys.executable, str(RUGPULL)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def ask(data: bytes, answers: int) -> list[Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(data)
        proc.stdin.flush()
        return [json.loads(proc.stdout.readline()) for _ in range(answers)]

    changed, rotated = ask(_request(1, "tools/call", {"name": "rotate", "arguments": {}}), 2)
    assert changed["method"] == "notifications/tools/list_changed" and rotated["id"] == 1
    (listed,) = ask(_request(2, "tools/list"), 1)
    assert [t["name"] for t in listed["result"]["tools"]] == ["rotate", "echo"]
    batch = [
        json.loads(_request(3, "tools/call", {"name": "lookup", "arguments": {}})),
        json.loads(_request(4, "tools/call", {"name": "echo", "arguments": {"text": "b"}})),
    ]
    proc.stdin.write(json.dumps(batch).encode() + b"\n")
    proc.stdin.flush()
    answers = [json.loads(proc.stdout.readline()) for _ in range(2)]
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    by_id = {a["id"]: a for a in answers}
    assert "refused" in by_id[3]["error"]["message"]
    assert by_id[4]["result"]["content"][0]["text"] == "b"


@pytest.mark.live
def test_terminating_the_gateway_kills_the_server(tmp_path: Path) -> None:
    import os
    import signal
    import time

    lock = _pin_fixture(tmp_path)
    pid_file = tmp_path / "server.pid"
    stubborn = (  # ignores end of input and SIGTERM-free exits: only a kill ends it
        "import os, signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
        f"open({str(pid_file)!r}, 'w').write(str(os.getpid())); sys.stdin.read(); time.sleep(600)"
    )
    proc = subprocess.Popen(
        [*_gateway_argv(lock), sys.executable, "-c", stubborn],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while not pid_file.exists() or not pid_file.read_text():
        if time.monotonic() > deadline:  # a hang, not a speed test
            pytest.fail("the gateway never started its server")
        time.sleep(0.05)
    server_pid = int(pid_file.read_text())
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 128 + signal.SIGKILL  # the server's own fate, passed on
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.kill(server_pid, 0)


@pytest.mark.live
def test_pass_through_is_byte_identical(tmp_path: Path) -> None:
    """With `cat` as the server every line comes back through both directions untouched."""
    lock = _pin_fixture(tmp_path)
    lines = [
        b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
        b'{ "jsonrpc" : "2.0", "id" : "a b", "method" : "resources/read", "params" : {} }\n',
        '{"jsonrpc":"2.0","id":2,"result":{"text":"caf\u00e9 \\u00e9 \\/ \u202e"}}\n'.encode(),
        b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{}}}\n',
        b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1.50}}\n',
        b"not json at all\n",
        b'[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"ping"}]\n',
    ]
    proc = subprocess.run(
        [*_gateway_argv(lock), "cat"], input=b"".join(lines), capture_output=True, timeout=60
    )
    assert proc.returncode == 0
    assert proc.stdout == b"".join(lines)


@pytest.mark.live
def test_other_traffic_while_a_list_is_due_and_repeated_answers(tmp_path: Path) -> None:
    lock = _pin_fixture(tmp_path)
    big_int = '{"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": 9007199254740993}}'
    answer = '{"jsonrpc": "2.0", "id": ID, "result": {"tools": []}}'
    evil = (
        '{"jsonrpc": "2.0", "id": ID, "result": {"tools": [{"name": "lookup", '
        '"inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}]}}'
    )
    server = _scripted_server(tmp_path, "\n".join([big_int, answer, evil]))
    code, out, err = _raw_gateway(lock, server, [_request(6, "tools/list")])
    assert code == 0
    assert out[0]["params"]["data"] == 9007199254740993  # strictness never eats other traffic
    assert out[1] == {"jsonrpc": "2.0", "id": 6, "result": {"tools": []}}
    assert len(out) == 2  # the second, unchecked answer to id 6 never reached the client
    assert "second answer" in err


@pytest.mark.live
def test_paged_lists_are_judged_per_page_and_named_at_the_end(tmp_path: Path) -> None:
    lock = _pin_fixture(tmp_path)  # pins lookup, rotate, echo
    script = tmp_path / "paged.py"
    script.write_text(
        "import json, sys\n"
        "PAGES = {None: ([{'name': 'lookup', 'inputSchema': {'type': 'object'},"
        " 'annotations': {'readOnlyHint': True}}], 'p2'),\n"
        "         'p2': ([{'name': 'fresh', 'inputSchema': {'type': 'object'}}], None)}\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    tools, cursor = PAGES[(msg.get('params') or {}).get('cursor')]\n"
        "    result = {'tools': tools}\n"
        "    if cursor: result['nextCursor'] = cursor\n"
        "    print(json.dumps({'jsonrpc': '2.0', 'id': msg['id'], 'result': result}), flush=True)\n"
    )
    audit = tmp_path / "audit.jsonl"
    proc = subprocess.Popen(
        [*_gateway_argv(lock, *RUGPULL_KEY, "--audit", str(audit)), sys.executable, str(script)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    pages = []
    for request in (_request(1, "tools/list"), _request(2, "tools/list", {"cursor": "p2"})):
        proc.stdin.write(request)
        proc.stdin.flush()
        pages.append(json.loads(proc.stdout.readline())["result"])
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    assert pages[0] == {"tools": [], "nextCursor": "p2"}  # blocked on the first page already
    assert [t["name"] for t in pages[1]["tools"]] == ["fresh"]
    (record,) = [json.loads(line) for line in audit.read_text().splitlines()]
    assert record["state"] == "blocked" and record["dropped"] == ["lookup"]
    assert {(c["tool"], c["change"]) for c in record["changes"]} == {
        ("lookup", "modified"),
        ("fresh", "added"),
        ("rotate", "removed"),
        ("echo", "removed"),
    }
