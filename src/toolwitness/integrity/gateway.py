"""`toolwitness gateway`: a stdio MCP proxy that enforces the pin on every `tools/list`.

Two threads copy newline-delimited JSON-RPC both ways. Pass-through messages are forwarded as the
exact bytes received; a message is parsed only when it may matter:

- client → server: lines mentioning `tools/list`, or `tools/call` while some tool is dropped (or
  holding a `\\/` or `\\u` escape, which could spell either): a `tools/list` request's id is
  remembered; a `tools/call` to a dropped tool is answered here with a JSON-RPC error and never
  reaches the server. Without `--server-id`, the `initialize` request's id too: its answer's
  `serverInfo.name` is the lock key;
- server → client: every line while a `tools/list` (or that `initialize`) answer is outstanding
  (ids are not visible without parsing, and a key can be written with escapes), parsed strictly
  (duplicate keys and other ambiguities rejected: fail closed), plus lines mentioning
  `list_changed`.

What the gate decides is said on stderr (a dropped tool with the reason and the finding that
blocked it, a changed tool that passed with a warning) and appended to the audit log. The
metadata checks load in a background thread at start, so a mid-session change is re-checked
without waiting for the import.

Only a response whose tools are dropped is re-serialised. Lines over the size bound are rejected,
not truncated. The child inherits stderr, is killed with its process group when the gateway
exits, and its exit status becomes the gateway's.
"""

from __future__ import annotations

import collections
import io
import json
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import IO, Any

from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.integrity import child
from toolwitness.integrity.audit import AuditLog
from toolwitness.integrity.gate import ToolGate
from toolwitness.integrity.lines import LineReader, write_all
from toolwitness.textnorm import escape_display

INVALID_PARAMS = -32602
INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603
MAX_PENDING = 4096
ANSWERED_KEPT = 64


def _key(request_id: Any) -> str:
    return json.dumps(request_id, sort_keys=True)


def _error(request_id: Any, code: int, message: str, data: dict[str, Any] | None = None) -> bytes:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    doc = {"jsonrpc": "2.0", "id": request_id, "error": error}
    return json.dumps(doc, ensure_ascii=True, separators=(",", ":")).encode() + b"\n"


def _note(message: str) -> None:
    sys.stderr.write(f"toolwitness gateway: {escape_display(message)}\n")
    sys.stderr.flush()


