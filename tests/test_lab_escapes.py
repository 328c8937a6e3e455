"""The escape battery: every way out of the sandbox is blocked, and every attempt is reported.

A server tries, at start-up (`scan --live --sandbox`) or when its read-only tool is called
(`probe`): a Unix socket on a host path (a listener this test opens, in a folder named on the
server's command line), an abstract Unix socket, TCP and UDP to 127.0.0.1, a write to every
writable-looking host path, and a read of a secret planted on the host. The listeners must
receive nothing, the host paths must stay absent, the secret must not appear anywhere in the
report, and the report must name each attempt with its address or path.
"""

from __future__ import annotations

import json
import os
import secrets
import shlex
import socket
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, require_tools
from toolwitness.cli import main

SERVER = FIXTURES / "lab" / "escape_server.py"


@dataclass
class Listeners:
    """Host-side listeners the sandboxed server must not reach."""

    folder: Path
    unix: socket.socket
    abstract_name: str
    abstract: socket.socket
    tcp: socket.socket
    udp: socket.socket

    def received(self) -> list[str]:
        got: list[str] = []
        for name, listener in (("unix", self.unix), ("abstract", self.abstract), ("tcp", self.tcp)):
            try:
                conn, _ = listener.accept()
            except BlockingIOError:
                continue
            with conn:
                got.append(f"{name}: {conn.recv(100)!r}")
        try:
            got.append(f"udp: {self.udp.recv(100)!r}")
        except BlockingIOError:
            pass
        return got


@pytest.fixture
def listeners(tmp_path: Path) -> Iterator[Listeners]:
    folder = tmp_path / "sockets"
    folder.mkdir()
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(folder / "agent.sock"))
    name = f"tw-escape-{secrets.token_hex(6)}"
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind("\0" + name)
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("127.0.0.1", 0))
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    for sock in (unix, abstract, tcp):
        sock.listen(4)
    for sock in (unix, abstract, tcp, udp):
        sock.setblocking(False)
    yield Listeners(folder, unix, name, abstract, tcp, udp)
    for sock in (unix, abstract, tcp, udp):
        sock.close()


def _targets(tmp_path: Path, found: Listeners) -> dict[str, Any]:
    marker = f"escape-{secrets.token_hex(6)}"
    secret_dir = tmp_path / "host-secret"
    secret_dir.mkdir()
    (secret_dir / "token.txt").write_text(f"SECRET-{marker}", encoding="utf-8")
    home = os.path.expanduser("~")
    candidates = ["/tmp", "/var/tmp", "/dev/shm", "/run", home, str(found.folder), "/etc",
                  "/usr", str(tmp_path), "/"]  # fmt: skip
    writes = [os.path.join(c, marker) for c in candidates if os.path.isdir(c)]
    return {
        "abstract": found.abstract_name,
        "tcp": found.tcp.getsockname()[1],
        "udp": found.udp.getsockname()[1],
        "writes": writes,
        "secret": str(secret_dir / "token.txt"),
        "marker": marker,
    }


def _assert_blocked(found: Listeners, targets: dict[str, Any], report_text: str) -> None:
    assert found.received() == [], "a listener outside the sandbox received bytes"
    for path in targets["writes"]:
        assert not os.path.exists(path), f"the write reached the host: {path}"
    assert f"SECRET-{targets['marker']}" not in report_text, "the host secret was read"


def _expected_addresses(found: Listeners, targets: dict[str, Any]) -> set[str]:
    return {
        f"unix:{found.folder / 'agent.sock'}",
        f"unix:@{targets['abstract']}",
        f"tcp 127.0.0.1:{targets['tcp']}",
        f"udp 127.0.0.1:{targets['udp']}",
    }


def test_probe_blocks_and_reports_every_escape(tmp_path: Path, listeners: Listeners) -> None:
    require_tools("bwrap", "strace")
    targets = _targets(tmp_path, listeners)
    out = tmp_path / "probe.json"
    argv = [sys.executable, str(SERVER), "call", str(listeners.folder), json.dumps(targets)]
    code = main(["probe", "-f", "json", "-o", str(out), "--call-timeout", "10", "--", *argv])
    assert code == 0
    text = out.read_text(encoding="utf-8")
    _assert_blocked(listeners, targets, text)
    (server,) = json.loads(text)["servers"]
    probe = next(t["probe"] for t in server["tools"] if t["name"] == "read_status")
    assert probe["verdict"] == "confirmed"
    observed = probe["evidence"]["observed"]
    connects = {o["target"] for o in observed if o.get("kind") == "connect"}
    assert _expected_addresses(listeners, targets) <= connects
    hidden = {o["target"] for o in observed if o.get("kind") == "hidden-read"}
    assert targets["secret"] in hidden
    written = {o.get("target") or o.get("path") for o in observed
               if o.get("kind") == "write" or o.get("change") == "created"}  # fmt: skip
    for path in targets["writes"]:
        # /tmp inside the lab is the lab's own TMPDIR: a write there landed there, witnessed.
        inside = f"$TMPDIR{path[4:]}" if path.startswith("/tmp/") else path
        assert {path, inside} & written, f"the write to {path} was not reported"
    rules = {f["rule_id"] for f in server["findings"] if f["tool"] == "read_status"}
    assert {"TW-LAB-001", "TW-LAB-004", "TW-LAB-009"} <= rules
    answer = probe["evidence"]["tries"][0]["answer"]  # an excerpt of what the tool saw
    for kind in ("unix", "abstract", "tcp"):
        assert f'"{kind}": "blocked' in answer


def test_live_sandbox_blocks_and_reports_every_escape(tmp_path: Path, listeners: Listeners) -> None:
    require_tools("bwrap", "strace")
    targets = _targets(tmp_path, listeners)
    out = tmp_path / "scan.json"
    command = shlex.join(
        [sys.executable, str(SERVER), "startup", str(listeners.folder), json.dumps(targets)]
    )
    code = main(["scan", "--live", "--sandbox", "-f", "json", "-o", str(out), "--stdio", command])
    assert code == 0
    text = out.read_text(encoding="utf-8")
    _assert_blocked(listeners, targets, text)
    (server,) = json.loads(text)["servers"]
    (finding,) = [f for f in server["findings"] if f["rule_id"] == "TW-LAB-008"]
    assert finding["tool"] is None and finding["severity"] == "medium"
    reported = {w["detail"].split(": ", 1)[0] for w in finding["witnesses"]}
    for address in _expected_addresses(listeners, targets):
        assert f"connect {address}" in reported
    assert f"hidden-read {targets['secret']}" in reported
    for path in targets["writes"]:
        assert f"write {path}" in reported, f"the write to {path} was not reported"
    assert server["score"] < 100
    # What the server itself saw: the socket, abstract and TCP attempts failed.
    seen = json.loads(server["tools"][0]["description"])
    assert {seen[k].split(":")[0] for k in ("unix", "abstract", "tcp")} == {"blocked"}
