"""Play a JSON-RPC session file against a stdio MCP command, one message at a time.

    python examples/walkthrough/mcp_session.py SESSION.jsonl -- CMD [ARG...] > replies.jsonl

Each request (a line with an `id`) is sent only after the reply to the previous one arrived, as
a client that acts on what it was told does; notifications are sent at once. Piping the whole
file into the command instead lets the server answer pipelined requests in any order (the MCP
SDKs handle requests concurrently), so a `tools/list` sent after a call could be answered
before the call took effect. Replies are written to standard output, one per line; the
command's standard error passes through.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from queue import Empty, Queue
from typing import IO, Any

REPLY_TIMEOUT = 60.0  # seconds to wait for one reply before giving up


def _reader(stream: IO[bytes], out: Queue[dict[str, Any] | None]) -> None:
    for raw in stream:
        try:
            message = json.loads(raw)
        except ValueError:
            continue  # not JSON-RPC: nothing a client would read
        if isinstance(message, dict):
            out.put(message)
    out.put(None)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: mcp_session.py SESSION.jsonl -- CMD [ARG...]\n")
        return 2
    lines = [json.loads(line) for line in Path(argv[0]).read_text("utf-8").splitlines() if line]
    child = subprocess.Popen(argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    replies: Queue[dict[str, Any] | None] = Queue()
    threading.Thread(target=_reader, args=(child.stdout, replies), daemon=True).start()
    status = 0
    for message in lines:
        child.stdin.write(json.dumps(message).encode() + b"\n")
        child.stdin.flush()
        if "id" not in message:
            continue
        while True:
            try:
                reply = replies.get(timeout=REPLY_TIMEOUT)
            except Empty:
                sys.stderr.write(f"mcp_session: no reply to request {message['id']}\n")
                status = 1
                break
            if reply is None:
                sys.stderr.write(f"mcp_session: the command exited before reply {message['id']}\n")
                status = 1
                break
            if "method" in reply:
                continue  # a server notification or request, not the reply awaited
            sys.stdout.write(json.dumps(reply) + "\n")
            if reply.get("id") == message["id"]:
                break
        if status:
            break
    child.stdin.close()
    child.wait(timeout=REPLY_TIMEOUT)
    return status or (0 if child.returncode == 0 else 1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