class Gateway:
    def __init__(
        self,
        command: Sequence[str],
        gate: ToolGate,
        *,
        audit: AuditLog | None = None,
        max_message_bytes: int = 16 * 1024 * 1024,
        client_in: IO[bytes] | None = None,
        client_out: IO[bytes] | None = None,
    ) -> None:
        """`client_in`/`client_out` default to fds 0 and 1."""
        self.command = list(command)
        self.gate = gate
        self.audit = audit
        self.max_bytes = max_message_bytes
        # strict parsing of server lines: ambiguity (duplicate keys) is what it must catch; a long
        # string is bounded by the message size already
        self.limits = InputLimits(
            max_file_bytes=max_message_bytes, max_string_chars=max_message_bytes
        )
        self.client_in = client_in
        self.client_out = client_out
        self._out_lock = threading.Lock()
        self._pending: dict[str, bool] = {}  # tools/list request id -> is a continuation page
        self._pending_lock = threading.Lock()
        # ids of answered tools/list requests: a second answer to one is dropped, not forwarded
        # unchecked (a client that keeps the last answer would otherwise take the unchecked one)
        self._answered: collections.deque[str] = collections.deque(maxlen=ANSWERED_KEPT)
        self._init_pending: set[str] = set()  # initialize request ids (no --server-id)
        self._done = threading.Event()
        self.process: subprocess.Popen[bytes] | None = None

    # --- plumbing ------------------------------------------------------------------------------
    def _to_client(self, data: bytes) -> None:
        with self._out_lock:
            assert self.client_out is not None
            write_all(self.client_out, data)
            self.client_out.flush()

    def _record(self, record: dict[str, Any]) -> None:
        if self.audit is not None:
            self.audit.write(record)

    def run(self) -> int:
        # Handlers first: a SIGTERM that arrives once the server exists must end the session
        # (and so the server), not the gateway alone with its default action.
        previous = child.install_signal_handlers(self._done)
        try:
            self.process = child.spawn(self.command)
        except BaseException:
            child.restore_signal_handlers(previous)
            raise
        warm = threading.Thread(target=self._warm, name="recheck warm-up", daemon=True)
        warm.start()
        # Our own unbuffered handles on fds 0 and 1: a daemon thread blocked in sys.stdin.buffer
        # makes interpreter shutdown abort (the buffer's lock is held); ours are never finalised.
        if self.client_in is None:
            self.client_in = io.FileIO(sys.stdin.fileno(), "rb", closefd=False)
        if self.client_out is None:
            self.client_out = io.FileIO(sys.stdout.fileno(), "wb", closefd=False)
        upstream = threading.Thread(target=self._client_loop, name="client->server", daemon=True)
        downstream = threading.Thread(target=self._server_loop, name="server->client", daemon=True)
        upstream.start()
        downstream.start()
        try:
            while not self._done.wait(0.5):
                pass
        finally:
            child.restore_signal_handlers(previous)
            code = child.stop(self.process)
        downstream.join(timeout=child.SHUTDOWN_GRACE_SECONDS)
        return code

    def _warm(self) -> None:
        try:
            self.gate.rechecker.warm()
        except Exception as exc:  # a re-check will try again and fail closed then
            _note(f"the metadata checks could not be loaded: {type(exc).__name__}")

    def _say(self, notes: Sequence[str]) -> None:
        for text in notes:
            _note(text)

    # --- client -> server ----------------------------------------------------------------------
    def _client_loop(self) -> None:
        process = self.process
        assert process is not None and process.stdin is not None
        assert self.client_in is not None
        reader = LineReader(self.client_in, self.max_bytes)
        try:
            while True:
                line = reader.next()
                if line is None:
                    break
                if line is LineReader.OVERSIZE:
                    self._to_client(
                        _error(
                            None, INVALID_REQUEST, f"message over {self.max_bytes} bytes rejected"
                        )
                    )
                    continue
                forward = self._from_client(line) if self._may_matter(line) else line
                if forward:
                    write_all(process.stdin, forward)
        except (BrokenPipeError, OSError, ValueError):
            pass
        finally:
            self._done.set()

    def _may_matter(self, line: bytes) -> bool:
        """Cheap byte tests before any parsing: a tools/list to track, a call while tools are
        dropped, or a `\\/` / `\\u` escape that could spell either method name."""
        return (
            b"tools/list" in line
            or (bool(self.gate.dropped) and b"tools/call" in line)
            or (self.gate.server_id is None and b"initialize" in line)
            or b"\\/" in line
            or b"\\u" in line
        )

    def _from_client(self, line: bytes) -> bytes:
        try:
            message = json.loads(line)
        except ValueError:
            return line  # not ours to judge; the server answers it
        if isinstance(message, list):
            kept = [m for m in message if not self._refused(m)]
            if len(kept) == len(message):
                return line
            return (json.dumps(kept).encode() + b"\n") if kept else b""
        return b"" if self._refused(message) else line

    def _refused(self, message: Any) -> bool:
        """Track tools/list ids; answer (and swallow) a tools/call to a dropped tool."""
        if not isinstance(message, dict) or "id" not in message:
            return False
        method = message.get("method")
        raw_params = message.get("params")
        params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
        if method == "initialize" and self.gate.server_id is None:
            with self._pending_lock:
                if len(self._init_pending) < MAX_PENDING:
                    self._init_pending.add(_key(message["id"]))
            return False
        if method == "tools/list":
            with self._pending_lock:
                if len(self._pending) >= MAX_PENDING:
                    self._to_client(_error(message["id"], INTERNAL_ERROR, "too many pending lists"))
                    return True
                key = _key(message["id"])
                self._pending[key] = params.get("cursor") is not None
                if key in self._answered:
                    self._answered.remove(key)
            return False
        if method != "tools/call":
            return False
        name = params.get("name")
        reason = self.gate.refusal(name) if isinstance(name, str) else None
        if reason is None:
            return False
        shown = escape_display(name) if isinstance(name, str) else "?"
        text = f"toolwitness gateway refused tools/call: tool {shown!r} was {reason}"
        self._to_client(
            _error(
                message["id"],
                INVALID_PARAMS,
                text,
                {"toolwitness": {"tool": name, "reason": reason}},
            )
        )
        self._record({"event": "refused", "server": self.gate.server_id, "tool": name})
        return True

    # --- server -> client ----------------------------------------------------------------------
    def _server_loop(self) -> None:
        process = self.process
        assert process is not None and process.stdout is not None
        reader = LineReader(process.stdout, self.max_bytes)
        try:
            while True:
                line = reader.next()
                if line is None:
                    break
                if line is LineReader.OVERSIZE:
                    _note(f"server message over {self.max_bytes} bytes dropped")
                    self._record({"event": "oversize", "server": self.gate.server_id})
                    continue
                due = self._pending or self._init_pending
                if due or b"list_changed" in line or self._maybe_repeat(line):
                    line = self._from_server(line)
                if line:
                    self._to_client(line)
        except (BrokenPipeError, OSError, ValueError):
            pass
        finally:
            self._done.set()

    def _unparsed(self, line: bytes, reason: str) -> bytes:
        """A server line the strict parser refused. Ambiguous JSON (duplicate keys) while a
        tools list is due is dropped: which reading would the client take? Otherwise only an
        answer to a pending tools/list is stopped (answered with an error); other traffic, such
        as a tool result holding an integer beyond 2^53, passes as it came."""
        if not self._pending:
            return line
        if reason.startswith("duplicate key"):
            _note(f"server message rejected while a tools list was due: {reason}")
            self._record({"event": "rejected", "server": self.gate.server_id, "reason": reason})
            return b""
        try:
            message = json.loads(line)
        except ValueError:
            return line  # not JSON: no client can read a tools list out of it
        errors = b""
        for item in message if isinstance(message, list) else [message]:
            if not isinstance(item, dict) or "method" in item or "id" not in item:
                continue
            with self._pending_lock:
                pending = self._pending.pop(_key(item["id"]), None)
            if pending is not None:
                self._record({"event": "rejected", "server": self.gate.server_id, "reason": reason})
                text = "toolwitness gateway: tools/list result rejected: " + escape_display(reason)
                errors += _error(item["id"], INTERNAL_ERROR, text)
        return errors or line

    def _maybe_repeat(self, line: bytes) -> bool:
        """Could this line be another answer to an answered tools/list? (cheap byte tests)"""
        return bool(self._answered) and (b"tools" in line or b"\\u" in line)

    def _from_server(self, line: bytes) -> bytes:
        try:
            message = parse_json_bytes(line, "server message", self.limits)
        except InputError as exc:
            return self._unparsed(line, exc.reason)
        if isinstance(message, list):
            out = [self._judge_message(m) for m in message]
            if all(o is m for o, m in zip(out, message, strict=True)):
                return line
            return json.dumps([o for o in out if o is not None]).encode() + b"\n"
        judged = self._judge_message(message)
        if judged is message:
            return line
        return b"" if judged is None else json.dumps(judged).encode() + b"\n"

    def _judge_message(self, message: Any) -> Any:
        """The message unchanged (same object), a replacement, or None to drop it."""
        if not isinstance(message, dict):
            return message
        if message.get("method") == "notifications/tools/list_changed":
            self._record({"event": "list_changed", "server": self.gate.server_id})
            return message
        if "method" in message or "id" not in message:
            return message
        key = _key(message["id"])
        with self._pending_lock:
            initialize = key in self._init_pending
            self._init_pending.discard(key)
        if initialize:
            self._identify(message)
            return message
        with self._pending_lock:
            continuation = self._pending.pop(key, None)
            repeated = continuation is None and key in self._answered
            if continuation is not None:
                self._answered.append(key)
        if repeated:
            _note("a second answer to an already answered tools/list was dropped")
            self._record({"event": "repeated-answer", "server": self.gate.server_id})
            return None
        if continuation is None or "result" not in message:
            return message
        result = message["result"]
        if not isinstance(result, dict):
            return _replace_error(message, "the tools/list result is not an object")
        complete = result.get("nextCursor") is None
        decision = self.gate.check_page(
            result.get("tools"), continuation=continuation, complete=complete
        )
        if decision.error is not None:
            _note(f"tools/list result rejected: {decision.error}")
            self._record(
                {"event": "rejected", "server": self.gate.server_id, "reason": decision.error}
            )
            return _replace_error(message, f"tools/list result rejected: {decision.error}")
        self._say(decision.notes)
        if decision.record is not None:
            self._record(decision.record)
        if not decision.dropped:
            return message
        return {**message, "result": {**result, "tools": decision.kept}}

    def _identify(self, message: dict[str, Any]) -> None:
        """The initialize answer names the server: its serverInfo.name is the lock key."""
        result = message.get("result")
        info = result.get("serverInfo") if isinstance(result, dict) else None
        name = info.get("name") if isinstance(info, dict) else None
        self._say(self.gate.identify(name))
        if self.gate.server_id is not None:
            self._record(
                {
                    "event": "identified",
                    "server": self.gate.server_id,
                    "from": "serverInfo",
                    "pinned": self.gate.entry is not None,
                }
            )


def _replace_error(message: dict[str, Any], text: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": message["id"],
        "error": {
            "code": INTERNAL_ERROR,
            "message": "toolwitness gateway: " + escape_display(text),
        },
    }
